"""Corrections of any entry at a tabletop game: ``adjust`` and ``correct`` (docs/records.md,
"Corrections").

A ``correct`` changes or deletes an earlier entry with points; the game is rebuilt from its setup
with the corrected history, entries that no longer apply lapse (listed, never dropped silently),
and the message stack keeps the order fixed at the start. An ``adjust`` is a signed change of
one figure, now; our ruling: it never draws a message.
"""

from __future__ import annotations

from typing import Any

import pytest

from game.engine import commands as cmd
from game.engine.corrections import play_events, plays
from game.engine.errors import IllegalCommand, MalformedCommand
from game.engine.record import export, replay
from game.words.narration import final_breakdown, narrate
from tests.scenario import Game

PRESETS = ("c1-zmg", "c2-hig", "c2-zmg", "c3")
ORDER = [3, 1, 4, 5, 2, 6, 7, 8]
NAMES = ["Ann", "Bob"]


def table(preset: str = "c2-hig", **options: Any) -> Game:
    return Game(preset, mode="tabletop", messages=ORDER, options=options or None)


def correct(g: Game, entry: int, replacement: dict[str, Any] | None, seat: int = 0) -> Game:
    return g.send(cmd.Correct(entry, replacement), seat)


def adjust(g: Game, seat: int, points: int, figure: str) -> Game:
    return g.send(cmd.Adjust(points, figure), seat)


def same_game(a: Game, b: Game) -> None:
    """Two games stand the same: figures, turn, decision and stack."""
    assert a.state.players == b.state.players
    assert (a.state.active, a.state.turn) == (b.state.active, b.state.turn)
    assert a.state.stack == b.state.stack
    assert a.state.revealed == b.state.revealed
    assert a.pending == b.pending


def last(g: Game, kind: str) -> dict[str, Any]:
    return g.of_type(kind)[-1]


def replays_identically(g: Game) -> None:
    """The exported record replays to the identical state, corrections and lapses included."""
    assert replay(export(g.state)).state == g.state


def plain(line: Any) -> str:
    """A line's text without the isolates around names."""
    text = line["text"] if isinstance(line, dict) else line
    return str(text).replace("\u2068", "").replace("\u2069", "")


# Changing points, figure, player, category -----------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_correcting_the_points_of_an_earlier_entry(preset):
    """A typo: 66 for 6, noticed after Bob's entry. Corrected in place, Bob's entry stays, and the
    game stands as if 6 had been entered."""
    g = table(preset).score(0, 66, "meeple", "city").score(1, 4, "messenger")
    correct(g, 0, {"seat": 0, "type": "score", "points": 6, "figure": "meeple", "category": "city"})
    same_game(g, table(preset).score(0, 6, "meeple", "city").score(1, 4, "messenger"))
    event = last(g, "corrected")
    assert event["entry"] == 0 and event["lapsed"] == []
    assert event["before"][0] == {"meeple": 66, "messenger": 0}
    assert event["scores"][0] == {"meeple": 6, "messenger": 0}
    assert plain(narrate([event], NAMES)[0]) == "Host corrects Ann's 66 points (city, meeple) to 6"
    assert [a["type"] for a in g.state.log] == ["score", "score", "correct"]
    replays_identically(g)


def test_correcting_the_figure_player_and_category():
    """Each key of the entry can change: figure, player, category (and points)."""
    g = table().score(0, 4, "meeple", "city").score(1, 3, "meeple")
    correct(g, 0, {"seat": 0, "type": "score", "points": 4, "figure": "messenger"})
    assert (g.player(0).meeple, g.player(0).messenger) == (0, 4)
    correct(g, 0, {"seat": 1, "type": "score", "points": 4, "figure": "messenger"})
    assert g.player(0).score == 0
    assert (g.player(1).meeple, g.player(1).messenger) == (3, 4)
    line = plain(narrate([last(g, "corrected")], NAMES)[0])
    assert line == "Host corrects Ann's 4 points (messenger) to Bob's 4 points (messenger)"
    correct(g, 0, {"seat": 1, "type": "score", "points": 4, "figure": "messenger",
                   "category": "road"})  # fmt: skip
    points = [e for e in play_events(g.state) if e["type"] == "points"]
    assert [(e["seat"], e.get("category")) for e in points] == [(1, "road"), (1, None)]
    assert plays(g.state)[0] == (0, {"seat": 1, "type": "score", "points": 4,
                                     "figure": "messenger", "category": "road"})  # fmt: skip
    replays_identically(g)


