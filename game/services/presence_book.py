"""This process's table sockets, in memory: which pinged since their rows were last refreshed,
and which closed without their row removed yet.

A ping used to write its connection's row at once: a socket pinging 19 times a second cost 19 writes
a second, and twenty such sockets slowed every other table of the database. Now a ping only marks
its socket here; game/live/presence_writer.py refreshes the marked rows in one query every
``PRESENCE_WRITE_SECONDS``. Arrival and leave still write at once (they are rare, and a seat's
``away_since`` follows them).

A socket whose clean-up never ran (its application was cancelled, or the database failed during
the clean-up) stays here as departed until the writer has removed its row, so no row is left
behind for ``manage.py housekeeping`` to find ten minutes later.

The book is shared by the event loop (consumers, the writer) and the database threads
(``presence.arrive``): a lock guards it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Work:
    """What the writer has to do: rows to refresh, and rows of departed sockets to remove."""

    refresh: list[str]
    departed: list[str]


class PresenceBook:
    """The channels of this process's open table sockets."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[str, bool] = {}
        """Open sockets, each with whether it pinged since its row was last refreshed."""
        self._departed: dict[str, float] = {}
        """Closed sockets whose row may still be there, with when they closed (monotonic)."""

    def opened(self, channel: str) -> None:
        """A socket is about to note its arrival (its row is written next)."""
        with self._lock:
            self._live[channel] = False
            self._departed.pop(channel, None)

    def forget(self, channel: str) -> None:
        """A socket that never wrote a row (no such table): nothing to clean up."""
        with self._lock:
            self._live.pop(channel, None)

    def seen(self, channel: str) -> None:
        """A ping: the row is refreshed at the next write."""
        with self._lock:
            if channel in self._live:
                self._live[channel] = True

    def closing(self, channel: str, now: float | None = None) -> None:
        """The socket closes and its clean-up starts; until ``cleared``, its row counts as left
        behind (the writer removes it if the clean-up does not)."""
        with self._lock:
            if self._live.pop(channel, None) is not None:
                self._departed[channel] = time.monotonic() if now is None else now

    def cleared(self, channel: str) -> None:
        """The socket's clean-up removed its row."""
        with self._lock:
            self._departed.pop(channel, None)

    def ended(self, channel: str, now: float | None = None) -> None:
        """The socket's application ended, however: a socket still open here never ran its
        clean-up (the application was cancelled), and its row is the writer's to remove."""
        self.closing(channel, now)

    def departed(self, channel: str) -> bool:
        """Whether the socket has closed: an arrival written after that removes its own row."""
        with self._lock:
            return channel in self._departed

    def take(self, grace: float, now: float | None = None) -> Work:
        """The rows to refresh (their marks are cleared) and the departed sockets that closed at
        least ``grace`` seconds ago (their own clean-up has had its chance)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            refresh = [channel for channel, pinged in self._live.items() if pinged]
            for channel in refresh:
                self._live[channel] = False
            departed = [c for c, since in self._departed.items() if now - since >= grace]
        return Work(refresh=refresh, departed=departed)

    def again(self, refresh: list[str]) -> None:
        """A write that failed: refresh these rows at the next one (those still open)."""
        with self._lock:
            for channel in refresh:
                if channel in self._live:
                    self._live[channel] = True

    def removed(self, departed: list[str]) -> None:
        """The writer removed the rows of these departed sockets."""
        with self._lock:
            for channel in departed:
                self._departed.pop(channel, None)

    def idle(self) -> bool:
        """No open socket and nothing left to clean up: the writer may stop."""
        with self._lock:
            return not self._live and not self._departed

    def counts(self) -> tuple[int, int]:
        """(open sockets, departed sockets whose row may remain), for tests and logs."""
        with self._lock:
            return len(self._live), len(self._departed)


BOOK = PresenceBook()
"""The one book of this process."""
