"""The Redis pub/sub channel layer, telling its consumers when its subscriptions were restored.

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
from typing import Any, Final

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection

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
