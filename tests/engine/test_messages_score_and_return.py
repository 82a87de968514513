"""Scenario tests for rules/messengers.md §4 "Score a meeple and return it" (message 8 in every set)
in its four readings (option ``score_and_return``), board mode.

Two hand-built boards (x grows east, y grows south), both on the 6-tile road of
``tests.engine.test_messages.six_tile_road_game``:

                   x=-1       x=0        x=1       x=2
        y=-3                   E
        y=-2                   G
        y=-1                   F
        y= 0        .----------D----------.        B
                    |                     |
        y= 1   -----'          .----------'
            (open W)           |
                            (open S)

The road: (-1,1) (-1,0) (0,0) (1,0) (1,1) (0,1), open at both ends: 6 tiles, worth 6 as in
final scoring (1 per tile).

* Board "Bob's road": Ann 1 follower (on (1,0)), Bob 2 ((0,1), (-1,1)): Bob has the majority.
  Ann also has a farmer on F's east field (0,-1): a field touching only the column city, which
  is complete once the column closes: 3 points.
* Board "Ann's road": Ann 2 followers ((0,1), (-1,1)), Bob 1 ((1,0)): Ann has the majority.
  Ann also has a farmer on G's east field (0,-2): 3 points likewise.

In both, Ann's knight of the column came back when the city was scored, before the message.
"""

from __future__ import annotations

import pytest

from game.engine.errors import IllegalCommand
from tests.engine.test_messages import (
    SPARE,
    TWO_POINTS,
    action_choices,
    assert_paid,
    choose,
    close_column,
    followers_on_board,
    last_resolution,
    six_tile_road_game,
)
from tests.scenario import Game

MESSAGE_8 = [8, 1, 2, 3, 4, 5, 6, 7]

ANN_ROAD_AT_1_0 = {"x": 1, "y": 0, "feature": "road", "at": "S"}
ANN_FARMER_F = {"x": 0, "y": -1, "feature": "field", "at": "EL"}
ANN_ROAD_AT_0_1 = {"x": 0, "y": 1, "feature": "road", "at": "E"}
ANN_ROAD_AT_M1_1 = {"x": -1, "y": 1, "feature": "road", "at": "N"}
ANN_FARMER_G = {"x": 0, "y": -2, "feature": "field", "at": "EL"}


def bobs_road(preset: str, *, ann_farmer: bool = True) -> Game:
    """Board "Bob's road" (see the module docstring); Ann has drawn message 8."""
    return six_tile_road_game(preset, MESSAGE_8, ann_farmer=ann_farmer)


def anns_road(preset: str) -> Game:
    """Board "Ann's road": the same road with the owners swapped.

    Turns: 1 Ann V (0,1) turned 270 + road; 2 Bob V (1,0) turned 0 + road; 3 Ann V (-1,1)
    turned 90 + road; 4 Bob F (0,-1); 5 Ann V (-1,0) turned 270 joins Bob's start road with
    Ann's (-1,1) (Ann 1, Bob 1); 6 Bob V (1,1) turned 90 joins Ann's (0,1) (Ann 2, Bob 1);
    7 Ann G (0,-2) + farmer on its east field; 8 Bob B (2,0); 9 Ann closes the column (10)."""
    g = Game(preset, tiles=["V", "V", "V", "F", "V", "V", "G", "B", "E", SPARE], messages=MESSAGE_8)
    g.place(0, 1, 270).follower("road", "E")
    g.place(1, 0, 0).follower("road", "W")
    g.place(-1, 1, 90).follower("road", "N")
    g.place(0, -1, 90).skip()
    g.place(-1, 0, 270).skip()
    g.place(1, 1, 90).skip()
    g.place(0, -2, 90).follower("field", "EL")
    g.place(2, 0, 0).skip()
    return close_column(g)


def target(where: dict, points: int, optional: bool) -> dict:
    return {"choice": "action", "points": points, "score_optional": optional, **where}


def by_place(choices: list[dict]) -> list[dict]:
    return sorted(choices, key=lambda c: (c["x"], c["y"], c["feature"]))


def without(board: list[tuple], seat: int, where: dict) -> list[tuple]:
    gone = (seat, where["x"], where["y"], where["feature"], where.get("at"))
    assert gone in board
    return [f for f in board if f != gone]


def returned_since(g: Game, index: int) -> list[dict]:
    return [e for e in g.events[index:] if e["type"] == "follower_returned"]


def resolve_8(g: Game, where: dict, **extra) -> tuple[int, Game]:
    """Resolve message 8 on the follower at ``where``; return the event index before it."""
    index = len(g.events)
    g.resolve("action", **where, **extra)
    return index, g


