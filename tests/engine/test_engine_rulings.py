"""The engine's own rulings and conventions (docs/engine.md, "Rulings and conventions of the
engine"), where neither the digest nor the sources settle a question, and the guarantees of
``apply`` on bad input (game/engine/errors.py; docs/engine.md, "How a command is applied"): an
illegal command raises a specific error and changes nothing."""

from __future__ import annotations

import pytest

from game.engine import commands as cmd
from game.engine.errors import GameOver, IllegalCommand, MalformedCommand, NotYourDecision
from game.engine.play import apply
from tests.scenario import Game


@pytest.mark.parametrize("chain", [True, False])
def test_extra_tile_scoring_may_earn_a_message_whatever_chain_says(chain):
    """docs/engine.md ruling "chain = no" (rules/messengers.md §4 One more tile: its scoring "may
    yield further messages"). The layout of test_messages_extra_tile.py: Ann's column city puts
    her meeple on 10 and draws "one more tile" (c2 number 4); the extra W completes a 2-tile road
    with her follower: her messenger goes 3 -> 5 and the next message is drawn, with chain on
    and with chain off."""
    g = Game(
        "c2-hig",
        tiles=["W", "W", "F", "G", "E", "W", "U"],
        messages=[4, 1, 2, 3, 5, 6, 7, 8],
        options={"chain": chain},
    )
    g.place(1, 0, 0).follower("road", "W")
    g.place(-1, 0, 0).skip().figure("messenger", seat=0)
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(0, -3, 180).follower("city", "S").figure("meeple")
    assert g.drawn_messages() == [4]
    g.resolve("action").place(2, 0, 0).follower("road", "W").figure("messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (10, 5)
    assert g.drawn_messages() == [4, 1]


@pytest.mark.parametrize("chain", [True, False])
def test_extra_tile_scoring_at_the_table_may_earn_a_message_whatever_chain_says(chain):
    """docs/engine.md ruling "chain = no", tabletop: Ann's 5 draws "one more tile" (c2 number
    4); the extra tile's 5 more points land her meeple on 10 and draw again, with chain on or
    off. Message 1's "2 points" (meeple 12) draws nothing."""
    g = Game("c2-hig", mode="tabletop", messages=[4, 1, 2, 3, 5, 6, 7, 8], options={"chain": chain})
    g.score(0, 5, "meeple").end_turn()
    g.resolve("action")
    assert g.pending["type"] == "end_turn"
    assert g.pending["extra_tile"] is True
    g.score(0, 5, "meeple").end_turn()
    assert g.drawn_messages() == [4, 1]
    g.resolve("points").figure("meeple")
    assert g.player(0).meeple == 12
    assert g.drawn_messages() == [4, 1]
    assert g.pending["seat"] == 1


def _play_first_choice(g: Game, *, ann_places_followers: bool) -> None:
    """One decision: the first legal placement; Ann takes the last offered spot if asked to."""
    waiting = g.pending
    if waiting["type"] == "place_tile":
        placement = waiting["placements"][0]
        g.place(placement["x"], placement["y"], placement["rotations"][0])
    elif waiting["type"] == "place_follower":
        if ann_places_followers and waiting["seat"] == 0 and waiting["spots"]:
            spot = waiting["spots"][-1]
            g.follower(spot["feature"], spot.get("at"))
        else:
            g.skip()
    else:
        g.figure("meeple")


def test_empty_supply_still_asks_and_offers_no_spot():
    """rules/base-game.md Followers (7 per player) with docs/engine.md ("skip_follower is always an
    explicit decision"): a seat whose supply is empty is still asked place_follower, with no
    spot offered; placing one is refused and changes nothing; skip_follower is accepted."""
    g = Game("c1-zmg", tiles=["U"] * 8 + ["V"] * 9 + ["B"] * 4 + ["W"] * 4)
    while g.player(0).followers:
        _play_first_choice(g, ann_places_followers=True)
    while not (g.pending["seat"] == 0 and g.pending["type"] == "place_follower"):
        _play_first_choice(g, ann_places_followers=False)
    assert g.pending["spots"] == []
    assert g.pending["followers_in_supply"] == 0
    before = g.state
    with pytest.raises(IllegalCommand, match="no follower left"):
        g.follower("road", "N")
    assert g.state is before
    placed = len(g.of_type("follower_placed"))
    g.skip()
    assert g.state.version == before.version + 1
    assert len(g.of_type("follower_placed")) == placed


def test_turn_counts_turns_begun_and_the_game_ends_without_a_new_turn():
    """docs/engine.md "Turns": turn 1 is seat 0's first; when no tile is left the game ends
    without beginning a turn, so the last turn number is the number of tiles placed."""
    g = Game("c1-zmg", tiles=["U", "U", "U"])
    assert (g.state.turn, g.state.active) == (1, 0)
    g.place(0, 1, 90).skip()
    assert (g.state.turn, g.state.active) == (2, 1)
    g.place(0, 2, 90).skip()
    g.place(0, 3, 90).skip()
    assert g.state.finished
    assert g.state.turn == 3
    assert [e["turn"] for e in g.of_type("turn_started")] == [1, 2, 3]


def test_final_scoring_events_carry_the_category():
    """docs/engine.md "Final scoring": points with reason final and a category, roads before
    cities before monasteries before fields. Ann: a road follower on the start road (incomplete,
    2 tiles: 2) and a farmer in the field south of it (no completed city: nothing)."""
    g = Game("c1-zmg", tiles=["U", "E"])
    g.place(1, 0, 90).follower("road", "W")
    g.place(1, 1, 180).skip()  # Bob's E south of the U: its own city; the start city stays open
    assert g.state.finished
    finals = [e for e in g.of_type("points") if e["reason"] == "final"]
    # Road: start tile + U = 2 tiles. City of the start tile: nobody. Field: nobody.
    assert [(e["seat"], e["points"], e["category"]) for e in finals] == [(0, 2, "road")]
    assert g.player(0).meeple == 2


def test_end_game_at_the_table_only_between_turns():
    """docs/engine.md "Tabletop mode": end_game is accepted before any score of the turn is
    entered, refused after one; the turn interrupted by end_game does not take place."""
    g = Game("c1-zmg", mode="tabletop")
    g.score(0, 3, "meeple")
    before = g.state
    with pytest.raises(IllegalCommand, match="between turns"):
        g.end_game(1)
    assert g.state is before
    g.end_turn()
    assert g.pending["may_end_game"] is True
    g.end_game(1)
    assert g.pending["type"] == "finish"
    g.score(1, 7).finish()
    assert g.state.finished
    assert g.of_type("game_over")[-1]["scores"] == [3, 7]


def test_one_more_tile_is_always_offered_at_the_table():
    """docs/engine.md "Tabletop mode": the app cannot see the physical bag, so "one more tile"
    is offered as an action (the points are not computed by the app)."""
    g = Game("c2-hig", mode="tabletop", messages=[4, 1, 2, 3, 5, 6, 7, 8])
    g.score(0, 5, "meeple").end_turn()
    choices = g.pending["choices"]
    assert {c["choice"] for c in choices} == {"points", "action"}


def test_score_false_is_accepted_where_scoring_gives_nothing():
    """docs/engine.md: message 8 offers a follower without majority for 0 points
    (``any_meeple_score_if_majority``, c2-hig, Bob's road of test_messages_score_and_return.py);
    "score": false says the same thing and is accepted, while on a target worth points it is
    refused where the edition makes scoring compulsory."""
    from tests.engine.test_messages_score_and_return import ANN_FARMER_F, ANN_ROAD_AT_1_0, bobs_road

    g = bobs_road("c2-hig")
    before = g.state
    with pytest.raises(IllegalCommand, match="skip the scoring"):
        g.resolve("action", score=False, **ANN_FARMER_F)
    assert g.state is before
    g.resolve("action", score=False, **ANN_ROAD_AT_1_0)
    assert g.of_type("message_resolved")[-1]["points"] == 0
    assert g.of_type("follower_returned")[-1]["x"] == 1


# Bad input changes nothing ---------------------------------------------------------------------


def test_wrong_seat_is_refused_and_changes_nothing():
    """errors.py: a command from a seat that is not to decide raises NotYourDecision."""
    g = Game("c2-hig", tiles=["E", "U"])
    before = g.state
    with pytest.raises(NotYourDecision):
        apply(g.state, 1, cmd.PlaceTile(0, -1, 180))
    with pytest.raises(NotYourDecision):
        apply(g.state, 7, cmd.PlaceTile(0, -1, 180))
    assert g.state is before


def test_wrong_command_type_is_refused():
    """errors.py: a command of the wrong type for the decision raises IllegalCommand naming
    what the game waits for."""
    g = Game("c2-hig", tiles=["E", "U"])
    with pytest.raises(IllegalCommand, match="waits for placing a tile"):
        apply(g.state, 0, cmd.SkipFollower())


def test_commands_after_the_end_are_refused():
    """errors.py: once the game is over every command raises GameOver."""
    g = Game("c1-zmg", tiles=["U"])
    g.place(0, 1, 90).skip()
    assert g.state.finished
    with pytest.raises(GameOver):
        apply(g.state, 0, cmd.SkipFollower())


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place_tile", "x": 0, "y": "1", "rotation": 0},
        {"type": "place_tile", "x": 0, "y": 1, "rotation": 45},
        {"type": "place_follower", "feature": "castle", "at": "N"},
        {"type": "place_follower", "feature": "road", "at": "Q"},
        {"type": "choose_figure", "figure": "wagon"},
        {"type": "resolve_message", "choice": "maybe"},
        {"type": "resolve_message", "choice": "points", "score": "no"},
        {"type": "score", "points": 0},
        {"type": "score", "points": True},
        {"type": "score", "points": 5000},
        {"type": "teleport"},
        [],
    ],
)
def test_malformed_commands_are_refused(action):
    """errors.py, bad input gets a clear error: malformed commands raise MalformedCommand."""
    with pytest.raises(MalformedCommand):
        cmd.parse_command(action)


