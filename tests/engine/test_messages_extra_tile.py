"""Scenario tests for rules/messengers.md §4 "One more tile / extra turn" (option ``extra_tile``) in
board mode. Tabletop mode is in test_messages_tabletop.py.

The board (hand-built; x grows east, y grows south):

              x=-1        x=0        x=1        x=2
        y=-3              E
        y=-2              G
        y=-1              F
        y= 0  W (jct) === D ======== W (jct) == [W (jct)]   <- the extra tile / extra turn
              ||                     ||         ||

Turns:
1. Ann W (1,0) turned 0 (roads E, S, W end at its junction) + follower on its west road, which
   is the start tile's road.
2. Bob W (-1,0) turned 0: the start road now ends at two junctions: complete, 3 tiles, 3 points
   for Ann, which she puts on her messenger (3). Her follower comes back.
3. Ann F (0,-1) turned 90. 4. Bob G (0,-2) turned 90.
5. Ann closes the column with E (0,-3): 10 on her meeple (dark): she draws "one more tile".
   The next land tile is a W: placed at (2,0) turned 0, its west road and the east road of (1,0)
   make a road of 2 tiles between two junctions: complete, 2 points for Ann's follower placed on
   it; on her messenger 3 + 2 = 5, a dark space again.
"""

from __future__ import annotations

import pytest

from game.engine.errors import IllegalCommand
from tests.engine.test_messages import TWO_POINTS, action_choices, assert_paid, choose, stack
from tests.scenario import Game

IMMEDIATE = ("c1-zmg", "c2-hig", "c2-zmg")


def extra_tile_game(preset: str, messages: list[int], *, tiles_after: tuple[str, ...]) -> Game:
    """Turns 1 to 5 above; the game then waits for Ann to resolve the message."""
    g = Game(preset, tiles=["W", "W", "F", "G", "E", *tiles_after], messages=messages)
    g.place(1, 0, 0).follower("road", "W")
    g.place(-1, 0, 0).skip().figure("messenger", seat=0)
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(0, -3, 180).follower("city", "S").figure("meeple")
    assert (g.player(0).meeple, g.player(0).messenger) == (10, 3)
    return g


def index_of(g: Game, kind: str, start: int = 0, **keys) -> int:
    """The index of the first event of ``kind`` with these keys, from ``start`` on."""
    return next(
        i
        for i, event in enumerate(g.events)
        if i >= start and event["type"] == kind and all(event.get(k) == v for k, v in keys.items())
    )


@pytest.mark.parametrize("preset", IMMEDIATE)
def test_one_more_tile_is_a_nested_placement_that_can_chain(preset):
    """rules/messengers.md §4 One more tile, ``extra_tile = immediate`` (c1-zmg, c2-hig, c2-zmg):
    Ann draws a tile and places it now, with her own follower phase and scoring phase; its scoring
    lands her messenger on 5 and draws the next message (chain); after that the turn ends and
    play passes to Bob. No new turn begins for the extra tile."""
    messages = stack(preset, "extra_tile", "smallest_road")
    g = extra_tile_game(preset, messages, tiles_after=("W", "U"))
    assert g.pending["action"] == "extra_tile"
    assert action_choices(g) == [{"choice": "action", "points": 0}]
    turns_before = len(g.of_type("turn_started"))

    g.resolve("action")
    assert_paid(g, 0)
    assert g.pending["type"] == "place_tile"
    assert (g.pending["seat"], g.pending["tile"]) == (0, "W")
    g.place(2, 0, 0)
    assert g.pending["type"] == "place_follower"
    assert g.pending["seat"] == 0
    g.follower("road", "W")
    assert g.pending["type"] == "choose_figure"
    assert (g.pending["seat"], g.pending["points"], g.pending["reason"]) == (0, 2, "road")
    g.figure("messenger")
    assert g.player(0).messenger == 5

    # The chained message: the next one of the stack (smallest road: Ann has no road left).
    assert g.drawn_messages() == messages[:2]
    assert g.pending["type"] == "resolve_message"
    assert g.pending["seat"] == 0
    assert g.pending["choices"] == [TWO_POINTS]
    g.resolve("points").figure("meeple")
    assert (g.player(0).meeple, g.player(0).messenger) == (12, 5)
    assert g.player(0).followers == 7

    # Then the turn is over: Bob's turn, with the tile after the extra one.
    assert len(g.of_type("turn_started")) == turns_before + 1
    assert g.of_type("turn_started")[-1]["seat"] == 1
    assert g.pending["type"] == "place_tile"
    assert (g.pending["seat"], g.pending["tile"]) == (1, "U")
    # Order: first message resolved, extra tile placed by Ann, its points, the chained draw.
    first = index_of(g, "message_resolved", message=messages[0])
    placed = index_of(g, "tile_placed", first, x=2, y=0)
    scored = index_of(g, "points", first, reason="road", points=2)
    chained = index_of(g, "message_drawn", first, message=messages[1])
    bob = index_of(g, "turn_started", first, seat=1)
    assert first < placed < scored < chained < bob
    assert g.events[placed]["seat"] == 0
    assert g.replayed() == g.state


