"""Computer players with two Daphne processes, one Redis and one PostgreSQL: each computer
move happens exactly once, whichever processes notice that it is due, and a move whose process
dies before making it is made by the other (game/services/computers.py).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests import servers

pytestmark = pytest.mark.services

RECEIVE_TIMEOUT = 30.0
"""Seconds to wait for an expected message; generous for a loaded 2-core CI machine."""


@dataclass
class Cluster:
    env: dict[str, str]
    a: servers.RestartableDaphne
    b: servers.RestartableDaphne


@pytest.fixture
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    env = servers.project_env(
        DATABASE_URL=servers.create_database(postgres_url, "computers"),
        REDIS_URL=redis_url,
        MESSENGERS_COMPUTER_PAUSE_MS="500",
        MESSENGERS_COMPUTER_RESUME_SECONDS="1",
    )
    servers.migrate(env)
    with ExitStack() as stack:
        a = stack.enter_context(servers.restartable_daphne(env))
        b = stack.enter_context(servers.restartable_daphne(env))
        yield Cluster(env, a, b)


async def _open(base: str, code: str, token: str | None) -> ClientConnection:
    headers = {"X-Seat-Token": token} if token else {}
    host = base.removeprefix("http://")
    return await connect(
        f"ws://{host}/ws/t/{code}",
        additional_headers=headers,
        origin=Origin(base),
        proxy=None,
        open_timeout=RECEIVE_TIMEOUT,
    )


async def _next(socket: ClientConnection, kinds: tuple[str, ...]) -> dict[str, Any]:
    async def scan() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if message.get("type") == "error":
                raise AssertionError(f"server refused: {message}")
            if message.get("type") in kinds:
                return message

    return await asyncio.wait_for(scan(), RECEIVE_TIMEOUT)


def _decide(view: dict[str, Any]) -> dict[str, Any]:
    """Ann's simplest legal decision from what her view offers."""
    waiting = view["pending"]
    kind = waiting["type"]
    if kind == "place_tile":
        spot = waiting["placements"][0]
        return {"type": kind, "x": spot["x"], "y": spot["y"], "rotation": spot["rotations"][0]}
    if kind == "place_follower":
        return {"type": "skip_follower"}
    if kind == "choose_figure":
        return {"type": kind, "figure": waiting["options"][0]["figure"]}
    if kind == "resolve_message":
        return {"type": kind, "choice": "points"}
    raise AssertionError(f"unexpected decision {kind}")


async def _play_own_turn(ann: ClientConnection, state: dict[str, Any], tag: str) -> dict[str, Any]:
    """Ann decides until the game waits for the computer; returns that update."""
    while state["view"]["pending"]["seat"] == 0:
        version = state["version"]
        command = _decide(state["view"])
        await ann.send(
            json.dumps(
                {"type": "command", "version": version, "id": f"{tag}{version}", "command": command}
            )
        )
        state = await _next(ann, ("update",))
    return state


def _log(env: dict[str, str], code: str) -> list[list[Any]]:
    return servers.run_script(env, "tests.computer_table_script", "log", code)


def _check_exactly_once(log: list[list[Any]]) -> None:
    """Every entry of the computer's seat is its own command, made against that very version
    (or the server's automatic figure choice); the person's are hers."""
    for index, seat, command_id, automatic, first in log:
        if seat == 1 and not automatic:
            assert command_id == f"cpu.{index}" and first == "played_by", (index, command_id)
        elif seat == 0:
            assert not command_id.startswith("cpu."), (index, command_id)


async def _until_computer_done(socket: ClientConnection, ping: bool) -> list[int]:
    """Updates until the computer moved and the game waits for Ann again; their versions.

    With ``ping``, the socket pings meanwhile, as pages do every 20 s (here every half second,
    to be quick)."""
    versions: list[int] = []
    computer_moved = False

    async def pinger() -> None:
        while True:
            await asyncio.sleep(0.5)
            await socket.send(json.dumps({"type": "ping"}))

    task = asyncio.create_task(pinger()) if ping else None
    try:
        while True:
            update = await _next(socket, ("update",))
            versions.append(update["version"])
            computer_moved = computer_moved or update["seat"] == 1
            if computer_moved and update["view"]["pending"]["seat"] == 0:
                return versions
    finally:
        if task is not None:
            task.cancel()


async def test_both_processes_notice_the_computer_and_it_moves_once(cluster: Cluster) -> None:
    table = servers.run_script(cluster.env, "tests.computer_table_script", "new")
    code, token = table["code"], table["token"]
    ann = await _open(cluster.a.url, code, token)
    ann_b = await _open(cluster.b.url, code, token)  # her second device, on the other process
    try:
        state = await _next(ann, ("snapshot",))
        await _next(ann_b, ("snapshot",))
        for turn in range(3):
            await _play_own_turn(ann, state, f"t{turn}.")
            # A page opening on process B while the computer pauses: B notices it too.
            late = await _open(cluster.b.url, code, None)
            seen = await _until_computer_done(ann_b, ping=False)
            await late.close()
            assert seen == sorted(set(seen)), seen  # one update per version, none twice
            await ann.send(json.dumps({"type": "sync"}))
            state = await _next(ann, ("snapshot",))
            assert state["view"]["pending"]["seat"] == 0
    finally:
        await ann.close()
        await ann_b.close()
    log = _log(cluster.env, code)
    assert any(seat == 1 for _, seat, *_ in log)
    _check_exactly_once(log)


async def test_a_move_lost_with_its_process_is_made_by_the_other(cluster: Cluster) -> None:
    table = servers.run_script(cluster.env, "tests.computer_table_script", "new")
    code, token = table["code"], table["token"]
    ann = await _open(cluster.a.url, code, token)
    watcher = await _open(cluster.b.url, code, None)
    try:
        state = await _next(ann, ("snapshot",))
        await _next(watcher, ("snapshot",))
        await _play_own_turn(ann, state, "k.")
        cluster.a.kill()  # within the computer's pause: process A never makes its move
        versions = await _until_computer_done(watcher, ping=True)
        assert versions
    finally:
        await watcher.close()
    log = _log(cluster.env, code)
    _check_exactly_once(log)
    assert any(seat == 1 for _, seat, *_ in log)
