"""The admin shows tables, seats and the log, never lets staff edit them, and hides tokens."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.models import LogEntry, Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    User.objects.create_superuser("admin", "admin@example.com", "a long password 12")
    client = Client()
    client.login(username="admin", password="a long password 12")
    return client


def _started() -> tuple[Table, list[str]]:
    table, ann = create_table(preset="c2-hig", mode="tabletop", name="Ann", colour="blue")
    bob = join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    submit_command(table.code, 0, 0, "c1", {"type": "score", "points": 4})
    return Table.objects.get(pk=table.pk), [ann.token, bob.token]


def test_a_table_is_shown_read_only_without_its_tokens(staff: Client) -> None:
    table, tokens = _started()
    page = staff.get(f"/admin/game/table/{table.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert table.code in html and "Bob" in html
    for field in ("version", "status", "code", "preset"):
        assert f'name="{field}"' not in html
    assert all(token not in html for token in tokens)


def test_editing_a_table_or_the_log_is_refused(staff: Client) -> None:
    table, _ = _started()
    response = staff.post(
        f"/admin/game/table/{table.pk}/change/", {"version": "0", "status": "lobby"}
    )
    assert response.status_code == 403
    table.refresh_from_db()
    assert (table.version, table.status) == (1, "playing")
    entry = LogEntry.objects.get(table=table)
    assert (
        staff.post(f"/admin/game/logentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert staff.get("/admin/game/table/add/").status_code == 403
    assert LogEntry.objects.filter(table=table).count() == 1
