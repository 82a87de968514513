"""Sockets opening and closing by the thousand leave nothing behind in Redis, the database or
the process.

One Daphne on a private Redis (the default pub/sub channel layer) and PostgreSQL, as in
production. 1,000 sockets, seated players and spectators, open and close in bursts of ten, as
pages do when a household reloads or a school's network drops. Afterwards the process holds no
more Redis subscriptions than before (each socket's own channel and its table's group), no
Connection row is left, and the server's memory is where it was after a warm-up.

channels-redis unsubscribes a consumer's channel only when a receive pending on it is cancelled;
sockets that closed together used to leave most of their subscriptions behind (87 of 100), held
until the process restarted.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from websockets.asyncio.client import connect
from websockets.typing import Origin

from tests import servers

pytestmark = pytest.mark.services

CYCLES = 1000
"""Sockets opened and closed in all."""

BURST = 10
"""Sockets that open together, then close together."""

WARM_UP = 200
"""Cycles before the memory is first read: the process's caches and pools fill up first."""

MEMORY_SLACK_BYTES = 16 * 1024 * 1024
"""How much the server's resident memory may grow over the 1,000 cycles after the warm-up.
A subscription, queue and consumer kept per socket would be several megabytes; the allocator's
own fragmentation stays well below this."""

TIMEOUT = 60.0


@dataclass(frozen=True)
class Server:
    daphne: servers.RestartableDaphne
    database_url: str
    redis_url: str
    tables: list[dict[str, Any]]


@pytest.fixture(scope="module")
def server(postgres_url: str, redis_url: str) -> Iterator[Server]:
    database_url = servers.create_database(postgres_url, "churn")
    env = servers.project_env(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        WS_MAX_PER_ADDRESS="100000",
        WS_CONNECT_BURST="100000",
    )
    servers.migrate(env)
    tables = servers.run_script(env, "tests.redis_tables_script", "5")
    with servers.restartable_daphne(env) as daphne:
        yield Server(daphne, database_url, redis_url, tables)


def _subscriptions(redis_url: str) -> int:
    """Redis channels with a subscriber: the sockets' own channels and the tables' groups."""
    client = redis.Redis.from_url(redis_url)
    try:
        return len(client.pubsub_channels("asgi*"))
    finally:
        client.close()


def _connection_rows(database_url: str) -> int:
    with psycopg.connect(database_url) as db:
        row = db.execute("SELECT count(*) FROM game_connection").fetchone()
    return int(row[0]) if row else 0


def _resident_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


async def _cycle(server: Server, n: int) -> None:
    """Open one socket (a seat or a spectator), wait for its snapshot, and close it."""
    table = server.tables[n % len(server.tables)]
    token = table["tokens"][n % 3] if n % 3 < 2 else None
    socket = await connect(
        f"ws://{server.daphne.url.removeprefix('http://')}/ws/t/{table['code']}",
        additional_headers={"X-Seat-Token": token} if token else None,
        origin=Origin(server.daphne.url),
        proxy=None,
        open_timeout=TIMEOUT,
        compression=None,
    )
    try:
        while json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))["type"] != "snapshot":
            pass
    finally:
        await socket.close()


async def _churn(server: Server, cycles: int, start: int) -> None:
    for first in range(start, start + cycles, BURST):
        await asyncio.gather(*(_cycle(server, n) for n in range(first, first + BURST)))


async def _settled(server: Server, subscriptions: int) -> tuple[int, int]:
    """Wait until the clean-ups of the last closes have run; (subscriptions, rows) then."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while True:
        now = (
            await asyncio.to_thread(_subscriptions, server.redis_url),
            await asyncio.to_thread(_connection_rows, server.database_url),
        )
        if now == (subscriptions, 0) or asyncio.get_running_loop().time() > deadline:
            return now
        await asyncio.sleep(0.2)


async def test_a_thousand_sockets_come_and_go_and_leave_nothing(server: Server) -> None:
    process = server.daphne.process
    assert process is not None
    subscriptions = await asyncio.to_thread(_subscriptions, server.redis_url)
    await _churn(server, WARM_UP, 0)
    assert await _settled(server, subscriptions) == (subscriptions, 0)
    memory = _resident_bytes(process.pid)

    await _churn(server, CYCLES, WARM_UP)
    assert await _settled(server, subscriptions) == (subscriptions, 0)
    grown = _resident_bytes(process.pid) - memory
    assert grown < MEMORY_SLACK_BYTES, f"the server grew by {grown // 1024} KiB"
    log = server.daphne.log_path.read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]
