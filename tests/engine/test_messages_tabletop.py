"""Scenario tests for rules/messengers.md §4 in tabletop mode (rules/record-format.md, "Targets of
resolve_message" and "Turn flow in tabletop mode"): the players count a message's action at the
table and enter its points; "one more tile" lets the same seat enter the extra tile's scores;
"extra turn" gives the same seat another turn.

In each test Ann (seat 0) enters 5 points for her placement and ends her turn: her figure stands on
space 5 (dark), so she draws the top message.
"""

from __future__ import annotations

import pytest

from game.engine.errors import IllegalCommand
from game.engine.views import view
from tests.engine.test_messages import ACTIONS, TWO_POINTS, assert_paid, choose, number, stack
from tests.scenario import Game

IMMEDIATE = ("c1-zmg", "c2-hig", "c2-zmg")
COUNTED = tuple(a for a in ACTIONS if a not in ("extra_tile", "score_and_return"))


def drawn(preset: str, *actions: str) -> Game:
    """A tabletop game where Ann scores 5 on her meeple and ends her turn: she draws the top
    message, ``actions[0]``."""
    g = Game(preset, mode="tabletop", messages=stack(preset, *actions))
    g.score(0, 5, "meeple").end_turn()
    assert g.pending["type"] == "resolve_message"
    assert (g.pending["seat"], g.pending["action"]) == (0, actions[0])
    return g


@pytest.mark.parametrize("preset", ("c1-zmg", "c2-hig", "c2-zmg", "c3"))
@pytest.mark.parametrize("action", COUNTED)
def test_action_points_are_counted_at_the_table(preset, action):
    """rules/record-format.md resolve_message targets, tabletop: "smallest road / city / monastery,
    coats of arms, knights, farmers: ... in tabletop mode ``points`` (the value the players
    counted at the table)": the action is offered with its points left to the table; the
    entered 3 points are scored as the message's points; then play passes to Bob."""
    g = drawn(preset, action)
    assert TWO_POINTS in g.pending["choices"]
    actions = [c for c in g.pending["choices"] if c["choice"] == "action"]
    assert len(actions) == 1 and actions[0]["points"] is None
    g.resolve("action", points=3)
    choose(g, "messenger")
    assert g.player(0).score == 8
    assert_paid(g, 3)
    resolved = g.of_type("message_resolved")[-1]
    assert resolved["message"] == number(preset, action)
    assert resolved["choice"] == "action"
    assert g.pending["seat"] == 1 and g.pending["type"] == "end_turn"
    assert g.of_type("turn_started")[-1]["seat"] == 1


def test_counted_action_needs_its_points():
    """rules/record-format.md, tabletop: an action counted at the table carries ``points``; without
    them it is refused and nothing changes."""
    g = drawn("c2-hig", "knights")
    before = g.state
    with pytest.raises(IllegalCommand):
        g.resolve("action")
    assert g.state is before


@pytest.mark.parametrize("preset", ("c1-zmg", "c2-hig", "c2-zmg", "c3"))
def test_score_and_return_may_give_zero_at_the_table(preset):
    """rules/record-format.md resolve_message targets, tabletop: score and return takes ``points``
    "(possibly 0)": 0 is accepted, moves no figure, and the message is resolved for 0."""
    g = drawn(preset, "score_and_return")
    g.resolve("action", points=0)
    assert_paid(g, 0)
    assert (g.player(0).meeple, g.player(0).messenger) == (5, 0)
    assert g.pending["seat"] == 1 and g.pending["type"] == "end_turn"


@pytest.mark.parametrize("preset", ("c1-zmg", "c2-hig", "c2-zmg", "c3"))
def test_score_and_return_counted_points(preset):
    """rules/record-format.md, tabletop: score and return, 4 points counted at the table, pays 4."""
    g = drawn(preset, "score_and_return")
    g.resolve("action", points=4)
    choose(g, "meeple")
    assert g.player(0).meeple == 9
    assert_paid(g, 4, "meeple")


@pytest.mark.parametrize("preset", IMMEDIATE)
def test_one_more_tile_lets_the_same_seat_score_again(preset):
    """rules/messengers.md §4 One more tile (immediate) and rules/record-format.md "Turn flow in
    tabletop mode": after the action the same seat enters the extra tile's scores and sends end_turn
    again; those scores can land on a dark space and draw the next message (chain); then play passes
    to Bob."""
    g = drawn(preset, "extra_tile", "farmers")
    g.resolve("action")
    assert_paid(g, 0)
    assert g.pending["type"] == "end_turn"
    assert g.pending["seat"] == 0
    assert g.pending["extra_tile"] is True
    assert len(g.of_type("turn_started")) == 1
    # Bob scores with Ann's extra tile too; Ann puts 5 on her messenger (space 5: dark).
    g.score(1, 2, "meeple").score(0, 5, "messenger").end_turn()
    assert g.drawn_messages() == stack(preset, "extra_tile", "farmers")[:2]
    assert g.pending["type"] == "resolve_message" and g.pending["seat"] == 0
    g.resolve("points").figure("meeple")
    assert (g.player(0).meeple, g.player(0).messenger) == (7, 5)
    assert g.player(1).meeple == 2
    assert g.pending["type"] == "end_turn" and g.pending["seat"] == 1
    assert g.pending["extra_tile"] is False
    assert [e["seat"] for e in g.of_type("turn_started")] == [0, 1]


def test_extra_turn_gives_the_same_seat_another_turn():
    """rules/messengers.md §4 extra_turn (c3) and rules/record-format.md "With extra_tile =
    extra_turn, the same seat is active again for one more turn": a new turn for Ann (the figure is
    chosen afresh: she put turn 1's points on her meeple, now on her messenger), which draws its own
    message; then Bob. The view says which turn is an extra one, to its end (its message)."""
    g = drawn("c3", "extra_tile", "knights")
    assert view(g.state)["extra_turn"] is False
    g.resolve("action")
    assert_paid(g, 0)
    assert g.of_type("extra_turn") == [{"type": "extra_turn", "seat": 0}]
    assert [(e["seat"], e["turn"]) for e in g.of_type("turn_started")] == [(0, 1), (0, 2)]
    assert g.pending["type"] == "end_turn" and g.pending["seat"] == 0
    assert g.pending["extra_tile"] is False
    assert view(g.state)["extra_turn"] is True
    g.score(0, 5, "messenger").end_turn()
    assert g.drawn_messages() == stack("c3", "extra_tile", "knights")[:2]
    assert view(g.state)["extra_turn"] is True
    g.resolve("action", points=4)
    assert view(g.state)["extra_turn"] is False
    assert (g.player(0).meeple, g.player(0).messenger) == (5, 9)
    assert_paid(g, 4, "messenger")
    assert [(e["seat"], e["turn"]) for e in g.of_type("turn_started")][-1] == (1, 3)
    assert g.pending["type"] == "end_turn" and g.pending["seat"] == 1