def return_anns_road_follower_for_nothing(g: Game) -> None:
    """On Bob's road, resolve message 8 with Ann's road follower: it pays 0, scores stay
    (10, 0), that follower alone returns and every other follower stays."""
    board = followers_on_board(g)
    index, _ = resolve_8(g, ANN_ROAD_AT_1_0)
    assert_paid(g, 0)
    assert (g.player(0).score, g.player(1).score) == (10, 0)
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **ANN_ROAD_AT_1_0}]
    assert followers_on_board(g) == without(board, 0, ANN_ROAD_AT_1_0)


def test_boards_as_drawn():
    """The two boards hold the followers the module docstring says (a check of the layouts)."""
    assert followers_on_board(bobs_road("c2-hig")) == [
        (0, 0, -1, "field", "EL"),
        (0, 1, 0, "road", "S"),
        (1, -1, 1, "road", "N"),
        (1, 0, 1, "road", "E"),
    ]
    g = anns_road("c2-hig")
    assert followers_on_board(g) == [
        (0, -1, 1, "road", "N"),
        (0, 0, -2, "field", "EL"),
        (0, 0, 1, "road", "E"),
        (1, 1, 0, "road", "S"),
    ]
    assert g.player(0).score == 10 and g.player(1).score == 0


# majority_only (c1-zmg) -------------------------------------------------------------------------


def test_majority_only_offers_the_followers_where_you_have_the_majority():
    """rules/messengers.md §4 message 8, ``majority_only`` (c1-zmg): each of Ann's followers on a
    feature where she has the majority is offered, with the feature's final-scoring value: both
    road followers (6; Ann 2, Bob 1) and the farmer (3); scoring is not optional."""
    g = anns_road("c1-zmg")
    assert g.pending["choices"][0] == TWO_POINTS
    assert by_place(action_choices(g)) == by_place(
        [
            target(ANN_ROAD_AT_M1_1, 6, False),
            target(ANN_FARMER_G, 3, False),
            target(ANN_ROAD_AT_0_1, 6, False),
        ]
    )


def test_majority_only_scores_alone_and_returns_only_the_chosen_follower():
    """rules/messengers.md §4 message 8 (c1-zmg): Ann scores the road alone (6); only the chosen
    follower returns, her other follower and Bob's stay on the road, Bob scores nothing."""
    g = anns_road("c1-zmg")
    board = followers_on_board(g)
    supply = g.player(0).followers
    index, _ = resolve_8(g, ANN_ROAD_AT_0_1)
    g.figure("messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (10, 6)
    assert g.player(1).score == 0
    assert_paid(g, 6, "messenger")
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **ANN_ROAD_AT_0_1}]
    assert followers_on_board(g) == without(board, 0, ANN_ROAD_AT_0_1)
    assert g.player(0).followers == supply + 1
    assert last_resolution(g)[0]["follower"] == ANN_ROAD_AT_0_1


def test_majority_only_refuses_to_skip_the_scoring():
    """rules/messengers.md §4 message 8: ``"score": false`` only "where scoring is optional"; with
    majority_only it is not, so it is refused and nothing changes."""
    g = anns_road("c1-zmg")
    before = g.state
    with pytest.raises(IllegalCommand):
        g.resolve("action", **ANN_ROAD_AT_0_1, score=False)
    assert g.state is before


def test_majority_only_does_not_offer_a_follower_without_majority():
    """rules/messengers.md §4 message 8, ``majority_only``: Ann's road follower (Ann 1, Bob 2) is
    not offered and is refused; her farmer (alone on its field) is, and scores its field as in final
    scoring: 3 per completed city, here the column city: 3."""
    g = bobs_road("c1-zmg")
    assert action_choices(g) == [target(ANN_FARMER_F, 3, False)]
    with pytest.raises(IllegalCommand):
        g.resolve("action", **ANN_ROAD_AT_1_0)
    board = followers_on_board(g)
    index, _ = resolve_8(g, ANN_FARMER_F)
    g.figure("meeple")
    assert g.player(0).meeple == 13
    assert_paid(g, 3, "meeple")
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **ANN_FARMER_F}]
    assert followers_on_board(g) == without(board, 0, ANN_FARMER_F)


def test_majority_only_not_offered_without_any_majority():
    """rules/messengers.md §4 message 8, ``majority_only``, Ruling "not offered if you have no such
    follower": Ann's only follower is on Bob's road, so only 2 points is offered."""
    g = bobs_road("c1-zmg", ann_farmer=False)
    assert g.pending["choices"] == [TWO_POINTS]
    with pytest.raises(IllegalCommand):
        g.resolve("action", **ANN_ROAD_AT_1_0)


