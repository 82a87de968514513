"""The table websocket (docs/protocol.md) through Channels' WebsocketCommunicator.

One communicator per seat plus a spectator, over the in-memory channel layer and the test
database. Every frame any of them receives is checked for hidden information.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import override_settings

from game.engine import record
from game.models import LogEntry, Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game
from game.services.seating import set_absent_after
from game.store.tables import STATES
from messengers.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

RECORDS = Path(__file__).resolve().parent.parent / "records"
TILES = ["G", "U", "E", "F", "B", "F", "U", "E", "E", "U", "U", "E", "E", "X", "U", "W"]
MESSAGES = [2, 3, 1, 8, 6, 7, 4, 5]
HIDDEN_KEYS = {"bag", "stack", "seed", "setup", "token"}
ORDER_KEYS = {"tiles", "messages"}
"""Keys that a record uses for the hidden orders; a view may use them only for other things."""
COLOURS = ["blue", "orange", "green", "yellow", "pink", "black"]


class Client:
    """A websocket at the table that keeps every frame it received, for later scanning."""

    def __init__(self, code: str, token: str | None, frames: list[str]) -> None:
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
        if token:
            headers.append((b"x-seat-token", token.encode()))
        self.socket = WebsocketCommunicator(application, f"/ws/t/{code}", headers=headers)
        self.frames = frames

    async def connect(self) -> dict[str, Any]:
        connected, _ = await self.socket.connect()
        assert connected
        snapshot = await self.receive("snapshot")
        await self.receive("history")
        return snapshot

    async def receive(self, kind: str | None = None) -> dict[str, Any]:
        """The next frame (of type ``kind``, skipping presence notices)."""
        while True:
            text = await self.socket.receive_from(timeout=5)
            self.frames.append(text)
            message = json.loads(text)
            if kind is None or message["type"] == kind:
                return message
            assert message["type"] == "presence", message

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send_to(text_data=json.dumps(message))

    async def nothing_pending(self) -> None:
        assert await self.socket.receive_nothing(timeout=0.2)

    async def close(self) -> None:
        await self.socket.disconnect()


async def make_table(
    names: list[str],
    preset: str = "c2-hig",
    overrides: dict[str, Any] | None = None,
    seats: int | None = None,
) -> tuple[str, list[str]]:
    table, creator = await database_sync_to_async(create_table)(
        preset=preset,
        overrides=overrides,
        seats=seats or len(names),
        name=names[0],
        colour=COLOURS[0],
    )
    tokens = [creator.token]
    for index, name in enumerate(names[1:], start=1):
        seat = await database_sync_to_async(join_table)(
            table.code, name=name, colour=COLOURS[index]
        )
        tokens.append(seat.token)
    return table.code, tokens


async def started_table(
    names: list[str], preset: str = "c2-hig", overrides: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    code, tokens = await make_table(names, preset, overrides)
    await database_sync_to_async(start_game)(code, tokens[0])
    return code, tokens


async def seated(code: str, tokens: Iterable[str | None], frames: list[str]) -> list[Client]:
    clients = []
    for token in tokens:
        client = Client(code, token, frames)
        await client.connect()
        clients.append(client)
    for client in clients:
        while not await client.socket.receive_nothing(timeout=0.05):
            client.frames.append(await client.socket.receive_from())
    return clients


async def restart_server(
    code: str, tokens: list[str | None], clients: list[Client], frames: list[str]
) -> list[Client]:
    """Drop every connection and the process's memory of states, as a restart would."""
    for client in clients:
        await client.close()
    STATES.clear()
    return await seated(code, tokens, frames)


def command(version: int, command_id: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "command", "version": version, "id": command_id, "command": body}


def first_placement(view: dict[str, Any]) -> dict[str, Any]:
    placement = view["pending"]["placements"][0]
    return {
        "type": "place_tile",
        "x": placement["x"],
        "y": placement["y"],
        "rotation": placement["rotations"][0],
    }


def assert_nothing_hidden(frames: list[str], tiles: list[str], messages: list[int]) -> None:
    """No frame names a hidden key, or holds the upcoming tiles or the message stack in order."""
    stack = json.dumps(messages, separators=(",", ":"))[1:-1]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            assert not HIDDEN_KEYS & set(value), sorted(HIDDEN_KEYS & set(value))
            for key in ORDER_KEYS & set(value):
                listed = value[key]
                if isinstance(listed, list) and listed:
                    assert not isinstance(listed[0], str | int), (key, listed)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for text in frames:
        walk(json.loads(text))
        compact = text.replace(" ", "")
        assert stack not in compact
        for start in range(len(tiles) - 3):
            run = ",".join(f'"{letter}"' for letter in tiles[start : start + 4])
            assert run not in compact


