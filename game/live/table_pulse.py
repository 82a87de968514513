"""What a ``pong`` tells, read once per table and ``PING_READ_SECONDS`` in this process.

Every ping is answered with the table's version (a page behind it missed an update and resyncs), and
may wake an idle computer game (game/services/computers.py). Read for every ping, twenty sockets
pinging one table as fast as they may cost the database a read each; now the sockets of one table
share one read per interval, and pings that arrive while it runs wait for it.

A cached version may be older than one a page already holds: the page resyncs only on a newer
one (the page's connection.js), so an older version does nothing. A version this process applied
itself raises the cached one at once (``note``), so its own pages are never told less than they
were sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import Exists, OuterRef

from game.models import Seat, Table


@dataclass(frozen=True, slots=True)
class Pulse:
    """The table's row as a ping needs it."""

    version: int
    status: str
    updated: datetime | None
    has_computer: bool


@dataclass(frozen=True, slots=True)
class Reading:
    """One ping's answer: the pulse (None: no such table), and whether this ping read it from
    the database (only such a ping considers waking the computers, once per interval)."""

    pulse: Pulse | None
    fresh: bool


def read(code: str) -> Pulse | None:
    """The table's pulse from the database: one query."""
    row = (
        Table.objects.filter(code=code)
        .annotate(
            has_computer=Exists(Seat.objects.filter(table=OuterRef("pk")).exclude(computer=""))
        )
        .values_list("version", "status", "updated", "has_computer")
        .first()
    )
    if row is None:
        return None
    version, status, updated, has_computer = row
    return Pulse(version, status, updated, has_computer)


@dataclass(frozen=True, slots=True)
class _Entry:
    pulse: Pulse | None
    read_at: float


class PulseCache:
    """Pulses of the tables pinged lately, each kept ``seconds()`` after its read."""

    PURGE_ABOVE = 256
    """Entries kept before expired ones are dropped (on the next read)."""

    def __init__(
        self,
        reader: Callable[[str], Awaitable[Pulse | None]],
        seconds: Callable[[], float],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._reader = reader
        self._seconds = seconds
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self._reading: dict[str, asyncio.Task[Pulse | None]] = {}
        self._noted: dict[str, int] = {}
        """Versions applied here while the table's read ran."""

    async def get(self, code: str) -> Reading:
        entry = self._entries.get(code)
        if entry is not None and self._clock() - entry.read_at < self._seconds():
            return Reading(entry.pulse, fresh=False)
        running = self._reading.get(code)
        if running is not None and running.get_loop() is asyncio.get_running_loop():
            return Reading(await asyncio.shield(running), fresh=False)
        task = asyncio.ensure_future(self._read(code))
        self._reading[code] = task
        task.add_done_callback(lambda done: self._settle(code, done))
        return Reading(await asyncio.shield(task), fresh=True)

    async def _read(self, code: str) -> Pulse | None:
        started = self._clock()
        pulse = await self._reader(code)
        self._store(code, _Entry(pulse, started))
        return pulse

    def _settle(self, code: str, done: asyncio.Task[Pulse | None]) -> None:
        if self._reading.get(code) is done:
            del self._reading[code]
        if done.cancelled() or done.exception() is not None:  # retrieved: its pings were told
            self._noted.pop(code, None)

    def _store(self, code: str, entry: _Entry) -> None:
        if len(self._entries) >= self.PURGE_ABOVE:
            now, seconds = self._clock(), self._seconds()
            for old in [c for c, e in self._entries.items() if now - e.read_at >= seconds]:
                del self._entries[old]
        noted = self._noted.pop(code, None)
        if noted is not None and entry.pulse is not None and entry.pulse.version < noted:
            # Applied while the read ran (which may have read the row before it): not lost.
            entry = _Entry(replace(entry.pulse, version=noted), entry.read_at)
        self._entries[code] = entry

    def note(self, code: str, version: int) -> None:
        """This process applied ``version`` at the table: a cached older version is raised."""
        entry = self._entries.get(code)
        if entry is not None and entry.pulse is not None and entry.pulse.version < version:
            self._entries[code] = _Entry(replace(entry.pulse, version=version), entry.read_at)
        if code in self._reading:
            self._noted[code] = max(version, self._noted.get(code, version))

    def clear(self) -> None:
        self._entries.clear()
        self._noted.clear()


PULSES = PulseCache(database_sync_to_async(read), lambda: settings.PING_READ_SECONDS)
"""The one cache of this process."""
