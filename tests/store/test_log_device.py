"""The log's ``device`` column, added while games run: the previous release's inserts name no
device, and the database fills in its own default (docs/deployment.md: a release's migrations
work with the previous release's code)."""

from __future__ import annotations

import pytest
from django.db import connection

from game.models import LogEntry
from game.services.lobby import create_table

pytestmark = pytest.mark.django_db


def test_an_insert_that_names_no_device_gets_an_empty_one() -> None:
    table, _host = create_table(
        preset="c2-hig", mode="tabletop", seats=2, name="Ann", colour="blue"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO game_logentry"
            ' (table_id, "index", action, events, command_id, automatic, created)'
            " VALUES (%s, 0, '{}', '[]', 'old-release', %s, %s)",
            [table.id, False, "2026-01-01 00:00:00"],
        )
    assert LogEntry.objects.get(table=table, command_id="old-release").device == ""