def test_deleting_an_entry():
    g = table().score(0, 8, "meeple").score(1, 3, "meeple")
    correct(g, 0, None)
    same_game(g, table().score(1, 3, "meeple"))
    assert (
        plain(narrate([last(g, "corrected")], NAMES)[0]) == "Host deletes Ann's 8 points (meeple)"
    )
    with pytest.raises(IllegalCommand, match="no longer counts"):
        correct(g, 0, {"seat": 0, "type": "score", "points": 2, "figure": "meeple"})
    replays_identically(g)


def shared(g: Game, points: int, shares: list[dict[str, Any]], seat: int = 0) -> Game:
    command = {"type": "score_shared", "points": points, "category": "city", "shares": shares}
    return g.send(cmd.parse_command(command), seat)


SHARES = [{"seat": 0, "figure": "meeple"}, {"seat": 1, "figure": "meeple"}]


def test_correcting_a_shared_scoring_changes_its_points_and_one_shares_figure():
    """docs/records.md, "Corrections": a ``score_shared`` is corrected like a ``score``, whole
    (rules/record-format.md: one action for every share). Ann and Bob's city of 4 (both meeples) was
    6, Bob's on the messenger: corrected in place, Bob's later entry stays, and the game stands as
    if it had been entered so; the record replays to the same state."""
    g = shared(table().score(0, 2, "meeple"), 4, SHARES).score(1, 3, "messenger")
    fixed = [{"seat": 0, "figure": "meeple"}, {"seat": 1, "figure": "messenger"}]
    replacement = {"seat": 0, "type": "score_shared", "points": 6, "category": "city",
                   "shares": fixed}  # fmt: skip
    correct(g, 1, replacement)
    same_game(g, shared(table().score(0, 2, "meeple"), 6, fixed).score(1, 3, "messenger"))
    assert (g.player(0).meeple, g.player(1).meeple, g.player(1).messenger) == (8, 0, 9)
    event = last(g, "corrected")
    assert event["entry"] == 1 and event["lapsed"] == []
    assert event["before"][1] == {"meeple": 4, "messenger": 3}
    assert event["scores"][1] == {"meeple": 0, "messenger": 9}
    assert plays(g.state)[1] == (1, replacement)
    replays_identically(g)


def test_deleting_a_shared_scoring_takes_it_from_every_share():
    """docs/records.md, "Corrections": a deleted ``score_shared`` counts for none of its seats;
    the entries after it stay, and the record replays to the same state."""
    g = shared(table().score(0, 2, "meeple"), 4, SHARES).score(1, 3, "messenger")
    correct(g, 1, None)
    same_game(g, table().score(0, 2, "meeple").score(1, 3, "messenger"))
    assert g.scores() == [2, 3]
    assert last(g, "corrected")["replacement"] is None
    replays_identically(g)


def test_correcting_a_message_resolution_keeps_its_choice():
    """A tabletop resolve_message with points (rules/record-format.md, "Targets of resolve_message":
    the value counted at the table) is corrected like a score; its choice stays."""
    g = table().score(0, 5, "meeple").end_turn().resolve("action", points=4).figure("messenger")
    entry = 2
    assert g.state.log[entry]["type"] == "resolve_message"
    correct(g, entry, {"seat": 0, "type": "resolve_message", "choice": "action", "points": 3})
    assert (g.player(0).meeple, g.player(0).messenger) == (5, 3)
    with pytest.raises(IllegalCommand, match="keeps its choice"):
        correct(g, entry, {"seat": 0, "type": "resolve_message", "choice": "points"})
    with pytest.raises(IllegalCommand, match="cannot be deleted"):
        correct(g, entry, None)
    replays_identically(g)


