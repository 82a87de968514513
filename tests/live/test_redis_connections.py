"""Websockets over the Redis channel layer stay up while idle and survive crowds coming and going.

Two Daphne processes share one private Redis and one private PostgreSQL, as in production. Idle
sockets (two seats and spectators, split between the processes) are held for two minutes without
sending a frame; meanwhile 500 sockets connect at once and then leave, and 2,000 sockets connected
beforehand close at once. Every one of the 500 must get its snapshot (no HTTP 500), every close
must clean up (its Connection row and its group membership in Redis gone: a sorted-set member
with the list layer, the process's subscription to the table once its last socket there left with
the pub/sub layer), no idle socket may be dropped, and afterwards the idle sockets still answer
and still hear the table across processes. It runs with the configured layer (CHANNEL_LAYER).

With the list layer, a Redis client whose socket timeout is not above its 5 s blocking pop closes
every idle socket within seconds; a pool that refuses callers once full fails bursts with HTTP
500 and skips clean-ups.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
import redis
from django.conf import settings
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from tests import servers

pytestmark = pytest.mark.services

IDLE_SECONDS = 120.0
"""How long the idle sockets are held with nothing but the pages' keep-alive: two minutes."""
PAGE_PING_SECONDS = 20.0
"""How often a page pings (connection.js)."""

IDLE_SPECTATORS = 18
"""Spectators held idle beside the two seats of the idle table."""

CONNECT_BURST = 500
"""Sockets that connect at the same moment."""

DISCONNECT_BURST = 2000
"""Sockets that close at the same moment."""

BURST_TABLES = 10
"""Tables each burst is spread over (as spectators, so no presence fan-out per connect)."""

OPEN_CONCURRENCY = 100
"""Handshakes in flight while the 2,000 are being connected (before they close at once)."""

TIMEOUT = 120.0
"""Seconds a handshake, a snapshot or a clean-up may take; generous for a loaded 2-core machine."""

GROUP_PREFIX = "asgi:group:"
"""channels-redis keeps a group's members in a sorted set under this prefix + group name."""
PUBSUB_GROUP_PREFIX = "asgi__group__"
"""Its pub/sub layer publishes a group's messages on the Redis channel of this prefix + name."""


@dataclass(frozen=True)
class Cluster:
    """Two Daphne processes, the URLs of their database and Redis, and lobby tables."""

    daphnes: list[servers.RestartableDaphne]
    database_url: str
    redis_url: str
    tables: list[dict[str, Any]]

    def socket_url(self, server: int, code: str) -> str:
        host = self.daphnes[server % 2].url.removeprefix("http://")
        return f"ws://{host}/ws/t/{code}"


@pytest.fixture(scope="module")
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    """A fresh database with 1 + 2 x BURST_TABLES lobby tables, served by two Daphnes."""
    database_url = servers.create_database(postgres_url, "redisconn")
    # The crowd all connects from 127.0.0.1: lift the per-address cap (docs/protocol.md, "Limits").
    env = servers.project_env(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        WS_MAX_PER_ADDRESS="100000",
        WS_CONNECT_BURST="100000",
    )
    servers.migrate(env)
    tables = servers.run_script(env, "tests.redis_tables_script", str(1 + 2 * BURST_TABLES))
    with ExitStack() as stack:
        daphnes = [stack.enter_context(servers.restartable_daphne(env)) for _ in range(2)]
        yield Cluster(daphnes, database_url, redis_url, tables)


async def _open(cluster: Cluster, server: int, code: str, token: str | None = None) -> Any:
    """Connect as a browser does and return the socket once its snapshot has arrived.

    No client-side pings: a browser sends none either, Daphne's own pings keep the socket alive.
    """
    base = cluster.daphnes[server % 2].url
    socket = await connect(
        cluster.socket_url(server, code),
        additional_headers={"X-Seat-Token": token} if token else None,
        origin=Origin(base),
        proxy=None,
        ping_interval=None,
        open_timeout=TIMEOUT,
        compression=None,
    )
    try:
        await asyncio.wait_for(_until_type(socket, "snapshot"), TIMEOUT)
    except BaseException:
        await socket.close()
        raise
    return socket


