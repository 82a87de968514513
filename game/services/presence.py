"""Which seats have a live connection, shared by every server process through the database.

Arrival and leave write at once. Pings do not: this process notes them in memory
(``presence_book.py``), and the live transport's writer (game/live/presence_writer.py) refreshes
the rows of the sockets that pinged in one query every ``PRESENCE_WRITE_SECONDS``, far below
``TIMEOUT``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Final

from django.utils import timezone

from game.models import Connection, Seat, Table
from game.services.presence_book import BOOK

TIMEOUT: Final = timedelta(seconds=60)
"""Clients ping every 20 s; a connection silent for longer than this no longer counts (its row
is refreshed up to ``PRESENCE_WRITE_SECONDS`` after its ping)."""

CHUNK: Final = 900
"""Channels named in one query at most (SQLite allows 999 parameters on older builds)."""


def arrive(table: Table, seat: int | None, channel: str) -> None:
    Connection.objects.update_or_create(
        channel=channel, defaults={"table_id": table.pk, "seat": seat, "seen": timezone.now()}
    )
    if BOOK.departed(channel):
        # The socket closed (its application was cancelled) while this row was being written:
        # its clean-up may have run already, so the row goes now.
        Connection.objects.filter(channel=channel).delete()
        return
    if seat is not None:
        Seat.objects.filter(table=table, index=seat).exclude(away_since=None).update(
            away_since=None
        )


def _chunks(channels: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(channels), CHUNK):
        yield channels[start : start + CHUNK]


def refresh(channels: Sequence[str]) -> int:
    """Note every connection of ``channels`` alive now: one UPDATE (per ``CHUNK`` channels).
    A channel whose row is gone (its socket closed meanwhile) is skipped, never written back."""
    now = timezone.now()
    return sum(
        Connection.objects.filter(channel__in=list(part)).update(seen=now)
        for part in _chunks(channels)
    )


def leave(channel: str) -> set[str]:
    """Forget the connection; see ``leave_all``."""
    return leave_all([channel])


def leave_all(channels: Sequence[str]) -> set[str]:
    """Forget the connections; a seat left without any notes since when it is away (how long
    the seat to move has been absent decides whether a computer may stand in for it). Returns the
    codes of the tables where a seat lost a connection (their presence changed)."""
    rows: list[tuple[int, int | None, str]] = []
    for part in _chunks(channels):
        found = Connection.objects.filter(channel__in=list(part))
        rows += found.values_list("table_id", "seat", "table__code")
        found.delete()
    now = timezone.now()
    codes = set()
    for table_id, seat, code in rows:
        if seat is None:
            continue
        codes.add(code)
        if not Connection.objects.filter(
            table_id=table_id, seat=seat, seen__gte=now - TIMEOUT
        ).exists():
            Seat.objects.filter(table_id=table_id, index=seat).update(away_since=now)
    return codes


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
    """Each seat: connected or not, for how many seconds it has had no connection, and in how
    many the others are offered a computer for it (``offer_in``)."""
    connected = connected_seats(table)
    now = timezone.now()
    rows = Seat.objects.filter(table=table).values_list("index", "away_since", "joined", "computer")
    seats: list[dict[str, object]] = []
    for index, away_since, joined, computer in rows:
        seconds = 0 if index in connected else away(now, away_since or joined)
        seats.append(
            {
                "seat": index,
                "connected": index in connected,
                "away_seconds": seconds,
                "offer_in": offer_in(table, index in connected, bool(computer), seconds),
            }
        )
    return seats


def offer_in(table: Table, connected: bool, computer: bool, away_seconds: int) -> int | None:
    """Seconds until the other players are offered a computer for a seat that has been away
    ``away_seconds`` (0: offered now, should it be the seat to move); None for a connected seat
    or one a computer plays. Decided here so that every page counts down to the same moment."""
    if connected or computer:
        return None
    return max(0, table.absent_after - away_seconds)


def away(now: datetime, since: datetime) -> int:
    """Whole seconds from ``since`` to ``now`` (never negative)."""
    return max(0, int((now - since).total_seconds()))