def test_field_scores_only_completed_cities():
    """rules/messengers.md §4 message 8: "A field scores as in final scoring: 3 points per completed
    city it touches". Ann's farmer is on the field between the start road and the start city,
    which runs on into O's field below O's city:

              x=0        x=1
        y=-3  E
        y=-2  G
        y=-1  F
        y= 0  D ======== O        O turned 90: city N+E (open), road S-W; Ann's farmer on
              field           its field {SL, WR}, which joins the start tile's field {EL, WR}
        y= 1  B

    The field touches the column city (complete) and O's city (incomplete): 3, not 6.
    Turns: 1 Ann O + farmer; 2 Bob F; 3 Ann G; 4 Bob B (0,1); 5 Ann closes the column."""
    g = Game("c1-zmg", tiles=["O", "F", "G", "B", "E", SPARE], messages=MESSAGE_8)
    g.place(1, 0, 90).follower("field", "SL")
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(0, 1, 0).skip()
    close_column(g)
    where = {"x": 1, "y": 0, "feature": "field", "at": "SL"}
    assert action_choices(g) == [target(where, 3, False)]
    g.resolve("action", **where).figure("messenger")
    assert g.player(0).messenger == 3
    assert_paid(g, 3, "messenger")
    assert followers_on_board(g) == []


# any_meeple_score_if_majority (c2-hig) ----------------------------------------------------------


def test_score_if_majority_returns_a_follower_without_majority_for_nothing():
    """rules/messengers.md §4 message 8, ``any_meeple_score_if_majority`` (c2-hig): any follower of
    Ann's is offered; on Bob's road she has no majority, so it scores 0, and the follower
    returns even so; Bob's two followers stay; nobody scores."""
    g = bobs_road("c2-hig")
    assert by_place(action_choices(g)) == by_place(
        [target(ANN_FARMER_F, 3, False), target(ANN_ROAD_AT_1_0, 0, False)]
    )
    return_anns_road_follower_for_nothing(g)
    # Nothing left to decide in Ann's turn: Bob's turn.
    assert g.pending["type"] == "place_tile" and g.pending["seat"] == 1


def test_score_if_majority_scores_with_majority_and_refuses_to_skip():
    """rules/messengers.md §4 message 8, ``any_meeple_score_if_majority`` (c2-hig): with the
    majority (Ann 2, Bob 1) the road scores 6 for Ann alone; scoring is not optional ("score": false
    is refused); only the chosen follower returns."""
    g = anns_road("c2-hig")
    assert target(ANN_ROAD_AT_0_1, 6, False) in action_choices(g)
    with pytest.raises(IllegalCommand):
        g.resolve("action", **ANN_ROAD_AT_M1_1, score=False)
    board = followers_on_board(g)
    index, _ = resolve_8(g, ANN_ROAD_AT_M1_1)
    g.figure("meeple")
    assert (g.player(0).meeple, g.player(1).score) == (16, 0)
    assert_paid(g, 6, "meeple")
    assert returned_since(g, index) == [
        {"type": "follower_returned", "seat": 0, **ANN_ROAD_AT_M1_1}
    ]
    assert followers_on_board(g) == without(board, 0, ANN_ROAD_AT_M1_1)


# any_meeple_score_always (c2-zmg) ---------------------------------------------------------------


def test_score_always_scores_even_where_another_player_controls():
    """rules/messengers.md §4 message 8, ``any_meeple_score_always`` (c2-zmg): Ann scores Bob's road
    (Bob 2, Ann 1) as in final scoring, 6, she alone; scoring is optional; her follower returns,
    Bob's stay."""
    g = bobs_road("c2-zmg")
    assert by_place(action_choices(g)) == by_place(
        [target(ANN_FARMER_F, 3, True), target(ANN_ROAD_AT_1_0, 6, True)]
    )
    board = followers_on_board(g)
    index, _ = resolve_8(g, ANN_ROAD_AT_1_0)
    g.figure("messenger")
    assert (g.player(0).messenger, g.player(1).score) == (6, 0)
    assert_paid(g, 6, "messenger")
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **ANN_ROAD_AT_1_0}]
    assert followers_on_board(g) == without(board, 0, ANN_ROAD_AT_1_0)


