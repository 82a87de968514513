"""The server's PostgreSQL connection pool at its limits: all connections busy, PostgreSQL
restarted.

* When every connection of a process's pool is in use for longer than DATABASE_POOL_TIMEOUT, a
  request waiting for one answers 503 with Retry-After and the log names the setting; it does not
  hang, and the server serves again as soon as connections come back.
* A PostgreSQL restart breaks every idle connection in the pool; the pool checks each before it
  hands it out, so the pages and the websocket command after the restart all succeed.

tests/deploy/test_deployment_connections.py checks that the pools bound the connections under load.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from tests import servers
from tests.live.test_redis_two_daphne import _first_placement, _is_snapshot, _receive_until

pytestmark = pytest.mark.services

POOL_MAX = 3
"""The smallest pool the settings accept with one computer thread: its thread, the websockets'
database thread and one page."""

TIMEOUT = 30.0
"""Seconds to wait for an answer; generous for a loaded 2-core machine."""


def get(base: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET `path` from the server at `base`: status, headers and body."""
    connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=TIMEOUT)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def waiting_on_lock(database_url: str, count: int) -> None:
    """Wait until `count` sessions of the database wait for a lock (each holds a pool connection),
    and fail if they do not within TIMEOUT."""
    query = (
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    deadline = time.monotonic() + TIMEOUT
    with psycopg.connect(database_url, autocommit=True) as connection:
        while time.monotonic() < deadline:
            row = connection.execute(query).fetchone()
            if row is not None and row[0] >= count:
                return
            time.sleep(0.05)
    raise AssertionError(f"fewer than {count} requests came to wait for the lock")


@pytest.fixture
def busy_server(postgres_url: str) -> Iterator[tuple[servers.RestartableDaphne, str, str]]:
    """A production-like Daphne whose pool holds POOL_MAX connections and waits 1 s for one;
    with a table in the lobby. Yields the server, its database URL and the table's code."""
    database_url = servers.create_database(postgres_url, "pool")
    env = servers.production_env(
        DATABASE_URL=database_url,
        DATABASE_POOL_MIN_SIZE="1",
        DATABASE_POOL_MAX_SIZE=str(POOL_MAX),
        DATABASE_POOL_TIMEOUT="1",
        MESSENGERS_COMPUTER_THREADS="1",
    )
    servers.migrate(env)
    table = servers.run_script(env, "tests.lobby_script")
    with servers.restartable_daphne(env) as server:
        yield server, database_url, table["code"]


async def test_a_request_that_finds_no_free_connection_answers_503(
    busy_server: tuple[servers.RestartableDaphne, str, str],
) -> None:
    """POOL_MAX page requests wait on a lock held by the test, each holding a connection; the
    next request gets 503 once the pool's timeout has passed. Then the lock goes, the waiting
    pages are served, and so is the next page."""
    server, database_url, code = busy_server
    page = f"/t/{code}"
    assert get(server.url, page)[0] == 200
    with psycopg.connect(database_url) as holder:
        holder.execute("LOCK TABLE game_table IN ACCESS EXCLUSIVE MODE")
        stuck = [
            asyncio.create_task(asyncio.to_thread(get, server.url, page)) for _ in range(POOL_MAX)
        ]
        await asyncio.to_thread(waiting_on_lock, database_url, POOL_MAX)
        status, headers, body = await asyncio.to_thread(get, server.url, page)
        assert status == 503, body[:300]
        assert headers["Retry-After"] == "10"
        assert b"The game server is busy right now; try again in a moment." in body
        holder.rollback()
    assert [answer[0] for answer in await asyncio.gather(*stuck)] == [200] * POOL_MAX
    assert get(server.url, page)[0] == 200
    log = server.log_path.read_text(errors="replace").splitlines()
    said = [line for line in log if "no free database connection" in line]
    assert len(said) == 1, log
    assert "within 1 s (all 3 of this process in use; DATABASE_POOL_MAX_SIZE" in said[0]
    assert code not in said[0], "the log line must not quote the path"


async def test_a_postgresql_restart_costs_no_failed_request() -> None:
    """The pool holds idle connections; PostgreSQL restarts (fast shutdown: every connection
    cut). Every page, /healthz and a websocket command afterwards succeed: each broken
    connection is found by the pool's check and replaced before anyone gets it."""
    with servers.restartable_postgres() as postgres:
        database_url = servers.create_database(postgres.url, "restart")
        env = servers.production_env(DATABASE_URL=database_url, DATABASE_POOL_MIN_SIZE="4")
        servers.migrate(env)
        table = servers.run_script(env, "tests.lobby_script")
        code, tokens = table["code"], table["tokens"]
        with servers.daphne_server(env) as base:
            socket = await connect(
                f"ws://{base.removeprefix('http://')}/ws/t/{code}",
                additional_headers={"X-Seat-Token": tokens[0]},
                origin=Origin(base),
                proxy=None,
                open_timeout=TIMEOUT,
            )
            try:
                await _receive_until(socket, _is_snapshot("lobby"))
                await socket.send(json.dumps({"type": "start"}))
                started = await _receive_until(socket, _is_snapshot("playing"))
                # Pages at once, so that the pool holds several connections, all broken below.
                before = await asyncio.gather(
                    *(asyncio.to_thread(get, base, f"/t/{code}") for _ in range(6))
                )
                assert [answer[0] for answer in before] == [200] * 6
                assert await asyncio.to_thread(open_connections, postgres.url, database_url) >= 4

                await asyncio.to_thread(postgres.restart)

                command: dict[str, Any] = {
                    "type": "command",
                    "version": started["version"],
                    "id": "after-restart",
                    "command": _first_placement(started["view"]),
                }
                await socket.send(json.dumps(command))
                update = await _receive_until(socket, lambda m: m.get("type") == "update")
                assert update["id"] == "after-restart"
                after = [await asyncio.to_thread(get, base, f"/t/{code}") for _ in range(6)]
                assert [answer[0] for answer in after] == [200] * 6
                status, _, body = await asyncio.to_thread(get, base, "/healthz")
                assert (status, json.loads(body)["database"]) == (200, "ok")
            finally:
                await socket.close()


def open_connections(server_url: str, database_url: str) -> int:
    """Client connections to the database of `database_url`, counted over the server's own
    maintenance database (so the count leaves the counting connection out)."""
    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(server_url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = %s AND backend_type = 'client backend'",
            [name],
        ).fetchone()
    assert row is not None
    return int(row[0])
