"""A command saved while Redis is frozen: every client still converges on the table's version.

Two Daphne processes share a private PostgreSQL and a private Redis. With the game started,
Redis is stopped (SIGSTOP) and a seat sends a command: it is committed to the database, but its
publication on the channel layer stalls (or fails, when the Redis client's timeout expires
first). Redis then resumes (SIGCONT). Scripted clients that follow the protocol (ping every
second, ``sync`` when an update leaves a gap or a ``pong`` shows a newer version, reconnect when
dropped) must all reach the version of the command.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from tests import servers

pytestmark = pytest.mark.services

FROZEN_SECONDS = 8.0
CONVERGE_SECONDS = 90.0
"""Generous: after Redis resumes, a client may have to reconnect with back-off."""


def _redis_pid(url: str) -> int:
    """The process of the private redis-server this module started (found by its port)."""
    port = url.rsplit(":", 1)[1].split("/")[0]
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        # redis-server rewrites its title to "redis-server 127.0.0.1:PORT".
        if parent == os.getpid() and b"redis-server" in cmdline and port.encode() in cmdline:
            return int(entry.name)
    raise AssertionError(f"no redis-server on port {port}")


@pytest.fixture(scope="module")
def cluster(postgres_url: str) -> Iterator[dict[str, Any]]:
    with ExitStack() as stack:
        redis_url = stack.enter_context(servers.private_redis())
        env = servers.project_env(
            DATABASE_URL=servers.create_database(postgres_url, "freeze"), REDIS_URL=redis_url
        )
        servers.migrate(env)
        table = servers.run_script(env, "tests.lobby_script")
        bases = [stack.enter_context(servers.daphne_server(env)) for _ in range(2)]
        yield {"bases": bases, "redis_pid": _redis_pid(redis_url), **table}


class ScriptedClient:
    """A websocket client that follows docs/protocol.md the way connection.js does."""

    def __init__(self, url: str, origin: str, token: str | None = None) -> None:
        self.url = url
        self.origin = origin
        self.headers = {"X-Seat-Token": token} if token else {}
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.socket: ClientConnection | None = None
        self.reconnects = 0

    async def open(self) -> None:
        self.socket = await connect(
            self.url, origin=Origin(self.origin), proxy=None, additional_headers=self.headers
        )

    async def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        await self.socket.send(json.dumps(message))

    async def step(self, seconds: float) -> None:
        """Read for ``seconds``, pinging every second; reconnect if the socket drops."""
        deadline = time.monotonic() + seconds
        next_ping = time.monotonic()
        while time.monotonic() < deadline:
            try:
                if self.socket is None:
                    await self.open()
                if time.monotonic() >= next_ping:
                    await self.send({"type": "ping"})
                    next_ping = time.monotonic() + 1.0
                text = await asyncio.wait_for(self.socket.recv(), 0.2)  # type: ignore[union-attr]
            except TimeoutError:
                continue
            except (ConnectionClosed, OSError):
                self.socket = None
                self.reconnects += 1
                await asyncio.sleep(0.5)
                continue
            await self.handle(json.loads(text))

    async def handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "snapshot":
            self.version = message["version"]
            self.view = message["view"]
        elif kind == "update":
            if self.version is not None and message["version"] <= self.version:
                return
            if self.version != message["from_version"]:
                await self.send({"type": "sync"})
                return
            self.version = message["version"]
            self.view = message["view"]
        elif kind == "pong":
            if self.version is not None and message["version"] > self.version:
                await self.send({"type": "sync"})
        elif kind == "error" and message["code"] == "stale":
            await self.send({"type": "sync"})


async def _run(cluster: dict[str, Any]) -> None:
    a, b = cluster["bases"]
    ws = "ws://{}/ws/t/{}".format
    code, tokens = cluster["code"], cluster["tokens"]
    ann = ScriptedClient(ws(a.removeprefix("http://"), code), a, tokens[0])
    bob = ScriptedClient(ws(b.removeprefix("http://"), code), b, tokens[1])
    watcher = ScriptedClient(ws(b.removeprefix("http://"), code), b)
    clients = [ann, bob, watcher]
    for client in clients:
        await client.open()
    await ann.send({"type": "start"})
    await asyncio.gather(*(client.step(3) for client in clients))
    assert [client.version for client in clients] == [0, 0, 0], [c.version for c in clients]
    assert ann.view is not None
    spot = ann.view["pending"]["placements"][0]
    move = {"type": "place_tile", "x": spot["x"], "y": spot["y"], "rotation": spot["rotations"][0]}

    pid = cluster["redis_pid"]
    os.kill(pid, signal.SIGSTOP)
    try:
        await ann.send({"type": "command", "version": 0, "id": "frozen-1", "command": move})
        await asyncio.gather(*(client.step(FROZEN_SECONDS) for client in clients))
    finally:
        os.kill(pid, signal.SIGCONT)

    deadline = time.monotonic() + CONVERGE_SECONDS
    while time.monotonic() < deadline:
        await asyncio.gather(*(client.step(1) for client in clients))
        if all(client.version == 1 for client in clients):
            break
    assert [client.version for client in clients] == [1, 1, 1]
    for client in clients:
        if client.socket is not None:
            await client.socket.close()


def test_every_client_converges_after_redis_froze_during_a_command(
    cluster: dict[str, Any],
) -> None:
    asyncio.run(_run(cluster))