async def _until_type(socket: ClientConnection, kind: str) -> dict[str, Any]:
    """The first message of type `kind`, skipping others (history, presence)."""
    while True:
        message: dict[str, Any] = json.loads(await socket.recv())
        if message.get("type") == kind:
            return message


async def _watch(socket: ClientConnection, inbox: list[dict[str, Any]]) -> str:
    """Read an idle socket until it closes; return why it closed (the test expects never)."""
    try:
        async for raw in socket:
            inbox.append(json.loads(raw))
    except ConnectionClosed as closed:
        return f"closed: {closed}"
    return "closed cleanly by the server"


async def _keep_alive(socket: ClientConnection) -> None:
    """Ping every 20 s, as the pages do (connection.js): the flood guard closes a socket silent
    for longer (WS_SILENCE_SECONDS). A ping touches the database only, so the socket's channel
    layer connection to Redis stays as idle as before."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await asyncio.sleep(PAGE_PING_SECONDS)
            await socket.send(json.dumps({"type": "ping"}))


def _failures(results: list[Any]) -> Counter[str]:
    """How many of `results` are exceptions, by their first line."""
    return Counter(
        f"{type(result).__name__}: {str(result).splitlines()[0] if str(result) else ''}"
        for result in results
        if isinstance(result, BaseException)
    )


def _leftovers(cluster: Cluster, codes: list[str]) -> tuple[int, int]:
    """(Connection rows, Redis group members) still held by the tables `codes`."""
    with psycopg.connect(cluster.database_url) as db:
        row = db.execute(
            "SELECT count(*) FROM game_connection c JOIN game_table t ON c.table_id = t.id "
            "WHERE t.code = ANY(%s)",
            (codes,),
        ).fetchone()
    rows = int(row[0]) if row else 0
    client = redis.Redis.from_url(cluster.redis_url)
    try:
        members = sum(int(client.zcard(f"{GROUP_PREFIX}table.{code}")) for code in codes)
        # The pub/sub layer (CHANNEL_LAYER=redis-pubsub) keeps members in each process and one
        # subscription per process and group in Redis, dropped when its last member leaves.
        channels = [f"{PUBSUB_GROUP_PREFIX}table.{code}" for code in codes]
        members += sum(int(count) for _name, count in client.pubsub_numsub(*channels))
    finally:
        client.close()
    return rows, members


async def _until_clean(cluster: Cluster, codes: list[str]) -> tuple[int, int]:
    """Wait (up to TIMEOUT) for the tables' rows and group members to be gone; return what is
    left at the end, (0, 0) when the clean-up finished."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        left = await asyncio.to_thread(_leftovers, cluster, codes)
        if left == (0, 0) or time.monotonic() > deadline:
            return left
        await asyncio.sleep(0.5)


async def _connect_burst(cluster: Cluster, codes: list[str]) -> None:
    """CONNECT_BURST sockets connect at once; all get their snapshot; then all leave cleanly."""
    results = await asyncio.gather(
        *(_open(cluster, n, codes[n % len(codes)]) for n in range(CONNECT_BURST)),
        return_exceptions=True,
    )
    sockets = [result for result in results if not isinstance(result, BaseException)]
    await asyncio.gather(*(socket.close() for socket in sockets), return_exceptions=True)
    assert not _failures(results), f"connects that failed: {_failures(results)}"
    assert len(sockets) == CONNECT_BURST
    assert await _until_clean(cluster, codes) == (0, 0)