# Lapsing ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["c1-zmg", "c2-hig", "c2-zmg"])
def test_a_correction_that_removes_a_message_makes_its_resolution_lapse(preset):
    """rules/messengers.md §1 (the active player's figure ends on a dark space: a message is drawn):
    Ann's 5 (dark) drew message 3, resolved for 4 points; she had scored 6. Corrected, no message
    is drawn at the end of her turn: the resolution and its figure choice no longer apply, are
    listed and told; Bob's turn goes on; the stack keeps its order, 3 still on top."""
    g = table(preset).score(0, 5, "meeple").end_turn().resolve("action", points=4)
    if g.pending["type"] == "choose_figure":
        g.figure("messenger")
    g.score(1, 2, "meeple")
    bob = len(g.state.log) - 1
    correct(g, 0, {"seat": 0, "type": "score", "points": 6, "figure": "meeple"})
    event = last(g, "corrected")
    resolution = 2
    assert resolution in event["lapsed"]
    assert bob not in event["lapsed"]
    lapsed = g.of_type("lapsed")
    assert lapsed[0]["entry"] == resolution and lapsed[0]["message"] == 3
    assert plain(narrate([lapsed[0]], NAMES)[0]) == (
        "No longer applies: Ann's message 3 (Score your smallest monastery, 4 points)"
    )
    assert g.state.revealed is None
    assert g.state.stack == tuple(ORDER)
    assert (g.player(0).meeple, g.player(0).messenger) == (6, 0)
    assert g.player(1).meeple == 2 and g.state.active == 1
    g.score(1, 3, "meeple").end_turn()  # Bob lands on 5: the next draw is still message 3
    assert g.state.revealed.message == 3
    replays_identically(g)


def test_a_correction_that_changes_the_message_drawn_makes_the_old_resolution_lapse():
    """Ann's 5 drew message 3; corrected to 10 (also dark) on the messenger as well as 5 on
    the meeple the same message is drawn: the resolution still applies. Deleting the 5 instead
    leaves her 10 on the messenger drawing message 3 too; a correction to 1 draws nothing."""
    g = table().score(0, 5, "meeple").end_turn().resolve("points").figure("meeple")
    correct(g, 0, {"seat": 0, "type": "score", "points": 10, "figure": "meeple"})
    assert last(g, "corrected")["lapsed"] == []
    assert g.player(0).meeple == 12
    correct(g, 0, {"seat": 0, "type": "score", "points": 1, "figure": "meeple"})
    assert last(g, "corrected")["lapsed"] == [2, 3]
    assert g.player(0).meeple == 1 and g.state.stack == tuple(ORDER)
    replays_identically(g)


def test_the_corrected_entry_itself_must_be_legal_there():
    """rules/messengers.md §3 figure_choice = per_turn (c3): Ann's second score of the turn on the
    messenger is refused while her first is on the meeple; nothing changes."""
    g = table("c3").score(0, 3, "meeple").score(0, 2, "meeple")
    before = g.state
    with pytest.raises(IllegalCommand, match="not be accepted there"):
        correct(g, 1, {"seat": 0, "type": "score", "points": 2, "figure": "messenger"})
    assert g.state is before


# Adjust -----------------------------------------------------------------------------------------


def test_an_adjustment_below_zero_is_refused():
    g = table().score(0, 4, "meeple")
    before = g.state
    with pytest.raises(IllegalCommand, match="has 4 points; it cannot lose 6"):
        adjust(g, 0, -6, "meeple")
    assert g.state is before
    adjust(g, 0, -4, "meeple")
    assert g.player(0).meeple == 0
    line = plain(narrate([last(g, "adjusted")], NAMES)[0])
    assert line == "Ann's meeple: -4 (adjustment); the meeple lands on 0 (dark space)"


def test_an_adjustment_never_draws_a_message():
    """Our ruling (docs/records.md, "Corrections"): an adjustment that leaves the active
    player's figure on a dark space draws no message; it is not a movement of the round."""
    g = table()
    adjust(g, 0, 5, "meeple")
    g.end_turn()
    assert g.state.revealed is None and g.state.active == 1
    assert g.drawn_messages() == []
    replays_identically(g)


@pytest.mark.parametrize(
    "bad", [{"points": 0, "figure": "meeple"}, {"points": 1001, "figure": "meeple"},
            {"points": 3, "figure": "hat"}, {"points": 2.5, "figure": "meeple"}],
)  # fmt: skip
def test_an_adjustment_must_be_a_signed_whole_number_on_a_figure(bad):
    with pytest.raises(MalformedCommand):
        cmd.parse_command({"type": "adjust", **bad})


