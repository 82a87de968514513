"""A running process after its database is restored.

A Daphne process keeps the latest state of each table it served in memory (game/store/tables.py). A
database restored from a backup, or flushed and filled again, reuses table ids: the id of a game
the process remembers can then name another game at the same version. The process must serve
each table's own state, never the remembered state of another game that had its id.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from tests import servers
from tests.live.test_redis_two_daphne import _first_placement, _is_snapshot, _receive_until

pytestmark = pytest.mark.services

TIMEOUT = 20.0
"""Seconds to wait for a message or a client tool; generous for a loaded 2-core CI machine."""


async def _open(base: str, code: str, token: str) -> ClientConnection:
    """The table's websocket on `base`, seated by `token` (as a script connects)."""
    return await connect(
        f"ws://{base.removeprefix('http://')}/ws/t/{code}",
        additional_headers={"X-Seat-Token": token},
        origin=Origin(base),
        proxy=None,
        open_timeout=TIMEOUT,
    )


async def _start_and_move(base: str, table: dict[str, Any]) -> dict[str, Any]:
    """Start the table as its creator and place the first tile; the creator's view after it."""
    socket = await _open(base, table["code"], table["tokens"][0])
    try:
        await _receive_until(socket, _is_snapshot("lobby"))
        await socket.send(json.dumps({"type": "start"}))
        started = await _receive_until(socket, _is_snapshot("playing"))
        move = {
            "type": "command",
            "version": started["version"],
            "id": "first",
            "command": _first_placement(started["view"]),
        }
        await socket.send(json.dumps(move))
        update = await _receive_until(socket, lambda m: m.get("type") == "update")
        view: dict[str, Any] = update["view"]
        return view
    finally:
        await socket.close()


def _table_ids(database_url: str) -> dict[str, int]:
    """Every table's id by code, straight from the database."""
    with psycopg.connect(database_url) as connection:
        rows = connection.execute("SELECT code, id FROM game_table").fetchall()
    return dict(rows)


def _run(args: list[str], env: dict[str, str] | None = None) -> None:
    result = subprocess.run(
        args,
        cwd=servers.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if result.returncode != 0:
        raise AssertionError(f"{args[0]} failed:\n{result.stdout}\n{result.stderr}")


def _pg_tool(name: str) -> str:
    """A PostgreSQL client tool of the same version as the private server."""
    path = servers.postgres_bindir() / name
    if not os.access(path, os.X_OK):
        servers.missing(f"PostgreSQL's {name} ({path})")
    return str(path)


async def test_a_restored_database_is_served_as_restored(postgres_url: str, tmp_path: Path) -> None:
    """Game A is dumped; the database is flushed and game B gets A's id and reaches A's version
    in the same process; A's dump is restored. The process then serves A's own state for A (not
    B's, which it remembers under the same id and version) and goes on playing it; B is gone."""
    database = servers.create_database(postgres_url, "restore")
    env = servers.project_env(DATABASE_URL=database)
    servers.migrate(env)
    dump = tmp_path / "game-a.dump"
    with servers.daphne_server(env) as base:
        game_a = servers.run_script(env, "tests.lobby_script", "Ann", "Bob")
        view_a = await _start_and_move(base, game_a)
        id_a = _table_ids(database)[game_a["code"]]
        _run([_pg_tool("pg_dump"), "--format=custom", f"--file={dump}", database])

        _run(
            [sys.executable, "manage.py", "flush", "--noinput"],
            env=servers.child_env(env),
        )
        game_b = servers.run_script(env, "tests.lobby_script", "Cat", "Dan")
        view_b = await _start_and_move(base, game_b)
        # What makes the test: the process now remembers two games under one id and version.
        assert _table_ids(database) == {game_b["code"]: id_a}
        assert view_b["version"] == view_a["version"]
        assert view_b != view_a

        _run(
            [
                _pg_tool("pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                f"--dbname={database}",
                str(dump),
            ]
        )
        assert _table_ids(database) == {game_a["code"]: id_a}

        socket = await _open(base, game_a["code"], game_a["tokens"][0])
        try:
            restored = await _receive_until(socket, _is_snapshot("playing"))
            assert restored["version"] == view_a["version"]
            assert restored["view"] == view_a
            assert [player["name"] for player in restored["view"]["players"]] == ["Ann", "Bob"]

            # Play goes on from the restored state: Ann, having placed her tile, skips her meeple.
            waiting = restored["view"]["pending"]
            assert (waiting["seat"], waiting["type"]) == (0, "place_follower"), waiting
            skip = {
                "type": "command",
                "version": restored["version"],
                "id": "after-restore",
                "command": {"type": "skip_follower"},
            }
            await socket.send(json.dumps(skip))
            update = await _receive_until(socket, lambda m: m.get("type") == "update")
            assert update["version"] == restored["version"] + 1
            assert [p["name"] for p in update["view"]["players"]] == ["Ann", "Bob"]
        finally:
            await socket.close()

        gone = await _open(base, game_b["code"], game_b["tokens"][0])
        with pytest.raises(ConnectionClosed) as closed:
            await _receive_until(gone, lambda m: False)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
