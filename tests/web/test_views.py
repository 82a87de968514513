"""What a seat sees of a running game (views.py): the drawn tile, how many tiles and messages are
left, the decision the game waits for; never the order of the tile bag or the message stack.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.engine import views
from game.engine.record import replay
from game.engine.state import GameState
from game.words.views import public_view_json
from tests.scenario import Game

RECORDS = Path(__file__).resolve().parent.parent / "records"
SEATS = (0, 1, None)


def _lists(value: object) -> list[list]:
    """Every list inside a JSON-like value."""
    found: list[list] = []
    if isinstance(value, dict):
        for item in value.values():
            found += _lists(item)
    elif isinstance(value, list):
        found.append(value)
        for item in value:
            found += _lists(item)
    return found


def _assert_hides_the_orders(state: GameState, bag: tuple, stack: tuple) -> None:
    """No view holds the remaining bag or stack as a list, and views do not change when both
    are put in another order (``bag``, ``stack``: that other order; the messages trade places
    in the setup's initial order too, of which the stack is a turn by the draws so far, a
    public count)."""
    assert sorted(bag) == sorted(state.bag)
    assert bag != state.bag or len(set(bag)) < 2
    assert sorted(stack) == sorted(state.stack)
    assert stack != state.stack
    moved = dict(zip(state.stack, stack, strict=True))
    setup = replace(state.setup, messages=tuple(moved.get(m, m) for m in state.setup.messages))
    other = replace(state, setup=setup, bag=bag, stack=stack)
    for seat in SEATS:
        shown = views.view(state, seat)
        text = json.dumps(shown)
        for order in (list(state.bag), list(state.stack)):
            if len(order) >= 2:
                assert order not in _lists(shown)
                assert json.dumps(order) not in text
        assert not {"bag", "stack", "seed", "log", "setup"} & set(shown)
        assert json.dumps(views.view(other, seat)) == text


def _assert_same_for_every_seat(state: GameState) -> None:
    """Every seat and a spectator see the same public facts; only ``you`` differs."""
    spectator = views.view(state, None)
    assert spectator["you"] is None
    for seat in range(len(state.players)):
        shown = views.view(state, seat)
        assert shown["you"] == seat
        assert shown | {"you": None} == spectator


def test_first_turn_view_shows_tile_counts_and_placements() -> None:
    """views.py: at the first turn every seat sees the drawn E, 2 tiles and 8 messages left, and
    that Ann must place it: north of the start tile turned 180 (city to city), or south of it
    turned 90, 180 or 270 (its field side north). rules/base-game.md Rules, Placing."""
    g = Game("c2-hig", tiles=["E", "U", "V"], messages=[3, 1, 4, 2, 5, 6, 7, 8])
    for seat in SEATS:
        shown = views.view(g.state, seat)
        assert shown["tile"] == "E"
        assert shown["tiles_left"] == 2
        assert shown["messages_in_stack"] == 8
        assert shown["revealed"] is None
        assert shown["active_seat"] == 0
        pending = shown["pending"]
        assert (pending["seat"], pending["type"], pending["tile"]) == (0, "place_tile", "E")
        cells = {(p["x"], p["y"]): sorted(p["rotations"]) for p in pending["placements"]}
        assert cells == {(0, -1): [180], (0, 1): [90, 180, 270]}
    _assert_same_for_every_seat(g.state)
    _assert_hides_the_orders(g.state, ("V", "U"), (8, 7, 6, 5, 2, 4, 1, 3))


def test_follower_decision_view() -> None:
    """views.py: after Ann places the E north of the start tile, everyone sees that she may put
    a follower on its city (S) or its field, with 7 followers in supply."""
    g = Game("c2-hig", tiles=["E", "U", "V"]).place(0, -1, 180)
    for seat in SEATS:
        shown = views.view(g.state, seat)
        assert shown["tile"] is None
        assert shown["tiles_left"] == 2
        pending = shown["pending"]
        assert (pending["seat"], pending["type"]) == (0, "place_follower")
        assert (pending["x"], pending["y"], pending["followers_in_supply"]) == (0, -1, 7)
        spots = sorted((spot["feature"], spot.get("at")) for spot in pending["spots"])
        assert [kind for kind, _ in spots] == ["city", "field"]
        assert ("city", "S") in spots
    _assert_same_for_every_seat(g.state)
    _assert_hides_the_orders(g.state, ("V", "U"), (8, 7, 6, 5, 4, 3, 2, 1))


def test_revealed_message_view() -> None:
    """rules/messengers.md §4 (c2-zmg message 8) and views.py: in the c2-zmg record, after Ann
    closes the 4-tile city (10 points, meeple on 10), the revealed message 8 is public, 7 messages
    stay in the stack, 9 tiles are left, and the choices are 2 points or returning her farmer at
    (0, -3), worth 3 (one completed city), scoring optional."""
    record = json.loads((RECORDS / "board-c2zmg-alone-rule.json").read_text(encoding="utf-8"))
    record["actions"] = record["actions"][:7]
    state = replay(record).state
    for seat in SEATS:
        shown = views.view(state, seat)
        assert shown["revealed"]["seat"] == 0
        assert shown["revealed"]["message"] == 8
        assert shown["revealed"]["action"] == "score_and_return"
        assert shown["messages_in_stack"] == 7
        assert shown["tiles_left"] == 9
        assert shown["tile"] is None
        assert shown["players"][0]["meeple"] == 10
        assert shown["players"][0]["meeple_space"] == 10
        pending = shown["pending"]
        assert (pending["seat"], pending["type"], pending["message"]) == (0, "resolve_message", 8)
        choices = sorted(pending["choices"], key=lambda choice: choice["choice"])
        assert choices[0]["choice"] == "action"
        assert choices[0]["points"] == 3
        assert choices[0]["score_optional"] is True
        assert (choices[0]["x"], choices[0]["y"], choices[0]["feature"]) == (0, -3, "field")
        assert choices[1] == {
            "choice": "points",
            "points": 2,
            "command": {"type": "resolve_message", "choice": "points"},
        }
        assert len(choices) == 2
    worded = json.loads(public_view_json(state))["pending"]["choices"]
    assert [choice["label"] for choice in worded] == [
        "Take 2 points",
        "Score 3 points and return the farmer",
    ]
    _assert_same_for_every_seat(state)
    bag = tuple(reversed(state.bag))
    _assert_hides_the_orders(state, bag, tuple(reversed(state.stack)))


def test_next_turn_view_after_the_message() -> None:
    """views.py: once message 8 is resolved it goes under the stack (8 again), and Bob sees his
    drawn E with 8 tiles left."""
    record = json.loads((RECORDS / "board-c2zmg-alone-rule.json").read_text(encoding="utf-8"))
    record["actions"] = record["actions"][:8]
    state = replay(record).state
    for seat in SEATS:
        shown = views.view(state, seat)
        assert shown["revealed"] is None
        assert shown["messages_in_stack"] == 8
        assert (shown["tile"], shown["tiles_left"], shown["active_seat"]) == ("E", 8, 1)
        assert (shown["pending"]["seat"], shown["pending"]["type"]) == (1, "place_tile")
    _assert_same_for_every_seat(state)
    _assert_hides_the_orders(state, tuple(reversed(state.bag)), tuple(reversed(state.stack)))


def test_tabletop_view() -> None:
    """views.py in tabletop mode: no tile and no bag count, the message count, the open round
    that Ann ends, and Bob's drawn message in his turn."""
    g = Game("c2-hig", mode="tabletop", messages=[3, 1, 2, 4, 5, 6, 7, 8])
    g.score(0, 2, "meeple").score(1, 3, "messenger")
    for seat in SEATS:
        shown = views.view(g.state, seat)
        assert "tile" not in shown and "tiles_left" not in shown
        assert shown["messages_in_stack"] == 8
        pending = shown["pending"]
        assert (pending["seat"], pending["type"], pending["may_end_game"]) == (0, "end_turn", False)
    _assert_hides_the_orders(g.state, (), (8, 7, 6, 5, 4, 2, 1, 3))
    g.end_turn().score(1, 2, "messenger").end_turn()
    for seat in SEATS:
        shown = views.view(g.state, seat)
        assert shown["messages_in_stack"] == 7
        assert shown["revealed"]["message"] == 3
        assert shown["revealed"]["action"] == "smallest_monastery"
        assert (shown["pending"]["seat"], shown["pending"]["type"]) == (1, "resolve_message")
    _assert_same_for_every_seat(g.state)
    _assert_hides_the_orders(g.state, (), (8, 7, 6, 5, 4, 2, 1))


