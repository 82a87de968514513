"""Hourly limits per client address on the actions that create rows: tables and seats.

Counts live in the database (``AddressCount``), one row per action, address and clock hour, so
that every server process shares them and a restart of Redis or of the processes forgets
nothing: an address past its limit stays past it. The address is stored only as a keyed hash. A
count covers one clock hour (a fixed window): simple and cheap, at the price of letting up to
twice the limit through around the turn of an hour. ``manage.py housekeeping`` deletes the
hours that are over.

Each action the limit guards writes to the database anyway, so counting there costs one more
small write and needs no other service: with Redis away, tables can still be made and seats
taken (the pages then wait for Redis to play). A database that cannot be reached makes the
action fail with the 503 page (game/ops/unavailable.py), counted or not.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from game.models import AddressCount

WINDOW_SECONDS = 3600
_SALT = "game.ops.address_limits"


def current_window(now: float | None = None) -> int:
    """The clock hour ``now`` (a Unix time, the present by default) falls in."""
    return int(time.time() if now is None else now) // WINDOW_SECONDS


def hashed(address: str) -> str:
    """The address as it is stored: a keyed hash that cannot be turned back into it."""
    return salted_hmac(_SALT, address, algorithm="sha256").hexdigest()


@dataclass(frozen=True)
class HourlyLimit:
    """At most ``per_hour`` uses of ``action`` per client address and clock hour."""

    action: str
    per_hour: int

    def allow(self, request: HttpRequest) -> bool:
        """Count one use by the request's client; False if that goes past the limit."""
        return self.allow_address(client_address(request))

    def allow_address(self, address: str) -> bool:
        """``allow`` for a client known by its address (a websocket's, which has no request)."""
        return self.count(address) <= self.per_hour

    def count(self, address: str) -> int:
        """Count one use by ``address`` in the current hour; the uses so far, this one included.

        The increment is one UPDATE, atomic on every database; the first use of an hour inserts
        the row, and of two processes inserting it at once the loser counts by UPDATE again.
        """
        key = {"action": self.action, "address": hashed(address), "window": current_window()}
        row = AddressCount.objects.filter(**key)
        with transaction.atomic():
            if not row.update(count=F("count") + 1):
                try:
                    with transaction.atomic():
                        AddressCount.objects.create(**key, count=1)
                    return 1
                except IntegrityError:
                    row.update(count=F("count") + 1)
            return int(row.values_list("count", flat=True).get())


def new_tables() -> HourlyLimit:
    """The limit on new tables, whichever way a table is made: the home page's form and "Play
    again" at a finished game count alike (finished tables are kept for a year)."""
    return HourlyLimit("create", settings.TABLES_PER_HOUR)


def too_many_tables(limit: HourlyLimit) -> str:
    """What a visitor past ``new_tables`` is told."""
    return ngettext(
        "Too many new tables from your address: at most %(count)s an hour. Please wait a while,"
        " or join a table that already exists.",
        "Too many new tables from your address: at most %(count)s an hour. Please wait a while,"
        " or join a table that already exists.",
        limit.per_hour,
    ) % {"count": limit.per_hour}


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR, which Daphne takes from X-Forwarded-For when started with --proxy-headers."""
    return request.META.get("REMOTE_ADDR") or "unknown"
