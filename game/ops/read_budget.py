"""A budget of server CPU time for the expensive reads, per table and per client address.

A correction's preview, the host's list of entries, a history page, a sync and the story each
cost work that grows with the game (tens of milliseconds at a long tabletop game), and nothing
in the game itself limits how often a client asks for them: one host previewing in a loop took
a whole core from every other table of the process. So each such read draws on two token
buckets of CPU milliseconds, its table's and its client address's; both refill at
``READ_BUDGET_MS_PER_SECOND`` up to ``READ_BUDGET_BURST_MS``. A read is done only while both
hold something, and what it cost is taken from both afterwards (its cost is known only then; a
bucket may go below zero, and the next read waits until it has refilled above it). Past the
budget the read is refused (``OverBudget``) and nothing is done.

What is charged is the CPU time of the thread that did the read (``time.thread_time``), not its
wall time: wall time counts the waits for the GIL and the database, which grow with everyone
else's load, so an attacker's load would make an honest client's reads look costly and spend its
budget. Database work in another process (PostgreSQL) is not counted; the SQLite engine is, as it
runs in the thread.

The buckets live in the process's memory: each server process keeps its own (a table's reads all
go to one process, as nginx routes a table by its code; an address spread over processes gets a
budget in each). A bucket that has refilled is the same as none, so full ones are dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import Final, ParamSpec, TypeVar

from django.conf import settings
from django.utils.translation import ngettext

from game.ops import metrics

logger = logging.getLogger(__name__)

Key = tuple[str, str]
"""What a bucket belongs to: ("table", code) or ("address", client address)."""

MAX_BUCKETS: Final = 20_000
"""Buckets kept at most; past it the full ones go, then the oldest (a forgotten bucket starts
full again, so that costs at most one burst per address forgotten)."""

P = ParamSpec("P")
R = TypeVar("R")


class OverBudget(Exception):
    """A read refused because its table or its address spent its budget."""

    def __init__(self, key: Key, wait: float) -> None:
        super().__init__(f"{key[0]} {key[1]!r} over its read budget for {wait:.1f} s")
        self.key = key
        self.wait = wait
        """Seconds until the read would be allowed again."""


@dataclass(slots=True)
class _Bucket:
    level: float
    """Milliseconds left (negative: owed)."""
    at: float
    """When ``level`` was last brought up to date (``clock`` seconds)."""


class ReadBudget:
    """Token buckets of milliseconds, one per key, refilled at ``rate`` per second up to
    ``burst``. ``clock``: seconds, monotonic (a test passes its own)."""

    def __init__(
        self,
        rate: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        max_buckets: int = MAX_BUCKETS,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_buckets = max_buckets
        self._buckets: dict[Key, _Bucket] = {}
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def check(self, keys: Iterable[Key]) -> None:
        """Raise ``OverBudget`` if any of ``keys`` has nothing left."""
        if not self.enabled:
            return
        now = self.clock()
        with self._lock:
            for key in keys:
                level = self._level(key, now)
                if level <= 0:
                    raise OverBudget(key, (1 - level) / self.rate)

    def charge(self, keys: Iterable[Key], milliseconds: float) -> None:
        """Take ``milliseconds`` from each of ``keys``."""
        if not self.enabled or milliseconds <= 0:
            return
        now = self.clock()
        with self._lock:
            for key in keys:
                bucket = self._buckets.get(key)
                if bucket is None:
                    self._prune(now)
                    bucket = self._buckets[key] = _Bucket(self.burst, now)
                bucket.level = self._refilled(bucket, now) - milliseconds
                bucket.at = now

    def level(self, key: Key) -> float:
        """Milliseconds ``key`` has left now."""
        with self._lock:
            return self._level(key, self.clock())

    def _level(self, key: Key, now: float) -> float:
        bucket = self._buckets.get(key)
        return self.burst if bucket is None else self._refilled(bucket, now)

    def _refilled(self, bucket: _Bucket, now: float) -> float:
        return min(self.burst, bucket.level + max(0.0, now - bucket.at) * self.rate)

    def _prune(self, now: float) -> None:
        if len(self._buckets) < self.max_buckets:
            return
        for key in [k for k, b in self._buckets.items() if self._refilled(b, now) >= self.burst]:
            del self._buckets[key]
        while len(self._buckets) >= self.max_buckets:
            del self._buckets[next(iter(self._buckets))]


_budget: ReadBudget | None = None


def budget() -> ReadBudget:
    """The process's budget, made from the settings (again when they changed)."""
    global _budget
    rate, burst = settings.READ_BUDGET_MS_PER_SECOND, settings.READ_BUDGET_BURST_MS
    if _budget is None or (_budget.rate, _budget.burst) != (rate, burst):
        _budget = ReadBudget(rate, burst)
    return _budget