def test_the_hiding_check_can_fail(monkeypatch) -> None:
    """The assertion used above catches a view that shows the next tile or the bag."""
    g = Game("c2-hig", tiles=["E", "U", "V"])
    original = views.view

    def leaky_next(state: GameState, seat: int | None = None) -> dict:
        return original(state, seat) | {"next": state.bag[0] if state.bag else None}

    def leaky_list(state: GameState, seat: int | None = None) -> dict:
        return original(state, seat) | {"upcoming": list(state.bag)}

    for leaky in (leaky_next, leaky_list):
        monkeypatch.setattr(views, "view", leaky)
        with pytest.raises(AssertionError):
            _assert_hides_the_orders(g.state, ("V", "U"), (8, 7, 6, 5, 4, 3, 2, 1))


def test_the_console_sees_the_turn_figure_and_the_messages_drawn_this_turn() -> None:
    """rules/messengers.md §3 figure_choice = per_turn and messages_per_turn = 1 (c3): what the
    scoreboard console needs to tell which figure takes a seat's points and whether a dark space
    can still draw a message this turn."""
    g = Game("c3", mode="tabletop", messages=[3, 1, 2, 4, 5, 6, 7, 8])
    shown = views.view(g.state)
    assert [p["turn_figure"] for p in shown["players"]] == [None, None]
    assert shown["messages_this_turn"] == 0
    g.score(0, 5, "messenger").score(1, 2, "meeple").end_turn()
    shown = views.view(g.state)
    assert [p["turn_figure"] for p in shown["players"]] == ["messenger", "meeple"]
    assert shown["messages_this_turn"] == 1
    assert shown["options"]["messages_per_turn"] == 1
    g.resolve("points")
    shown = views.view(g.state)
    assert shown["active_seat"] == 1
    assert [p["turn_figure"] for p in shown["players"]] == [None, None]
    assert shown["messages_this_turn"] == 0


