"""Corrections over the websocket (docs/protocol.md, "Corrections"): the host previews a
correction (a read-only frame), then sends it; a player with a phone can do neither, and the
table reads what changed and what lapsed. Nothing hidden reaches a page."""

from __future__ import annotations

import pytest
from django.test import override_settings

from tests.live.test_consumers import assert_nothing_hidden
from tests.services.test_console import (
    MESSAGES,
    ann_hosts_bob_on_his_phone,
    command,
    error_code,
    update_at,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_the_host_previews_and_corrects_an_earlier_entry() -> None:
    frames: list[str] = []
    code, host, bob = await ann_hosts_bob_on_his_phone(frames)

    await host.send(command(0, "h1", {"type": "score", "points": 5, "figure": "meeple"}))
    await host.send(command(1, "h2", {"type": "end_turn"}))
    await host.send(command(2, "h3", {"type": "resolve_message", "choice": "points"}))
    await host.send(command(3, "h4", {"type": "choose_figure", "figure": "meeple"}))
    await update_at(host, 4)
    await update_at(bob, 4)
    await bob.send(command(4, "b1", {"type": "score", "points": 3, "figure": "messenger"}))
    await update_at(host, 5)
    await update_at(bob, 5)

    fix = {
        "type": "correct",
        "entry": 0,
        "replacement": {"seat": 0, "type": "score", "points": 6, "figure": "meeple"},
    }
    # A player's phone may not preview or correct; a preview of anything but a correction or an
    # entry of points, or
    # without a command object, is refused with a reason.
    await bob.send({"type": "preview", "command": fix})
    assert await error_code(bob) == "not_host"
    await bob.send(command(5, "b2", fix))
    assert await error_code(bob) == "not_host"
    await host.send({"type": "preview", "command": [1]})
    assert await error_code(host) == "malformed"
    await host.send({"type": "preview", "command": {"type": "end_turn"}})
    assert await error_code(host) == "malformed"
    await host.send({"type": "preview", "command": {**fix, "entry": 1}})
    assert await error_code(host) == "illegal"

    await bob.send({"type": "entries"})
    assert await error_code(bob) == "not_host"
    await host.send({"type": "entries"})
    listed = await host.receive("entries")
    assert [item["entry"] for item in listed["entries"]] == [4, 0]  # the 2 points: no entry
    assert listed["entries"][1]["action"] == {
        "seat": 0,
        "type": "score",
        "points": 5,
        "figure": "meeple",
    }

    await host.send({"type": "preview", "command": fix})
    shown = await host.receive("preview")
    assert shown["command"] == fix
    assert [item["entry"] for item in shown["lapsed"]] == [2, 3]
    assert shown["scores"] == [{"meeple": 6, "messenger": 0}, {"meeple": 0, "messenger": 3}]
    await bob.nothing_pending()  # a preview goes to the host only, and changes nothing

    await host.send(command(5, "h5", fix))
    update = await update_at(bob, 6)
    assert update["events"][0]["type"] == "corrected"
    assert update["lines"] == shown["lines"]
    assert update["lines"][0]["text"] == "Host corrects \u2068Ann\u2069's 5 points (meeple) to 6"
    assert update["lines"][1]["text"] == (
        "No longer applies: \u2068Ann\u2069's message 3 (2 points)"
    )
    assert [p["score"] for p in update["view"]["players"]] == [6, 3]
    assert update["view"]["revealed"] is None

    # Bob cannot undo the host's correction; the host can, and the message counts again.
    await bob.send(command(6, "b3", {"type": "undo"}))
    assert await error_code(bob) == "not_yours"
    await update_at(host, 6)
    await host.send(command(6, "h6", {"type": "undo"}))
    update = await update_at(bob, 7)
    assert [p["score"] for p in update["view"]["players"]] == [7, 3]
    assert [line["text"] for line in update["lines"]] == [
        "Undone by \u2068Ann\u2069: the host's correction to \u2068Ann\u2069's 6 points (meeple)"
    ]
    for client in (host, bob):
        await client.close()
    assert_nothing_hidden(frames, [], MESSAGES)
