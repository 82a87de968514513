"""Which seats have a live connection, shared by every server process through the database."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from django.utils import timezone

from .models import Connection, Seat, Table

TIMEOUT: Final = timedelta(seconds=60)
"""Clients ping every 20 s; a connection silent for longer than this no longer counts."""


def arrive(table: Table, seat: int | None, channel: str) -> None:
    Connection.objects.update_or_create(
        channel=channel, defaults={"table_id": table.pk, "seat": seat, "seen": timezone.now()}
    )
    if seat is not None:
        Seat.objects.filter(table=table, index=seat).exclude(away_since=None).update(
            away_since=None
        )


def refresh(channel: str) -> None:
    Connection.objects.filter(channel=channel).update(seen=timezone.now())


def leave(channel: str) -> None:
    """Forget the connection; a seat left without any notes since when it is away (how long
    the seat to move has been absent decides whether a computer may stand in for it)."""
    row = Connection.objects.filter(channel=channel).values_list("table_id", "seat").first()
    Connection.objects.filter(channel=channel).delete()
    if row is None:
        return
    table_id, seat = row
    if seat is None:
        return
    now = timezone.now()
    if not Connection.objects.filter(
        table_id=table_id, seat=seat, seen__gte=now - TIMEOUT
    ).exists():
        Seat.objects.filter(table_id=table_id, index=seat).update(away_since=now)


def connected_seats(table: Table) -> set[int]:
    return {
        seat
        for seat in Connection.objects.filter(
            table=table, seat__isnull=False, seen__gte=timezone.now() - TIMEOUT
        ).values_list("seat", flat=True)
        if seat is not None
    }


def summary(code: str) -> list[dict[str, object]]:
    """Each seat of the table and whether it is connected."""
    table = Table.objects.filter(code=code).first()
    return [] if table is None else summary_of(table)


def summary_of(table: Table) -> list[dict[str, object]]:
    """Each seat: connected or not, and for how many seconds it has had no connection."""
    connected = connected_seats(table)
    now = timezone.now()
    rows = Seat.objects.filter(table=table).values_list("index", "away_since", "joined")
    return [
        {
            "seat": index,
            "connected": index in connected,
            "away_seconds": 0 if index in connected else away(now, away_since or joined),
        }
        for index, away_since, joined in rows
    ]


def away(now: datetime, since: datetime) -> int:
    """Whole seconds from ``since`` to ``now`` (never negative)."""
    return max(0, int((now - since).total_seconds()))
