"""Seats over the websocket (docs/protocol.md, "Seats"): the host's lobby, handing over the host
role, leaving and admitting, computer players and absent players.

Every new frame is tried where it is allowed and where it is not (wrong role, wrong phase, bad
fields); a refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings
from django.utils import timezone

from game.models import LogEntry, Seat, Table
from game.players import decide, seat_view
from game.services import computers as computer
from game.services.lobby import create_table, start_game
from game.store.tables import load_state
from tests.live.test_consumers import (
    MESSAGES,
    TILES,
    Client,
    assert_nothing_hidden,
    command,
    make_table,
    seated,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def refused(client: Client, message: dict[str, Any], code: str) -> None:
    await client.send(message)
    while True:  # skipping snapshots of earlier changes still on their way
        error = await client.receive()
        if error["type"] == "error":
            break
        assert error["type"] in ("snapshot", "history", "update", "presence"), error
    assert error["code"] == code, error
    assert error["message"]


async def snapshot_of(client: Client) -> dict[str, Any]:
    """The next snapshot the client receives (after a ``table.changed``)."""
    return await until(client, lambda message: True)


async def until(client: Client, check: Any) -> dict[str, Any]:
    """The first snapshot (of those the client receives from now on) that passes ``check``:
    a client that was not read for a while has earlier ones waiting."""
    while True:
        message = await client.receive()
        if message["type"] == "snapshot" and check(message):
            return message


async def next_update(client: Client) -> dict[str, Any]:
    while True:
        message = await client.receive()
        if message["type"] == "update":
            return message


def names(message: dict[str, Any]) -> list[str]:
    return [seat["name"] for seat in message["table"]["seats"]]


async def seats_of(code: str) -> list[tuple[int, str, str]]:
    rows = Seat.objects.filter(table__code=code).order_by("index")
    return await database_sync_to_async(lambda: list(rows.values_list("index", "name", "token")))()


async def table_of(code: str) -> Table:
    return await database_sync_to_async(Table.objects.get)(code=code)


async def test_the_host_reorders_chooses_the_start_player_renames_and_removes_live() -> None:
    code, tokens = await make_table(["Ann", "Bob", "Cy"])
    frames: list[str] = []
    ann, bob, cy, watcher = await seated(code, [*tokens, None], frames)

    await refused(bob, {"type": "reorder", "order": [1, 0, 2]}, "not_host")
    await refused(watcher, {"type": "reorder", "order": [1, 0, 2]}, "not_host")
    await refused(ann, {"type": "reorder", "order": [1, 1, 2]}, "malformed")
    await refused(ann, {"type": "reorder", "order": [1, 0]}, "malformed")
    await refused(ann, {"type": "reorder", "order": "102"}, "malformed")
    await refused(ann, {"type": "start_player", "seat": 7}, "no_seat")
    await refused(ann, {"type": "start_player", "seat": "1"}, "malformed")
    assert [name for _, name, _ in await seats_of(code)] == ["Ann", "Bob", "Cy"]

    await ann.send({"type": "reorder", "order": [2, 0, 1]})
    seen = [await snapshot_of(client) for client in (ann, bob, cy, watcher)]
    assert [s["table"]["you"] for s in seen] == [1, 2, 0, None]
    assert [x["name"] for x in seen[3]["table"]["seats"]] == ["Cy", "Ann", "Bob"]
    assert seen[0]["table"]["host"] and not seen[2]["table"]["host"]

    await ann.send({"type": "start_player", "seat": 2})  # Bob starts; the order turns round
    seen = [await snapshot_of(client) for client in (ann, bob, cy, watcher)]
    assert [x["name"] for x in seen[3]["table"]["seats"]] == ["Bob", "Cy", "Ann"]
    assert [s["table"]["you"] for s in seen] == [2, 0, 1, None]

    await refused(cy, {"type": "rename", "seat": 0, "name": "Bobby"}, "not_host")
    await refused(ann, {"type": "rename", "seat": 0, "name": "cy"}, "lobby")  # looks like Cy
    await refused(ann, {"type": "rename", "seat": 0, "name": ""}, "lobby")
    await ann.send({"type": "rename", "seat": 0, "name": "Robert"})
    assert [x["name"] for x in (await snapshot_of(cy))["table"]["seats"]] == [
        "Robert",
        "Cy",
        "Ann",
    ]
    await cy.send({"type": "rename", "seat": 1, "name": "Cyrus"})  # a player renames themself
    await until(watcher, lambda m: names(m) == ["Robert", "Cyrus", "Ann"])

    await refused(ann, {"type": "remove", "seat": 2}, "host_seat")
    await refused(bob, {"type": "remove", "seat": 1}, "not_host")
    await ann.send({"type": "remove", "seat": 1})
    gone = await until(cy, lambda m: len(m["table"]["seats"]) == 2)
    assert gone["table"]["you"] is None and gone["table"]["rejoin_url"] is None
    assert names(gone) == ["Robert", "Ann"]
    await refused(cy, {"type": "rename", "seat": 0, "name": "Cy again"}, "not_host")
    # The removed player's token opens no seat any more.
    again = Client(code, tokens[2], frames)
    assert (await again.connect())["table"]["you"] is None

    await ann.send({"type": "start"})
    await until(ann, lambda m: m["table"]["status"] == "playing")
    for frame, error in (
        ({"type": "reorder", "order": [1, 0]}, "not_lobby"),
        ({"type": "start_player", "seat": 1}, "not_lobby"),
        ({"type": "rename", "seat": 0, "name": "Rob"}, "not_lobby"),
        ({"type": "remove", "seat": 0}, "not_lobby"),
    ):
        await refused(ann, frame, error)
    table = await table_of(code)
    assert table.setup is not None and table.setup["players"] == ["Robert", "Ann"]
    for client in (ann, bob, cy, watcher, again):
        await client.close()
    # Nobody but the host ever received another seat's token.
    for text in frames:
        message = json.loads(text)
        if message["type"] == "snapshot" and not message["table"]["host"]:
            own = message["table"]["rejoin_url"] or ""
            for token in tokens:
                assert token not in text or token in own


async def test_the_host_hands_the_host_role_on() -> None:
    code, tokens = await make_table(["Ann", "Bob", "Cy"])
    frames: list[str] = []
    ann, bob = await seated(code, tokens[:2], frames)
    await refused(bob, {"type": "hand_host", "seat": 1}, "not_host")
    await refused(ann, {"type": "hand_host", "seat": 5}, "no_seat")
    await refused(ann, {"type": "hand_host", "seat": 0}, "already_host")
    await refused(ann, {"type": "hand_host", "seat": 2}, "not_connected")  # Cy's page is shut
    await ann.send({"type": "hand_host", "seat": 1})
    assert not (await snapshot_of(ann))["table"]["host"]
    table = (await until(bob, lambda m: m["table"]["host"]))["table"]
    assert table["host"] and table["seats"][1]["host"] and not table["seats"][0]["host"]
    assert table["seat_links"] is not None
    await refused(ann, {"type": "start"}, "not_creator")
    await refused(ann, {"type": "hand_host", "seat": 0}, "not_host")
    await bob.send({"type": "start"})
    await until(ann, lambda m: m["table"]["status"] == "playing")
    # At any time: Bob hands it back during the game.
    await bob.send({"type": "hand_host", "seat": 0})
    await until(ann, lambda m: m["table"]["host"])
    for client in (ann, bob):
        await client.close()


async def test_a_tabletop_host_keeps_the_score_without_playing() -> None:
    table, ann_seat = await database_sync_to_async(create_table)(
        preset="c2-hig", mode="tabletop", seats=3, name="Ann", colour="blue"
    )
    code, host_token = table.code, ann_seat.token
    frames: list[str] = []
    (host,) = await seated(code, [host_token], frames)
    for name, colour in (("Bob", "orange"), ("Cy", "green")):
        await host.send({"type": "add_player", "name": name, "colour": colour})
        await snapshot_of(host)
    await refused(host, {"type": "add_computer", "level": "easy"}, "not_board")
    await host.send({"type": "host_without_seat"})
    info = (await snapshot_of(host))["table"]
    assert info["you"] is None and info["host"]
    assert [x["name"] for x in info["seats"]] == ["Bob", "Cy"]
    assert [link["seat"] for link in info["seat_links"]] == [0, 1]
    await refused(host, {"type": "host_without_seat"}, "no_seat")
    await host.send({"type": "start"})
    view = (await snapshot_of(host))["view"]
    assert "you" not in view and view["pending"]["type"] == "end_turn"
    # An entry for the seat whose turn it is, then for a seat named, then an undo.
    await host.send(command(0, "h1", {"type": "end_turn"}))
    update = await next_update(host)
    assert update["seat"] == 0 and update["view"]["active_seat"] == 1
    await host.send(command(1, "h2", {"type": "end_turn"}) | {"seat": 1})
    update = await next_update(host)
    assert update["seat"] == 1 and update["view"]["active_seat"] == 2 % 2
    await host.send(command(update["version"], "h3", {"type": "undo"}))
    assert (await next_update(host))["view"]["active_seat"] == 1
    # A spectator (no token) still cannot play.
    (watcher,) = await seated(code, [None], frames)
    await refused(watcher, command(0, "w1", {"type": "end_turn"}), "spectator")
    for client in (host, watcher):
        await client.close()


async def test_host_without_seat_at_a_board_game_is_refused() -> None:
    code, tokens = await make_table(["Ann", "Bob"])
    (ann,) = await seated(code, tokens[:1], [])
    await refused(ann, {"type": "host_without_seat"}, "not_tabletop")
    await ann.close()


async def computer_table(levels: list[str], names: list[str]) -> tuple[str, list[str]]:
    code, tokens = await make_table(names, seats=len(names) + len(levels))
    (host,) = await seated(code, tokens[:1], [])
    for level in levels:
        await host.send({"type": "add_computer", "level": level})
        await snapshot_of(host)
    await host.close()
    return code, tokens


async def test_the_host_adds_computers_only_in_the_lobby_and_only_while_seats_are_free() -> None:
    code, tokens = await make_table(["Ann", "Bob"], seats=3)
    ann, bob = await seated(code, tokens, [])
    await refused(bob, {"type": "add_computer", "level": "easy"}, "not_host")
    await refused(ann, {"type": "add_computer", "level": "genius"}, "malformed")
    await refused(ann, {"type": "add_computer"}, "malformed")
    await ann.send({"type": "add_computer", "level": "strong"})
    seats = (await snapshot_of(bob))["table"]["seats"]
    assert seats[2]["computer"] == "strong" and seats[2]["name"] == "Ada"
    assert not seats[2]["stand_in"]
    await refused(ann, {"type": "add_computer", "level": "easy"}, "full")
    await ann.send({"type": "start"})
    await snapshot_of(ann)
    await refused(ann, {"type": "add_computer", "level": "easy"}, "not_lobby")
    for client in (ann, bob):
        await client.close()


async def own_move(client: Client, code: str, seat: int, version: int, tag: str) -> None:
    """The person at ``seat`` plays a legal move (chosen the way a computer would)."""
    table = await table_of(code)
    state = await database_sync_to_async(load_state)(table)
    body = decide("random", seat_view(state, seat), random.Random(version))
    await client.send(command(version, f"{tag}{version}", body))


@override_settings(
    COMPUTER_PAUSE_MS=0, FIXED_TILES=TILES, FIXED_MESSAGES=[str(m) for m in MESSAGES]
)
async def test_a_person_plays_against_a_computer_through_the_service_path() -> None:
    code, tokens = await computer_table(["easy"], ["Ann"])
    frames: list[str] = []
    (ann,) = await seated(code, tokens[:1], frames)
    await ann.send({"type": "start"})
    message = await until(ann, lambda m: m["table"]["status"] == "playing")
    turns = 0
    while turns < 6:
        pending = message["view"]["pending"]
        if pending is None:
            break
        if pending["seat"] == 0:
            await own_move(ann, code, 0, message["version"], "a")
            turns += pending["type"] == "place_tile"
        message = await next_update(ann)
    await computer.idle()
    entries = await database_sync_to_async(
        lambda: list(LogEntry.objects.filter(table__code=code).order_by("index"))
    )()
    by_computer = [entry for entry in entries if entry.action["seat"] == 1]
    assert by_computer, "the computer never moved"
    assert all(entry.command_id == f"cpu.{entry.index}" for entry in by_computer)
    assert all(
        entry.events[0] == {"type": "played_by", "seat": 1, "computer": "easy"}
        for entry in by_computer
        if not entry.automatic
    )
    assert all(entry.command_id.startswith("a") for entry in entries if entry.action["seat"] == 0)
    # The log says who played: the computer's lines name it, the person's do not.
    await ann.send({"type": "sync"})
    await ann.receive("snapshot")
    lines = [line["text"] for line in (await ann.receive("history"))["lines"]]
    assert any("Ada (computer)" in line and "places" in line for line in lines), lines
    assert not any("Ann (computer)" in line for line in lines)
    await ann.close()
    assert_nothing_hidden(frames, TILES, MESSAGES)


@override_settings(COMPUTER_PAUSE_MS=0, FIXED_TILES=TILES)
async def test_a_game_of_computers_alone_plays_only_while_someone_watches() -> None:
    code, tokens = await computer_table(["easy"], ["Ann"])
    await database_sync_to_async(start_game)(code, tokens[0])
    await database_sync_to_async(Seat.objects.filter(table__code=code, index=0).update)(
        computer="easy", stand_in=True
    )
    # Nobody connected: the computer to move waits.
    assert await database_sync_to_async(computer.due)(code) is None
    frames: list[str] = []
    count = LogEntry.objects.filter(table__code=code).count
    (watcher,) = await seated(code, [None], frames)
    for _ in range(200):  # until the first move (the short fixed bag may end the game at once)
        if await database_sync_to_async(count)():
            break
        await asyncio.sleep(0.05)
    await watcher.close()
    await computer.idle()
    played = await database_sync_to_async(count)()
    assert played >= 1
    assert await database_sync_to_async(computer.due)(code) is None
    assert await database_sync_to_async(count)() == played
    assert_nothing_hidden(frames, TILES, MESSAGES)


@override_settings(COMPUTER_PAUSE_MS=0)
async def test_a_player_leaves_and_the_host_admits_someone_new() -> None:
    code, tokens = await make_table(["Ann", "Bob", "Cy"])
    frames: list[str] = []
    ann, bob, cy = await seated(code, tokens, frames)
    await refused(ann, {"type": "leave"}, "host_seat")
    await database_sync_to_async(start_game)(code, tokens[0])
    for client in (ann, bob, cy):  # the start reaches every page, whoever started it
        await client.receive("snapshot")
        await client.receive("history")
    await bob.send({"type": "leave"})
    left = await snapshot_of(bob)
    assert left["table"]["you"] is None
    host_view = await snapshot_of(ann)
    bob_seat = host_view["table"]["seats"][1]
    assert bob_seat["vacant"] and not bob_seat["connected"]
    new_link = host_view["table"]["seat_links"][1]["url"]
    assert tokens[1] not in new_link
    await refused(bob, {"type": "leave"}, "spectator")
    # Bob's old token no longer acts.
    stale = Client(code, tokens[1], frames)
    assert (await stale.connect())["table"]["you"] is None
    # The host admits someone else: yet another link, the previous one stops working too.
    await refused(cy, {"type": "admit", "seat": 1}, "not_host")
    await refused(ann, {"type": "admit", "seat": 0}, "host_seat")
    await ann.send({"type": "admit", "seat": 1})
    admitted = await snapshot_of(ann)
    newer = admitted["table"]["seat_links"][1]["url"].split("#")[1]
    assert newer != new_link.split("#")[1]
    dan = Client(code, newer, frames)
    assert (await dan.connect())["table"]["you"] == 1
    for client in (ann, bob, cy, stale, dan):
        await client.close()


async def make_absent(code: str, seat: int, seconds: int) -> None:
    await database_sync_to_async(Seat.objects.filter(table__code=code, index=seat).update)(
        away_since=timezone.now() - timedelta(seconds=seconds)
    )


@override_settings(COMPUTER_PAUSE_MS=0, FIXED_TILES=TILES)
async def test_an_absent_seat_is_handed_to_a_computer_and_taken_back() -> None:
    code, tokens = await make_table(["Ann", "Bob", "Cy"])
    await database_sync_to_async(start_game)(code, tokens[0])
    frames: list[str] = []
    ann, bob, cy = await seated(code, tokens, frames)
    # Seat 0 (Ann) is to move. Nobody hands away a connected player's seat.
    await refused(cy, {"type": "computer_for", "seat": 0}, "not_absent")
    await refused(ann, {"type": "computer_for", "seat": 1}, "not_absent")
    await ann.close()
    # Ann is the seat to move but has just gone: too early for the other players.
    await refused(cy, {"type": "computer_for", "seat": 0}, "not_absent")
    await make_absent(code, 0, 61)
    await refused(cy, {"type": "computer_for", "seat": 0, "level": "genius"}, "malformed")
    (watcher,) = await seated(code, [None], frames)
    await refused(watcher, {"type": "computer_for", "seat": 0}, "spectator")
    # Bob is not to move: only the host could hand his seat over.
    await bob.close()
    await make_absent(code, 1, 600)
    await refused(cy, {"type": "computer_for", "seat": 1}, "not_host")
    await cy.send({"type": "computer_for", "seat": 0})
    changed = await snapshot_of(cy)
    assert changed["table"]["seats"][0]["computer"] == "strong"
    assert changed["table"]["seats"][0]["stand_in"]
    await refused(cy, {"type": "computer_for", "seat": 0}, "computer_seat")
    # The computer plays Ann's turn.
    update = await next_update(cy)
    assert update["seat"] == 0 and update["id"] == "cpu.0"
    assert any("Ann (computer)" in line["text"] for line in update["lines"])
    await computer.idle()
    # Cy cannot take Ann's seat back; Ann can, on her return.
    await refused(cy, {"type": "take_back", "seat": 0}, "not_host")
    ann = Client(code, tokens[0], frames)
    snap = await ann.connect()
    assert snap["table"]["seats"][0]["stand_in"]
    await ann.send({"type": "take_back", "seat": 0})
    while True:
        message = await ann.receive()
        if message["type"] == "snapshot" and not message["table"]["seats"][0]["computer"]:
            break
    await refused(ann, {"type": "take_back", "seat": 0}, "no_stand_in")
    # The host hands any absent seat to a computer at any time.
    await ann.send({"type": "computer_for", "seat": 1, "level": "easy"})
    seats = (await snapshot_of(ann))["table"]["seats"]
    assert seats[1]["computer"] == "easy"
    await ann.send({"type": "take_back", "seat": 1})  # the host gives it back for Bob
    while True:
        message = await ann.receive()
        if message["type"] == "snapshot" and not message["table"]["seats"][1]["computer"]:
            break
    await computer.idle()
    for client in (ann, cy, watcher):
        await client.close()
    assert_nothing_hidden(frames, TILES, MESSAGES)


async def test_the_host_sets_how_long_a_seat_may_be_away() -> None:
    code, tokens = await make_table(["Ann", "Bob"])
    ann, bob = await seated(code, tokens, [])
    assert (await ann.socket.receive_nothing(timeout=0.05)) is True
    await refused(bob, {"type": "absent_after", "seconds": 30}, "not_host")
    await refused(ann, {"type": "absent_after", "seconds": 1}, "malformed")
    await refused(ann, {"type": "absent_after", "seconds": "30"}, "malformed")
    await ann.send({"type": "absent_after", "seconds": 30})
    assert (await snapshot_of(bob))["table"]["absent_after"] == 30
    for client in (ann, bob):
        await client.close()


async def test_a_dead_thinking_process_is_replaced() -> None:
    """A worker killed from outside (out of memory, an operator) breaks its pool for good: the
    move it was making fails, and the next one starts a new pool instead of every computer of
    the process stopping."""
    from concurrent.futures.process import BrokenProcessPool

    from game.engine.play import new_game

    state, _ = new_game(["Ann", "Ada"], "c2-hig", seed=3)
    turn = computer.Due(version=0, seat=0, level="strong", state=state)
    assert (await computer._think(turn))["type"] == "place_tile"
    pool = computer._thinking_processes()
    for process in list(pool._processes.values()):  # type: ignore[attr-defined]
        process.kill()
        process.join()
    with pytest.raises(BrokenProcessPool):
        await computer._think(turn)
    assert (await computer._think(turn))["type"] == "place_tile"
    assert computer._thinking_processes() is not pool
