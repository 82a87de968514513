"""The deployment's PostgreSQL connections stay within its pools under mixed load.

Under Daphne every HTTP request runs its view in a thread of its own, and a connection kept per
thread (``CONN_MAX_AGE`` above 0) stays open after its thread is gone: a few hundred requests
would fill PostgreSQL's ``max_connections`` (100 on Debian), after which pages answer 500 and
``migrate`` fails. Each process instead takes its connections from a bounded pool
(``DATABASE_POOL_MAX_SIZE``, messengers/settings.py).

The deployment of deploy/ (nginx in front of two Daphnes, tests/deploy_stack.py) gets 1,000
requests of every kind at once: table pages through nginx over https, ``/healthz`` and
``/metrics`` straight to each Daphne's loopback port, and scripted games whose seats place their
tiles over wss. Meanwhile, and after the load, the test counts PostgreSQL's client connections to
the deployment's database (``pg_stat_activity``): never more than the two pools' bound plus the
test's own counting connection. Every request must also have succeeded.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests import servers
from tests.deploy_stack import HOST_NAME, Deployment, https

pytestmark = pytest.mark.services

REQUESTS = 1000
"""Requests in all: HTTP requests, and the websocket games' starts and commands."""

GAMES = 8
"""Tables played to their end over wss (the deployment's fixed bag: ten turns each)."""

HTTP_WORKERS = 12
"""HTTP clients sending at once, beside the games: more than a pool's connections."""

SAMPLER_MARGIN = 1
"""The test's own connection to the deployment's database, which counts the others."""

SAMPLE_EVERY = 0.02
"""Seconds between two counts of the connections (a pace, not a limit on anything)."""

SAMPLES_AFTER = 25
"""Counts taken once every request has been answered (and the games' sockets closed)."""

TIMEOUT = 60.0
"""Seconds to wait for one answer; generous for a loaded 2-core machine."""


# --- counting PostgreSQL's connections ------------------------------------------------------


def database_name(url: str) -> str:
    """The database a postgres:// URL names."""
    return urlsplit(url).path.lstrip("/")


class ConnectionCounter:
    """Counts the client connections to one database, over one connection of its own."""

    def __init__(self, url: str) -> None:
        self.database = database_name(url)
        self.connection = psycopg.connect(url, autocommit=True)
        self.during: list[int] = []
        self.after: list[int] = []
        self._stop = threading.Event()

    def count(self) -> int:
        row = self.connection.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = %s AND backend_type = 'client backend'",
            [self.database],
        ).fetchone()
        assert row is not None
        return int(row[0])

    def run(self) -> None:
        """Count until stopped (in a thread of its own, during the load)."""
        while not self._stop.is_set():
            self.during.append(self.count())
            self._stop.wait(SAMPLE_EVERY)

    def stop(self) -> None:
        self._stop.set()

    def count_after(self) -> None:
        """SAMPLES_AFTER counts once the load is over, then the counting connection closes."""
        try:
            for _ in range(SAMPLES_AFTER):
                self.after.append(self.count())
                time.sleep(SAMPLE_EVERY)
        finally:
            self.connection.close()


def pool_bound(deployment: Deployment) -> int:
    """The most connections the deployment's processes may hold: processes x pool size."""
    return len(deployment.daphnes) * int(deployment.env["DATABASE_POOL_MAX_SIZE"])


# --- HTTP -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """One HTTP request of the mix: through nginx (https) or to one Daphne's own port."""

    kind: str
    path: str
    port: int | None = None
    """A Daphne's loopback port, or None for nginx."""


