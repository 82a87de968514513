"""Refusals over the websocket in each reader's language (docs/languages.md): one table, Ann's
socket in English, Bob's in German (Accept-Language), Dan's in Czech (the switcher's cookie).

The consumer activates its connection's language at connect; its handlers, and the database
threads they call the services in, word a refusal in it. The ``code`` (and the engine's
``reason``) are the same in every language: programs read those.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings
from django.utils import translation

from messengers.asgi import application
from tests.live.test_consumers import command, first_placement, started_table
from tests.live.test_guard import closed_by_guard, finished

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A request leaves its language active in the test's thread: back to the default after."""
    yield
    translation.deactivate()


async def open_socket(
    code: str, token: str, extra: list[tuple[bytes, bytes]]
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), *extra]
    headers.append((b"x-seat-token", token.encode()))
    socket = WebsocketCommunicator(application, f"/ws/t/{code}", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    snapshot = json.loads(await socket.receive_from())
    assert snapshot["type"] == "snapshot"
    return socket, snapshot


async def error_of(socket: WebsocketCommunicator) -> dict[str, Any]:
    while True:
        frame = json.loads(await socket.receive_from(timeout=5))
        if frame["type"] == "error":
            return frame


GERMAN = [(b"accept-language", b"de-DE,de;q=0.9,en;q=0.5")]
CZECH = [(b"cookie", b"django_language=cs")]


async def test_a_refusal_reads_in_each_readers_language() -> None:
    code, tokens = await started_table(["Ann", "Bob", "Dan"])
    ann, snapshot = await open_socket(code, tokens[0], [])
    bob, _ = await open_socket(code, tokens[1], GERMAN)
    dan, _ = await open_socket(code, tokens[2], CZECH)
    placement = first_placement(snapshot["view"])
    version = snapshot["version"]
    said = {}
    for name, socket in (("Bob", bob), ("Dan", dan)):
        await socket.send_to(text_data=json.dumps(command(version, f"{name}-1", placement)))
        error = await error_of(socket)
        assert (error["code"], error["reason"], error["id"]) == (
            "not_your_turn",
            "not_your_decision",
            f"{name}-1",
        )
        said[name] = error["message"]
    assert said == {
        "Bob": "\u2068Ann\u2069 entscheidet gerade, nicht \u2068Bob\u2069.",
        "Dan": "Teď rozhoduje \u2068Ann\u2069, ne \u2068Dan\u2069.",
    }
    # A frame the consumer refuses before any service: the same languages.
    for socket in (ann, bob, dan):
        await socket.send_to(text_data=json.dumps({"type": "ping", "version": 1}))
    assert [(await error_of(s))["message"] for s in (ann, bob, dan)] == [
        "A 'ping' message takes no 'version'.",
        "Eine Nachricht 'ping' hat kein 'version'.",
        "Zpráva 'ping' nepřijímá 'version'.",
    ]
    # A malformed command: the engine's code and words.
    await dan.send_to(text_data=json.dumps(command(version, "d2", {**placement, "rotation": 45})))
    error = await error_of(dan)
    assert (error["code"], error["reason"]) == ("malformed", "bad_rotation")
    assert error["message"] == "'rotation' musí být 0, 90, 180 nebo 270."
    for socket in (ann, bob, dan):
        await socket.disconnect()


async def test_a_refusal_from_a_service_in_german() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    bob, _ = await open_socket(code, tokens[1], GERMAN)
    await bob.send_to(text_data=json.dumps({"type": "rematch"}))
    error = await error_of(bob)
    assert error["code"] == "not_finished"
    assert error["message"] == "Eine Revanche kann beginnen, sobald das Spiel vorbei ist."
    await bob.send_to(text_data=json.dumps({"type": "reorder", "order": [1, 0]}))
    error = await error_of(bob)
    assert error["code"] == "not_host"
    assert error["message"] == "Nur der Gastgeber kann die Sitzordnung ändern."
    await bob.disconnect()


@override_settings(WS_MAX_FRAME_BYTES=100)
async def test_a_limit_of_the_guard_reads_in_czech() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    dan, _ = await open_socket(code, tokens[1], CZECH)
    await dan.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 100}))
    error, _ = await closed_by_guard(dan)
    assert error["code"] == "frame_too_large"
    assert error["message"].endswith("je větší než limit 100 bajtů.")
    await finished(dan)
