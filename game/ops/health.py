"""``/healthz``: whether this process can do what every request needs.

A load balancer or a monitor asks it every few seconds: it answers 200 only when

* ``database``: the database takes a write and commits it (below);
* ``channel_layer``: a message sent through the channel layer comes back (over Redis, when
  ``REDIS_URL`` is set);
* ``static_files``: with DEBUG off, the manifest of the collected static files
  (``STATIC_ROOT/staticfiles.json``) is still there: without it no page can name its files;

and 503 naming what failed otherwise. It reads no table, reveals nothing about games, and names
no host, port or message: those go to the server's log.

**Why a committed write.** A database that answers queries may still refuse every move: a hot
standby after a failover, ``default_transaction_read_only``, a full disk. ``SELECT 1`` sees none
of these. ``pg_is_in_recovery()`` and ``SHOW transaction_read_only`` see the first two only, and
only on PostgreSQL. A write inside a transaction that is rolled back need not reach the disk at
all: PostgreSQL flushes the write-ahead log at commit. So the check updates the one row of
``HealthCheck`` and commits, as a move does: one small UPDATE and one flush per check, which a
read-only database refuses (``ReadOnlySqlTransaction``), and which fails like a move when the
disk cannot take the log (the database then stops or answers ``DiskFull``). A full disk that
only stops tables from growing (new pages for the log entries) is not seen by a row updated in
place: the disk's own alert (deploy/prometheus/alerts.yml) covers that before it happens. The
same code runs on SQLite, where a read-only file fails the same way.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core.files.storage import storages
from django.db import DatabaseError, transaction
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from game.models import HealthCheck
from messengers.staticfiles import missing_manifest
from messengers.version import VERSION

logger = logging.getLogger(__name__)

CHECK_SECONDS: Final = 3.0
"""How long each check may take before it counts as failed."""

ROW: Final = 1
"""The primary key of the one row the check writes."""

REFUSED_WRITE_SQLSTATES: Final = ("25006", "53")
"""PostgreSQL's read_only_sql_transaction, and the class "insufficient resources" (53100 is
disk_full): the database is there but takes no write."""


class CheckFailed(Exception):
    """A check's finding, answered as it is (``str(error)``): it names no host or secret."""


class WriteRefused(CheckFailed):
    """The database answered but refused the check's write."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"refuses writes ({reason})")


class ManifestMissing(CheckFailed):
    """STATIC_ROOT holds no manifest of the collected static files."""

    def __init__(self) -> None:
        super().__init__("missing (staticfiles.json)")


def _write_database() -> None:
    """Update the health row (creating it if missing) and commit."""
    try:
        with transaction.atomic():
            if not HealthCheck.objects.filter(pk=ROW).update(checked=timezone.now()):
                HealthCheck.objects.get_or_create(pk=ROW, defaults={"checked": timezone.now()})
    except DatabaseError as error:
        sqlstate = getattr(error.__cause__, "sqlstate", None) or ""
        if sqlstate.startswith(REFUSED_WRITE_SQLSTATES):
            raise WriteRefused(type(error.__cause__).__name__) from error
        raise


async def _static_files() -> None:
    """With DEBUG off and hashed static files, their manifest must be in STATIC_ROOT."""
    if settings.DEBUG or not isinstance(storages["staticfiles"], ManifestFilesMixin):
        return
    if missing_manifest(settings.STATIC_ROOT):
        raise ManifestMissing


async def _round_trip() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await layer.receive(channel)
    # The pub/sub layer (game/live/layers.py) keeps a channel subscribed until discarded.
    discard = getattr(layer, "discard_channel", None)
    if discard is not None:
        await discard(channel)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("the channel layer returned another message")


async def _check(name: str, probe: object) -> tuple[str, str]:
    try:
        await asyncio.wait_for(probe, CHECK_SECONDS)  # type: ignore[arg-type]
    except TimeoutError:
        return name, f"no answer within {CHECK_SECONDS:g} s"
    except CheckFailed as finding:
        cause = finding.__cause__
        detail = f": {_first_line(cause)}" if cause is not None else ""
        logger.warning("health check %s: %s%s", name, finding, detail)
        return name, str(finding)
    except Exception as error:
        # The details (hosts, ports, users) go to the server's log, not to whoever asks: one
        # line per failed check, since a monitor asks every few seconds.
        logger.warning(
            "health check %s failed: %s: %s", name, type(error).__name__, _first_line(error)
        )
        return name, f"failed ({type(error).__name__})"
    return name, "ok"


def _first_line(error: BaseException) -> str:
    return str(error).strip().split("\n", 1)[0]


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """200 with ``{"database": "ok", "channel_layer": "ok", "static_files": "ok"}``, or 503
    with what failed; either way with the running ``version``, so that an operator sees which
    release each process runs during a rolling upgrade."""
    results = dict(
        await asyncio.gather(
            _check("database", sync_to_async(_write_database)()),
            _check("channel_layer", _round_trip()),
            _check("static_files", _static_files()),
        )
    )
    healthy = all(value == "ok" for value in results.values())
    response = JsonResponse({**results, "version": VERSION}, status=200 if healthy else 503)
    # Each failed check logged its one line above; Django's "Service Unavailable: /healthz" at
    # ERROR would add another on every ask of the monitor.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response