async def _disconnect_burst(cluster: Cluster, codes: list[str]) -> None:
    """DISCONNECT_BURST sockets, connected a hundred at a time, close at once; all clean up."""
    gate = asyncio.Semaphore(OPEN_CONCURRENCY)

    async def opened(n: int) -> Any:
        async with gate:
            return await _open(cluster, n, codes[n % len(codes)])

    results = await asyncio.gather(
        *(opened(n) for n in range(DISCONNECT_BURST)), return_exceptions=True
    )
    sockets = [result for result in results if not isinstance(result, BaseException)]
    assert not _failures(results), f"connects that failed: {_failures(results)}"
    rows, members = await asyncio.to_thread(_leftovers, cluster, codes)
    # The list layer holds one member per socket; the pub/sub layer holds them in each process
    # and one subscription per process and table in Redis.
    if settings.CHANNEL_LAYER == "redis-pubsub":
        expected = len({(n % 2, codes[n % len(codes)]) for n in range(DISCONNECT_BURST)})
    else:
        expected = DISCONNECT_BURST
    assert (rows, members) == (DISCONNECT_BURST, expected)

    closes = await asyncio.gather(*(socket.close() for socket in sockets), return_exceptions=True)
    assert not _failures(closes), f"closes that failed: {_failures(closes)}"
    assert await _until_clean(cluster, codes) == (0, 0)


async def test_idle_sockets_stay_up_while_crowds_connect_and_leave(cluster: Cluster) -> None:
    """Two minutes idle with no drop; 500 connects and 2,000 disconnects succeed and clean up."""
    idle_table = cluster.tables[0]
    connect_codes = [table["code"] for table in cluster.tables[1 : 1 + BURST_TABLES]]
    disconnect_codes = [table["code"] for table in cluster.tables[1 + BURST_TABLES :]]

    ann = await _open(cluster, 0, idle_table["code"], idle_table["tokens"][0])
    bob = await _open(cluster, 1, idle_table["code"], idle_table["tokens"][1])
    spectators = [await _open(cluster, n, idle_table["code"]) for n in range(IDLE_SPECTATORS)]
    idle = [ann, bob, *spectators]
    inboxes: list[list[dict[str, Any]]] = [[] for _ in idle]
    watchers = [
        asyncio.create_task(_watch(socket, inbox))
        for socket, inbox in zip(idle, inboxes, strict=True)
    ]
    pingers = [asyncio.create_task(_keep_alive(socket)) for socket in idle]
    held_since = time.monotonic()
    try:
        await _connect_burst(cluster, connect_codes)
        await _disconnect_burst(cluster, disconnect_codes)

        await asyncio.sleep(max(0.0, IDLE_SECONDS - (time.monotonic() - held_since)))
        dropped = [watcher.result() for watcher in watchers if watcher.done()]
        assert dropped == [], f"{len(dropped)} of {len(idle)} idle sockets dropped: {dropped[:3]}"

        # Still alive end to end: each answers a ping, and a start on process A reaches every
        # socket on both processes through Redis.
        for socket, inbox in zip(idle, inboxes, strict=True):
            inbox.clear()
            await socket.send(json.dumps({"type": "ping"}))
        await ann.send(json.dumps({"type": "start"}))
        deadline = time.monotonic() + TIMEOUT

        def heard(inbox: list[dict[str, Any]]) -> bool:
            kinds = {message.get("type") for message in inbox}
            started = any(
                message.get("type") == "snapshot" and message["table"]["status"] == "playing"
                for message in inbox
            )
            return "pong" in kinds and started

        while not all(heard(inbox) for inbox in inboxes) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        deaf = sum(not heard(inbox) for inbox in inboxes)
        assert deaf == 0, f"{deaf} idle sockets missed their pong or the start"
        assert not any(watcher.done() for watcher in watchers)
    finally:
        for task in [*watchers, *pingers]:
            task.cancel()
        await asyncio.gather(*(socket.close() for socket in idle), return_exceptions=True)

    for daphne in cluster.daphnes:
        log = daphne.log_path.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]
