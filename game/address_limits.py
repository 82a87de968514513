"""Hourly limits per client address on the HTTP actions that create rows: tables and seats.

Counts live in Django's cache (``CACHES``): in the process's memory by default, in Redis when
``REDIS_URL`` is set, so that every server process shares them. A count covers one clock hour (a
fixed window): simple and cheap, at the price of letting up to twice the limit through around the
turn of an hour.

When Redis cannot be reached, ``allow`` raises ``ServiceUnreachable``: the action is neither
counted nor let through uncounted, and the visitor gets the 503 page (game/unavailable.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from .unavailable import REDIS_ERRORS, Service, ServiceUnreachable

WINDOW_SECONDS = 3600


@dataclass(frozen=True)
class HourlyLimit:
    """At most ``per_hour`` uses of ``action`` per client address and clock hour."""

    action: str
    per_hour: int

    def allow(self, request: HttpRequest) -> bool:
        """Count one use by the request's client; False if that goes past the limit.

        Raises ``ServiceUnreachable`` when the cache (Redis) cannot be reached.
        """
        return self.allow_address(client_address(request))

    def allow_address(self, address: str) -> bool:
        """``allow`` for a client known by its address (a websocket's, which has no request)."""
        window = int(time.time()) // WINDOW_SECONDS
        key = f"limit:{self.action}:{address}:{window}"
        try:
            return self._count(key) <= self.per_hour
        except REDIS_ERRORS as error:
            raise ServiceUnreachable(Service.REDIS) from error

    @staticmethod
    def _count(key: str) -> int:
        """The uses counted under ``key``, this one included."""
        # add() is atomic and only sets a missing key; incr() is atomic on both backends.
        if cache.add(key, 1, timeout=WINDOW_SECONDS + 60):
            used = 1
        else:
            try:
                used = cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.add(key, 1, timeout=WINDOW_SECONDS + 60)
                used = 1
        return used


def new_tables() -> HourlyLimit:
    """The limit on new tables, whichever way a table is made: the home page's form and "Play
    again" at a finished game count alike (finished tables are kept for a year)."""
    return HourlyLimit("create", settings.TABLES_PER_HOUR)


def too_many_tables(limit: HourlyLimit) -> str:
    """What a visitor past ``new_tables`` is told."""
    return (
        f"Too many new tables from your address: at most {limit.per_hour} an hour. "
        "Please wait a while, or join a table that already exists."
    )


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR, which Daphne takes from X-Forwarded-For when started with --proxy-headers."""
    return request.META.get("REMOTE_ADDR") or "unknown"