def http_requests(deployment: Deployment, codes: list[str], count: int) -> list[Request]:
    """`count` requests: half table pages through nginx, half /healthz and /metrics on each
    Daphne's own port, interleaved."""
    ports = [daphne.port for daphne in deployment.daphnes]
    made: list[Request] = []
    for index in range(count):
        if index % 2 == 0:
            made.append(Request("page", f"/t/{codes[(index // 2) % len(codes)]}"))
        else:
            port = ports[(index // 2) % len(ports)]
            path = "/healthz" if (index // 2) % 4 < 2 else "/metrics"
            made.append(Request(path.strip("/"), path, port))
    return made


def send_all(
    deployment: Deployment, requests: list[Request], source: str = "127.0.0.1"
) -> list[tuple[Request, int]]:
    """Send `requests` in turn over one https connection to nginx from the client address
    `source` and plain connections to the Daphnes (kept alive); each request with the status it
    got. Each client has an address of its own, as players do: nginx limits requests per
    address."""
    answered = []
    through_nginx = https(deployment, source)
    direct: dict[int, http.client.HTTPConnection] = {}
    try:
        for request in requests:
            if request.port is None:
                connection: http.client.HTTPConnection = through_nginx
            else:
                connection = direct.setdefault(
                    request.port,
                    http.client.HTTPConnection("127.0.0.1", request.port, timeout=TIMEOUT),
                )
            connection.request("GET", request.path)
            response = connection.getresponse()
            body = response.read()
            if request.kind == "healthz" and response.status == 200:
                assert {k: v for k, v in json.loads(body).items() if k != "version"} == {
                    "database": "ok",
                    "channel_layer": "ok",
                    "static_files": "ok",
                }
            answered.append((request, response.status))
    finally:
        through_nginx.close()
        for connection in direct.values():
            connection.close()
    return answered


# --- websocket games ------------------------------------------------------------------------


def choose(pending: dict[str, Any]) -> dict[str, Any]:
    """A legal command for the decision the game waits for (the first choice it lists)."""
    kind = pending["type"]
    if kind == "place_tile":
        spot = pending["placements"][0]
        return {
            "type": "place_tile",
            "x": spot["x"],
            "y": spot["y"],
            "rotation": spot["rotations"][0],
        }
    if kind == "place_follower":
        return {"type": "skip_follower"}
    if kind == "choose_figure":
        return {"type": "choose_figure", "figure": pending["options"][0]["figure"]}
    if kind == "resolve_message":
        return {"type": "resolve_message", "choice": "points"}
    raise AssertionError(f"the script plays board mode only, not {kind!r}")


async def receive_until(
    socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The first message `wanted` accepts, skipping others; a refusal fails the test."""

    async def scan() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if message.get("type") == "error":
                raise AssertionError(f"the server refused: {message}")
            if wanted(message):
                return message

    return await asyncio.wait_for(scan(), TIMEOUT)


def update_after(version: int) -> Callable[[dict[str, Any]], bool]:
    """Accepts the `update` that follows `version`."""
    return lambda message: message.get("type") == "update" and message["version"] > version


def tls_context() -> ssl.SSLContext:
    """The test's certificate is self-signed."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


async def play(deployment: Deployment, table: dict[str, Any]) -> int:
    """Both seats over wss through nginx: start the game, then each seat sends its decisions
    until the game ends. Returns the number of frames that asked for a change."""
    sockets = [
        await connect(
            f"wss://{HOST_NAME}:{deployment.https_port}/ws/t/{table['code']}",
            # The public name, as a browser whose DNS resolves it to this machine.
            host="127.0.0.1",
            port=deployment.https_port,
            server_hostname=HOST_NAME,
            ssl=tls_context(),
            additional_headers={"X-Seat-Token": token},
            origin=Origin(deployment.url),
            proxy=None,
            open_timeout=TIMEOUT,
        )
        for token in table["tokens"]
    ]
    try:
        for socket in sockets:
            await receive_until(socket, lambda m: m.get("type") == "snapshot")
        await sockets[0].send(json.dumps({"type": "start"}))
        started = await receive_until(
            sockets[0],
            lambda m: m.get("type") == "snapshot" and m["table"]["status"] == "playing",
        )
        sent = 1
        version, view = started["version"], started["view"]
        while not view["finished"]:
            pending = view["pending"]
            seat = pending["seat"] if pending["seat"] is not None else 0
            command = {"type": "command", "version": version, "id": f"c{sent}"}
            await sockets[seat].send(json.dumps({**command, "command": choose(pending)}))
            sent += 1
            # Both seats receive the update: reading both keeps neither socket's queue full.
            updates = [await receive_until(socket, update_after(version)) for socket in sockets]
            version, view = updates[seat]["version"], updates[seat]["view"]
        return sent
    finally:
        for socket in sockets:
            await socket.close()


# --- the test -------------------------------------------------------------------------------


def tables(deployment: Deployment, count: int) -> list[dict[str, Any]]:
    """`count` two-seat tables in the lobby, made by the lobby script with the deployment's
    environment (before the counting starts)."""
    return [servers.run_script(deployment.env, "tests.lobby_script") for _ in range(count)]


async def test_connections_stay_within_the_pools_under_mixed_load(
    deployment: Deployment,
) -> None:
    games = tables(deployment, GAMES)
    pages = tables(deployment, 4)
    codes = [table["code"] for table in pages]
    # Each game is a start and about 20 decisions; the HTTP requests make up the rest.
    http_count = REQUESTS - GAMES * 20
    mix = http_requests(deployment, codes, http_count)
    shares = [mix[worker::HTTP_WORKERS] for worker in range(HTTP_WORKERS)]

    counter = ConnectionCounter(deployment.env["DATABASE_URL"])
    sampler = threading.Thread(target=counter.run, daemon=True)
    sampler.start()
    try:
        answered_shares, game_frames = await asyncio.gather(
            asyncio.gather(
                *(
                    asyncio.to_thread(send_all, deployment, share, f"127.0.1.{n + 1}")
                    for n, share in enumerate(shares)
                )
            ),
            asyncio.gather(*(play(deployment, game) for game in games)),
        )
    finally:
        counter.stop()
        sampler.join(TIMEOUT)
        await asyncio.to_thread(counter.count_after)

    bound = pool_bound(deployment) + SAMPLER_MARGIN
    print(
        f"connections to the database: at most {max(counter.during, default=0)} in"
        f" {len(counter.during)} counts during the load, {counter.after} after; bound {bound}"
    )
    assert counter.during, "no count was taken during the load"
    above = [count for count in counter.during if count > bound]
    assert not above, (
        f"up to {max(counter.during)} connections during the load, above the pools' {bound}"
        f" in {len(above)} of {len(counter.during)} counts"
    )
    assert max(counter.after) <= bound, (
        f"{max(counter.after)} connections after the load, above the pools' {bound}"
        f" (counts: {counter.after})"
    )

    answered = [item for share in answered_shares for item in share]
    failed = [(request.kind, request.path, status) for request, status in answered if status != 200]
    assert not failed, f"{len(failed)} of {len(answered)} requests failed: {failed[:10]}"
    assert len(answered) + sum(game_frames) >= REQUESTS, (len(answered), game_frames)
