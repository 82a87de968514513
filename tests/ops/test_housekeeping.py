"""``manage.py housekeeping`` removes stale connections and abandoned tables, and nothing else."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from game.models import Connection, LogEntry, Seat, Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def _table(status: str, idle: timedelta) -> Table:
    table, ann = create_table(preset="c2-hig", mode="tabletop", name="Ann", colour="blue")
    if status != "lobby":
        join_table(table.code, name="Bob", colour="orange")
        start_game(table.code, ann.token)
        submit_command(table.code, 0, 0, f"c-{table.code}", {"type": "score", "points": 3})
    if status == "finished":
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    Table.objects.filter(pk=table.pk).update(updated=timezone.now() - idle)
    return table


def _connection(table: Table, name: str, silent: timedelta) -> None:
    Connection.objects.create(table=table, seat=0, channel=name, seen=timezone.now() - silent)


def test_only_what_is_idle_past_its_limit_is_removed() -> None:
    old_lobby, new_lobby = _table("lobby", 8 * DAY), _table("lobby", 6 * DAY)
    old_game, new_game = _table("playing", 31 * DAY), _table("playing", 29 * DAY)
    old_done, new_done = _table("finished", 366 * DAY), _table("finished", 364 * DAY)
    _connection(new_game, "dead", timedelta(minutes=11))
    _connection(new_game, "live", timedelta(seconds=20))

    dry = io.StringIO()
    call_command("housekeeping", "--dry-run", stdout=dry)
    assert "would remove: 1 stale connection(s)" in dry.getvalue()
    assert Table.objects.count() == 6 and Connection.objects.count() == 2

    out = io.StringIO()
    call_command("housekeeping", stdout=out)
    assert "removed: 1 stale connection(s)" in out.getvalue()
    assert "1 lobby(ies)" in out.getvalue() and "1 unfinished game(s)" in out.getvalue()
    assert "1 finished game(s)" in out.getvalue()
    kept = set(Table.objects.values_list("code", flat=True))
    assert kept == {new_lobby.code, new_game.code, new_done.code}
    assert list(Connection.objects.values_list("channel", flat=True)) == ["live"]
    gone = [old_lobby.pk, old_game.pk, old_done.pk]
    assert not Seat.objects.filter(table_id__in=gone).exists()
    assert not LogEntry.objects.filter(table_id__in=gone).exists()
    assert LogEntry.objects.filter(table=new_game).count() == 1
