"""``/healthz``: whether this process can reach what every request needs.

A load balancer or a monitor asks it every few seconds: it answers 200 only when the database
answers a query and a message sent through the channel layer comes back (over Redis, when
``REDIS_URL`` is set), and 503 naming what failed otherwise. It reads no table and reveals
nothing about games.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

logger = logging.getLogger(__name__)

CHECK_SECONDS: Final = 3.0
"""How long each check may take before it counts as failed."""


def _query_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _round_trip() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await layer.receive(channel)
    # The pub/sub layer (game/pubsub_layer.py) keeps a channel subscribed until discarded.
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
    except Exception as error:
        # The details (hosts, ports, users) go to the server's log, not to whoever asks.
        logger.warning("health check %s failed", name, exc_info=True)
        return name, f"failed ({type(error).__name__})"
    return name, "ok"


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """200 with ``{"database": "ok", "channel_layer": "ok"}``, or 503 with what failed."""
    results = dict(
        await asyncio.gather(
            _check("database", sync_to_async(_query_database)()),
            _check("channel_layer", _round_trip()),
        )
    )
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse(results, status=200 if healthy else 503)