@pytest.mark.parametrize("preset", IMMEDIATE)
def test_one_more_tile_discards_a_tile_that_fits_nowhere(preset):
    """rules/messengers.md §4 One more tile (immediate): "if it cannot be placed anywhere, it is
    discarded and another drawn, as usual". After the column closes no city edge is open, so
    the C (city on all four edges) fits nowhere and the W after it is drawn instead."""
    g = extra_tile_game(preset, stack(preset, "extra_tile"), tiles_after=("C", "W", "U"))
    g.resolve("action")
    assert g.of_type("tile_discarded")[-1]["tile"] == "C"
    assert g.pending["type"] == "place_tile"
    assert (g.pending["seat"], g.pending["tile"]) == (0, "W")


@pytest.mark.parametrize("preset", IMMEDIATE)
def test_one_more_tile_without_a_message_just_ends_the_turn(preset):
    """rules/messengers.md §4 One more tile (immediate): "Afterwards the interrupted turn resumes
    where it was; if nothing remains of it, play passes on": the extra tile scores nothing (no
    follower), no message, Bob's turn follows."""
    g = extra_tile_game(preset, stack(preset, "extra_tile"), tiles_after=("W", "U"))
    g.resolve("action").place(2, 0, 0).skip()
    assert g.drawn_messages() == [stack(preset, "extra_tile")[0]]
    assert g.pending["type"] == "place_tile"
    assert (g.pending["seat"], g.pending["tile"]) == (1, "U")
    assert (g.player(0).meeple, g.player(0).messenger) == (10, 3)


def test_extra_turn_is_a_whole_turn_after_the_current_one():
    """rules/messengers.md §4 extra_turn (c3): resolving the message gives nothing now; after the
    current turn ends, Ann takes one more complete turn (a new turn: turn_started, the figure is
    chosen afresh, the message cap starts again), which earns its own message (her messenger
    lands on 3 + 2 = 5); then play continues clockwise with Bob."""
    messages = stack("c3", "extra_tile", "smallest_city")
    g = extra_tile_game("c3", messages, tiles_after=("W", "U"))
    assert g.pending["action"] == "extra_tile"
    assert action_choices(g) == [{"choice": "action", "points": 0}]
    g.resolve("action")
    assert_paid(g, 0)
    resolved = index_of(g, "message_resolved", message=messages[0])
    extra = index_of(g, "extra_turn", seat=0)
    started = [e for e in g.events[resolved:] if e["type"] == "turn_started"]
    assert resolved < extra
    assert [e["seat"] for e in started] == [0]
    assert started[0]["turn"] == 6
    assert g.pending["type"] == "place_tile"
    assert (g.pending["seat"], g.pending["tile"]) == (0, "W")

    g.place(2, 0, 0).follower("road", "W")
    # A new turn: the meeple was Ann's figure in turn 5, now she may choose again.
    assert g.pending["type"] == "choose_figure"
    g.figure("messenger")
    assert g.player(0).messenger == 5
    assert g.drawn_messages() == messages[:2]
    assert g.pending["type"] == "resolve_message"
    assert g.pending["choices"] == [TWO_POINTS]  # smallest city: Ann has no city
    g.resolve("points")
    choose(g, "messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (10, 7)
    assert g.of_type("turn_started")[-1] == {"type": "turn_started", "seat": 1, "turn": 7}
    assert g.pending["type"] == "place_tile"
    assert (g.pending["seat"], g.pending["tile"]) == (1, "U")


@pytest.mark.parametrize("preset", ("c1-zmg", "c2-hig", "c2-zmg", "c3"))
def test_one_more_tile_not_offered_when_no_tile_is_left(preset):
    """rules/messengers.md §4 Ruling "if no land tiles remain to be drawn, this action is not
    offered; only 2 points is": the column's E was the last land tile."""
    g = extra_tile_game(preset, stack(preset, "extra_tile"), tiles_after=())
    assert g.pending["action"] == "extra_tile"
    assert g.pending["choices"] == [TWO_POINTS]
    with pytest.raises(IllegalCommand):
        g.resolve("action")
