"""Hourly limits per client address on the HTTP actions that create rows: tables and seats.

Counts live in Django's cache (``CACHES``): in the process's memory by default, in Redis when
``REDIS_URL`` is set, so that every server process shares them. A count covers one clock hour (a
fixed window): simple and cheap, at the price of letting up to twice the limit through around the
turn of an hour.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 3600


@dataclass(frozen=True)
class HourlyLimit:
    """At most ``per_hour`` uses of ``action`` per client address and clock hour."""

    action: str
    per_hour: int

    def allow(self, request: HttpRequest) -> bool:
        """Count one use by the request's client; False if that goes past the limit."""
        window = int(time.time()) // WINDOW_SECONDS
        key = f"limit:{self.action}:{client_address(request)}:{window}"
        # add() is atomic and only sets a missing key; incr() is atomic on both backends.
        if cache.add(key, 1, timeout=WINDOW_SECONDS + 60):
            used = 1
        else:
            try:
                used = cache.incr(key)
            except ValueError:  # expired between add() and incr()
                cache.add(key, 1, timeout=WINDOW_SECONDS + 60)
                used = 1
        return used <= self.per_hour


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR, which Daphne takes from X-Forwarded-For when started with --proxy-headers."""
    return request.META.get("REMOTE_ADDR") or "unknown"
