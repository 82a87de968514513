"""The three channel layers a server process can run on; ``CHANNEL_LAYER`` chooses one
(messengers/settings.py names its class here).

Each is a layer of Channels or channels-redis with one fix for what the original costs a busy
server, described in its section below. They share one module because they are one choice: a
change to how the table's group reaches its sockets is made, and read, for all three at once.

In memory (one process, no configuration)
-----------------------------------------

The in-memory channel layer, with its housekeeping done once a second instead of per message.

Channels' ``InMemoryChannelLayer`` walks every channel and every group membership looking for
expired entries on each ``receive`` and ``group_send``. With 800 connected seats that walk costs
more than the game itself, and it grows with every connection. Expiry is measured in seconds
(a minute for messages, a day for group membership), so doing the walk at most once a second
keeps its meaning and makes its cost independent of traffic.

Redis, over a bounded pool (``CHANNEL_LAYER=redis``)
----------------------------------------------------

The Redis channel layer over a bounded pool whose callers wait for a free connection.

channels-redis builds a plain ``redis.asyncio.ConnectionPool`` per event loop. That pool raises
``MaxConnectionsError`` the moment its limit is reached, so a burst of websockets connecting or
closing at once (each one adds or discards a group membership) fails with HTTP 500 or skips its
clean-up instead of waiting a few milliseconds. A ``BlockingConnectionPool`` of the same size
queues those callers until a connection is free, and still bounds the connections one process
opens to Redis (whose own limit, ``maxclients``, all processes share).

Everything else (timeouts, health checks, keepalive) is passed through from the host's
settings to each connection unchanged.

Redis pub/sub, the default with ``REDIS_URL`` (``CHANNEL_LAYER=redis-pubsub``)
------------------------------------------------------------------------------

The Redis pub/sub channel layer, telling its consumers when its subscriptions were restored.

channels-redis's ``RedisPubSubChannelLayer`` keeps group membership in the process and one
subscription per group in Redis. When the subscribed connection drops (Redis restarted, a
network cut), redis-py reconnects and subscribes again by itself, but whatever was published in
between never arrives: pub/sub keeps nothing for an absent subscriber. channels-redis 4.3 accepts
``on_disconnect`` and ``on_reconnect`` options and never calls them, so a consumer cannot know.

This layer notices the moment redis-py subscribes again on a new connection and puts a
``{"type": "layer.reconnected"}`` message into every channel of this process that belongs to a
group; the table consumer answers it with a fresh snapshot (``TableConsumer.layer_reconnected``),
so a page is never left behind by more than the time Redis was away.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Final

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection

CLEAN_INTERVAL: Final = 1.0
"""Seconds between two sweeps for expired messages and group memberships."""


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    """``InMemoryChannelLayer`` whose expiry sweep runs at most every ``CLEAN_INTERVAL``."""

    _last_clean: float = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_clean < CLEAN_INTERVAL:
            return
        self._last_clean = now
        super()._clean_expired()


class PooledRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """``RedisChannelLayer`` whose pools wait for a free connection instead of failing.

    Each host is a dict with ``address`` (a ``redis://`` URL), ``max_connections``, ``timeout``
    (seconds to wait for a free connection before ``ConnectionError``) and any keyword that
    ``redis.asyncio.Connection`` accepts.
    """

    def create_pool(self, index: int) -> BlockingConnectionPool:
        """A blocking pool for host ``index`` (channels-redis calls this once per event loop)."""
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address")
        return BlockingConnectionPool.from_url(address, **host)


logger = logging.getLogger(__name__)

RECONNECTED: Final = {"type": "layer.reconnected"}
"""What every grouped channel of the process receives once the subscriptions are back."""


class _ResubscribingPubSub(PubSub):  # type: ignore[misc]
    """A ``PubSub`` that reports each reconnection after it has subscribed again."""

    def __init__(self, *args: Any, on_resubscribed: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._on_resubscribed = on_resubscribed

    async def on_connect(self, connection: Connection) -> None:
        """redis-py calls this on every new connection; it subscribes again to the channels held
        before. Held channels mean the connection replaces a lost one (a first connection comes
        before any subscription is recorded)."""
        reconnecting = bool(self.channels)
        await super().on_connect(connection)
        if reconnecting:
            self._on_resubscribed()


class _Shard(RedisSingleShardConnection):  # type: ignore[misc]
    """One host's connections, with the ``PubSub`` above."""

    _redis: aioredis.Redis | None
    """The base class's connection (channels_redis ships no type information)."""

    def _ensure_redis(self) -> None:
        if self._redis is None:
            self._redis = aioredis.Redis(connection_pool=create_pool(self.host))
            self._pubsub = _ResubscribingPubSub(
                self._redis.connection_pool, on_resubscribed=self._resubscribed
            )

    def _resubscribed(self) -> None:
        """Queue ``RECONNECTED`` for every channel of this process that belongs to a group."""
        layer = self.channel_layer
        message = layer.channel_layer.serialize(RECONNECTED)
        grouped = set().union(*layer.groups.values()) if layer.groups else set()
        for name in grouped:
            queue = layer.channels.get(name)
            if queue is not None:
                queue.put_nowait(message)
        logger.warning(
            "Redis pub/sub connection restored; %d channels asked to resync", len(grouped)
        )


class _LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    """The per-event-loop layer, over ``_Shard`` connections."""

    def __init__(self, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(hosts, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    async def discard_channel(self, channel: str) -> None:
        """Forget a channel made by ``new_channel`` and drop its subscription.

        channels-redis unsubscribes a channel only when a ``receive`` on it is cancelled, as
        when a consumer ends; a caller that makes a channel, receives once and returns (the
        health check) would otherwise leave one subscription behind per call.
        """
        if self.channels.pop(channel, None) is not None:
            await self._get_shard(channel).unsubscribe(channel)


class ResyncingPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """``RedisPubSubChannelLayer`` whose consumers hear of a restored subscription."""

    def _get_layer(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
