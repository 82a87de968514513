"""A page from before an upgrade that changed the frames is sent on to a fresh copy of itself
(game/live/page_protocol.py): it never reads frames it does not understand."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from game.live.page_protocol import PAGE_PROTOCOL
from game.services.lobby import create_table
from messengers.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BROWSER = (b"user-agent", b"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0")


async def first_frame(path: str, *headers: tuple[bytes, bytes]) -> tuple[dict, object]:
    sent = [(b"origin", b"http://localhost"), (b"host", b"localhost"), *headers]
    socket = WebsocketCommunicator(application, path, headers=sent)
    connected, _ = await socket.connect()
    assert connected
    frame = json.loads(await socket.receive_from(timeout=10))
    rest = await socket.receive_output(timeout=10)
    await socket.disconnect()
    return frame, rest


async def code() -> str:
    from channels.db import database_sync_to_async

    table, _ = await database_sync_to_async(create_table)(
        preset="c2-hig", name="Ann", colour="blue"
    )
    return table.code


async def test_a_page_from_before_numbered_protocols_follows_a_rematch_to_itself() -> None:
    frame, closed = await first_frame(f"/ws/t/{await code()}", BROWSER)
    assert frame == {"type": "rematch", "url": "", "projector_url": ""}
    assert closed == {"type": "websocket.close", "code": 4426}


async def test_a_page_of_an_older_protocol_is_told_to_reload() -> None:
    frame, closed = await first_frame(f"/ws/t/{await code()}?protocol=1", BROWSER)
    assert frame == {"type": "reload"}
    assert closed == {"type": "websocket.close", "code": 4426}


async def test_a_page_of_this_protocol_and_a_script_get_the_snapshot() -> None:
    table = await code()
    page, _ = await first_frame(f"/ws/t/{table}?protocol={PAGE_PROTOCOL}", BROWSER)
    script, _ = await first_frame(f"/ws/t/{table}")
    assert page["type"] == script["type"] == "snapshot"