def test_smallest_road_tie_takes_the_first_by_position_and_names_it():
    """rules/messengers.md §4 Smallest road, Ruling (ties): either tied road may be scored (the
    points are the same); the engine takes the first in a stable order (by position: x, then y) and
    says which. Ann's road A = start tile + U east of it (2 tiles); road B = V south of the
    start tile + V west of that (2 tiles). B's westmost tile (-1, 1) comes first.

              x=-1     x=0      x=1
        y= 0           D ====== U        road A (Ann on the U)
        y= 1  V ====== V                 road B (Ann on the V at (0, 1))
    """
    from game.engine.board import Board
    from game.engine.messengers import MessageAction, action_offer

    board = Board.start().place("U", 1, 0, 90)
    board = board.with_follower(0, board.segment_named(1, 0, "road", "W"))
    board = board.place("V", 0, 1, 0)
    board = board.with_follower(0, board.segment_named(0, 1, "road", "W"))
    board = board.place("V", -1, 1, 180)
    road_a = board.feature_at(board.segment_named(1, 0, "road", "W"))
    road_b = board.feature_at(board.segment_named(0, 1, "road", "W"))
    assert road_a.id != road_b.id
    assert (len(road_a.tiles), len(road_b.tiles)) == (2, 2)
    offer = action_offer(board, 0, MessageAction.SMALLEST_ROAD, tiles_left=True)
    assert offer is not None
    assert offer.points == 2
    assert board.describe(offer.feature) == {"x": -1, "y": 1, "feature": "road", "at": "N"}


