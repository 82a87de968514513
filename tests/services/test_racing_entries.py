"""Entries made at the same moment by the host and two phones (tests/racing_entries.py), once in
process on SQLite and once through a real Daphne on PostgreSQL (docs/protocol.md, "Concurrent
entries")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from messengers.asgi import application
from tests import servers
from tests.racing_entries import RECEIVE_TIMEOUT, SCENARIOS, Night, Socket, tabletop_night


class _InProcess:
    """A websocket to the application in this process (Channels' test communicator)."""

    def __init__(self, code: str, token: str) -> None:
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
        headers.append((b"x-seat-token", token.encode()))
        self.socket = WebsocketCommunicator(application, f"/ws/t/{code}", headers=headers)

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send_to(text_data=json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await self.socket.receive_from(timeout=RECEIVE_TIMEOUT))
        return frame

    async def close(self) -> None:
        await self.socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
async def test_racing_entries_in_process(scenario: str) -> None:
    made = await database_sync_to_async(tabletop_night)()

    async def opener(token: str) -> Socket:
        socket = _InProcess(made["code"], token)
        connected, _ = await socket.socket.connect()
        assert connected
        return socket

    night = await Night.open(opener, made["tokens"])
    try:
        await SCENARIOS[scenario](night)
    finally:
        await night.close()


class _OverTheNetwork:
    """A websocket to a running Daphne."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await self.connection.recv())
        return frame

    async def close(self) -> None:
        await self.connection.close()


@pytest.fixture(scope="module")
def postgres_daphne(postgres_url: str) -> Iterator[tuple[str, dict[str, str]]]:
    """A Daphne serving a fresh PostgreSQL database; its base URL and environment."""
    env = servers.project_env(DATABASE_URL=servers.create_database(postgres_url, "racing"))
    servers.migrate(env)
    with ExitStack() as stack:
        yield stack.enter_context(servers.daphne_server(env)), env


@pytest.mark.services
@pytest.mark.asyncio
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
async def test_racing_entries_on_postgres(
    scenario: str, postgres_daphne: tuple[str, dict[str, str]]
) -> None:
    base, env = postgres_daphne
    made = servers.run_script(env, "tests.racing_entries")
    url = f"ws://{base.removeprefix('http://')}/ws/t/{made['code']}"

    async def opener(token: str) -> Socket:
        connection = await connect(
            url,
            additional_headers={"X-Seat-Token": token},
            origin=Origin(base),
            proxy=None,
            open_timeout=RECEIVE_TIMEOUT,
        )
        return _OverTheNetwork(connection)

    night = await Night.open(opener, made["tokens"])
    try:
        await SCENARIOS[scenario](night)
    finally:
        await night.close()
