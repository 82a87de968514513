"""Which seats have a live connection, shared by every server process through the database."""

from __future__ import annotations

from datetime import timedelta
from typing import Final

from django.utils import timezone

from .models import Connection, Seat, Table

TIMEOUT: Final = timedelta(seconds=60)
"""Clients ping every 20 s; a connection silent for longer than this no longer counts."""


def arrive(table: Table, seat: int | None, channel: str) -> None:
    Connection.objects.update_or_create(
        channel=channel, defaults={"table_id": table.pk, "seat": seat, "seen": timezone.now()}
    )


def refresh(channel: str) -> None:
    Connection.objects.filter(channel=channel).update(seen=timezone.now())


def leave(channel: str) -> None:
    Connection.objects.filter(channel=channel).delete()


def connected_seats(table: Table) -> set[int]:
    return set(
        Connection.objects.filter(
            table=table, seat__isnull=False, seen__gte=timezone.now() - TIMEOUT
        ).values_list("seat", flat=True)
    )


def summary(code: str) -> list[dict[str, object]]:
    """Each seat of the table and whether it is connected."""
    table = Table.objects.filter(code=code).first()
    return [] if table is None else summary_of(table)


def summary_of(table: Table) -> list[dict[str, object]]:
    connected = connected_seats(table)
    indices = Seat.objects.filter(table=table).values_list("index", flat=True)
    return [{"seat": index, "connected": index in connected} for index in indices]
