"""CHANNEL_LAYER chooses the Redis channel layer; the pub/sub one resyncs after losing Redis.

The setting is read when the settings module is imported, so each case imports it in a fresh
interpreter with its own environment, as a server process would at start-up.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
import redis as redis_client
from channels.layers import BaseChannelLayer

from game.live.layers import RECONNECTED, ResyncingPubSubChannelLayer
from game.ops import health
from tests import servers

SHOW_LAYER = (
    "import json; from messengers import settings; "
    "print(json.dumps(settings.CHANNEL_LAYERS['default'], default=str))"
)


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings with ``env`` on top of the project's environment (and no
    CHANNEL_LAYER but the one in ``env``, whatever the test run has)."""
    environment = servers.child_env(servers.project_env(**env))
    if "CHANNEL_LAYER" not in env:
        environment.pop("CHANNEL_LAYER", None)
    return subprocess.run(
        [sys.executable, "-c", SHOW_LAYER],
        cwd=servers.ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def layer_with(**env: str) -> dict[str, object]:
    completed = settings_with(**env)
    assert completed.returncode == 0, completed.stderr
    layer: dict[str, object] = json.loads(completed.stdout)
    return layer


def test_without_redis_the_layer_is_in_memory() -> None:
    assert layer_with()["BACKEND"] == "game.live.layers.ThrottledInMemoryChannelLayer"


def test_pubsub_is_the_default_and_gets_the_connection_options() -> None:
    layer = layer_with(REDIS_URL="redis://127.0.0.1:6399/0", REDIS_SOCKET_TIMEOUT="12")
    assert layer == layer_with(
        REDIS_URL="redis://127.0.0.1:6399/0",
        REDIS_SOCKET_TIMEOUT="12",
        CHANNEL_LAYER="redis-pubsub",
    )
    assert layer["BACKEND"] == "game.live.layers.ResyncingPubSubChannelLayer"
    (host,) = layer["CONFIG"]["hosts"]  # type: ignore[index]
    assert host["address"] == "redis://127.0.0.1:6399/0"
    assert host["socket_timeout"] == 12.0
    assert host["socket_keepalive"] is True
    # A plain pool: BlockingConnectionPool's wait would be an unknown connection option.
    assert "timeout" not in host and "max_connections" not in host


def test_redis_lists_get_the_waiting_pool() -> None:
    layer = layer_with(
        REDIS_URL="redis://127.0.0.1:6399/0", CHANNEL_LAYER="redis", REDIS_MAX_CONNECTIONS="7"
    )
    assert layer["BACKEND"] == "game.live.layers.PooledRedisChannelLayer"
    (host,) = layer["CONFIG"]["hosts"]  # type: ignore[index]
    assert host["max_connections"] == 7
    assert host["timeout"] == 20.0


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"REDIS_URL": "redis://127.0.0.1:6399/0", "CHANNEL_LAYER": "pubsub"},
            "CHANNEL_LAYER must be one of redis, redis-pubsub, got 'pubsub'",
        ),
        (
            {"CHANNEL_LAYER": "redis-pubsub"},
            "CHANNEL_LAYER=redis-pubsub chooses a Redis channel layer: it needs REDIS_URL",
        ),
    ],
)
def test_a_bad_choice_stops_the_start_with_one_line(env: dict[str, str], message: str) -> None:
    completed = settings_with(**env)
    assert completed.returncode != 0
    assert completed.stderr.strip().splitlines()[-1].endswith(message)


async def receive(layer: BaseChannelLayer, channel: str) -> dict[str, object]:
    message: dict[str, object] = await asyncio.wait_for(layer.receive(channel), 20)
    return message


@pytest.mark.services
async def test_pubsub_layer_asks_its_grouped_channels_to_resync_after_a_redis_restart() -> None:
    with servers.restartable_redis() as redis:
        layer = ResyncingPubSubChannelLayer(hosts=[{"address": redis.url}])
        grouped = await layer.new_channel()
        alone = await layer.new_channel()
        await layer.group_add("table.ABCD", grouped)
        await layer.group_send("table.ABCD", {"type": "table.update", "n": 1})
        assert await receive(layer, grouped) == {"type": "table.update", "n": 1}

        redis.stop()
        redis.start()
        # The subscriptions come back by themselves, and the grouped channel hears of the gap.
        assert await receive(layer, grouped) == RECONNECTED
        await layer.group_send("table.ABCD", {"type": "table.update", "n": 2})
        assert await receive(layer, grouped) == {"type": "table.update", "n": 2}
        # A channel in no group (a health check's) has nothing to resync.
        await layer.send(alone, {"type": "healthz.ping"})
        assert await receive(layer, alone) == {"type": "healthz.ping"}
        await layer.flush()


@pytest.mark.services
async def test_the_health_check_leaves_no_subscription(monkeypatch: pytest.MonkeyPatch) -> None:
    with servers.restartable_redis() as redis:
        layer = ResyncingPubSubChannelLayer(hosts=[{"address": redis.url}])
        monkeypatch.setattr(health, "get_channel_layer", lambda: layer)
        for _ in range(3):
            await health._round_trip()
        client = redis_client.Redis.from_url(redis.url)
        try:
            assert client.pubsub_channels() == []
        finally:
            client.close()
        await layer.flush()
