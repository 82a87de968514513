"""Two Daphne processes sharing one Redis and one PostgreSQL behave as one server.

A seat connected to process A and another connected to process B must hear of each other's
actions: the game start and every applied command reach the table's group through the Redis
channel layer, and the receiving process catches up on the state from the shared database.
"""

import asyncio
import json
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from messengers.version import VERSION
from tests import servers

pytestmark = pytest.mark.services

RECEIVE_TIMEOUT = 20.0
"""Seconds to wait for an expected message; generous for a loaded 2-core CI machine."""


@dataclass(frozen=True)
class Cluster:
    """Two running Daphne processes and a table in the lobby with two seats."""

    base_a: str
    base_b: str
    code: str
    tokens: list[str]
    database_url: str

    def websocket_url(self, base: str) -> str:
        """The table's websocket on `base`."""
        host = base.removeprefix("http://")
        return f"ws://{host}/ws/t/{self.code}"


@pytest.fixture(scope="module")
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    """Migrate a fresh database, seat two players, and run two Daphnes against it all."""
    database_url = servers.create_database(postgres_url, "daphnes")
    env = servers.project_env(DATABASE_URL=database_url, REDIS_URL=redis_url)
    servers.migrate(env)
    table = servers.run_script(env, "tests.lobby_script")
    with ExitStack() as stack:
        base_a = stack.enter_context(servers.daphne_server(env))
        base_b = stack.enter_context(servers.daphne_server(env))
        yield Cluster(base_a, base_b, table["code"], table["tokens"], database_url)


async def _open(cluster: Cluster, base: str, seat: int) -> ClientConnection:
    """Connect as a browser on `base` would (the origin check wants an Origin header)."""
    return await connect(
        cluster.websocket_url(base),
        additional_headers={"X-Seat-Token": cluster.tokens[seat]},
        origin=Origin(base),
        proxy=None,
        open_timeout=RECEIVE_TIMEOUT,
    )


async def _receive_until(
    websocket: ClientConnection, wanted: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The first message that `wanted` accepts, skipping others (presence, history, ...)."""
    seen: list[str] = []

    async def scan() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await websocket.recv())
            if wanted(message):
                return message
            seen.append(message.get("type", "?"))
            if message.get("type") == "error":
                raise AssertionError(f"server refused: {message}")

    try:
        return await asyncio.wait_for(scan(), RECEIVE_TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"no expected message; received only {seen}") from None


def _is_snapshot(status: str) -> Callable[[dict[str, Any]], bool]:
    """Accepts a `snapshot` whose table has `status`."""
    return lambda message: (
        message.get("type") == "snapshot" and message["table"]["status"] == status
    )


def _first_placement(view: dict[str, Any]) -> dict[str, Any]:
    """A legal first move, taken from the choices the server lists in `pending`."""
    waiting = view["pending"]
    assert waiting["type"] == "place_tile", waiting
    spot = waiting["placements"][0]
    return {"type": "place_tile", "x": spot["x"], "y": spot["y"], "rotation": spot["rotations"][0]}


async def test_start_and_command_cross_processes(cluster: Cluster) -> None:
    """Seat 0 on process A starts and moves; seat 1 on process B sees both at once."""
    ann = await _open(cluster, cluster.base_a, 0)
    bob = await _open(cluster, cluster.base_b, 1)
    try:
        first = await _receive_until(ann, _is_snapshot("lobby"))
        assert first["table"]["you"] == 0
        assert (await _receive_until(bob, _is_snapshot("lobby")))["table"]["you"] == 1

        await ann.send(json.dumps({"type": "start"}))
        started_a = await _receive_until(ann, _is_snapshot("playing"))
        started_b = await _receive_until(bob, _is_snapshot("playing"))
        version = started_a["version"]
        assert started_b["version"] == version
        assert started_b["view"]["pending"]["seat"] == 0

        command = _first_placement(started_a["view"])
        await ann.send(
            json.dumps({"type": "command", "version": version, "id": "ann-1", "command": command})
        )
        update = await _receive_until(bob, lambda m: m.get("type") == "update")
        assert update["from_version"] == version
        assert update["version"] == version + 1
        assert update["id"] == "ann-1"
        assert update["seat"] == 0
        assert "you" not in update["view"]
        assert update["view"]["version"] == version + 1
        own = await _receive_until(ann, lambda m: m.get("type") == "update")
        assert own["version"] == version + 1 and own == update

        # Process B serves the new state to a fresh request too: it catches up from the log.
        await bob.send(json.dumps({"type": "sync"}))
        synced = await _receive_until(bob, _is_snapshot("playing"))
        assert synced["version"] == version + 1
    finally:
        await ann.close()
        await bob.close()


def test_healthz_round_trips_through_redis_and_postgresql(cluster: Cluster) -> None:
    """Each process's /healthz queries PostgreSQL and sends itself a message through Redis."""
    for base in (cluster.base_a, cluster.base_b):
        with urllib.request.urlopen(f"{base}/healthz", timeout=RECEIVE_TIMEOUT) as response:
            assert response.status == 200
            assert json.loads(response.read()) == {
                "database": "ok",
                "channel_layer": "ok",
                "static_files": "ok",
                "version": VERSION,
            }


async def test_a_service_called_outside_any_server_reaches_every_page(
    cluster: Cluster, redis_url: str
) -> None:
    """A plain process (as a management command) starts a game and moves: the pages on both
    Daphne processes, the seats' and a spectator's, receive the start and the very same update,
    though no consumer took part (game/services/publish.py)."""
    env = servers.project_env(DATABASE_URL=cluster.database_url, REDIS_URL=redis_url)
    table = servers.run_script(env, "tests.lobby_script")
    other = Cluster(
        cluster.base_a, cluster.base_b, table["code"], table["tokens"], env["DATABASE_URL"]
    )
    ann = await _open(other, other.base_a, 0)
    bob = await _open(other, other.base_b, 1)
    watcher = await connect(
        other.websocket_url(other.base_b), origin=Origin(other.base_b), proxy=None
    )
    pages = (ann, bob, watcher)
    try:
        for page in pages:
            await _receive_until(page, _is_snapshot("lobby"))
        moved = await asyncio.to_thread(
            servers.run_script, env, "tests.publish_script", other.code, other.tokens[0]
        )
        assert moved["delivered"], moved
        # The start's snapshot is rebuilt per page while the update is passed on as it comes,
        # so the update may come first: the update is what every page must receive.
        updates = [
            await _receive_until(page, lambda m: m.get("type") == "update") for page in pages
        ]
        assert updates[0] == updates[1] == updates[2]
        assert updates[0]["version"] == moved["version"] and updates[0]["id"] == "script-1"
    finally:
        for page in pages:
            await page.close()
