"""Presence across two Daphne processes on one PostgreSQL and one Redis: a ping noted only in its
own process's memory still reaches the database within the write-through interval, so the other
process sees the seat connected; a socket's leave is written at once.

A row's age is set directly in the database to stand for a minute of silence, so that nothing
here waits for the 60 s presence timeout.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests import servers

pytestmark = pytest.mark.services

RECEIVE_TIMEOUT = 30.0
"""Seconds to wait for an expected state; generous for a loaded 2-core CI machine."""


@dataclass
class Cluster:
    database_url: str
    a: servers.RestartableDaphne
    b: servers.RestartableDaphne
    code: str
    tokens: list[str]


@pytest.fixture
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    database_url = servers.create_database(postgres_url, "presence")
    env = servers.project_env(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        MESSENGERS_PRESENCE_WRITE_SECONDS="1",
    )
    servers.migrate(env)
    (table,) = servers.run_script(env, "tests.redis_tables_script", "1")
    with ExitStack() as stack:
        a = stack.enter_context(servers.restartable_daphne(env))
        b = stack.enter_context(servers.restartable_daphne(env))
        yield Cluster(database_url, a, b, table["code"], table["tokens"])


async def _open(cluster: Cluster, base: str, seat: int) -> ClientConnection:
    return await connect(
        f"ws://{base.removeprefix('http://')}/ws/t/{cluster.code}",
        additional_headers={"X-Seat-Token": cluster.tokens[seat]},
        origin=Origin(base),
        proxy=None,
        open_timeout=RECEIVE_TIMEOUT,
    )


async def _next(
    socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    async def scan() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if wanted(message):
                return message

    return await asyncio.wait_for(scan(), RECEIVE_TIMEOUT)


def _sql(cluster: Cluster, query: str, *params: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(cluster.database_url) as db:
        return db.execute(query, params).fetchall()  # type: ignore[arg-type]


def _age_of_anns_row(cluster: Cluster) -> float:
    """Seconds since Ann's connection row was last refreshed."""
    ((age,),) = _sql(
        cluster,
        "SELECT extract(epoch FROM now() - c.seen) FROM game_connection c"
        " JOIN game_table t ON t.id = c.table_id WHERE t.code = %s AND c.seat = 0",
        cluster.code,
    )
    return float(age)


async def _anns_seat_as_bob_sees_it(bob: ClientConnection) -> bool:
    await bob.send(json.dumps({"type": "sync"}))
    snapshot = await _next(bob, lambda m: m["type"] == "snapshot")
    return bool(snapshot["table"]["seats"][0]["connected"])


async def test_a_ping_on_one_process_keeps_the_seat_connected_on_the_other(
    cluster: Cluster,
) -> None:
    ann = await _open(cluster, cluster.a.url, 0)
    bob = await _open(cluster, cluster.b.url, 1)
    try:
        await _next(ann, lambda m: m["type"] == "snapshot")
        await _next(bob, lambda m: m["type"] == "snapshot")
        assert await _anns_seat_as_bob_sees_it(bob)

        # A minute of silence from Ann, as process B reads it from the database.
        await asyncio.to_thread(
            _sql,
            cluster,
            "UPDATE game_connection SET seen = now() - interval '90 seconds'"
            " WHERE seat = 0 RETURNING id",
        )
        assert not await _anns_seat_as_bob_sees_it(bob)

        # Ann pings on process A: noted in A's memory, written through within a second or so.
        for _ in range(30):
            await ann.send(json.dumps({"type": "ping"}))
        for _ in range(30):
            await _next(ann, lambda m: m["type"] == "pong")

        async def refreshed() -> None:
            while await asyncio.to_thread(_age_of_anns_row, cluster) > 60:
                await asyncio.sleep(0.1)

        await asyncio.wait_for(refreshed(), RECEIVE_TIMEOUT)
        assert await _anns_seat_as_bob_sees_it(bob)

        # Ann leaves: her row goes at once, and Bob on the other process is told.
        await ann.close()
        gone = await _next(
            bob, lambda m: m["type"] == "presence" and not m["seats"][0]["connected"]
        )
        assert gone["seats"][1]["connected"]
        left = await asyncio.to_thread(
            _sql, cluster, "SELECT seat FROM game_connection ORDER BY seat"
        )
        assert left == [(1,)]
    finally:
        await ann.close()
        await bob.close()
    for daphne in (cluster.a, cluster.b):
        log = daphne.log_path.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]
