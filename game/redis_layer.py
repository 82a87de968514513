"""The Redis channel layer over a bounded pool whose callers wait for a free connection.

channels-redis builds a plain ``redis.asyncio.ConnectionPool`` per event loop. That pool raises
``MaxConnectionsError`` the moment its limit is reached, so a burst of websockets connecting or
closing at once (each one adds or discards a group membership) fails with HTTP 500 or skips its
clean-up instead of waiting a few milliseconds. A ``BlockingConnectionPool`` of the same size
queues those callers until a connection is free, and still bounds the connections one process
opens to Redis (whose own limit, ``maxclients``, all processes share).

Everything else (timeouts, health checks, keepalive) is passed through from the host's
settings to each connection unchanged.
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


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
