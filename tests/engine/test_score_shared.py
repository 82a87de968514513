"""Shared scorings and turn-naming ``end_turn`` at a tabletop game (rules/record-format.md,
"Actions": ``score``, ``end_turn``; docs/records.md, "Additions for tabletop games"): a feature
whose majority several players share is one entry that moves each of their figures, or none."""

from __future__ import annotations

from typing import Any

import pytest

from game.engine import commands as cmd
from game.engine.errors import IllegalCommand, MalformedCommand, NotYourDecision, TurnOver
from game.engine.record import export, replay
from game.words.narration import narrate
from tests.scenario import Game


def shared(points: int, *shares: dict[str, Any], category: str | None = None) -> cmd.Command:
    action: dict[str, Any] = {"type": "score_shared", "points": points, "shares": list(shares)}
    if category is not None:
        action["category"] = category
    return cmd.parse_command(action)


def table(preset: str = "c2-hig", players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Game:
    return Game(preset, mode="tabletop", players=players)


def test_each_sharing_seat_moves_its_own_figure_in_one_entry() -> None:
    """rules/messengers.md §1: "Whenever points are scored, the scoring player moves one of the two
    figures by that amount": every player of a shared majority scores the feature's points, each
    on their own figure; the whole sharing is one log entry."""
    g = table()
    g.send(
        shared(
            4, {"seat": 0, "figure": "meeple"}, {"seat": 2, "figure": "messenger"}, category="city"
        ),
        seat=0,
    )
    assert (g.player(0).meeple, g.player(0).messenger) == (4, 0)
    assert (g.player(2).meeple, g.player(2).messenger) == (0, 4)
    assert g.player(1).score == 0
    assert len(g.state.log) == 1
    assert g.state.log[0] == {
        "seat": 0,
        "type": "score_shared",
        "points": 4,
        "category": "city",
        "shares": [{"seat": 0, "figure": "meeple"}, {"seat": 2, "figure": "messenger"}],
    }
    points = g.of_type("points")
    assert [(e["seat"], e["figure"], e["category"]) for e in points] == [
        (0, "meeple", "city"),
        (2, "messenger", "city"),
    ]
    lines = [line["text"] for line in narrate(g.events, ["Ann", "Bob", "Cy"])]
    assert "\u2068Ann\u2069 and \u2068Cy\u2069 share 4 points for a city" in lines


def test_a_share_that_cannot_apply_applies_none() -> None:
    """All or nothing: a share for a seat that does not exist, or a figure the edition no longer
    allows, refuses the whole entry and changes nobody's score (rules/messengers.md §3
    ``figure_choice = per_turn``: "a player advances only one figure in a turn")."""
    g = table()
    before = g.state
    with pytest.raises(IllegalCommand, match="no seat 5"):
        g.send(shared(4, {"seat": 0, "figure": "meeple"}, {"seat": 5, "figure": "meeple"}), 0)
    assert g.state is before
    c3 = table("c3")
    c3.score(2, 3, "messenger")
    before = c3.state
    with pytest.raises(IllegalCommand, match="messenger for the rest of this turn"):
        c3.send(shared(4, {"seat": 0, "figure": "meeple"}, {"seat": 2, "figure": "meeple"}), 0)
    assert c3.state is before
    assert [p.score for p in c3.state.players] == [0, 0, 3]


def test_per_turn_a_seat_with_a_fixed_figure_gets_it() -> None:
    """rules/messengers.md §3, ruling "per_turn for other players": each player's first scoring of
    the turn fixes the figure for the rest of the turn; a share without a figure goes on it
    without asking, while a seat whose figure is not fixed yet is asked."""
    g = table("c3")
    g.score(1, 2, "messenger")
    g.send(shared(3, {"seat": 1}, {"seat": 2, "figure": "meeple"}), 0)
    assert g.player(1).messenger == 5
    assert g.player(2).meeple == 3
    assert g.pending is not None and g.pending["type"] == "end_turn"


def test_figures_are_asked_one_seat_at_a_time_in_share_order() -> None:
    """rules/messengers.md §3 ``figure_choice = per_scoring``: "for each scored feature the scoring
    player picks the figure"; with a shared feature each sharing player picks their own, in the
    order of the shares, and nobody else's entry is taken meanwhile."""
    g = table()
    g.send(shared(6, {"seat": 2}, {"seat": 1}, {"seat": 0, "figure": "meeple"}), 0)
    assert g.pending is not None
    assert (g.pending["type"], g.pending["seat"]) == ("choose_figure", 2)
    with pytest.raises(NotYourDecision):
        g.figure("meeple", seat=1)
    g.figure("messenger", seat=2)
    assert (g.pending["type"], g.pending["seat"]) == ("choose_figure", 1)
    g.figure("meeple", seat=1)
    assert g.pending["type"] == "end_turn"
    assert [(p.meeple, p.messenger) for p in g.state.players] == [(6, 0), (6, 0), (0, 6)]


@pytest.mark.parametrize(("preset", "drawn"), [("c2-hig", True), ("c2-zmg", False)])
def test_the_active_seat_draws_when_its_shared_points_land_on_a_dark_space(
    preset: str, drawn: bool
) -> None:
    """rules/messengers.md §1: "When the active player's figure ends on a dark space, the active
    player draws the top message"; §5: only the active player draws. A share is a scoring like any
    other: Ann (active) and Bob share 5 points and both land on 5. Without the alone rule Ann
    draws message 1; with it (c2-zmg, ``alone_rule``: "no draw when another player's figure
    already stands on the dark space") Bob's figure on 5 blocks her draw."""
    g = table(preset, players=("Ann", "Bob"))
    g.send(shared(5, {"seat": 0, "figure": "meeple"}, {"seat": 1, "figure": "meeple"}), 0)
    g.end_turn()
    assert g.drawn_messages() == ([1] if drawn else [])


def test_a_non_active_seat_landing_on_dark_draws_nothing() -> None:
    """rules/messengers.md §5: "Only the active player ever draws, even when other players' figures
    land on dark spaces during the active player's turn"."""
    g = table(players=("Ann", "Bob"))
    g.send(shared(5, {"seat": 1, "figure": "meeple"}, {"seat": 0, "figure": "messenger"}), 0)
    g.score(0, 1, "messenger")  # Ann leaves 5 for 6
    g.end_turn()
    assert g.drawn_messages() == []


def test_final_scoring_shares_go_on_each_carrier() -> None:
    """rules/messengers.md §3 ``final_figure``: at the end "both figures' points are added; which
    figure carries the total"; final points go on the carrier, so a final share names it or
    nothing."""
    g = table("c2-hig", players=("Ann", "Bob"))
    g.score(0, 7, "messenger")
    g.end_turn()
    g.end_game()
    g.figure("messenger", seat=0)
    g.figure("meeple", seat=1)
    before = g.state
    with pytest.raises(IllegalCommand, match="final points go on the messenger"):
        g.send(shared(3, {"seat": 0, "figure": "meeple"}, {"seat": 1}, category="field"), 0)
    assert g.state is before
    g.send(shared(3, {"seat": 0}, {"seat": 1, "figure": "meeple"}, category="field"), 0)
    assert (g.player(0).messenger, g.player(1).meeple) == (10, 3)
    g.finish()
    assert g.of_type("game_over")[-1]["scores"] == [10, 3]


@pytest.mark.parametrize(
    ("shares", "message"),
    [
        ([{"seat": 0}], "2 to 6 seats"),
        ([{"seat": 0}, {"seat": 0}], "a seat twice"),
        ([{"seat": 0}, {"seat": 1, "points": 3}], "a share takes no 'points'"),
        ([{"seat": 0}, {"seat": True}], "whole number"),
        ([{"seat": 0}, {"seat": 1, "figure": "knight"}], "figure"),
        ({"seat": 0}, "list of objects"),
        ([0, 1], "list of objects"),
    ],
)
def test_malformed_shares_are_refused(shares: object, message: str) -> None:
    """docs/engine.md "Strict commands": a key or value a command does not use is refused."""
    with pytest.raises(MalformedCommand, match=message):
        cmd.parse_command({"type": "score_shared", "points": 4, "shares": shares})


def test_a_record_with_shared_scorings_and_named_turns_replays_to_the_same_state() -> None:
    """rules/record-format.md: a record replays to the same state; ``score_shared`` and
    ``end_turn`` with ``turn`` are written and read back unchanged."""
    g = table("c3")
    g.send(shared(5, {"seat": 0, "figure": "meeple"}, {"seat": 1, "figure": "messenger"}), 0)
    g.send(cmd.EndTurn(turn=1), seat=0)
    g.resolve("points")
    g.send(shared(2, {"seat": 1}, {"seat": 2}), seat=1)
    g.figure("meeple", seat=1)
    g.figure("meeple", seat=2)
    g.undo()
    g.figure("messenger", seat=2)
    replayed = replay(export(g.state)).state
    assert replayed.players == g.state.players
    assert replayed.log == g.state.log
    assert {"seat": 0, "type": "end_turn", "turn": 1} in g.state.log
    assert [(p.meeple, p.messenger) for p in replayed.players] == [(7, 0), (2, 5), (0, 2)]


def test_end_turn_naming_an_ended_turn_ends_nothing() -> None:
    """rules/record-format.md ``end_turn``: the turn it names must be the one whose end the game
    waits for, so a second click on "end turn" cannot end the next player's turn."""
    g = table(players=("Ann", "Bob"))
    assert g.pending is not None and g.pending["turn"] == 1
    g.send(cmd.EndTurn(turn=1), seat=0)
    before = g.state
    with pytest.raises(TurnOver, match="turn 1 is already over"):
        g.send(cmd.EndTurn(turn=1), seat=1)
    with pytest.raises(TurnOver, match="has not begun"):
        g.send(cmd.EndTurn(turn=3), seat=1)
    assert g.state is before and g.state.turn == 2
    g.send(cmd.EndTurn(turn=2), seat=1)
    assert g.state.turn == 3


def test_end_turn_naming_a_turn_whose_message_is_pending_is_turn_over() -> None:
    """rules/messengers.md §5: the message is drawn "when phase 3 ends"; once the active seat ended
    its scoring and a message waits, another end_turn for that turn is refused as over, not as
    some other decision."""
    g = table(players=("Ann", "Bob"))
    g.score(0, 5, "meeple")
    g.send(cmd.EndTurn(turn=1), seat=0)
    assert g.pending is not None and g.pending["type"] == "resolve_message"
    with pytest.raises(TurnOver, match="already ending"):
        g.send(cmd.EndTurn(turn=1), seat=0)
    # A figure prompt during the scoring is not the turn's end: the usual refusal applies.
    h = table(players=("Ann", "Bob"))
    h.score(1, 3)
    with pytest.raises(IllegalCommand) as refused:
        h.send(cmd.EndTurn(turn=1), seat=0)
    assert not isinstance(refused.value, TurnOver)
