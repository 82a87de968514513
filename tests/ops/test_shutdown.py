"""A server process told to stop (SIGTERM, as systemd and deploy/upgrade.sh restart it) with
websockets open and computer players busy: it stops listening before it drops its websockets,
so that a page's reconnection goes to another process, and it ends by itself, before the
deadline of MESSENGERS_SHUTDOWN_SECONDS (messengers/shutdown.py). A process that cannot end
(a thread that never returns) is ended by that deadline, with every thread's stack in its log.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import signal
import subprocess
import sys
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from messengers.shutdown import GIVEN_UP
from tests import servers

pytestmark = pytest.mark.services

TABLES = 3
"""Tables of two computers each, playing as fast as they may while the test watches them."""

RECEIVE_TIMEOUT = 60.0
"""Seconds to wait for the computers' moves or the server's close; generous for 2 busy cores."""

COMPUTERS_ONLY = """
import json, os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")
django.setup()
from game.services.lobby import create_table, start_game
from game.services.seating import add_computer, computer_for
codes = []
for _ in range({tables}):
    table, ann = create_table(preset="c2-hig", seats=2, name="Ann", colour="blue")
    add_computer(table.code, ann.token, "strong")
    start_game(table.code, ann.token)
    computer_for(table.code, ann.token, 0)
    codes.append(table.code)
print(json.dumps(codes))
"""

STUCK = """
import threading
from messengers.shutdown import exit_within

def never_returns():
    threading.Event().wait()

threading.Thread(target=never_returns, name="stuck").start()
exit_within(1)
"""


def test_a_process_that_cannot_end_is_ended_with_its_stacks() -> None:
    """A thread that never returns keeps Python from exiting: the deadline ends the process with
    its own exit status and every thread's stack on stderr, naming the stuck function."""
    result = subprocess.run(
        [sys.executable, "-c", STUCK],
        cwd=servers.ROOT,
        env=servers.child_env(servers.project_env()),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == GIVEN_UP, result.stderr
    assert "Still running 1 s after being told to stop" in result.stderr
    assert "in never_returns" in result.stderr, result.stderr


async def _watch(base: str, code: str) -> ClientConnection:
    """A spectator's websocket on table `code`, once the computers' moves reach it."""
    socket = await connect(
        f"ws://{base.removeprefix('http://')}/ws/t/{code}",
        origin=Origin(base),
        proxy=None,
        open_timeout=RECEIVE_TIMEOUT,
    )

    async def first_move() -> None:
        while json.loads(await socket.recv()).get("type") != "update":
            pass

    await asyncio.wait_for(first_move(), RECEIVE_TIMEOUT)
    return socket


async def _closed(socket: ClientConnection) -> None:
    """Wait until the server closes `socket` (moves may arrive before)."""
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(socket.recv(), RECEIVE_TIMEOUT)


def _served(port: int) -> bool:
    """Whether a request to /healthz on `port` is answered at all."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=RECEIVE_TIMEOUT)
    try:
        connection.request("GET", "/healthz")
        connection.getresponse().read()
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()
    return True


def test_sigterm_with_websockets_and_busy_computers(postgres_url: str, redis_url: str) -> None:
    """Computers play on every table, each watched by two websockets, when the process gets
    SIGTERM: once its first websocket is dropped it answers no new connection, every websocket
    is closed, and the process ends by itself (not by the deadline)."""
    env = servers.production_env(
        DATABASE_URL=servers.create_database(postgres_url, "shutdown"),
        REDIS_URL=redis_url,
        MESSENGERS_COMPUTER_PAUSE_MS="0",
    )
    servers.migrate(env)
    made = subprocess.run(
        [sys.executable, "-c", COMPUTERS_ONLY.format(tables=TABLES)],
        cwd=servers.ROOT,
        env=servers.child_env(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    codes: list[str] = json.loads(made.stdout.strip().splitlines()[-1])
    with servers.restartable_daphne(env) as daphne:
        assert daphne.process is not None and daphne.port is not None
        process, port = daphne.process, daphne.port

        async def scenario() -> dict[str, Any]:
            sockets = [await _watch(daphne.url, code) for code in codes for _ in range(2)]
            process.send_signal(signal.SIGTERM)
            first = asyncio.create_task(_closed(sockets[0]))
            await first
            served = await asyncio.to_thread(_served, port)
            await asyncio.gather(*(_closed(socket) for socket in sockets[1:]))
            return {"served": served}

        outcome = asyncio.run(scenario())
        status = process.wait(timeout=servers.STOP_TIMEOUT)
        daphne.process = None
        log = daphne.log_path.read_text(errors="replace")
    assert not outcome["served"], "the stopping process still answered a new connection"
    assert status == 0, log[-4000:]
    assert "Still running" not in log