def test_score_always_may_return_without_scoring():
    """rules/messengers.md §4 message 8, ``any_meeple_score_always``: "you may choose not to score;
    return your follower either way": with ``"score": false`` nothing is scored and the follower
    returns."""
    g = bobs_road("c2-zmg")
    board = followers_on_board(g)
    index, _ = resolve_8(g, ANN_ROAD_AT_1_0, score=False)
    assert_paid(g, 0)
    assert (g.player(0).score, g.player(1).score) == (10, 0)
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **ANN_ROAD_AT_1_0}]
    assert followers_on_board(g) == without(board, 0, ANN_ROAD_AT_1_0)
    # The record keeps "score": false, and replaying it gives the same game.
    assert g.state.log[-1]["score"] is False
    assert g.replayed() == g.state


# majority_or_return_any (c3) --------------------------------------------------------------------


def test_majority_or_return_any_may_score_with_majority():
    """rules/messengers.md §4 message 8, ``majority_or_return_any`` (c3): with the majority Ann may
    score the road (6, on the meeple that took this turn's points) and returns that follower."""
    g = anns_road("c3")
    assert by_place(action_choices(g)) == by_place(
        [
            target(ANN_ROAD_AT_M1_1, 6, True),
            target(ANN_FARMER_G, 3, True),
            target(ANN_ROAD_AT_0_1, 6, True),
        ]
    )
    board = followers_on_board(g)
    index, _ = resolve_8(g, ANN_ROAD_AT_0_1)
    choose(g, "meeple")
    assert (g.player(0).meeple, g.player(0).messenger, g.player(1).score) == (16, 0, 0)
    assert_paid(g, 6, "meeple")
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **ANN_ROAD_AT_0_1}]
    assert followers_on_board(g) == without(board, 0, ANN_ROAD_AT_0_1)


def test_majority_or_return_any_may_return_without_scoring():
    """rules/messengers.md §4 message 8, ``majority_or_return_any``: scoring is a "may": with
    ``"score": false`` the follower returns and nothing is scored."""
    g = anns_road("c3")
    board = followers_on_board(g)
    index, _ = resolve_8(g, ANN_ROAD_AT_0_1, score=False)
    assert_paid(g, 0)
    assert g.player(0).score == 10
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **ANN_ROAD_AT_0_1}]
    assert followers_on_board(g) == without(board, 0, ANN_ROAD_AT_0_1)


def test_majority_or_return_any_returns_any_follower_without_majority():
    """rules/messengers.md §4 message 8, ``majority_or_return_any``: without the majority (Bob's
    road) Ann may return her follower without scoring: it is offered for 0 points, returns, and
    Bob's followers stay."""
    g = bobs_road("c3")
    offered = {(c["x"], c["y"], c["feature"]): c["points"] for c in action_choices(g)}
    assert offered == {(1, 0, "road"): 0, (0, -1, "field"): 3}
    return_anns_road_follower_for_nothing(g)


@pytest.mark.parametrize("preset", ("c1-zmg", "c2-hig", "c2-zmg", "c3"))
def test_score_and_return_refuses_a_follower_that_is_not_yours(preset):
    """rules/messengers.md §4 message 8: the follower chosen is one of the drawer's own; Bob's
    follower on the road is refused in every reading."""
    g = bobs_road(preset)
    before = g.state
    with pytest.raises(IllegalCommand):
        g.resolve("action", x=0, y=1, feature="road", at="E")
    assert g.state is before


def test_optional_scoring_of_nothing_is_offered_once():
    """rules/messengers.md §4 message 8, ``any_meeple_score_always`` (c2-zmg): "you may choose not
    to score; return your follower either way". Ann's farmer lies in O's inner corner field, which
    touches no city: scoring it gives 0, the same as not scoring, so the follower is offered once
    (``score_optional`` false) rather than as two buttons for the same move; it returns for 0.

    Turns: 1 Ann O (1,0) turned 90 + farmer on its corner field SR; 2 Bob F; 3 Ann G; 4 Bob B
    (0,1); 5 Ann closes the column (10, dark: message 8)."""
    g = Game("c2-zmg", tiles=["O", "F", "G", "B", "E", SPARE], messages=MESSAGE_8)
    g.place(1, 0, 90).follower("field", "SR")
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(0, 1, 0).skip()
    close_column(g)
    where = {"x": 1, "y": 0, "feature": "field", "at": "SR"}
    assert action_choices(g) == [target(where, 0, False)]
    index, _ = resolve_8(g, where)
    assert_paid(g, 0)
    assert returned_since(g, index) == [{"type": "follower_returned", "seat": 0, **where}]
    assert followers_on_board(g) == []
