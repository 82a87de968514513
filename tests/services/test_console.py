"""The tabletop scoreboard console over the websocket (docs/protocol.md: ``seat`` on a command,
``undo``, ``add_player``): the host enters for every seat, players for their own; undo is
recorded, never silent, and never shows the message stack."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from game.engine import record
from game.models import LogEntry, Seat, Table
from game.services.lobby import create_table, join_table, start_game
from game.store.tables import record_of
from tests.live.test_consumers import Client, assert_nothing_hidden, seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MESSAGES = [3, 1, 4, 5, 2, 6, 7, 8]


def texts(update: dict[str, Any]) -> list[str]:
    """An update's lines, as text."""
    return [line["text"] for line in update["lines"]]


def command(version: int, command_id: str, body: dict[str, Any], seat: int | None = None):
    message = {"type": "command", "version": version, "id": command_id, "command": body}
    if seat is not None:
        message["seat"] = seat
    return message


async def tabletop_lobby(preset: str = "c2-hig", seats: int = 3) -> tuple[str, str]:
    table, host = await database_sync_to_async(create_table)(
        preset=preset, mode="tabletop", seats=seats, name="Ann", colour="blue"
    )
    return table.code, host.token


async def ann_hosts_bob_on_his_phone(frames: list[str]) -> tuple[str, Client, Client]:
    """A started two-seat tabletop game: Ann (the host) added Bob, who then opened his seat on a
    device of his own."""
    code, host_token = await tabletop_lobby(seats=2)
    (host,) = await seated(code, [host_token], frames)
    await host.send({"type": "add_player", "name": "Bob", "colour": "orange"})
    await host.receive("snapshot")
    await host.send({"type": "start"})
    await host.receive("snapshot")
    await host.receive("history")
    bob_token = await database_sync_to_async(
        lambda: Seat.objects.get(table__code=code, index=1).token
    )()
    (bob,) = await seated(code, [bob_token], frames)
    return code, host, bob


async def update_at(client: Client, version: int) -> dict[str, Any]:
    """The client's update to ``version``, skipping earlier ones."""
    update = await client.receive("update")
    while update["version"] < version:
        update = await client.receive("update")
    return update


async def error_code(client: Client) -> str:
    error = await client.receive("error")
    assert error["message"]
    return error["code"]


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_the_host_seats_players_and_enters_a_whole_turn_for_them() -> None:
    code, host_token = await tabletop_lobby()
    frames: list[str] = []
    (host,) = await seated(code, [host_token], frames)

    await host.send({"type": "add_player", "name": "Bob", "colour": "orange"})
    lobby = await host.receive("snapshot")
    assert [s["name"] for s in lobby["table"]["seats"]] == ["Ann", "Bob"]
    await host.send({"type": "add_player", "name": "Cy", "colour": "orange"})
    assert await error_code(host) == "lobby"
    await host.send({"type": "start"})
    started = await host.receive("snapshot")
    await host.receive("history")
    assert started["table"]["status"] == "playing"
    links = started["table"]["seat_links"]
    assert [link["seat"] for link in links] == [0, 1]

    bob_token = await database_sync_to_async(
        lambda: Seat.objects.get(table__code=code, index=1).token
    )()
    assert links[1]["url"].endswith(bob_token)
    (bob,) = await seated(code, [bob_token], frames)

    # Ann's tile: she scores 3 for a road on her messenger, the host enters 5 for Bob's city.
    await host.send(
        command(0, "h1", {"type": "score", "points": 3, "figure": "messenger", "category": "road"})
    )
    await host.receive("update")
    await host.send(
        command(
            1, "h2", {"type": "score", "points": 5, "figure": "meeple", "category": "city"}, seat=1
        )
    )
    update = await update_at(bob, 2)
    assert update["view"]["players"][1]["meeple"] == 5
    assert texts(update) == [
        "\u2068Bob\u2069 scores 5 points for a city; the meeple lands on 5 (dark space)"
    ]
    await host.send(command(2, "h3", {"type": "end_turn"}))
    update = await update_at(host, 3)
    await update_at(bob, 3)
    # Bob's 5 is a dark space, but only the active player draws: no message; Bob's turn.
    assert update["view"]["revealed"] is None
    assert update["view"]["active_seat"] == 1

    # The host ends Bob's turn for him; Bob himself may not act for Ann.
    await bob.send(command(3, "b1", {"type": "score", "points": 2}, seat=0))
    assert await error_code(bob) == "not_host"
    await host.send(command(3, "h4", {"type": "end_turn"}, seat=1))
    update = await update_at(host, 4)
    assert update["seat"] == 1 and update["view"]["active_seat"] == 0
    entries = await database_sync_to_async(
        lambda: list(LogEntry.objects.filter(table__code=code).values_list("action", flat=True))
    )()
    assert [(a["seat"], a["type"]) for a in entries] == [
        (0, "score"),
        (1, "score"),
        (0, "end_turn"),
        (1, "end_turn"),
    ]
    for client in (host, bob):
        await client.close()
    assert_nothing_hidden(frames, [], MESSAGES)


