"""An independent review of the rules engine against the rules digest (docs/rules/).

Three kinds of tests:

* Scenario tests for edge cases the other test files leave out (an extra tile that is the last
  tile of the game or completes another player's feature, message 8 on a monastery or on the
  only follower of a road, ties for the smallest city, the turn cap and an extra tile, both
  figures moving in one round, three players and the alone rule, a chain that cycles the whole
  stack, per_turn at the table, ending the game from a seat that is not active). Every number
  is worked out by hand in the docstrings and comments.
* Random games checked against small independent models written here from the digest, not from
  the engine: a flood fill of the board's features (rules/base-game.md catalogue and conventions),
  the points of every completed feature and of final scoring, the choices each message offers, the
  trigger of every round of scoring (board mode), a whole tabletop game of the messengers'
  scoreboard, and ``views.pending`` against what ``apply`` accepts and refuses.
* Commands that no record may hold (a message choice or a figure that does not exist, "score":
  false where scoring is not optional), which ``apply`` must refuse with an EngineError.

Coordinates as in rules/base-game.md: x grows east, y grows south; the start tile is a D at (0, 0):
city N, road W-E, field {EL WR} between them, field {ER SL SR WL} south of the road. Ann is
seat 0, Bob seat 1, Cy seat 2.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from game.engine import commands as cmd
from game.engine import views
from game.engine.autoplay import random_command
from game.engine.board import Board
from game.engine.errors import EngineError, IllegalCommand, NotYourDecision
from game.engine.messengers import MESSAGE_SETS
from game.engine.play import apply, new_game
from game.engine.state import GameState, Revealed
from game.engine.tiles import CATALOGUE
from tests.engine.test_messages import TWO_POINTS, choose, stack
from tests.engine.test_messages_extra_tile import extra_tile_game
from tests.engine.test_messengers_rules import road_and_city_layout
from tests.scenario import Game

PRESETS = ("c1-zmg", "c2-hig", "c2-zmg", "c3")
IMMEDIATE = ("c1-zmg", "c2-hig", "c2-zmg")
MEEPLE, MESSENGER = "meeple", "messenger"


def figures(g: Game) -> list[tuple[int, int, int]]:
    """(meeple, messenger, followers in supply) of every seat."""
    return [(p.meeple, p.messenger, p.followers) for p in g.state.players]


# Board scenarios -------------------------------------------------------------------------------


def test_field_scores_a_city_that_the_last_tile_completes():
    """rules/base-game.md Rules, End of game, Fields: "3 points per completed city touching it"; a
    city closed by the very last tile is complete when final scoring runs.

    ::

                 x=0                 x=1
        y=-1   E r180 (T2 Bob, last tile: city S closes the start city, 2 tiles)
        y=0    D start             U r90 (T1 Ann: road W-E, farmer on its north field)

    U turned 90 has the road W-E and the north field {WR NL NR EL}; its WR meets the start tile's
    EL, so Ann's farmer stands on the start tile's field {EL WR}, which touches the start city.
    Nobody has a knight: closing the city scores nothing. Final scoring: Ann's field touches one
    completed city: 3 points. c1-zmg: the total goes on the meeple."""
    g = Game("c1-zmg", tiles=["U", "E"])
    g.place(1, 0, 90)
    assert {"feature": "field", "at": "NL"} in g.pending["spots"]
    g.follower("field", "NL")
    g.place(0, -1, 180).skip()
    assert g.state.finished
    finals = [(e["seat"], e["points"], e["category"]) for e in g.of_type("points")]
    assert finals == [(0, 3, "field")]
    assert g.of_type("game_over")[-1]["scores"] == [3, 0]


@pytest.mark.parametrize("preset", IMMEDIATE)
def test_last_tile_of_the_game_placed_as_an_extra_tile(preset):
    """rules/messengers.md §4 One more tile (immediate) and §6 End of the game: the extra tile is
    the last land tile. Its scoring still earns a chained message, which is resolved before the game
    ends ("when the last tile has been placed and its turn (with any messages it brings) is
    over"); then no new turn begins and final scoring follows.

    Board of ``tests.engine.test_messages_extra_tile`` (turns 1 to 5): Ann's meeple 10, messenger 3,
    she draws "one more tile"; the W placed at (2, 0) closes a road of 2 tiles between two
    junctions with Ann's follower: 2 points, messenger 3 -> 5 (dark): the next message (knights)
    is drawn; Ann has no knight (hers came back when the column scored), so only "2 points"
    is offered: meeple 10 -> 12. Then the game ends: 12 + 5 = 17 for Ann, 0 for Bob."""
    g = extra_tile_game(preset, stack(preset, "extra_tile", "knights"), tiles_after=("W",))
    turns = len(g.of_type("turn_started"))
    g.resolve("action")
    assert (g.pending["type"], g.pending["tile"]) == ("place_tile", "W")
    assert g.state.bag == ()
    g.place(2, 0, 0).follower("road", "W").figure(MESSENGER)
    assert g.drawn_messages() == stack(preset, "extra_tile", "knights")[:2]
    assert g.pending["choices"] == [TWO_POINTS]
    assert not g.of_type("game_ending")
    g.resolve("points").figure(MEEPLE)
    choose(g, MEEPLE)  # c2-hig: Ann's figure for the total
    choose(g, MEEPLE)  # c2-hig: Bob's
    assert g.state.finished
    assert len(g.of_type("turn_started")) == turns
    kinds = [e["type"] for e in g.events]
    assert kinds.index("game_ending") > max(
        i for i, k in enumerate(kinds) if k == "message_resolved"
    )
    assert g.of_type("game_over")[-1]["scores"] == [17, 0]


def nested_extra_tile_game(preset: str, **options: Any) -> Game:
    """Ann's extra tile closes Bob's road of five.

    ::

                 x=-1          x=0              x=1
        y=-3                   E r180 (T9 Ann closes the column: 10)
        y=-2                   G r90 (T7 Ann)
        y=-1                   F r90 (T5 Ann, coat of arms)
        y=0    W r0 (T3 Ann) - D start -------- W r0 (T1 Ann, her follower on its W road)
                                                |
        y=1                    B (T8 Bob)       U r0 (T2 Bob, his follower on the road N)
        y=2                                     U r0 (T4 Bob)
        y=3                                     U r0 (T6 Bob)
        y=4                                     [A r180: the extra tile, road N ends at
                                                 the monastery]

    T3 closes the start road (-1,0) (0,0) (1,0) between two junctions: 3 tiles, Ann's follower:
    3 points on her messenger. T9 closes the column city (0,0)..(0,-3): 4 tiles + 1 coat of
    arms = 10, on her meeple: dark, she draws "one more tile". The extra A closes Bob's road
    (1,0) (1,1) (1,2) (1,3) (1,4): 5 tiles, 5 points for Bob.
    """
    g = Game(
        preset,
        tiles=["W", "U", "W", "U", "F", "U", "G", "B", "E", "A", "U"],
        messages=stack(preset, "extra_tile"),
        options=options or None,
    )
    g.place(1, 0, 0).follower("road", "W")
    g.place(1, 1, 0).follower("road", "N")
    g.place(-1, 0, 0).skip().figure(MESSENGER)
    g.place(1, 2, 0).skip()
    g.place(0, -1, 90).skip()
    g.place(1, 3, 0).skip()
    g.place(0, -2, 90).skip()
    g.place(0, 1, 0).skip()
    g.place(0, -3, 180).follower("city", "S")
    choose(g, MEEPLE)
    assert figures(g) == [(10, 3, 7), (0, 0, 6)]
    assert g.pending["action"] == "extra_tile"
    return g


@pytest.mark.parametrize(
    ("preset", "options"),
    [(p, {}) for p in IMMEDIATE] + [("c1-zmg", {"figure_choice": "per_turn"})],
)
def test_extra_tile_completing_another_players_road_asks_that_player(preset, options):
    """rules/messengers.md §4 One more tile (immediate), §5 "Only the active player ever draws" and
    "Points that other players score during the active player's turn move their figures as
    they choose"; §3 Ruling (per_turn for other players) for the per_turn variant. Ann's extra
    tile closes Bob's road: Bob (not Ann) is asked for the figure of his 5 points, even under
    per_turn (his first points of this turn). His meeple lands on 5, a dark space, and nobody
    draws: Bob is not active, Ann's figures did not move in the extra tile's round. Bob's
    follower comes back and his own turn follows with the next tile."""
    g = nested_extra_tile_game(preset, **options)
    g.resolve("action")
    assert (g.pending["seat"], g.pending["type"], g.pending["tile"]) == (0, "place_tile", "A")
    g.place(1, 4, 180).skip()
    assert g.pending["type"] == "choose_figure"
    assert (g.pending["seat"], g.pending["points"], g.pending["reason"]) == (1, 5, "road")
    with pytest.raises(NotYourDecision):
        g.figure(MEEPLE, seat=0)
    g.figure(MEEPLE)
    assert figures(g) == [(10, 3, 7), (5, 0, 7)]
    assert len(g.drawn_messages()) == 1
    assert g.of_type("turn_started")[-1] == {"type": "turn_started", "seat": 1, "turn": 10}
    assert (g.pending["seat"], g.pending["type"], g.pending["tile"]) == (1, "place_tile", "U")


def monk_game(preset: str) -> Game:
    """Ann's monk on a monastery with 2 of its 8 neighbours, then message 8.

    ::

                 x=0                    x=1
        y=-3   E r180 (T5 Ann: the column closes, 10 on her meeple)
        y=-2   G r90 (T3 Ann)
        y=-1   F r90 (T2 Bob)
        y=0    D start
        y=1    B (T1 Ann, her monk)   B (T4 Bob)

    The monastery at (0, 1) has the neighbours (0, 0) and (1, 1): as in final scoring it is
    worth 1 + 2 = 3.
    """
    g = Game(
        preset, tiles=["B", "F", "G", "B", "E", "U"], messages=stack(preset, "score_and_return")
    )
    g.place(0, 1, 0).follower("monastery")
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(1, 1, 0).skip()
    g.place(0, -3, 180).follower("city", "S")
    return choose(g, MEEPLE)


@pytest.mark.parametrize("preset", PRESETS)
def test_score_and_return_a_monk_scores_the_monastery_as_in_final_scoring(preset):
    """rules/messengers.md §4 Score a meeple and return it, every reading: Ann has the majority (her
    monk alone), so every edition scores it "as in final scoring" (monastery 1 + number of
    tiles around it = 3) and returns the monk. c3: per_turn, her meeple took the 10 of this
    turn, so the 3 go on it too (13); the other editions ask: messenger 0 + 3."""
    g = monk_game(preset)
    optional = preset in ("c2-zmg", "c3")
    monk = {"x": 0, "y": 1, "feature": "monastery"}
    assert rules_of(g.pending["choices"]) == [
        rules_of([TWO_POINTS])[0],
        {"choice": "action", "points": 3, "score_optional": optional, **monk},
    ]
    g.resolve("action", **monk)
    choose(g, MESSENGER)
    assert figures(g) == [(13, 0, 7) if preset == "c3" else (10, 3, 7), (0, 0, 7)]
    assert g.of_type("follower_returned")[-1] == {"type": "follower_returned", "seat": 0, **monk}
    assert not g.state.board.followers()


def rules_of(choices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Choices without their words, command and board mark (test_prompts.py tests those)."""
    shown = ("label", "command", "mark", "skip")
    return [{key: value for key, value in c.items() if key not in shown} for c in choices]


def lone_highwayman_game(preset: str) -> Game:
    """Ann's only follower stands alone on an open road of three tiles; she draws message 8.

    ::

                 x=-1            x=0        x=1             x=2           x=3
        y=-3                     E r180 (T5 Ann: column closes, 10)
        y=-2                     G r90 (T3 Ann)
        y=-1                     F r90 (T2 Bob)
        y=0    W r0 (T4 Bob) -   D start -  U r90 (T1 Ann,  [U r90 T6 Bob] [A r90 T7 Ann]
               junction                     highwayman)

    The road (-1,0) (0,0) (1,0) ends at the junction in the west and is open in the east:
    3 points as in final scoring.
    """
    g = Game(
        preset,
        tiles=["U", "F", "G", "W", "E", "U", "A"],
        messages=stack(preset, "score_and_return"),
    )
    g.place(1, 0, 90).follower("road", "W")
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(-1, 0, 0).skip()
    g.place(0, -3, 180).follower("city", "S")
    return choose(g, MEEPLE)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_only_follower_returned_by_message_8_leaves_its_feature_free(preset):
    """rules/messengers.md §4 Score a meeple and return it ("the follower returns to your supply")
    and rules/base-game.md Rules, Followers ("only if no follower already stands anywhere on that
    whole connected feature"): once Ann's lone highwayman is scored (3) and returned, the road has
    no follower: Bob may put one on it when he extends it (T6), and when Ann closes it with the
    monastery A (T7) the road of 5 tiles scores 5 for Bob alone; Ann's figures do not move,
    so she draws nothing."""
    g = lone_highwayman_game(preset)
    road = {"x": 1, "y": 0, "feature": "road", "at": "E"}
    assert rules_of(g.pending["choices"])[1] == {
        "choice": "action",
        "points": 3,
        "score_optional": preset in ("c2-zmg", "c3"),
        **road,
    }
    g.resolve("action", **road)
    choose(g, MESSENGER)
    ann = (13, 0, 7) if preset == "c3" else (10, 3, 7)
    assert figures(g) == [ann, (0, 0, 7)]
    g.place(2, 0, 90)
    assert {"feature": "road", "at": "E"} in g.pending["spots"]
    g.follower("road", "E")
    g.place(3, 0, 90).skip()
    assert (g.pending["seat"], g.pending["type"], g.pending["points"]) == (1, "choose_figure", 5)
    g.figure(MEEPLE)
    assert g.drawn_messages() == [stack(preset, "score_and_return")[0]]
    assert g.player(1).meeple == 5 and g.player(1).followers == 7
    assert g.player(0).score == 13


@pytest.mark.parametrize("preset", PRESETS)
def test_smallest_city_tie_scores_one_of_the_tied_cities_and_names_it(preset):
    """rules/messengers.md §4 Smallest city, Ruling "ties for the lowest value: any of them (the
    points are the same) ... must show which feature it scored"; "your followers stay".

    ::

                 x=-1                 x=0                x=1
        y=-3                          E r180 (T7 Ann: column closes, 10)
        y=-2                          G r90 (T2 Bob)
        y=-1   E r270 (T5 Ann,        F r90 (T1 Ann)     E r90 (T3 Ann,
               knight, city W)                           knight, city E)
        y=0    U r90 (T6 Bob)         D start            U r90 (T4 Bob)

    Ann's knights stand on two incomplete 1-tile cities, each worth 1 + 0 coats = 1. The action
    pays 1 and names one of the two; both knights stay (5 followers in supply)."""
    g = Game(
        preset,
        tiles=["F", "G", "E", "U", "E", "U", "E", "U"],
        messages=stack(preset, "smallest_city"),
    )
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(1, -1, 90).follower("city", "E")
    g.place(1, 0, 90).skip()
    g.place(-1, -1, 270).follower("city", "W")
    g.place(-1, 0, 90).skip()
    g.place(0, -3, 180).follower("city", "S")
    choose(g, MEEPLE)
    tied = [
        {"x": 1, "y": -1, "feature": "city", "at": "E"},
        {"x": -1, "y": -1, "feature": "city", "at": "W"},
    ]
    (action,) = [c for c in g.pending["choices"] if c["choice"] == "action"]
    assert action["points"] == 1 and action["feature"] in tied
    g.resolve("action")
    choose(g, MESSENGER)
    resolved = g.of_type("message_resolved")[-1]
    assert (resolved["points"], resolved["feature"]) == (1, action["feature"])
    assert figures(g)[0] == ((11, 0, 5) if preset == "c3" else (10, 1, 5))


@pytest.mark.parametrize(("cap", "drawn"), [(1, 1), (2, 2), (None, 2)])
def test_turn_cap_counts_the_messages_of_an_extra_tile(cap, drawn):
    """rules/messengers.md §3 messages_per_turn ("hard cap on messages in one turn") with
    extra_tile=immediate: the extra tile is placed within the same turn, so a message earned by
    its scoring counts towards the turn's cap. c2-hig board of
    ``tests.engine.test_messages_extra_tile``:
    the extra W scores 2 for Ann, messenger 3 -> 5 (dark): with a cap of 1 it is refused
    (message_capped), with 2 or no cap it is drawn."""
    options = {"messages_per_turn": cap} if cap is not None else {"messages_per_turn": "none"}
    g = Game(
        "c2-hig",
        tiles=["W", "W", "F", "G", "E", "W", "U"],
        messages=stack("c2-hig", "extra_tile"),
        options=options,
    )
    g.place(1, 0, 0).follower("road", "W")
    g.place(-1, 0, 0).skip().figure(MESSENGER, seat=0)
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(0, -3, 180).follower("city", "S").figure(MEEPLE)
    g.resolve("action").place(2, 0, 0).follower("road", "W").figure(MESSENGER)
    assert g.player(0).messenger == 5
    assert len(g.drawn_messages()) == drawn
    assert len(g.of_type("message_capped")) == (1 if drawn == 1 else 0)
    assert g.pending["type"] == ("place_tile" if drawn == 1 else "resolve_message")


@pytest.mark.parametrize("preset", ("c1-zmg", "c2-hig"))
@pytest.mark.parametrize(
    ("road", "city", "drawn"),
    [(MESSENGER, MEEPLE, True), (MEEPLE, MESSENGER, False), (MESSENGER, MESSENGER, False)],
)
def test_both_figures_move_in_one_board_round(preset, road, city, drawn):
    """rules/messengers.md §3 trigger (on_landing: c1-zmg; end_of_round: c2-hig) and the Ruling
    (on_landing within one round), with movements of both figures in one round. Layout
    ``road_and_city_layout`` of tests/engine/test_messengers_rules.py: Ann's meeple stands on 4; one
    tile completes her road (3) and her city (6).

    * road on the messenger (0 -> 3), city on the meeple (4 -> 10): dark, both triggers draw;
    * road on the meeple (4 -> 7), city on the messenger (0 -> 6): no figure can stop on a dark
      space in any order: no draw;
    * both on the messenger: it stops on 3, 6 or 9 whatever the order; the meeple on 4 (light)
      did not move: no draw."""
    g = road_and_city_layout(preset)
    g.figure(road).figure(city)
    assert g.drawn_messages() == ([1] if drawn else [])


# Tabletop scenarios ----------------------------------------------------------------------------


def three_at_the_table(cy_messenger: int | None, bob_moves: int = 0) -> Game:
    """c2-zmg at the table with Ann, Bob and Cy. Turn 1 (Ann's): Bob 3 on his meeple and 4 on
    his messenger, Cy 1 on his meeple and, if given, ``cy_messenger`` on his messenger; Ann 1
    on her messenger (light: no message). Turns 2 and 3 pass. Turn 4: Ann puts 50 on her
    meeple (space 0) and, if ``bob_moves``, Bob scores that much on his meeple in the same
    round; Ann ends the turn."""
    g = Game("c2-zmg", mode="tabletop", players=("Ann", "Bob", "Cy"))
    g.score(1, 3, MEEPLE).score(1, 4, MESSENGER).score(2, 1, MEEPLE)
    if cy_messenger is not None:
        g.score(2, cy_messenger, MESSENGER)
    g.score(0, 1, MESSENGER).end_turn()
    g.end_turn().end_turn()
    g.score(0, 50, MEEPLE)
    if bob_moves:
        g.score(1, bob_moves, MEEPLE)
    return g.end_turn()


@pytest.mark.parametrize(
    ("cy_messenger", "bob_moves", "drawn"),
    [
        (None, 0, 0),  # Cy's messenger never moved: it stands on space 0
        (2, 0, 1),  # every other figure has left space 0
        (2, 47, 0),  # Bob's meeple 3 + 47 = 50 joins space 0 before the round ends
    ],
)
def test_alone_rule_with_three_players_on_space_0(cy_messenger, bob_moves, drawn):
    """rules/messengers.md §3 alone_rule (c2-zmg: "no draw when another player's figure (either
    kind) already stands on the dark space where the active player's figure lands"), its timing
    ruling (judged as the figures stand when the round ends) and the engine's ruling on space 0
    (docs/engine.md). Ann's meeple lands on 50 = space 0. Only figures that really stand on
    space 0 block: with three players, once Bob's and Cy's four figures have all moved off it,
    Ann draws; a figure of Cy's that never moved, or Bob's meeple reaching 50 in the same round,
    blocks the draw."""
    g = three_at_the_table(cy_messenger, bob_moves)
    assert g.player(0).meeple == 50
    assert len(g.drawn_messages()) == drawn
    assert g.pending["type"] == ("resolve_message" if drawn else "end_turn")


def test_alone_rule_three_players_blocked_by_the_third_player_only():
    """rules/messengers.md §3 alone_rule with three players: Bob's figures are elsewhere but Cy's
    messenger stands on 5 (dark) when Ann's meeple lands there: no draw. Ann's own messenger on
    the same space would not block (Ruling (alone_rule)); here both happen: Ann's messenger on
    5, Cy's messenger on 5, Ann's meeple lands on 5: still no draw because of Cy."""
    g = Game("c2-zmg", mode="tabletop", players=("Ann", "Bob", "Cy"))
    g.score(2, 5, MESSENGER).score(1, 2, MEEPLE).end_turn()  # turn 1: Ann scored nothing
    g.end_turn().end_turn()  # turns 2 (Bob) and 3 (Cy)
    g.score(0, 5, MESSENGER).end_turn()  # turn 4: Ann lands on 5 where Cy's messenger stands
    assert g.drawn_messages() == []
    g.end_turn().end_turn()
    g.score(0, 5, MEEPLE).end_turn()  # turn 7: again 5, Cy still there
    assert g.drawn_messages() == []
    g.end_turn()  # turn 8 (Bob)
    g.score(2, 1, MESSENGER).end_turn()  # turn 9 (Cy): Cy's messenger moves to 6
    g.score(0, 5, MESSENGER).end_turn()  # turn 10: Ann's messenger 5 -> 10: free
    assert g.drawn_messages() == [1]


def test_a_chain_that_draws_the_whole_stack_draws_the_first_message_again():
    """rules/messengers.md §1 ("the tile goes face down to the bottom of the stack, so the stack
    cycles in a fixed order") and §3 chain=yes (c1-zmg, "without limit"): in one turn Ann's meeple
    lands on 5, 10, ..., 45: nine draws. Each message is counted at the table as 5 points (the
    extra tile's round: Ann enters 5 for it). The ninth message drawn is the first again, and
    the stack is back in its order once it is resolved; the 2 points of the ninth end on 47
    (light): Bob's turn."""
    order = [6, 3, 8, 1, 5, 2, 7, 4]
    g = Game("c1-zmg", mode="tabletop", messages=order)
    g.score(0, 5, MEEPLE).end_turn()
    for _ in range(8):
        if g.pending["action"] == "extra_tile":
            g.resolve("action").score(0, 5, MEEPLE).end_turn()
        else:
            g.resolve("action", points=5).figure(MEEPLE)
    assert g.player(0).meeple == 45
    assert g.drawn_messages() == [*order, order[0]]
    g.resolve("points").figure(MEEPLE)
    assert g.state.stack == (*order[1:], order[0])
    assert g.player(0).meeple == 47
    assert (g.pending["seat"], g.pending["type"]) == (1, "end_turn")


def test_per_turn_at_the_table_with_figure_omitted_given_and_conflicting():
    """rules/messengers.md §3 figure_choice=per_turn (c3) and its Ruling (per_turn for other
    players); rules/record-format.md ``score`` (``points``, optional ``figure``). Ann's first score
    without a figure is asked; later ones without a figure go on the fixed one without asking, the
    same figure is accepted, the other one refused (nothing changes). Bob's first score names the
    messenger, which fixes his. In the next turn both choose afresh."""
    g = Game("c3", mode="tabletop")
    g.score(0, 3)
    assert (g.pending["seat"], g.pending["type"], g.pending["points"]) == (0, "choose_figure", 3)
    g.figure(MEEPLE).score(0, 4)
    assert g.pending["type"] == "end_turn"
    g.score(0, 2, MEEPLE)
    before = g.state
    with pytest.raises(IllegalCommand):
        g.score(0, 1, MESSENGER)
    assert g.state is before
    g.score(1, 5, MESSENGER).score(1, 1)
    assert g.pending["type"] == "end_turn"
    with pytest.raises(IllegalCommand):
        g.score(1, 1, MEEPLE)
    assert figures(g) == [(9, 0, 7), (0, 6, 7)]
    g.end_turn()  # Ann's meeple on 9: light, no message
    assert g.drawn_messages() == []
    g.score(0, 1, MESSENGER).score(1, 2, MEEPLE)  # turn 2: the other figures are allowed
    assert figures(g) == [(9, 1, 7), (2, 6, 7)]


@pytest.mark.parametrize("preset", ("c1-zmg", "c2-hig"))
def test_end_game_and_finish_from_seats_that_are_not_active(preset):
    """rules/record-format.md actions ``end_game`` ("tabletop mode, from any seat between turns")
    and ``finish`` ("tabletop mode, from any seat"); rules/messengers.md §3 final_figure. Three
    players; turn 2 is Bob's. Cy may not end Bob's turn, nor end the game once a score of the turn
    is entered; at the start of turn 3 (Cy's) Ann ends the game. c2-hig asks each seat in seat
    order for the figure carrying its total; c1-zmg puts it on the meeple. Final points go on
    that figure (another one is refused) and Bob finishes."""
    g = Game(preset, mode="tabletop", players=("Ann", "Bob", "Cy"))
    g.score(0, 3, MEEPLE).end_turn()
    assert (g.state.active, g.pending["may_end_game"]) == (1, True)
    g.score(2, 4, MESSENGER)
    assert g.pending["may_end_game"] is False
    with pytest.raises(IllegalCommand):
        g.end_game(seat=2)
    with pytest.raises(NotYourDecision):
        g.end_turn(seat=2)
    g.end_turn(seat=1)
    assert g.state.active == 2
    g.end_game(seat=0)
    if preset == "c2-hig":
        for seat, figure in enumerate((MEEPLE, MESSENGER, MESSENGER)):
            assert (g.pending["seat"], g.pending["type"], g.pending["final"]) == (
                seat,
                "choose_figure",
                True,
            )
            g.figure(figure)
    carriers = [p.carrier for p in g.state.players]
    assert carriers == ([MEEPLE, MESSENGER, MESSENGER] if preset == "c2-hig" else [MEEPLE] * 3)
    assert (g.pending["seat"], g.pending["type"]) == (None, "finish")
    g.score(2, 6)
    wrong = MEEPLE if preset == "c2-hig" else MESSENGER
    with pytest.raises(IllegalCommand):
        g.score(2, 1, wrong)
    g.finish(seat=1)
    assert g.state.finished
    assert g.of_type("game_over")[-1]["scores"] == [3, 0, 10]


# Independent models ----------------------------------------------------------------------------

_OFFSET = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
_AROUND = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def _turn(location: str, rotation: int) -> str:
    """rules/base-game.md Rotation: N -> E -> S -> W clockwise, halves with their edge."""
    edges = "NESW"
    return edges[(edges.index(location[0]) + rotation // 90) % 4] + location[1:]


def _facing(half: str) -> str:
    """The neighbour's half-edge across the edge: left and right swap (each is named from its
    own tile's centre)."""
    return _OPPOSITE[half[0]] + ("R" if half[1] == "L" else "L")


_TURNED = {
    (letter, rotation): [
        (f.kind.value, [_turn(loc, rotation) for loc in f.locations], f.coat_of_arms, f.touches)
        for f in tile.features
    ]
    for letter, tile in CATALOGUE.items()
    for rotation in (0, 90, 180, 270)
}
"""Each catalogue tile's features turned by each rotation: (kind, locations, coat, touches)."""


class Model:
    """The board's features rebuilt by a flood fill over the catalogue (rules/base-game.md), with
    the values and majorities of rules/base-game.md Rules and rules/messengers.md §4."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.segments: dict[tuple, tuple] = {}
        at: dict[tuple, int] = {}
        for (x, y), tile in board.tiles.items():
            for index, feature in enumerate(_TURNED[(tile.letter, tile.rotation)]):
                self.segments[(x, y, index)] = feature
                for location in feature[1]:
                    at[(x, y, location)] = index
        parent = {segment: segment for segment in self.segments}

        def root(segment: tuple) -> tuple:
            while parent[segment] != segment:
                parent[segment] = parent[parent[segment]]
                segment = parent[segment]
            return segment

        self.open: Counter[tuple] = Counter()
        for (x, y, index), (kind, locations, _, _) in self.segments.items():
            for location in locations:
                dx, dy = _OFFSET[location[0]]
                if (x + dx, y + dy) not in board.tiles:
                    self.open[(x, y, index)] += kind in ("road", "city")
                    continue
                facing = _OPPOSITE[location] if kind in ("road", "city") else _facing(location)
                other = (x + dx, y + dy, at[(x + dx, y + dy, facing)])
                assert self.segments[other][0] == kind, "edges that touch must match"
                parent[root((x, y, index))] = root(other)
        groups: dict[tuple, set] = {}
        for segment in self.segments:
            groups.setdefault(root(segment), set()).add(segment)
        self.parts = list(groups.values())
        self.part_of = {s: i for i, part in enumerate(self.parts) for s in part}
        self.followers = [(f.seat, f.segment) for f in board.followers()]

    def kind(self, part: int) -> str:
        return self.segments[next(iter(self.parts[part]))][0]

    def tiles(self, part: int) -> set:
        return {segment[:2] for segment in self.parts[part]}

    def neighbours(self, part: int) -> int:
        ((x, y),) = self.tiles(part)
        return sum((x + dx, y + dy) in self.board.tiles for dx, dy in _AROUND)

    def complete(self, part: int) -> bool:
        kind = self.kind(part)
        if kind == "monastery":
            return self.neighbours(part) == 8
        return kind != "field" and not sum(self.open[s] for s in self.parts[part])

    def coats(self, part: int) -> int:
        return sum(1 for segment in self.parts[part] if self.segments[segment][2])

    def completed_value(self, part: int) -> int:
        kind, tiles = self.kind(part), len(self.tiles(part))
        return {"road": tiles, "city": 2 * tiles + 2 * self.coats(part), "monastery": 9}[kind]

    def final_value(self, part: int) -> int:
        kind = self.kind(part)
        if kind == "field":
            cities = {
                self.part_of[(s[0], s[1], city)]
                for s in self.parts[part]
                for city in self.segments[s][3]
            }
            return 3 * sum(1 for city in cities if self.complete(city))
        if self.complete(part):
            return self.completed_value(part)
        if kind == "road":
            return len(self.tiles(part))
        if kind == "city":
            return len(self.tiles(part)) + self.coats(part)
        return 1 + self.neighbours(part)

    def counts(self, part: int) -> Counter[int]:
        return Counter(seat for seat, s in self.followers if self.part_of[s] == part)

    def majority(self, part: int) -> list[int]:
        counts = self.counts(part)
        most = max(counts.values(), default=0)
        return sorted(seat for seat, n in counts.items() if n == most)

    def occupied(self) -> list[int]:
        return sorted({self.part_of[s] for _, s in self.followers})


def check_features_against_the_model(board: Board) -> None:
    """The engine's features are the flood fill's: same segments, completion, coats, cities."""
    model = Model(board)
    assert len(board.features) == len(model.parts)
    for index, part in enumerate(model.parts):
        feature = board.feature_at(next(iter(part)))
        assert set(feature.segments) == part
        assert board.is_complete(feature) == model.complete(index)
        if model.kind(index) == "city":
            assert feature.coats == model.coats(index)
        if model.kind(index) == "field":
            engine_cities = {board.feature_of[c] for c in feature.cities}
            model_cities = {
                board.feature_of[(s[0], s[1], city)] for s in part for city in model.segments[s][3]
            }
            assert engine_cities == model_cities


def expected_message_choices(state: GameState, model: Model | None = None) -> set[tuple]:
    """rules/messengers.md §4: what each message offers to its drawer on this board."""
    revealed = state.revealed
    assert revealed is not None and state.board is not None
    seat, action = revealed.seat, revealed.action.value
    model = model or Model(state.board)
    mine = [part for part in model.occupied() if seat in model.counts(part)]
    choices: set[tuple] = {("points", 2)}
    if action.startswith("smallest_"):
        kind = action.removeprefix("smallest_")
        values = [model.final_value(p) for p in mine if model.kind(p) == kind]
        if values:
            choices.add(("action", min(values)))
    elif action == "coats_of_arms":
        points = 2 * sum(model.coats(p) for p in mine if model.kind(p) == "city")
        if points:
            choices.add(("action", points))
    elif action in ("knights", "farmers"):
        kind = "city" if action == "knights" else "field"
        points = 2 * sum(
            1
            for owner, s in model.followers
            if owner == seat and model.kind(model.part_of[s]) == kind
        )
        if points:
            choices.add(("action", points))
    elif action == "extra_tile":
        if state.bag:
            choices.add(("action", 0))
    else:
        variant = state.options.score_and_return.value
        for owner, segment in model.followers:
            if owner != seat:
                continue
            part = model.part_of[segment]
            majority, value = seat in model.majority(part), model.final_value(part)
            if variant == "majority_only":
                if majority:
                    choices.add(("action", segment, value, False))
            elif variant == "any_meeple_score_if_majority":
                choices.add(("action", segment, value if majority else 0, False))
            elif variant == "any_meeple_score_always":
                # Not scoring is offered apart only where scoring would pay something.
                choices.add(("action", segment, value, value > 0))
            else:
                points = value if majority else 0
                choices.add(("action", segment, points, majority and points > 0))
    return choices


def offered_message_choices(state: GameState, waiting: dict) -> set[tuple]:
    assert state.board is not None
    found: set[tuple] = set()
    for choice in waiting["choices"]:
        if choice["choice"] == "points":
            found.add(("points", choice["points"]))
        elif "x" in choice:
            segment = state.board.segment_named(
                choice["x"], choice["y"], choice["feature"], choice.get("at")
            )
            found.add(("action", segment, choice["points"], choice["score_optional"]))
        else:
            found.add(("action", choice["points"]))
    return found


def expected_placement_scores(board: Board, x: int, y: int) -> Counter:
    """rules/base-game.md Rules, Completion and scoring: the features that the tile at (x, y)
    completes (its own and the monasteries around it), scored in full by their majority holders."""
    model = Model(board)
    parts = {model.part_of[(x, y, i)] for i in range(len(board.tiles[(x, y)].features))}
    for dx, dy in _AROUND:
        tile = board.tiles.get((x + dx, y + dy))
        if tile is not None and tile.monastery is not None:
            parts.add(model.part_of[(x + dx, y + dy, tile.monastery)])
    expected: Counter = Counter()
    for part in parts:
        if model.kind(part) != "field" and model.complete(part):
            for seat in model.majority(part):
                expected[(seat, model.completed_value(part), model.kind(part))] += 1
    return expected


def eager_command(state: GameState, rng: random.Random) -> tuple[int, cmd.Command]:
    """A legal decision from ``views.pending``, biased towards completing features, knights and
    dark spaces so that messages come often."""
    waiting = views.pending(state)
    assert waiting is not None
    seat, kind = waiting["seat"], waiting["type"]
    if kind == "place_tile" and rng.random() < 0.8:
        assert state.board is not None
        tiles = state.board.tiles

        def touching(spot: dict) -> int:
            return sum((spot["x"] + dx, spot["y"] + dy) in tiles for dx, dy in _OFFSET.values())

        best = max(touching(spot) for spot in waiting["placements"])
        spot = rng.choice([s for s in waiting["placements"] if touching(s) == best])
        return seat, cmd.PlaceTile(spot["x"], spot["y"], rng.choice(spot["rotations"]))
    if kind == "place_follower" and waiting["spots"] and rng.random() < 0.7:
        spot = rng.choice(waiting["spots"])
        return seat, cmd.PlaceFollower(spot["feature"], spot.get("at"))
    if kind == "choose_figure" and not waiting.get("final"):
        dark = [option["figure"] for option in waiting["options"] if option["dark"]]
        if dark and rng.random() < 0.9:
            return seat, cmd.ChooseFigure(rng.choice(dark))
    return random_command(state, rng)


BOARD_OPTIONS = {
    "message_set": ["c1", "c2", "c3"],
    "figure_choice": ["per_scoring", "per_turn"],
    "trigger": ["on_landing", "end_of_round"],
    "chain": [True, False],
    "alone_rule": [True, False],
    "extra_tile": ["immediate", "extra_turn"],
    "score_and_return": [
        "majority_only",
        "any_meeple_score_if_majority",
        "any_meeple_score_always",
        "majority_or_return_any",
    ],
    "messages_per_turn": ["none", 1, 2],
}


def random_options(rng: random.Random) -> dict[str, Any]:
    return {name: rng.choice(values) for name, values in BOARD_OPTIONS.items()}


@pytest.mark.parametrize("seed", range(14))
def test_random_board_games_agree_with_an_independent_model(seed):
    """rules/base-game.md (catalogue, conventions, Placing, Followers, Completion and scoring, End
    of game) and rules/messengers.md §4 (what each message offers), checked at every step of random
    board games under random options against ``Model``, a flood fill written from the digest:

    * the engine's features are the flood fill's;
    * the follower spots offered are exactly the unoccupied features of the tile just placed
      (none with an empty supply);
    * the points of a placement's round are exactly the completed features' values for their
      majority holders;
    * every message offers exactly "2 points" and the action the digest gives it, with its
      points (score and return: each follower, its points and whether scoring is optional),
      both when a message is drawn and, at a quarter of the placements, for each of the eight
      messages as if the active seat drew it then;
    * final scoring pays every occupied feature's final value to its majority holders."""
    rng = random.Random(seed)
    options = random_options(rng)
    players = [f"P{i}" for i in range(rng.randrange(2, 5))]
    state, events = new_game(players, "c2-hig", options=options, seed=seed)
    expected: Counter | None = None
    scored: Counter = Counter()
    rounds = 0
    while not state.finished:
        waiting = views.pending(state)
        assert waiting is not None
        if waiting["type"] == "resolve_message":
            assert offered_message_choices(state, waiting) == expected_message_choices(state)
        elif waiting["type"] == "place_tile" and rng.random() < 0.25:
            # Every message as if the active seat drew it now.
            assert state.board is not None
            model = Model(state.board)
            for number, action in MESSAGE_SETS[state.options.message_set].items():
                drawn = dataclasses.replace(state, revealed=Revealed(state.active, number, action))
                shown = offered_message_choices(drawn, views.message_choices(drawn))
                assert shown == expected_message_choices(drawn, model)
        seat, command = eager_command(state, rng)
        if waiting["type"] == "place_follower":
            board = state.board
            assert board is not None
            x, y = waiting["x"], waiting["y"]
            model = Model(board)
            free = set()
            if state.players[seat].followers:
                for index in range(len(board.tiles[(x, y)].features)):
                    if not model.counts(model.part_of[(x, y, index)]):
                        free.add((x, y, index))
            offered = {
                board.segment_named(x, y, s["feature"], s.get("at")) for s in waiting["spots"]
            }
            assert offered == free
            if isinstance(command, cmd.PlaceFollower):
                board = board.with_follower(
                    seat, board.segment_named(x, y, command.feature, command.at)
                )
            expected, scored = expected_placement_scores(board, x, y), Counter()
        state, new_events = apply(state, seat, command)
        events += new_events
        for event in new_events:
            if event["type"] == "points" and event["reason"] in ("road", "city", "monastery"):
                scored[(event["seat"], event["points"], event["reason"])] += 1
            ends_round = (
                "message_drawn",
                "message_capped",
                "message_resolved",
                "turn_started",
                "game_ending",
            )
            if expected is not None and event["type"] in ends_round:
                assert scored == expected
                expected, rounds = None, rounds + 1
        if rng.random() < 0.1 and state.board is not None:
            check_features_against_the_model(state.board)
    assert state.board is not None
    check_features_against_the_model(state.board)
    model = Model(state.board)
    final: Counter = Counter()
    for part in model.occupied():
        value = model.final_value(part)
        for seat in model.majority(part) if value else ():
            final[(seat, value, model.kind(part))] += 1
    paid = Counter(
        (e["seat"], e["points"], e["category"])
        for e in events
        if e["type"] == "points" and e["reason"] == "final"
    )
    assert paid == final
    assert rounds > 20


def qualifying(
    options: dict, seat: int, moves: list[tuple], totals: list[dict], board: bool
) -> int:
    """rules/messengers.md §3 trigger, alone_rule and their rulings: how many of ``seat``'s figures
    qualify for a message in the round whose movements are ``moves`` ((seat, figure, start,
    points) in order), the figures now standing at ``totals``? Board mode: any non-empty subset
    of a figure's movements may come first; tabletop: the order of entry."""
    others = {
        totals[other][figure] % 50
        for other in range(len(totals))
        if other != seat
        for figure in (MEEPLE, MESSENGER)
    }
    count = 0
    for figure in (MEEPLE, MESSENGER):
        own = [m for m in moves if m[0] == seat and m[1] == figure]
        if not own:
            continue
        if options["trigger"] == "end_of_round":
            stops = {totals[seat][figure]}
        elif board:
            steps = [m[3] for m in own]
            stops = {
                own[0][2] + sum(subset)
                for size in range(1, len(steps) + 1)
                for subset in itertools.combinations(steps, size)
            }
        else:
            stops = set(itertools.accumulate([m[3] for m in own], initial=own[0][2])) - {own[0][2]}
        count += any(
            stop % 5 == 0 and not (options["alone_rule"] and stop % 50 in others) for stop in stops
        )
    return count


@pytest.mark.parametrize("seed", range(100))
def test_random_board_games_draw_exactly_when_the_digest_says(seed):
    """rules/messengers.md §3 trigger (with the Ruling on_landing within one round: in board mode
    some order of the round's scorings), alone_rule (judged as the round ends), chain, the engine's
    ruling that an extra tile's scoring may draw, §5 "only the active player ever draws", and
    the Rulings (zero points, start). In random board games under random options (one message
    per round), every round of scoring is rebuilt from the events (a round begins with a turn
    or a resolved message) and the model decides whether it earns a message (drawn, or refused
    by the turn cap): the engine must agree for every round."""
    rng = random.Random(1000 + seed)
    options = random_options(rng)
    count = rng.randrange(2, 5)
    state, events = new_game([f"P{i}" for i in range(count)], "c2-hig", options=options, seed=seed)
    while not state.finished:
        state, new_events = apply(state, *eager_command(state, rng))
        events += new_events
    totals = [{MEEPLE: 0, MESSENGER: 0} for _ in range(count)]
    active, can_draw, moves, draws = None, False, [], 0
    for event in [*events, {"type": "game_ending"}]:
        kind = event["type"]
        if kind in ("turn_started", "message_resolved", "game_ending"):
            if active is not None:
                earned = can_draw and qualifying(options, active, moves, totals, board=True) > 0
                assert draws == int(earned), (moves, totals, active)
            moves, draws = [], 0
            if kind == "turn_started":
                active, can_draw = event["seat"], True
            elif kind == "message_resolved":
                extra = (
                    event["action"] == "extra_tile"
                    and event["choice"] == "action"
                    and options["extra_tile"] == "immediate"
                )
                can_draw = options["chain"] or extra
            else:
                break
        elif kind == "points":
            seat, figure = event["seat"], event["figure"]
            moves.append((seat, figure, totals[seat][figure], event["points"]))
            totals[seat][figure] += event["points"]
            assert event["total"] == totals[seat][figure]
        elif kind in ("message_drawn", "message_capped"):
            assert event["seat"] == active
            draws += 1


def dark_choice(meeple: int, messenger: int, seat: int, points: int) -> str:
    """How the players of the tabletop model pick a figure: the one that lands on a dark space if
    only one does, else by a fixed rule."""
    dark = [f for f, now in ((MEEPLE, meeple), (MESSENGER, messenger)) if (now + points) % 5 == 0]
    if len(dark) == 1:
        return dark[0]
    return MEEPLE if (points + meeple + seat) % 2 == 0 else MESSENGER


class Script:
    """The decisions of a tabletop game: the n-th round of entered scores, the m-th message's
    resolution. Both the engine's driver and the model read the same script."""

    def __init__(self, seed: int, players: int) -> None:
        self.seed, self.players = seed, players

    def scores(self, n: int) -> list[tuple[int, int, str | None]]:
        rng = random.Random(self.seed * 1009 + n)
        entries = []
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
            seat = 0 if rng.random() < 0.5 else rng.randrange(self.players)
            points = rng.choice((1, 2, 3, 4, 5, 5, 7, 10, 50))
            entries.append((seat, points, rng.choice((None, None, MEEPLE, MESSENGER))))
        return entries

    def resolution(self, m: int) -> tuple[str, int]:
        rng = random.Random(self.seed * 7919 + m)
        return rng.choice(("points", "action", "action")), rng.choice((0, 1, 3, 5, 10))


class TabletopModel:
    """rules/messengers.md §1, §3, §4 and §5 at the table, written as the digest reads: one
    recursive function per round of scoring. It produces the events that matter: turns begun, points
    (seat, points, figure, total), messages drawn and messages refused by the cap."""

    def __init__(self, options: dict, players: int, stack: list[int], script: Script) -> None:
        self.o, self.players, self.stack, self.script = options, players, list(stack), script
        self.totals = [{MEEPLE: 0, MESSENGER: 0} for _ in range(players)]
        self.events: list[tuple] = []
        self.rounds = self.messages = 0
        self.active, self.fixed, self.drawn_this_turn, self.extra_turns = 0, {}, 0, 0

    def award(self, seat: int, points: int, given: str | None, moves: list) -> None:
        per_turn = self.o["figure_choice"] == "per_turn"
        fixed = self.fixed.get(seat) if per_turn else None
        if given and fixed and given != fixed:
            return  # refused: the figure of this turn is fixed
        now = self.totals[seat]
        figure = given or fixed or dark_choice(now[MEEPLE], now[MESSENGER], seat, points)
        moves.append((seat, figure, now[figure], points))
        now[figure] += points
        if per_turn:
            self.fixed[seat] = figure
        self.events.append(("points", seat, points, figure, now[figure]))

    def entered(self, moves: list) -> None:
        for seat, points, figure in self.script.scores(self.rounds):
            self.award(seat, points, figure, moves)
        self.rounds += 1

    def round(self, can_draw: bool, body) -> None:
        moves: list = []
        body(moves)
        if can_draw:
            earned = qualifying(self.o, self.active, moves, self.totals, board=False)
            for _ in range(min(earned, self.o["messages_per_round"])):
                self.draw()

    def draw(self) -> None:
        cap = self.o["messages_per_turn"]
        if cap != "none" and self.drawn_this_turn >= cap:
            self.events.append(("capped", self.active))
            return
        message = self.stack.pop(0)
        self.drawn_this_turn += 1
        self.events.append(("drawn", self.active, message))
        action = MESSAGE_SETS[self.o["message_set"]][message].value
        choice, points = self.script.resolution(self.messages)
        self.messages += 1
        self.stack.append(message)
        seat, chain = self.active, self.o["chain"]
        if choice == "points":
            self.round(chain, lambda moves: self.award(seat, 2, None, moves))
        elif action == "extra_tile" and self.o["extra_tile"] == "immediate":
            self.round(True, self.entered)
        elif action == "extra_tile":
            self.extra_turns += 1
            self.round(chain, lambda moves: None)
        else:
            self.round(chain, lambda moves: points and self.award(seat, points, None, moves))

    def play(self, turns: int) -> list[tuple]:
        for _ in range(turns):
            self.fixed, self.drawn_this_turn = {}, 0
            self.events.append(("turn", self.active))
            self.round(True, self.entered)
            if self.extra_turns:
                self.extra_turns -= 1
            else:
                self.active = (self.active + 1) % self.players
        self.events.append(("turn", self.active))
        return self.events


def play_tabletop(options: dict, players: int, stack: list[int], script: Script, turns: int):
    """Drive the engine with the script; return the same kind of events as the model."""
    state, events = new_game(
        [f"P{i}" for i in range(players)],
        "c2-hig",
        options=options,
        mode="tabletop",
        messages=stack,
    )
    seen: list[tuple] = []

    def read(new_events: list[dict]) -> None:
        for e in new_events:
            if e["type"] == "points":
                seen.append(("points", e["seat"], e["points"], e["figure"], e["total"]))
            elif e["type"] == "message_drawn":
                seen.append(("drawn", e["seat"], e["message"]))
            elif e["type"] == "message_capped":
                seen.append(("capped", e["seat"]))
            elif e["type"] == "turn_started":
                seen.append(("turn", e["seat"]))

    read(events)
    rounds = messages = 0
    entries: list | None = None
    while True:
        waiting = views.pending(state)
        assert waiting is not None
        if waiting["type"] == "end_turn":
            if entries is None:
                if sum(1 for e in seen if e[0] == "turn") > turns:
                    break
                entries, rounds = list(script.scores(rounds)), rounds + 1
            if entries:
                seat, points, figure = entries.pop(0)
                try:
                    state, new_events = apply(state, seat, cmd.Score(points, figure))
                except IllegalCommand:
                    continue
            else:
                entries = None
                state, new_events = apply(state, state.active, cmd.EndTurn())
        elif waiting["type"] == "choose_figure":
            seat = waiting["seat"]
            player = state.players[seat]
            figure = dark_choice(player.meeple, player.messenger, seat, waiting["points"])
            state, new_events = apply(state, seat, cmd.ChooseFigure(figure))
        else:
            assert waiting["type"] == "resolve_message"
            choice, points = script.resolution(messages)
            messages += 1
            if choice == "points":
                command = cmd.ResolveMessage("points")
            elif waiting["action"] == "extra_tile":
                command = cmd.ResolveMessage("action")
            else:
                command = cmd.ResolveMessage("action", points=points)
            state, new_events = apply(state, waiting["seat"], command)
        read(new_events)
    return seen


TABLE_OPTIONS = {
    **{k: v for k, v in BOARD_OPTIONS.items() if k != "score_and_return"},
    "messages_per_round": [1, 2],
    "messages_per_turn": ["none", 1, 2, 3],
}


@pytest.mark.parametrize("seed", range(150))
def test_random_tabletop_games_agree_with_the_digest_model(seed):
    """rules/messengers.md §1 (two figures, dark spaces, the stack cycles), §3 (every option and
    ruling: per_scoring / per_turn for every player, on_landing in the order of entry /
    end_of_round, messages_per_round, chain, messages_per_turn, alone_rule judged as the round
    ends, extra_tile immediate / extra_turn), §4 (the message's points) and §5 (only the active
    player draws), rules/record-format.md tabletop turn flow: 25 turns of a random table under
    random options, played by the engine and by ``TabletopModel`` with the same decisions, give the
    same turns, points, draws and capped draws in the same order."""
    rng = random.Random(seed)
    options = {name: rng.choice(values) for name, values in TABLE_OPTIONS.items()}
    players = rng.randrange(2, 5)
    order = list(range(1, 9))
    rng.shuffle(order)
    script = Script(seed, players)
    expected = TabletopModel(options, players, order, script).play(25)
    assert play_tabletop(options, players, order, script, 25) == expected


# views.pending against apply -------------------------------------------------------------------


def offered_commands(waiting: dict) -> list[tuple[cmd.Command, bool]]:
    """Every command the pending decision offers (with True), and the refusals it implies
    (False): ``score: false`` where scoring is neither optional nor worth 0."""
    kind = waiting["type"]
    if kind == "place_tile":
        return [
            (cmd.PlaceTile(spot["x"], spot["y"], rotation), True)
            for spot in waiting["placements"]
            for rotation in spot["rotations"]
        ]
    if kind == "place_follower":
        spots = [(cmd.PlaceFollower(s["feature"], s.get("at")), True) for s in waiting["spots"]]
        return [*spots, (cmd.SkipFollower(), True)]
    if kind == "choose_figure":
        return [(cmd.ChooseFigure(option["figure"]), True) for option in waiting["options"]]
    assert kind == "resolve_message"
    found = []
    for choice in waiting["choices"]:
        if choice["choice"] == "points":
            found.append((cmd.ResolveMessage("points"), True))
        elif "x" in choice:
            where = (choice["x"], choice["y"], choice["feature"], choice.get("at"))
            found.append((cmd.ResolveMessage("action", *where), True))
            optional = choice["score_optional"] or choice["points"] == 0
            found.append((cmd.ResolveMessage("action", *where, score=False), optional))
        else:
            found.append((cmd.ResolveMessage("action"), True))
    if not any(choice["choice"] == "action" for choice in waiting["choices"]):
        found.append((cmd.ResolveMessage("action"), False))
    return found


def accepted(state: GameState, seat: int, command: cmd.Command) -> bool:
    try:
        apply(state, seat, command)
    except EngineError:
        return False
    return True


@pytest.mark.parametrize("seed", range(6))
def test_pending_offers_exactly_what_apply_accepts(seed):
    """views.py ``pending`` ("who must decide what, with the legal choices") against ``apply``,
    in random board games of every preset: every offered choice is accepted (every placement,
    follower spot, figure, message resolution); placements not offered (a sample of empty cells
    next to the board, every rotation) are refused; a follower named on the tile just placed is
    accepted exactly when its feature is offered; message 8 accepts exactly the offered
    followers (any follower of any seat on the board is tried) and ``score: false`` only where
    scoring is optional or worth 0; an action that is not offered is refused."""
    rng = random.Random(seed)
    preset = PRESETS[seed % 4]
    state, _ = new_game(["Ann", "Bob", "Cy"][: 2 + seed % 2], preset, seed=seed)
    while not state.finished:
        waiting = views.pending(state)
        assert waiting is not None
        seat, kind = waiting["seat"], waiting["type"]
        for command, legal in offered_commands(waiting):
            assert accepted(state, seat, command) is legal, (command, waiting)
        assert state.board is not None
        board = state.board
        if kind == "place_tile":
            offered = {(s["x"], s["y"], r) for s in waiting["placements"] for r in s["rotations"]}
            cells = [*board.open_cells, (0, 0), (50, 50)]
            for x, y in rng.sample(cells, min(6, len(cells))):
                for rotation in (0, 90, 180, 270):
                    if (x, y, rotation) not in offered:
                        assert not accepted(state, seat, cmd.PlaceTile(x, y, rotation))
        if kind == "place_follower":
            x, y = waiting["x"], waiting["y"]
            tile = board.tiles[(x, y)]
            spots = {board.segment_named(x, y, s["feature"], s.get("at")) for s in waiting["spots"]}
            for location in (
                None,
                "N",
                "E",
                "S",
                "W",
                "NL",
                "NR",
                "EL",
                "ER",
                "SL",
                "SR",
                "WL",
                "WR",
            ):
                for feature in ("road", "city", "field", "monastery"):
                    if (feature == "monastery") != (location is None):
                        continue
                    index = tile.monastery if location is None else tile.feature_at.get(location)
                    names = index is not None and tile.features[index].kind.value == feature
                    legal = names and (x, y, index) in spots
                    command = cmd.PlaceFollower(feature, location)
                    assert accepted(state, seat, command) is legal, (command, spots)
        if kind == "resolve_message" and waiting["action"] == "score_and_return":
            offered = {
                board.segment_named(c["x"], c["y"], c["feature"], c.get("at"))
                for c in waiting["choices"]
                if c["choice"] == "action"
            }
            for follower in board.followers():
                where = board.describe(follower.segment)
                command = cmd.ResolveMessage(
                    "action", where["x"], where["y"], where["feature"], where.get("at")
                )
                assert accepted(state, seat, command) is (follower.segment in offered)
        state, _ = apply(state, *eager_command(state, rng))


@pytest.mark.parametrize("seed", range(4))
def test_tabletop_pending_may_end_game_is_what_apply_accepts(seed):
    """rules/record-format.md ``end_game`` ("from any seat between turns") and docs/engine.md
    (accepted only at the start of a turn, before any score of that turn is entered): in random
    tabletop games, at every ``end_turn`` decision, ``end_game`` from any seat is accepted
    exactly when ``pending`` says ``may_end_game``; ``end_turn`` from another seat than the
    active one is refused."""
    rng = random.Random(seed)
    state, _ = new_game(["Ann", "Bob", "Cy"], PRESETS[seed], mode="tabletop", seed=seed)
    checked = 0
    while not state.finished:
        waiting = views.pending(state)
        assert waiting is not None
        if waiting["type"] == "end_turn":
            for seat in range(3):
                assert accepted(state, seat, cmd.EndGame()) is waiting["may_end_game"]
            other = (state.active + 1) % 3
            assert not accepted(state, other, cmd.EndTurn())
            checked += 1
        state, _ = apply(state, *random_command(state, rng))
    assert checked > 10


# Commands outside the record format ------------------------------------------------------------


@pytest.mark.parametrize("mode", ("board", "tabletop"))
def test_a_message_choice_other_than_action_or_points_is_refused(mode):
    """rules/record-format.md Actions, ``resolve_message``: ``choice`` is ``action`` or ``points``;
    common engine contract: an illegal command raises an EngineError and changes nothing, and a
    game's log must replay. A ``choice`` of "banana" sent to ``apply`` must be refused, not
    carried out as the action (the record it would leave cannot be replayed: ``replay`` stops
    at that action)."""
    if mode == "tabletop":
        g = Game("c2-hig", mode="tabletop").score(0, 5, MEEPLE).end_turn()

        def command():
            return cmd.ResolveMessage("banana", points=3)
    else:
        g = monk_game("c2-hig")

        def command():
            return cmd.ResolveMessage("banana", 0, 1, "monastery")

    assert g.pending["type"] == "resolve_message"
    before = g.state
    with pytest.raises(EngineError):
        apply(g.state, 0, command())
    assert g.state is before


@pytest.mark.parametrize(
    "make_command",
    [
        lambda: cmd.ChooseFigure("banana"),
        lambda: cmd.ChooseFigure("Meeple"),
        lambda: cmd.Score(3, "hat"),
    ],
)
def test_an_unknown_figure_is_refused_with_an_engine_error(make_command):
    """rules/record-format.md ``choose_figure`` (``figure``: ``meeple`` or ``messenger``) and
    ``score`` (optional ``figure``); common engine contract: illegal commands raise subclasses of
    ``EngineError``. A figure that does not exist must be refused with an EngineError (not a
    ValueError from deep inside the engine), whether the command is built or applied."""
    g = Game("c2-hig", mode="tabletop")
    g.score(0, 3)
    assert g.pending["type"] == "choose_figure"
    with pytest.raises(EngineError):
        apply(g.state, 0, make_command())


def test_score_false_is_refused_where_the_action_has_no_optional_scoring():
    """rules/messengers.md §4 "Where scoring is optional ("may"), the record's resolve_message
    carries "score": false to return the follower without scoring"; views.pending offers no
    ``score_optional`` for "score your smallest monastery". A ``score: false`` there asks for
    something the rules do not offer; the engine refuses it for message 8 where scoring is
    mandatory, and must refuse it here too rather than score anyway and log
    ``"score": false`` in the record.

    Board of ``monk_game`` with "smallest monastery" on top: Ann's monastery is worth 3."""
    g = Game(
        "c2-hig",
        tiles=["B", "F", "G", "B", "E", "U"],
        messages=stack("c2-hig", "smallest_monastery"),
    )
    g.place(0, 1, 0).follower("monastery")
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(1, 1, 0).skip()
    g.place(0, -3, 180).follower("city", "S").figure(MEEPLE)
    assert rules_of(g.pending["choices"])[1] == {
        "choice": "action",
        "points": 3,
        "feature": {"x": 0, "y": 1, "feature": "monastery"},
    }
    with pytest.raises(IllegalCommand):
        apply(g.state, 0, cmd.ResolveMessage("action", score=False))