def test_an_adjustment_can_itself_be_corrected_and_the_breakdown_counts_it():
    """An adjustment counts under "during play" in the final breakdown, so each seat's values
    still add up to its score."""
    g = table("c1-zmg").score(0, 9, "meeple")
    adjust(g, 0, -2, "meeple")
    correct(g, 1, {"seat": 0, "type": "adjust", "points": -3, "figure": "meeple"})
    assert g.player(0).meeple == 6
    g.end_turn().end_game().score(0, 4, category="city").finish()
    rows = final_breakdown(play_events(g.state), 2)
    assert rows[0]["play"] == 6 and rows[0]["city"] == 4
    assert g.player(0).score == 10
    replays_identically(g)


# Undo, finished games, hostile corrections -------------------------------------------------------


def test_undo_cancels_a_correction():
    """An undo takes back the correction like any action: the original entry counts again and
    what had lapsed applies again."""
    g = table().score(0, 5, "meeple").end_turn().resolve("points").figure("meeple")
    original = g.state
    correct(g, 0, {"seat": 0, "type": "score", "points": 1, "figure": "meeple"})
    assert last(g, "corrected")["lapsed"] == [2, 3]
    g.undo()
    assert g.state.players == original.players
    assert g.state.stack == original.stack and g.pending == Game.pending.fget(_wrap(original))
    assert plays(g.state) == plays(original)
    assert plain(narrate([last(g, "undone")], NAMES)[0]) == (
        "Undone by Ann: the host's correction to Ann's 1 point (meeple)"
    )
    replays_identically(g)


def _wrap(state):
    g = table()
    g.state = state
    return g


def test_a_final_score_is_corrected_after_the_game_is_over():
    """The winners were announced before a final score was right: the host corrects it, the
    game stays over with the corrected ranking."""
    g = table("c1-zmg").score(0, 3, "meeple").end_turn().end_game()
    g.score(0, 9, category="city").score(1, 14, category="field").finish()
    final = len(g.state.log) - 2
    correct(g, final, {"seat": 1, "type": "score", "points": 4, "category": "field"})
    assert g.state.finished and g.scores() == [12, 4]
    replays_identically(g)


@pytest.mark.parametrize(
    ("entry", "replacement", "error", "reason"),
    [
        (99, None, IllegalCommand, "there is no entry 99"),
        (1, None, IllegalCommand, "only entries with points"),
        (0, {"seat": 0, "type": "adjust", "points": 2, "figure": "meeple"}, IllegalCommand,
         "must be one too"),
        (0, {"seat": 0, "type": "end_turn"}, MalformedCommand, "a replacement is one of"),
        (0, {"seat": 0, "type": "score", "points": 2, "sneaky": 1}, MalformedCommand,
         "takes no 'sneaky'"),
        (0, {"type": "score", "points": 2}, MalformedCommand, "names its player"),
        (0, {"seat": 7, "type": "score", "points": 2}, IllegalCommand, "no seat 7"),
        (0, {"seat": 0, "type": "score", "points": 4, "figure": "meeple"}, IllegalCommand,
         "the same as the entry"),
        (0, [1, 2], MalformedCommand, "must be an action"),
        (-1, None, MalformedCommand, "index of an entry"),
        (True, None, MalformedCommand, "whole number"),
    ],
)  # fmt: skip
def test_hostile_corrections_are_refused_and_change_nothing(entry, replacement, error, reason):
    g = table().score(0, 4, "meeple").end_turn()
    before = g.state
    with pytest.raises(error, match=reason):
        g.send(
            cmd.parse_command({"type": "correct", "entry": entry, "replacement": replacement}), 0
        )
    assert g.state is before


def test_a_correct_names_its_replacement_or_null():
    with pytest.raises(MalformedCommand, match="needs 'replacement'"):
        cmd.parse_command({"type": "correct", "entry": 0})


def test_board_games_are_not_corrected():
    g = Game(tiles=["E"])
    with pytest.raises(IllegalCommand, match="tabletop"):
        g.send(cmd.Adjust(2, "meeple"), 0)
    with pytest.raises(IllegalCommand, match="tabletop"):
        g.send(cmd.Correct(0, None), 0)