async def test_only_the_host_of_a_tabletop_game_adds_players_or_acts_for_others() -> None:
    table, ann = await database_sync_to_async(create_table)(
        preset="c2-hig", seats=2, name="Ann", colour="blue"
    )
    frames: list[str] = []
    (host,) = await seated(table.code, [ann.token], frames)
    await host.send({"type": "add_player", "name": "Bob", "colour": "orange"})
    assert await error_code(host) == "not_tabletop"
    await host.close()

    code, host_token = await tabletop_lobby()
    (spectator,) = await seated(code, [None], frames)
    await spectator.send({"type": "add_player", "name": "Eve", "colour": "green"})
    assert await error_code(spectator) == "not_creator"
    await spectator.close()


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_undo_over_the_websocket_puts_a_drawn_message_back_unseen() -> None:
    frames: list[str] = []
    code, host, bob = await ann_hosts_bob_on_his_phone(frames)

    await host.send(command(0, "h1", {"type": "score", "points": 5, "figure": "meeple"}))
    await host.send(command(1, "h2", {"type": "end_turn"}))
    update = await update_at(bob, 2)
    await update_at(host, 2)
    assert update["view"]["revealed"]["message"] == 3
    assert update["view"]["messages_in_stack"] == 7

    # Bob may not take back Ann's entry; the host may.
    await bob.send(command(2, "b1", {"type": "undo"}))
    assert await error_code(bob) == "not_yours"
    await host.send(command(2, "h3", {"type": "undo"}))
    update = await bob.receive("update")
    assert update["version"] == 3
    assert update["view"]["revealed"] is None
    assert update["view"]["messages_in_stack"] == 8
    assert update["view"]["pending"]["type"] == "end_turn"
    assert update["events"] == [
        {"type": "undone", "seat": 0, "action": {"seat": 0, "type": "end_turn"}}
    ]
    assert texts(update) == ["Undone by \u2068Ann\u2069: \u2068Ann\u2069 ends the turn"]
    await update_at(host, 3)
    await host.send(command(3, "h3", {"type": "undo"}))
    assert await error_code(host) == "duplicate"

    # Ending the turn again reveals the same message: the stack kept its order.
    await host.send(command(3, "h4", {"type": "end_turn"}))
    update = await bob.receive("update")
    assert update["view"]["revealed"]["message"] == 3
    for client in (host, bob):
        await client.close()
    assert_nothing_hidden(frames, [], MESSAGES)


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_players_enter_and_undo_their_own_points_and_a_finished_game_reopens() -> None:
    table, host_seat = await database_sync_to_async(create_table)(
        preset="c1-zmg", mode="tabletop", seats=2, name="Ann", colour="blue"
    )

    bob_seat = await database_sync_to_async(join_table)(table.code, name="Bob", colour="orange")
    await database_sync_to_async(start_game)(table.code, host_seat.token)
    frames: list[str] = []
    host, bob = await seated(table.code, [host_seat.token, bob_seat.token], frames)

    await bob.send(command(0, "b1", {"type": "score", "points": 4, "figure": "messenger"}))
    await bob.receive("update")
    await bob.send(command(1, "b2", {"type": "undo"}))
    update = await bob.receive("update")
    assert update["view"]["players"][1]["score"] == 0
    assert update["view"]["undoable"] is None
    await update_at(host, 2)

    # The game ends; a final score is corrected after the ranking was shown.
    steps = [
        ({"type": "end_game"}, None),
        ({"type": "score", "points": 7, "category": "city"}, None),
        ({"type": "score", "points": 2, "category": "field"}, 1),
        ({"type": "finish"}, None),
    ]
    version = 2
    for index, (body, seat) in enumerate(steps):
        await host.send(command(version, f"h{index}", body, seat))
        update = await host.receive("update")
        version = update["version"]
    assert update["view"]["finished"]
    finished = await host.receive("snapshot")
    assert finished["table"]["status"] == "finished"
    assert finished["table"]["final_scoring"][0]["city"] == 7

    await host.send(command(version, "h9", {"type": "undo"}))
    await host.receive("update")
    reopened = await host.receive("snapshot")
    assert reopened["table"]["status"] == "playing"
    await host.send(command(version + 1, "h10", {"type": "undo"}))
    await host.receive("update")
    await host.send(
        command(version + 2, "h11", {"type": "score", "points": 3, "category": "field"}, 1)
    )
    await host.receive("update")
    await host.send(command(version + 3, "h12", {"type": "finish"}))
    update = await host.receive("update")
    assert [p["score"] for p in update["view"]["players"]] == [7, 3]
    final = await host.receive("snapshot")
    assert final["table"]["final_scoring"][1]["field"] == 3

    saved = await database_sync_to_async(lambda: record_of(Table.objects.get(code=table.code)))()
    replayed = record.replay(saved).state
    assert replayed.finished and [p.score for p in replayed.players] == [7, 3]
    assert [a["type"] for a in saved["actions"]].count("undo") == 3
    for client in (host, bob):
        await client.close()


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_the_host_sets_the_usual_figure_of_a_player_without_a_device() -> None:
    """A score entered for Bob without a figure goes on his usual figure, set by the host; the
    figure choice the server makes for him is in the log as an automatic entry."""
    frames: list[str] = []
    code, host, bob = await ann_hosts_bob_on_his_phone(frames)

    await bob.send({"type": "preference", "figure": "meeple", "seat": 0})
    assert await error_code(bob) == "not_host"
    await host.send({"type": "preference", "figure": "messenger", "seat": 1})
    snapshot = await host.receive("snapshot")
    assert [s["preference"] for s in snapshot["table"]["seats"]] == ["ask", "messenger"]

    await host.send(command(0, "h1", {"type": "score", "points": 4}, seat=1))
    update = await update_at(host, 2)
    assert update["view"]["players"][1]["messenger"] == 4
    automatic = await database_sync_to_async(
        lambda: list(LogEntry.objects.filter(table__code=code).values_list("action", "automatic"))
    )()
    assert automatic == [
        ({"seat": 1, "type": "score", "points": 4}, False),
        ({"seat": 1, "type": "choose_figure", "figure": "messenger"}, True),
    ]
    # Undo takes back the score together with the choice made for it.
    await host.send(command(2, "h2", {"type": "undo"}))
    update = await update_at(host, 4)
    assert update["view"]["players"][1]["score"] == 0
    assert update["view"]["pending"]["type"] == "end_turn"
    for client in (host, bob):
        await client.close()