def reset(replacement: ReadBudget | None = None) -> None:
    """Start over with full buckets (from the settings, or ``replacement``) and no turns under
    way: for tests, each of which runs its own event loop."""
    global _budget
    _budget = replacement
    turns.forget()


class Turns:
    """Expensive reads of one client address run one at a time in a process.

    The budget bounds how much a client reads over a second; this bounds how much at once. Four
    sockets of one address previewing together ran four replays side by side on the thread pool,
    each holding the GIL in turn, and another table's commands waited behind all four (its p99
    went from 60 ms with one socket to 200 ms with four). A read waiting for its turn holds
    nothing but its frame, and each socket sends one frame at a time.
    """

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def turn(self, address: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(address, (asyncio.Lock(), 0))
        self._locks[address] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[address]
            if users == 1:
                del self._locks[address]  # nobody waits: forget the address
            else:
                self._locks[address] = (lock, users - 1)

    def forget(self) -> None:
        """Drop every address's lock (their event loop is gone)."""
        self._locks.clear()

    def waiting(self) -> int:
        """Addresses with a read under way or waiting (none kept once they are done)."""
        return len(self._locks)


turns = Turns()
"""The process's turns, shared by every socket."""


def keys(code: str, address: str) -> tuple[Key, Key]:
    return (("table", code), ("address", address))


thread_time: Callable[[], float] = time.thread_time
"""The clock a read's cost is measured with (seconds of this thread's CPU); a test swaps it."""


def measured(read: Callable[P, R], cost: list[float]) -> Callable[P, R]:
    """``read``, appending the milliseconds of CPU it took to ``cost`` (refused or not: a read
    that fails half-way did that work all the same). Runs in the thread that does the read."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        start = thread_time()
        try:
            return read(*args, **kwargs)
        finally:
            cost.append((thread_time() - start) * 1000)

    return run


def refusal(over: OverBudget) -> str:
    """What a person past the budget reads."""
    seconds = max(1, math.ceil(over.wait))
    if over.key[0] == "table":
        text = ngettext(
            "This table has asked the server for many previews, lists of entries or pages of"
            " history in a short time; please try again in %(count)s second.",
            "This table has asked the server for many previews, lists of entries or pages of"
            " history in a short time; please try again in %(count)s seconds.",
            seconds,
        )
    else:
        text = ngettext(
            "Your network has asked the server for many previews, lists of entries or pages of"
            " history in a short time; please try again in %(count)s second.",
            "Your network has asked the server for many previews, lists of entries or pages of"
            " history in a short time; please try again in %(count)s seconds.",
            seconds,
        )
    return text % {"count": seconds}


KINDS: Final = frozenset({"preview", "entries", "history", "sync", "story"})
"""The reads the budget covers (the metrics' ``kind`` label)."""


def refused(kind: str) -> None:
    """Count a read refused past the budget."""
    metrics.READS.labels(kind, "refused").inc()


def spent(kind: str, code: str, milliseconds: float) -> None:
    """Count a read done and its cost; log one that cost more than ``READ_SLOW_MS`` (its kind
    and table, nothing it read)."""
    metrics.READS.labels(kind, "done").inc()
    metrics.READ_CPU_SECONDS.labels(kind).inc(milliseconds / 1000)
    if milliseconds >= settings.READ_SLOW_MS:
        logger.warning("Read of %s at table %s took %.0f ms of CPU", kind, code, milliseconds)
