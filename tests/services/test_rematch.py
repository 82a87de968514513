""" "Play again" over the websocket (docs/protocol.md, `rematch`): who may ask, when, and that
every page of the finished table is sent to one new table, each seat's pages with that seat's new
token and no other.

The games are two tiles long (MESSENGERS_FIXED_TILES), in the 1st edition's rules, where the
figures merge by themselves: four commands end them.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient
from django.test import override_settings

from game.models import Seat, Table
from game.services.lobby import LobbyError, create_table, join_table, rematch, start_game
from tests.live.test_consumers import Client, assert_nothing_hidden, command, make_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TILES = ["W", "E"]
MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]
SHORT_GAME = [
    {"type": "place_tile", "x": 1, "y": 0, "rotation": 0},
    {"type": "skip_follower"},
    {"type": "place_tile", "x": 0, "y": -1, "rotation": 180},
    {"type": "skip_follower"},
]
"""Every decision of the short game; seat 0 makes the first two, seat 1 the others."""

short_stacks = override_settings(FIXED_TILES=TILES, FIXED_MESSAGES=[str(m) for m in MESSAGES])


async def started(names: list[str]) -> tuple[str, list[str]]:
    """A started 1st-edition table with `names` seated in that order."""
    code, tokens = await make_table(names, preset="c1-zmg")
    await database_sync_to_async(start_game)(code, tokens[0])
    return code, tokens


async def finish(clients: list[Client]) -> None:
    """Play the short game to its end, seat 0 then seat 1, and let every page see it."""
    for version, body in enumerate(SHORT_GAME):
        player = clients[0] if version < 2 else clients[1]
        await player.send(command(version, f"c{version}", body))
        for client in clients:
            await client.receive("update")
    for client in clients:
        snapshot = await client.receive("snapshot")
        assert snapshot["table"]["status"] == "finished"
        assert snapshot["table"]["rematch"] is None


async def seated(code: str, tokens: list[str | None]) -> list[Client]:
    """A connected page for each token (None: a spectator), each keeping its own frames."""
    clients = []
    for token in tokens:
        client = Client(code, token, [])
        await client.connect()
        clients.append(client)
    for client in clients:
        await drain(client)
    return clients


async def drain(client: Client) -> list[dict[str, Any]]:
    """Every frame that reaches `client` until it has been quiet for a moment."""
    received = []
    while not await client.socket.receive_nothing(timeout=0.2):
        text = await client.socket.receive_from()
        client.frames.append(text)
        received.append(json.loads(text))
    return received


def new_token(rejoin_url: str | None) -> str | None:
    return None if rejoin_url is None else rejoin_url.split("#", 1)[1]


@database_sync_to_async
def tables_count() -> int:
    return Table.objects.count()


@database_sync_to_async
def seats_of(code: str) -> list[tuple[str, str, str]]:
    """(name, colour, token) of every seat, in seat order."""
    return list(Seat.objects.filter(table__code=code).values_list("name", "colour", "token"))


@database_sync_to_async
def http_get(path: str) -> tuple[int, dict[str, Any]]:
    response = HttpClient().get(path)
    return response.status_code, json.loads(response.content)


@short_stacks
async def test_play_again_moves_every_page_with_only_its_own_token() -> None:
    code, tokens = await started(["Ann", "Bob", "Cat"])
    ann, bob, cat, watcher, second_ann = clients = await seated(code, [*tokens, None, tokens[0]])

    await finish(clients)
    await bob.send({"type": "rematch"})
    moves = [await client.receive("rematch") for client in clients]

    assert len({move["code"] for move in moves}) == 1
    new_code = moves[0]["code"]
    assert new_code != code
    assert {move["url"] for move in moves} == {f"/t/{new_code}"}
    assert {move["projector_url"] for move in moves} == {f"/t/{new_code}/projector"}
    seats = await seats_of(new_code)
    # The same players, in the same order, turned by one: Bob starts, Ann is last.
    assert [(name, colour) for name, colour, _ in seats] == [
        ("Bob", "orange"),
        ("Cat", "green"),
        ("Ann", "blue"),
    ]
    new_tokens = {name: token for name, _, token in seats}
    assert not set(new_tokens.values()) & set(tokens)
    received = [new_token(move["rejoin_url"]) for move in moves]
    assert received == [
        new_tokens["Ann"],
        new_tokens["Bob"],
        new_tokens["Cat"],
        None,
        new_tokens["Ann"],
    ]
    for client, own in zip(clients, received, strict=True):
        others = set(new_tokens.values()) - {own}
        text = "".join(client.frames)
        assert not any(token in text for token in others), "a page received another seat's token"
        assert_nothing_hidden(client.frames, TILES, MESSAGES)

    # The new table has started, with the same rules, and links back to the finished game.
    new = await database_sync_to_async(Table.objects.get)(code=new_code)
    old = await database_sync_to_async(Table.objects.get)(code=code)
    assert new.status == Table.Status.PLAYING
    assert (new.preset, new.overrides, new.mode, new.max_seats) == (
        old.preset,
        old.overrides,
        old.mode,
        old.max_seats,
    )
    assert new.setup["players"] == ["Bob", "Cat", "Ann"]
    bob_there = Client(new_code, new_tokens["Bob"], [])
    snapshot = await bob_there.connect()
    assert snapshot["table"]["you"] == 0
    assert snapshot["view"]["pending"] == {**snapshot["view"]["pending"], "seat": 0}
    assert snapshot["table"]["previous"] == {
        "code": code,
        "url": f"/t/{code}",
        "record_url": f"/t/{code}/record.json",
    }
    await bob_there.close()

    # The finished game's record stays downloadable.
    status, record = await http_get(f"/t/{code}/record.json")
    assert status == 200
    assert record["players"] == ["Ann", "Bob", "Cat"]
    assert len(record["actions"]) == len(SHORT_GAME)
    for client in clients:
        await client.close()


@short_stacks
async def test_a_second_press_goes_to_the_same_table_and_moves_only_its_page() -> None:
    code, tokens = await started(["Ann", "Bob"])
    ann, bob, watcher = clients = await seated(code, [*tokens, None])
    await finish(clients)
    before = await tables_count()

    # Two players press at once, and Ann a second time: one new table. The first press moves
    # all three pages; each later one is answered to its own page only.
    await asyncio.gather(ann.send({"type": "rematch"}), bob.send({"type": "rematch"}))
    await ann.send({"type": "rematch"})
    moves = [[m for m in await drain(client) if m["type"] == "rematch"] for client in clients]
    assert [len(m) for m in moves] in ([2, 2, 1], [3, 1, 1])
    codes = {move["code"] for received in moves for move in received}
    assert len(codes) == 1
    assert await tables_count() == before + 1

    # A late visitor to the old table finds the way: the snapshot names the next game, with the
    # visitor's own seat there and nobody else's.
    late_ann = Client(code, tokens[0], [])
    snapshot = await late_ann.connect()
    rematch_info = snapshot["table"]["rematch"]
    (new_code,) = codes
    assert rematch_info["code"] == new_code
    assert new_token(rematch_info["rejoin_url"]) == (await seats_of(new_code))[1][2]
    late_watcher = Client(code, None, [])
    assert (await late_watcher.connect())["table"]["rematch"]["rejoin_url"] is None
    for client in (*clients, late_ann, late_watcher):
        await client.close()


@short_stacks
async def test_a_rematch_is_refused_before_the_end_and_to_spectators() -> None:
    code, tokens = await started(["Ann", "Bob"])
    ann, bob, watcher = clients = await seated(code, [*tokens, None])
    before = await tables_count()

    await ann.send({"type": "rematch"})
    error = await ann.receive("error")
    assert error["code"] == "not_finished"
    assert error["message"] == "A rematch can start once the game is over."

    await finish(clients)
    await watcher.send({"type": "rematch"})
    error = await watcher.receive("error")
    assert error["code"] == "spectator"
    assert await tables_count() == before
    for client in clients:
        assert [m["type"] for m in await drain(client) if m["type"] != "presence"] == []
        await client.close()


@short_stacks
async def test_a_wrong_token_is_refused_by_the_service() -> None:
    code, tokens = await started(["Ann", "Bob"])
    with pytest.raises(LobbyError) as refused:
        await database_sync_to_async(rematch)(code, "not-a-seat")
    assert refused.value.code == "not_player"
    with pytest.raises(LobbyError) as refused:
        await database_sync_to_async(rematch)(code, None)
    assert refused.value.code == "not_player"


@short_stacks
async def test_a_rematch_of_a_rematch_moves_the_start_player_on_again() -> None:
    code, tokens = await started(["Ann", "Bob"])
    clients = await seated(code, tokens)
    await finish(clients)
    await clients[0].send({"type": "rematch"})
    moves = [await client.receive("rematch") for client in clients]
    for client in clients:
        await client.close()

    second = moves[0]["code"]
    new_tokens = [new_token(move["rejoin_url"]) for move in moves]
    assert [name for name, _, _ in await seats_of(second)] == ["Bob", "Ann"]
    # Bob starts the second game (seat 0 there, holding Ann's page's second token).
    bob, ann = await seated(second, [new_tokens[1], new_tokens[0]])
    await finish([bob, ann])
    await ann.send({"type": "rematch"})
    third = (await ann.receive("rematch"))["code"]
    assert [name for name, _, _ in await seats_of(third)] == ["Ann", "Bob"]
    for client in (bob, ann):
        await client.close()


@short_stacks
async def test_a_tabletop_rematch_keeps_the_mode_and_turns_the_seats() -> None:
    table, host = await database_sync_to_async(create_table)(
        preset="c1-zmg", mode="tabletop", seats=3, name="Ann", colour="blue"
    )
    bob = await database_sync_to_async(join_table)(table.code, name="Bob", colour="orange")
    await database_sync_to_async(start_game)(table.code, host.token)
    ann_page, bob_page = clients = await seated(table.code, [host.token, bob.token])

    await bob_page.send({"type": "rematch"})
    assert (await bob_page.receive("error"))["code"] == "not_finished"
    for version, body in enumerate([{"type": "end_game"}, {"type": "finish"}]):
        await ann_page.send(command(version, f"t{version}", body))
        for client in clients:
            await client.receive("update")
    for client in clients:
        assert (await client.receive("snapshot"))["table"]["status"] == "finished"
    await bob_page.send({"type": "rematch"})
    moves = [await client.receive("rematch") for client in clients]

    new = await database_sync_to_async(Table.objects.get)(code=moves[0]["code"])
    assert (new.mode, new.max_seats, new.status) == ("tabletop", 3, Table.Status.PLAYING)
    seats = await seats_of(new.code)
    assert [name for name, _, _ in seats] == ["Bob", "Ann"]
    assert [new_token(move["rejoin_url"]) for move in moves] == [seats[1][2], seats[0][2]]
    # Bob starts from seat 0 now; Ann, at seat 1, keeps the host's console.
    bob_there = Client(new.code, seats[0][2], [])
    assert (await bob_there.connect())["table"]["creator"] is False
    ann_there = Client(new.code, seats[1][2], [])
    snapshot = await ann_there.connect()
    assert snapshot["table"]["creator"] is True
    assert [link["seat"] for link in snapshot["table"]["seat_links"]] == [0, 1]
    for client in (*clients, bob_there, ann_there):
        await client.close()


@database_sync_to_async
def host_name(code: str) -> str:
    table = Table.objects.get(code=code)
    return Seat.objects.get(table=table, token=table.host_token).name


@short_stacks
async def test_the_host_keeps_the_role_at_their_new_seat() -> None:
    """The seats turn (Bob starts the rematch), but Ann, who hosted, hosts again."""
    code, tokens = await started(["Ann", "Bob"])
    clients = await seated(code, tokens)
    await finish(clients)
    await clients[1].send({"type": "rematch"})
    moves = [await client.receive("rematch") for client in clients]
    for client in clients:
        await client.close()
    new = moves[0]["code"]
    assert [name for name, _, _ in await seats_of(new)] == ["Bob", "Ann"]
    assert await host_name(new) == "Ann"


@short_stacks
@override_settings(TABLES_PER_HOUR=2)
async def test_play_again_in_a_loop_counts_against_the_new_tables_limit() -> None:
    """ "Play again" makes a table as the home page's form does, and counts against the same
    hourly limit of the sender's address: ending a tabletop game, finishing and playing again in
    a loop once made 40 tables in 9 s while the form answered 429."""
    table, host = await database_sync_to_async(create_table)(
        preset="c1-zmg", mode="tabletop", seats=2, name="Ann", colour="blue"
    )
    await database_sync_to_async(join_table)(table.code, name="Bob", colour="orange")
    await database_sync_to_async(start_game)(table.code, host.token)
    code, token = table.code, host.token
    for round_ in range(3):
        (page,) = await seated(code, [token])
        for version, body in enumerate([{"type": "end_game"}, {"type": "finish"}]):
            await page.send(command(version, f"r{round_}-{version}", body))
            await page.receive("update")
        await page.receive("snapshot")
        before = await tables_count()
        await page.send({"type": "rematch"})
        if round_ < 2:
            move = await page.receive("rematch")
            code, token = move["code"], new_token(move["rejoin_url"])
            assert await tables_count() == before + 1
        else:
            error = await page.receive("error")
            assert error["code"] == "too_many_tables", error
            assert "at most 2 an hour" in error["message"]
            assert await tables_count() == before
        await page.close()

    @database_sync_to_async
    def post_form(address: str) -> int:
        form = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Cy", "colour": "blue"}
        return HttpClient(REMOTE_ADDR=address).post("/tables", form).status_code

    # The sockets' address ("unknown" under the test communicator) used up the form's count too.
    assert await post_form("unknown") == 429
    assert await post_form("192.0.2.1") == 302