@pytest.mark.parametrize(
    ("mode", "resolution"),
    [
        ("board", {"choice": "points", "points": 2}),
        ("board", {"choice": "points", "x": 0, "y": 0, "feature": "road", "at": "E"}),
        ("board", {"choice": "action", "points": 6}),
        ("board", {"choice": "action", "score": False}),
        ("tabletop", {"choice": "action", "x": 0, "y": 0, "feature": "road", "at": "E"}),
        ("tabletop", {"choice": "points", "score": False}),
    ],
)
def test_message_keys_that_the_resolution_does_not_use_are_refused(mode, resolution):
    """rules/record-format.md, targets of resolve_message; docs/engine.md: a key that the chosen way
    of resolving does not use is refused rather than silently ignored, so that a record never
    holds it. Ann draws message 6 (c2: 2 points per knight): at the table after entering 5
    points, on the board after closing the column city of test_messages.py (10 points)."""
    if mode == "tabletop":
        g = Game("c2-hig", mode="tabletop", messages=[6, 1, 2, 3, 4, 5, 7, 8])
        g.score(0, 5, "meeple").end_turn()
    else:
        from tests.engine.test_messages import column_game, stack

        g = column_game("c2-hig", stack("c2-hig", "knights"))
    assert g.pending["type"] == "resolve_message"
    before = g.state
    with pytest.raises(IllegalCommand):
        g.send(cmd.ResolveMessage(**resolution), seat=0)
    assert g.state is before


def test_a_record_action_with_an_unknown_key_is_refused():
    """rules/record-format.md Actions; errors.py, bad input gets a clear error: an action key that
    the action type does not take is named in the error, not ignored."""
    with pytest.raises(MalformedCommand, match="'rotate'"):
        cmd.parse_command({"type": "place_tile", "x": 0, "y": 1, "rotation": 0, "rotate": 90})
    with pytest.raises(MalformedCommand, match="needs 'rotation'"):
        cmd.parse_command({"type": "place_tile", "x": 0, "y": 1})


def test_a_command_that_is_not_a_command_is_refused():
    """errors.py, malformed input gets a clear error: apply refuses a raw dictionary (the
    web layer must parse it first) with a MalformedCommand."""
    g = Game("c2-hig", tiles=["E"])
    with pytest.raises(MalformedCommand):
        apply(g.state, 0, {"type": "place_tile", "x": 0, "y": -1, "rotation": 180})
