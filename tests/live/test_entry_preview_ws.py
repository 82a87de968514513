"""Tabletop entry previews over the websocket (docs/protocol.md, "preview"): the console asks
where a ``score`` or ``score_shared`` would move each figure and whether it would draw a
message; the server answers from the engine's own judgement (``outlook.py``), to the asker
only, and saves nothing. Whoever may not send the entry may not preview it, and hostile input
is refused with the entry's own codes."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from game.models import LogEntry, Table
from tests.live.test_consumers import Client, assert_nothing_hidden, seated, started_table
from tests.services.test_console import (
    MESSAGES,
    ann_hosts_bob_on_his_phone,
    command,
    error_code,
    update_at,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def score(points: Any, seat: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "score", "points": points}
    if seat is not None:
        body["seat"] = seat
    return body


async def saved(code: str) -> tuple[int, int]:
    """The table's version and its number of log entries: what a preview must not change."""

    def read() -> tuple[int, int]:
        table = Table.objects.get(code=code)
        return table.version, LogEntry.objects.filter(table=table).count()

    return await database_sync_to_async(read)()


def by_figure(answer: dict[str, Any], seat: int) -> dict[str, dict[str, Any]]:
    return {item["figure"]: item for item in answer["figures"] if item["seat"] == seat}


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_the_host_and_a_player_preview_entries_and_nothing_changes() -> None:
    frames: list[str] = []
    code, host, bob = await ann_hosts_bob_on_his_phone(frames)
    before = await saved(code)

    # The host previews 5 points for Ann (her turn, c2-hig: end_of_round): both figures land on
    # dark space 5 and would draw a message if they still stand there when her scoring ends.
    await host.send({"type": "preview", "id": "p1", "command": score(5, seat=0)})
    shown = await host.receive("preview")
    assert shown["command"] == score(5, seat=0)
    assert shown["id"] == "p1"
    assert shown["version"] == before[0]
    figures = by_figure(shown, 0)
    assert set(figures) == {"meeple", "messenger"}
    assert len(shown["figures"]) == 2
    for item in figures.values():
        assert (item["from"], item["to"], item["total"], item["laps"]) == (0, 5, 5, 0)
        assert item["dark"] is True
        assert item["draws_message"] is True
        assert item["maybe"] is True  # more entries may come before Ann ends her turn
        assert item["why_not"] is None
        assert (
            item["note"] == "dark: draws a message if it still stands there when the scoring ends"
        )

    # Bob's own device previews his points: only the player whose turn it is draws.
    await bob.send({"type": "preview", "command": score(10)})
    shown = await bob.receive("preview")
    assert "id" not in shown
    figures = by_figure(shown, 1)
    assert figures["meeple"]["why_not"] == "not_active"
    assert figures["meeple"]["draws_message"] is False
    assert figures["meeple"]["note"] == "dark, but only \u2068Ann\u2069 draws messages this turn"

    # A shared scoring names both seats, each with both figures.
    shared = {"type": "score_shared", "points": 3, "shares": [{"seat": 0}, {"seat": 1}]}
    await bob.send({"type": "preview", "command": shared})
    shown = await bob.receive("preview")
    assert sorted((item["seat"], item["figure"]) for item in shown["figures"]) == [
        (0, "meeple"),
        (0, "messenger"),
        (1, "meeple"),
        (1, "messenger"),
    ]
    assert all(item["to"] == 3 and not item["dark"] for item in shown["figures"])

    assert await saved(code) == before
    await host.nothing_pending()  # a preview goes to the asker only
    await bob.nothing_pending()

    # The preview agreed with the entry: 5 on Ann's meeple and the end of her turn draw one.
    await host.send(command(0, "h1", {"type": "score", "points": 5, "figure": "meeple"}))
    await host.send(command(1, "h2", {"type": "end_turn"}))
    update = await update_at(host, 2)
    assert update["view"]["revealed"]["seat"] == 0
    assert_nothing_hidden(frames, [], MESSAGES)


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_previews_are_refused_like_the_entries_and_change_nothing() -> None:
    frames: list[str] = []
    code, host, bob = await ann_hosts_bob_on_his_phone(frames)
    (watcher,) = await seated(code, [None], frames)
    before = await saved(code)

    async def refused(client: Client, body: object, code_: str, request_id: str = "x") -> None:
        await client.send({"type": "preview", "id": request_id, "command": body})
        error = await client.receive("error")
        assert error["code"] == code_, error
        assert error["id"] == request_id
        assert error["message"]

    # Not theirs to enter: another seat's points, a shared scoring without their own seat.
    await refused(bob, score(4, seat=0), "not_host")
    await refused(
        bob,
        {"type": "score_shared", "points": 4, "shares": [{"seat": 0}, {"seat": 0}]},
        "malformed",
    )
    await refused(watcher, score(4), "spectator")
    # Hostile or out of range: points not a whole number within the entry limits, a seat that
    # does not exist, unknown keys.
    await refused(host, score(0, seat=0), "malformed")
    await refused(host, score(-3, seat=0), "malformed")
    await refused(host, score("5", seat=0), "malformed")
    await refused(host, score(True, seat=0), "malformed")
    await refused(host, score(10**9, seat=0), "malformed")
    await refused(host, score(4, seat=7), "malformed")
    await refused(host, score(4, seat="0"), "malformed")
    await refused(host, score(4, seat=False), "malformed")
    await refused(host, score(4, seat=0.0), "malformed")
    await refused(host, {"type": "score", "points": 4, "seat": 0, "figure": "dragon"}, "malformed")
    await refused(host, {"type": "score", "points": 4, "seat": 0, "extra": 1}, "malformed")
    await refused(
        host, {"type": "score_shared", "points": 4, "shares": [{"seat": 0}, {"seat": 5}]}, "illegal"
    )
    await refused(host, "score", "malformed")
    # A player's device naming a seat that does not exist is refused as any other seat would be.
    await refused(bob, score(4, seat=5), "not_host")

    # Only a valid command id is echoed: not an object, not a string longer than an id may be.
    for request_id in ({"a": 1}, "x" * 5000, "two words", ""):
        await host.send({"type": "preview", "id": request_id, "command": score(0, seat=0)})
        error = await host.receive("error")
        assert error["code"] == "malformed" and error["id"] is None, error
        await host.send({"type": "preview", "id": request_id, "command": score(4, seat=0)})
        answer = await host.receive("preview")
        assert "id" not in answer, answer

    assert await saved(code) == before
    for client in (host, bob, watcher):
        await client.nothing_pending()


async def test_a_board_game_previews_no_entries() -> None:
    """Entries of points are a tabletop game's; in board mode the prompts carry the outlook."""
    frames: list[str] = []
    code, tokens = await started_table(["Ann", "Bob"])
    (ann,) = await seated(code, tokens[:1], frames)
    await ann.send({"type": "preview", "command": score(4)})
    assert await error_code(ann) == "illegal"
    await ann.nothing_pending()