@override_settings(FIXED_TILES=TILES, FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_a_service_called_from_a_plain_thread_reaches_every_socket() -> None:
    """No consumer takes part: a thread of its own (as a script or a view would) submits a
    command and the host's seat change; every socket of the table receives the very same
    update, then a snapshot with the new setting (game/services/publish.py)."""
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    clients = [Client(code, token, frames) for token in (*tokens, None)]
    snapshots = [await client.connect() for client in clients]
    body = first_placement(snapshots[0]["view"])
    done: list[Any] = []

    def elsewhere() -> None:
        try:
            done.append(submit_command(code, 0, 0, "plain-1", body))
            set_absent_after(code, tokens[0], 120)
        finally:
            connection.close()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    await asyncio.to_thread(thread.join)
    assert done and done[0].version == 1
    updates = [await client.receive("update") for client in clients]
    assert updates[0] == updates[1] == updates[2]
    assert (updates[0]["id"], updates[0]["from_version"], updates[0]["version"]) == (
        "plain-1",
        0,
        1,
    )
    for client in clients:
        changed = await client.receive("snapshot")
        assert changed["table"]["absent_after"] == 120 and changed["version"] == 1
        await client.close()
    assert_nothing_hidden(frames, TILES, MESSAGES)


@override_settings(FIXED_TILES=TILES, FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_each_seat_gets_its_own_view_and_spectators_watch() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    ann = Client(code, tokens[0], frames)
    bob = Client(code, tokens[1], frames)
    spectator = Client(code, None, frames)
    snapshots = [await ann.connect(), await bob.connect(), await spectator.connect()]

    assert [s["table"]["you"] for s in snapshots] == [0, 1, None]
    # The view is the same for everyone: a page knows its seat from ``table.you``.
    assert all("you" not in s["view"] for s in snapshots)
    assert snapshots[0]["view"] == snapshots[1]["view"] == snapshots[2]["view"]
    assert snapshots[0]["table"]["creator"] and not snapshots[1]["table"]["creator"]
    assert snapshots[0]["table"]["rejoin_url"].endswith(tokens[0])
    assert snapshots[1]["table"]["rejoin_url"].endswith(tokens[1])
    assert snapshots[2]["table"]["rejoin_url"] is None
    # Only the host holds the others' personal links, to hand to a player who lost theirs.
    assert [link["url"].split("#")[1] for link in snapshots[0]["table"]["seat_links"]] == tokens
    assert snapshots[1]["table"]["seat_links"] is None
    assert tokens[0] not in json.dumps(snapshots[1]) and tokens[0] not in json.dumps(snapshots[2])
    assert snapshots[0]["view"]["pending"]["type"] == "place_tile"
    assert snapshots[0]["view"]["tile"] == TILES[0]

    await ann.send(command(0, "a1", first_placement(snapshots[0]["view"])))
    updates = [await client.receive("update") for client in (ann, bob, spectator)]
    # One serialised update serves every socket of the table: the same frame for each.
    assert updates[0] == updates[1] == updates[2] and "you" not in updates[0]["view"]
    assert {(u["from_version"], u["version"], u["id"]) for u in updates} == {(0, 1, "a1")}
    assert updates[1]["lines"] and updates[1]["events"][0]["type"] == "tile_placed"
    for client in (ann, bob, spectator):
        await client.close()
    assert_nothing_hidden(frames, TILES, MESSAGES)


@override_settings(FIXED_TILES=TILES, FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_refused_commands_change_nothing_and_keep_the_connection() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    ann, bob, spectator = await seated(code, [tokens[0], tokens[1], None], frames)
    await ann.send({"type": "sync"})
    view = (await ann.receive("snapshot"))["view"]
    await ann.receive("history")
    place = first_placement(view)

    async def refused(client: Client, message: dict[str, Any] | str, code_: str) -> None:
        if isinstance(message, str):
            await client.socket.send_to(text_data=message)
        else:
            await client.send(message)
        error = await client.receive("error")
        assert error["code"] == code_, error
        assert error["message"]

    await refused(bob, command(0, "b1", place), "not_your_turn")
    # protocol.md, not_your_turn: whatever the seat sent, even a command of the wrong type.
    await refused(bob, command(0, "b2", {"type": "skip_follower"}), "not_your_turn")
    await refused(spectator, command(0, "s1", place), "spectator")
    await refused(ann, command(5, "a0", place), "stale")
    await refused(ann, "{not json", "bad_json")
    await refused(ann, "[1, 2]", "bad_json")
    await refused(ann, {"type": "teleport"}, "unknown_type")
    await refused(ann, command(0, "a2", {"type": "place_tile", "x": 0}), "malformed")
    await refused(ann, command(0, "", place), "malformed")
    await refused(ann, {"type": "command", "id": "a3", "command": place}, "malformed")
    await refused(ann, command(0, "a4", {**place, "x": 40}), "illegal")
    await refused(ann, command(0, "a5", {"type": "skip_follower"}), "illegal")
    await refused(bob, {"type": "start"}, "not_creator")
    await refused(ann, {"type": "start"}, "not_ready")
    await refused(spectator, {"type": "preference", "figure": "meeple"}, "spectator")
    await refused(ann, {"type": "preference", "figure": "horse"}, "malformed")
    assert await database_sync_to_async(LogEntry.objects.count)() == 0

    await ann.send(command(0, "a6", place))
    assert (await ann.receive("update"))["version"] == 1
    await refused(ann, command(0, "a6", place), "duplicate")
    await refused(ann, command(1, "a6", {"type": "skip_follower"}), "duplicate")
    await refused(ann, command(0, "a7", place), "stale")
    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert table.version == 1
    assert await database_sync_to_async(LogEntry.objects.count)() == 1

    await ann.send(command(1, "a8", {"type": "skip_follower"}))
    assert (await bob.receive("update"))["version"] == 1
    assert (await bob.receive("update"))["version"] == 2
    assert (await ann.receive("update"))["version"] == 2
    # A board game has no undo (protocol.md, command): illegal for the player who made the entry
    # and for anyone else, never a word about the host.
    for client, command_id in ((ann, "a9"), (bob, "b3")):
        await client.send(command(2, command_id, {"type": "undo"}))
        error = await client.receive("error")
        assert error["code"] == "illegal", error
        assert "only for game nights" in error["message"] and "host" not in error["message"]
    for client in (ann, bob, spectator):
        await client.close()
    assert_nothing_hidden(frames, TILES, MESSAGES)


async def test_an_unknown_table_closes_with_4404() -> None:
    socket = WebsocketCommunicator(
        application, "/ws/t/nosuchtb", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await socket.connect()
    # Accepted first: a refusal before the handshake would reach the browser as HTTP 403, and
    # the browser, never seeing 4404, would retry for ever.
    assert connected
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_a_wrong_token_watches_as_a_spectator() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    client = Client(code, tokens[0][:-2] + "xx", frames)
    snapshot = await client.connect()
    assert snapshot["table"]["you"] is None and snapshot["table"]["rejoin_url"] is None
    await client.send(command(0, "w1", first_placement(snapshot["view"])))
    assert (await client.receive("error"))["code"] == "spectator"
    await client.close()


async def test_a_token_in_the_url_seats_nobody() -> None:
    """Access logs keep URLs: a token is taken from the X-Seat-Token header only."""
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    in_url = Client(code, None, frames)
    in_url.socket = WebsocketCommunicator(
        application,
        f"/ws/t/{code}?token={tokens[0]}",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    snapshot = await in_url.connect()
    assert snapshot["table"]["you"] is None
    await in_url.close()
    in_header = Client(code, tokens[0], frames)
    assert (await in_header.connect())["table"]["you"] == 0
    await in_header.close()


async def test_lobby_join_start_and_presence_are_live() -> None:
    code, tokens = await make_table(["Ann"], overrides={"alone_rule": True}, seats=3)
    frames: list[str] = []
    ann = Client(code, tokens[0], frames)
    lobby = await ann.connect()
    assert lobby["table"]["status"] == "lobby" and lobby["view"] is None
    assert lobby["table"]["options"]["alone_rule"] is True
    assert [s["connected"] for s in lobby["table"]["seats"]] == [True]

    await ann.send({"type": "start"})
    assert (await ann.receive("error"))["code"] == "not_ready"

    # A service function called from no consumer at all still tells every page (publish.py).
    bob_seat = await database_sync_to_async(join_table)(code, name="Bob", colour="green")
    joined = await ann.receive("snapshot")
    assert [s["name"] for s in joined["table"]["seats"]] == ["Ann", "Bob"]
    bob = Client(code, bob_seat.token, frames)
    await bob.connect()
    presence = await ann.receive("presence")
    assert presence["seats"] == [
        {"seat": 0, "connected": True, "away_seconds": 0, "offer_in": None},
        {"seat": 1, "connected": True, "away_seconds": 0, "offer_in": None},
    ]

    await ann.send({"type": "start"})
    started = await bob.receive("snapshot")
    assert started["table"]["status"] == "playing"
    assert [p["name"] for p in started["view"]["players"]] == ["Ann", "Bob"]
    history = await bob.receive("history")
    assert any("Ann" in line["text"] for line in history["lines"])
    assert (await ann.receive("snapshot"))["table"]["status"] == "playing"
    await ann.receive("history")

    await bob.close()
    presence = await ann.receive("presence")
    # Every page counts down to the same moment: when the others are offered a computer.
    absent_after = started["table"]["absent_after"]
    assert presence["seats"][1] == {
        "seat": 1,
        "connected": False,
        "away_seconds": 0,
        "offer_in": absent_after,
    }
    await ann.close()


@pytest.mark.parametrize(
    "name",
    ["board-c2hig-all-messages", "board-c3-all-messages", "board-c2zmg-alone-rule"],
)
async def test_a_recorded_game_played_over_websockets_ends_as_its_replay(name: str) -> None:
    """Every seat sends its own actions of a hand-checked record; the table ends in the state
    the record replays to, every seat saw every message reveal, and nothing hidden leaked."""
    game = json.loads((RECORDS / f"{name}.json").read_text())
    expected = record.replay(game).state
    with override_settings(
        FIXED_TILES=game["tiles"], FIXED_MESSAGES=[str(m) for m in game["messages"]]
    ):
        code, tokens = await started_table(game["players"], game["preset"], game.get("options"))
    STATES.clear()
    frames: list[str] = []
    clients = await seated(code, [*tokens, None], frames)
    seen_messages: list[list[int]] = [[] for _ in clients]
    version = 0
    for index, action in enumerate(game["actions"]):
        body = {key: value for key, value in action.items() if key != "seat"}
        await clients[action["seat"]].send(command(version, f"c{index}", body))
        for number, client in enumerate(clients):
            update = await client.receive("update")
            assert update["from_version"] == version, update
            seen_messages[number] += [
                e["message"] for e in update["events"] if e["type"] == "message_drawn"
            ]
        version = update["version"]
        if index == len(game["actions"]) // 2:
            clients = await restart_server(code, [*tokens, None], clients, frames)
        if update["view"]["finished"]:
            for client in clients:
                final = await client.receive("snapshot")
                assert final["table"]["status"] == "finished"
                assert final["table"]["record_url"]
                breakdown = final["table"]["final_scoring"]
                scores = [p["score"] for p in final["view"]["players"]]
                assert [sum(row.values()) for row in breakdown] == scores
    for client in clients:
        await client.close()

    table = await database_sync_to_async(Table.objects.get)(code=code)
    assert table.version == expected.version == len(game["actions"])
    assert [p["score"] for p in update["view"]["players"]] == [p.score for p in expected.players]
    assert update["view"]["finished"] == expected.finished
    drawn = [e["message"] for e in record.replay(game).events if e["type"] == "message_drawn"]
    assert drawn and all(messages == drawn for messages in seen_messages)
    assert_nothing_hidden(frames, game["tiles"], game["messages"])


async def test_a_standing_preference_answers_figure_prompts_by_itself() -> None:
    """Ann's city scores at once; with "messenger" set, the server picks the figure for her."""
    tiles = ["E", "U", "E"]
    with override_settings(FIXED_TILES=tiles, FIXED_MESSAGES=[str(m) for m in MESSAGES]):
        code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    ann, bob = await seated(code, tokens, frames)
    await ann.send({"type": "preference", "figure": "messenger"})
    snapshot = await bob.receive("snapshot")
    assert snapshot["table"]["seats"][0]["preference"] == "messenger"
    await ann.receive("snapshot")
    # A preference changes the table, not the game: no history is re-sent.
    await ann.nothing_pending()
    await bob.nothing_pending()

    await ann.send(command(0, "p1", {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}))
    await bob.receive("update")
    await ann.send(command(1, "p2", {"type": "place_follower", "feature": "city", "at": "S"}))
    update = await bob.receive("update")
    assert update["from_version"] == 1 and update["version"] == 3
    points = [e for e in update["events"] if e["type"] == "points"]
    assert len(points) == 1
    assert points[0]["seat"] == 0 and points[0]["figure"] == "messenger"
    assert update["view"]["players"][0]["messenger"] == points[0]["points"] > 0
    log = await database_sync_to_async(
        lambda: list(LogEntry.objects.order_by("index").values_list("automatic", "command_id"))
    )()
    assert log == [(False, "p1"), (False, "p2"), (True, "")]
    for client in (ann, bob):
        await client.close()


async def test_asking_again_leaves_the_prompt_to_the_player() -> None:
    tiles = ["E", "U", "E"]
    with override_settings(FIXED_TILES=tiles, FIXED_MESSAGES=[str(m) for m in MESSAGES]):
        code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    (ann,) = await seated(code, tokens[:1], frames)
    await ann.send(command(0, "q1", {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}))
    await ann.receive("update")
    await ann.send(command(1, "q2", {"type": "place_follower", "feature": "city", "at": "S"}))
    update = await ann.receive("update")
    assert update["view"]["pending"]["type"] == "choose_figure"
    options = {o["figure"]: o for o in update["view"]["pending"]["options"]}
    assert options["meeple"]["to"] == 4 and options["messenger"]["to"] == 4

    await ann.send({"type": "preference", "figure": "meeple"})
    answered = await ann.receive("update")
    assert answered["from_version"] == 2 and answered["version"] == 3
    assert answered["view"]["players"][0]["meeple"] == 4
    await ann.close()


async def test_an_unknown_or_misplaced_key_is_refused_naming_it() -> None:
    """protocol.md, "Error codes", malformed: a key that a frame or its command may not carry is
    refused with the key named in ``field``, and nothing is applied. At a tabletop game the
    host's entry naming its ``seat`` inside the command once counted for the host's own seat."""

    def make() -> tuple[str, list[str]]:
        table, host = create_table(
            preset="c3", mode="tabletop", seats=2, name="Ann", colour=COLOURS[0]
        )
        bob = join_table(table.code, name="Bob", colour=COLOURS[1])
        start_game(table.code, host.token)
        return table.code, [host.token, bob.token]

    code, tokens = await database_sync_to_async(make)()
    frames: list[str] = []
    (host,) = await seated(code, [tokens[0]], frames)
    table = await database_sync_to_async(Table.objects.get)(code=code)
    version = table.version
    score_for_bob = {"type": "score", "seat": 1, "points": 4}
    for frame, field in (
        (command(version, "h1", score_for_bob), "seat"),
        ({**command(version, "h2", {"type": "score", "points": 4}), "as_seat": 1}, "as_seat"),
        ({"type": "ping", "version": version}, "version"),
        ({"type": "sync", "seat": 1}, "seat"),
        (command(version, "h3", {"type": "score", "points": 4, "pionts": 5}), "pionts"),
    ):
        await host.send(frame)
        error = await host.receive("error")
        assert (error["code"], error.get("field")) == ("malformed", field), error
        assert repr(field) in error["message"], error
    after = await database_sync_to_async(Table.objects.get)(code=code)
    assert after.version == version
    assert await database_sync_to_async(LogEntry.objects.filter(table=after).count)() == 0
    # The same entry, its seat beside the command as the protocol says, is Bob's.
    await host.send({**command(version, "h4", {"type": "score", "points": 4}), "seat": 1})
    update = await host.receive("update")
    assert (update["version"], update["seat"]) == (version + 1, 1), update
    await host.close()


async def test_a_frame_that_finds_the_database_away_is_told_to_try_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL (or Redis) away while a frame is handled: ``unavailable``, worth trying again,
    with one warning line, never ``server_error`` with a traceback; the socket stays open."""
    from django.db import OperationalError

    import game.live.consumers

    code, tokens = await started_table(["Ann", "Bob"])
    (ann,) = await seated(code, [tokens[0]], [])

    def away(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(game.live.consumers, "submit_command", away)
    with caplog.at_level("WARNING"):
        await ann.send(command(0, "u1", {"type": "skip_follower"}))
        error = await ann.receive("error")
    assert error["code"] == "unavailable", error
    assert "try again in a moment" in error["message"]
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    await ann.send({"type": "ping"})
    assert (await ann.receive("pong"))["type"] == "pong"
    await ann.close()