def test_tiles_left_by_kind_counts_the_catalogue_minus_the_tiles_seen() -> None:
    """rules/base-game.md (the 72 land tiles and their counts) and views.py: in a game with the full
    bag, the tiles left by kind are the catalogue's count of each letter minus the tiles on the
    board and the one in hand, so any player could count them; they are the same for every
    seat, add up to ``tiles_left`` and do not depend on the bag's order."""
    from game.engine.tiles import CATALOGUE

    g = Game("c2-hig", tiles=None)
    for _ in range(2):
        cell = g.pending["placements"][0]
        g.place(cell["x"], cell["y"], cell["rotations"][0]).skip()
    state = g.state
    seen = [tile["tile"] for tile in views.board_view(state.board)["tiles"]] + [state.tile]
    shown = [views.view(state, seat)["tiles_left_by_kind"] for seat in SEATS]
    assert shown[0] == shown[1] == shown[2]
    assert list(shown[0]) == list(CATALOGUE)
    for letter, tile in CATALOGUE.items():
        assert shown[0][letter] == tile.count - seen.count(letter), letter
    assert (
        sum(shown[0].values()) == views.view(state)["tiles_left"] == 72 - 4
    )  # start, 2 placed, 1 in hand
    reordered = replace(state, bag=tuple(reversed(state.bag)))
    assert views.view(reordered)["tiles_left_by_kind"] == shown[0]
