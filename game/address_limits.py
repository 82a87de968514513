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
        window = int(time.time()) // WINDOW_SECONDS
        key = f"limit:{self.action}:{client_address(request)}:{window}"
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


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR, which Daphne takes from X-Forwarded-For when started with --proxy-headers."""
    return request.META.get("REMOTE_ADDR") or "unknown"
