"""Removing what nobody will come back to: dead connection rows and abandoned tables.

A process that dies leaves its ``Connection`` rows behind (presence ignores them after a minute,
but they stay); lobbies nobody started and games nobody finished stay for ever; finished games
are kept for their records, but not without end. ``manage.py housekeeping`` (run it from a timer)
deletes each kind once it has been idle for its setting's time, and the hourly counts per address
of the hours that are over. A table is idle since its last
change (``Table.updated``: a command, a join, the start).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.models import AddressCount, Connection, Table
from game.ops.address_limits import current_window


@dataclass(frozen=True, slots=True)
class Swept:
    """How many rows of each kind were (or, in a dry run, would be) removed."""

    connections: int
    lobbies: int
    unfinished: int
    finished: int
    counts: int = 0
    """Hourly counts per address (game/ops/address_limits.py) of hours that are over."""


def _older(days: int, now: datetime) -> datetime:
    return now - timedelta(days=days)


def sweep(*, dry_run: bool = False, now: datetime | None = None) -> Swept:
    """Delete stale connections and abandoned tables (with their seats, log and checkpoints)."""
    now = now or timezone.now()
    connections = Connection.objects.filter(
        seen__lt=now - timedelta(seconds=settings.STALE_CONNECTION_SECONDS)
    )
    lobbies = Table.objects.filter(
        status=Table.Status.LOBBY, updated__lt=_older(settings.ABANDONED_LOBBY_DAYS, now)
    )
    unfinished = Table.objects.filter(
        status=Table.Status.PLAYING, updated__lt=_older(settings.ABANDONED_GAME_DAYS, now)
    )
    finished = Table.objects.filter(
        status=Table.Status.FINISHED, updated__lt=_older(settings.FINISHED_KEEP_DAYS, now)
    )
    hours_over = AddressCount.objects.filter(window__lt=current_window(now.timestamp()))
    swept = Swept(
        connections=connections.count(),
        lobbies=lobbies.count(),
        unfinished=unfinished.count(),
        finished=finished.count(),
        counts=hours_over.count(),
    )
    if not dry_run:
        with transaction.atomic():
            for query in (connections, lobbies, unfinished, finished, hours_over):
                query.delete()
    return swept