def test_a_correction_from_a_start_state_matches_one_from_the_setup():
    """The server replays from a checkpoint before the corrected entry (``starts``); the result
    is the state a rebuild from the setup gives, and a start that does not fit is ignored."""
    from game.engine.corrections import correct as engine_correct
    from game.engine.play import state_at

    g = table().score(0, 5, "meeple").end_turn().resolve("points").figure("meeple")
    g.score(1, 2, "meeple").score(1, 4, "messenger")
    correct(g, 4, {"seat": 1, "type": "score", "points": 3, "figure": "meeple"})
    state = g.state
    command = cmd.Correct(0, {"seat": 0, "type": "score", "points": 6, "figure": "meeple"})
    scratch, _ = engine_correct(state, 0, command)
    for start in (state_at(state, 0), state_at(state, 3), state):
        assert engine_correct(state, 0, command, [start])[0] == scratch
    command = cmd.Correct(5, {"seat": 1, "type": "score", "points": 1, "figure": "messenger"})
    scratch, _ = engine_correct(state, 0, command)
    assert engine_correct(state, 0, command, [state_at(state, 5)])[0] == scratch


def test_a_correction_onto_a_dark_space_draws_the_message_there_and_later_entries_lapse():
    """rules/messengers.md §1: Ann's 4 was a 5 (dark). Corrected, message 3 is drawn at the end of
    her turn, from the top of the stack as fixed at the start; the game waits there, so Bob's later
    entries no longer apply and are listed (the preview shows this before the host confirms)."""
    g = table().score(0, 4, "meeple").end_turn().score(1, 2, "meeple")
    correct(g, 0, {"seat": 0, "type": "score", "points": 5, "figure": "meeple"})
    assert g.state.revealed.message == 3 and g.state.revealed.seat == 0
    assert last(g, "corrected")["lapsed"] == [2]
    assert last(g, "message_drawn")["message"] == 3
    assert g.pending["type"] == "resolve_message"
    assert g.state.stack == tuple(ORDER[1:])
    replays_identically(g)


def test_a_corrected_entry_names_its_figure_unless_a_figure_choice_follows_it():
    """rules/messengers.md §3 figure_choice = per_scoring (c2-hig: the scoring player picks the
    figure for each scoring): Ann's 66 on the meeple corrected to a 6 with no figure would leave the
    game asking her which figure, behind which Bob's entry would lapse: refused, with the reason.
    An entry whose figure was chosen afterwards is corrected without one: the choice applies."""
    g = table().score(0, 66, "meeple").score(1, 4, "messenger")
    with pytest.raises(IllegalCommand, match="name the figure that takes Ann's corrected points"):
        correct(g, 0, {"seat": 0, "type": "score", "points": 6})
    g = table().score(0, 66).figure("messenger").score(1, 4, "messenger")
    correct(g, 0, {"seat": 0, "type": "score", "points": 6})
    assert (g.player(0).messenger, last(g, "corrected")["lapsed"]) == (6, [])
    replays_identically(g)


def test_a_correction_that_undraws_a_waiting_message_says_so():
    """rules/messengers.md §3 (a messenger ending on a dark space draws a message): Ann's 5 puts her
    meeple on dark space 5 and her end of turn draws a message, still waiting to be decided;
    corrected to 4, it is no longer drawn. That message is in no entry, so it cannot lapse like
    one: an ``undrawn`` event names it and it goes back on top (the stack's order unchanged)."""
    g = table().score(0, 5, "meeple").end_turn()
    waiting = g.state.revealed
    assert waiting is not None
    stack_before = (waiting.message, *g.state.stack)
    correct(g, 0, {"seat": 0, "type": "score", "points": 4, "figure": "meeple"})
    assert g.state.revealed is None
    assert g.state.stack == stack_before
    undrawn = last(g, "undrawn")
    assert (undrawn["seat"], undrawn["message"]) == (0, waiting.message)
    line = plain(narrate([undrawn], ["Ann", "Bob"])[0])
    assert line.startswith(f"No longer drawn: Ann's message {waiting.message} (")
    replays_identically(g)
