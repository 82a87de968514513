"""Each connection of one table reads in its own language (docs/protocol.md, "Languages"): the
language of its page, from the ``django_language`` cookie or the browser's Accept-Language."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from messengers.asgi import application
from tests.live.test_consumers import (
    MESSAGES,
    TILES,
    Client,
    assert_nothing_hidden,
    command,
    first_placement,
    started_table,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Speaker(Client):
    """A table's websocket whose browser sends ``headers`` besides the usual ones."""

    def __init__(
        self, code: str, token: str | None, frames: list[str], headers: list[tuple[bytes, bytes]]
    ) -> None:
        super().__init__(code, token, frames)
        sent = [(b"origin", b"http://localhost"), (b"host", b"localhost"), *headers]
        if token:
            sent.append((b"x-seat-token", token.encode()))
        self.socket = WebsocketCommunicator(application, f"/ws/t/{code}", headers=sent)


@override_settings(FIXED_TILES=TILES, FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_one_table_in_english_czech_and_german_at_once() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    ann = Speaker(code, tokens[0], frames, [(b"accept-language", b"en-GB,en;q=0.8")])
    bob = Speaker(code, tokens[1], frames, [(b"accept-language", b"cs-CZ,cs;q=0.9,en;q=0.5")])
    cleo = Speaker(code, None, frames, [(b"cookie", b"django_language=de")])
    snapshots = [await ann.connect(), await bob.connect(), await cleo.connect()]
    names = [snapshot["table"]["preset_name"] for snapshot in snapshots]
    assert names[0].startswith("2nd edition") and names[1].startswith("2. vydání")
    assert names[2].startswith("2. Ausgabe")

    await bob.send({"type": "history"})
    history = await bob.receive("history")
    assert history["lines"][0]["kind"] == "turn_started"
    assert history["lines"][0]["text"] == "Tah 1: \u2068Ann\u2069"

    await ann.send(command(0, "a1", first_placement(snapshots[0]["view"])))
    english, czech, german = [await client.receive("update") for client in (ann, bob, cleo)]
    assert english["events"] == czech["events"] == german["events"]
    placed = [
        next(line for line in update["lines"] if line["kind"] == "tile_placed")
        for update in (english, czech, german)
    ]
    assert placed[0]["text"].startswith("\u2068Ann\u2069 places tile")
    assert placed[1]["text"].startswith("\u2068Ann\u2069 pokládá kartičku")
    assert placed[2]["text"].startswith("\u2068Ann\u2069 legt Karte")
    assert placed[0]["at"] == placed[1]["at"] == placed[2]["at"] is not None
    assert {line["seat"] for line in placed} == {0}
    for client in (ann, bob, cleo):
        await client.close()
    assert_nothing_hidden(frames, TILES, MESSAGES)
