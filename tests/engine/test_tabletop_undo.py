"""Corrections at a tabletop game: ``undo`` takes back the latest entry that still counts.

The rules are those of docs/records.md ("Undo"): the game is rebuilt from its setup without that
entry, the message stack keeps its order (a message drawn by the cancelled entry goes back on
top, hidden again, and no other is revealed), and the log keeps the undo as an action of its own.
"""

from __future__ import annotations

import pytest

from game.engine.errors import GameOver, IllegalCommand
from game.engine.record import export, replay
from game.engine.state import effective
from game.engine.views import view
from game.words.narration import final_breakdown, narrate
from tests.scenario import Game

PRESETS = ("c1-zmg", "c2-hig", "c2-zmg", "c3")
ORDER = [3, 1, 4, 5, 2, 6, 7, 8]


def table(preset: str = "c2-hig", **options) -> Game:
    return Game(preset, mode="tabletop", messages=ORDER, options=options or None)


def same_game(a: Game, b: Game) -> None:
    """Two games stand the same: scores, figures, turn, decision and stack."""
    assert a.state.players == b.state.players
    assert (a.state.active, a.state.turn) == (b.state.active, b.state.turn)
    assert a.state.stack == b.state.stack
    assert a.state.revealed == b.state.revealed
    assert a.pending == b.pending


@pytest.mark.parametrize("preset", PRESETS)
def test_undo_takes_back_a_miscounted_score(preset):
    """Ann's 8 was 6: undo, and the game stands as if only the 6 had been entered."""
    g = table(preset).score(0, 8, "meeple").undo().score(0, 6, "meeple")
    clean = table(preset).score(0, 6, "meeple")
    same_game(g, clean)
    assert [a["type"] for a in g.state.log] == ["score", "undo", "score"]
    assert effective(g.state.log) == [2]


@pytest.mark.parametrize("preset", PRESETS)
def test_undoing_the_turn_that_drew_a_message_puts_it_back_on_top(preset):
    """Ann lands on 5 (dark) and ends her turn: message 3 is revealed. Undo of the end of turn:
    no message is revealed, 3 is on top again, the stack is in its original order and as long.
    Ending the turn again draws the same message 3, never another."""
    g = table(preset).score(0, 5, "meeple").end_turn()
    assert g.state.revealed is not None and g.state.revealed.message == 3
    g.undo()
    assert g.state.revealed is None
    assert g.state.stack == tuple(ORDER)
    assert g.pending["type"] == "end_turn" and g.pending["seat"] == 0
    assert view(g.state, 1)["messages_in_stack"] == 8
    g.end_turn()
    assert g.state.revealed.message == 3
    assert g.drawn_messages() == [3, 3]


@pytest.mark.parametrize("preset", PRESETS)
def test_undo_of_a_corrected_score_means_no_message_is_due(preset):
    """The 5 that drew a message was a 4: undo the end of turn and the score, enter 4; the turn
    ends without a message and message 3 stays hidden on top for the next draw."""
    g = table(preset).score(0, 5, "meeple").end_turn().undo().undo().score(0, 4, "meeple")
    g.end_turn()
    assert g.state.revealed is None
    assert g.state.active == 1
    assert g.state.stack[0] == 3
    g.score(1, 10, "meeple").end_turn()
    assert g.state.revealed.message == 3


@pytest.mark.parametrize("preset", PRESETS)
def test_undo_of_a_message_choice_offers_the_message_again(preset):
    """Ann took 2 points for message 3 but meant its action: undo returns to the revealed
    message, her 2 points taken back."""
    g = table(preset).score(0, 5, "meeple").end_turn().resolve("points")
    if g.pending and g.pending["type"] == "choose_figure":
        g.figure("messenger")
    assert g.player(0).score == 7
    while g.state.log[effective(g.state.log)[-1]]["type"] != "resolve_message":
        g.undo()
    g.undo()
    assert g.player(0).score == 5
    assert g.pending["type"] == "resolve_message" and g.pending["message"] == 3
    g.resolve("action", points=4)
    if g.pending and g.pending["type"] == "choose_figure":
        g.figure("messenger")
    assert g.player(0).score == 9


def test_undo_restores_the_per_turn_figure():
    """rules/messengers.md §3 figure_choice = per_turn (c3): a score on the meeple fixes it for the
    turn; once that score is undone the messenger may take the points."""
    g = table("c3").score(0, 3, "meeple")
    with pytest.raises(IllegalCommand):
        g.score(0, 2, "messenger")
    g.undo().score(0, 2, "messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (0, 2)


def test_undo_of_a_figure_choice_takes_back_the_chained_draw():
    """rules/messengers.md §3 chain (c2-hig): Ann's 2 points for message 3 on her messenger take it
    from 3 to 5 (dark) and draw message 1. Undo of that figure choice: message 1 is hidden on top
    of the stack again; on the meeple instead, nothing is chained."""
    g = table("c2-hig").score(0, 5, "meeple").score(0, 3, "messenger").end_turn()
    assert g.state.revealed.message == 3
    g.resolve("points").figure("messenger")
    assert g.state.revealed.message == 1
    g.undo()
    assert g.state.revealed is None and g.state.stack[0] == 1
    assert g.pending["type"] == "choose_figure"
    g.figure("meeple")
    assert g.state.revealed is None and g.state.stack[0] == 1
    assert (g.player(0).meeple, g.player(0).messenger) == (7, 3)
    assert g.pending["seat"] == 1


def test_several_undos_walk_back_in_order_and_stop_at_the_start():
    g = table().score(0, 3, "meeple").score(1, 4, "messenger").undo().undo()
    assert [p.score for p in g.state.players] == [0, 0]
    with pytest.raises(IllegalCommand, match="nothing to undo"):
        g.undo()


def test_undo_reopens_a_finished_game_and_the_final_scoring_counts_once():
    """A final score entered wrong after the game was closed: undo the close and the score,
    enter it again; the breakdown of the final scoring counts only what stands."""
    g = table("c1-zmg").score(0, 3, "meeple").end_turn().end_game()
    g.score(0, 9, category="city").score(1, 4, category="field").finish()
    assert g.state.finished
    g.undo()
    assert not g.state.finished and g.pending["type"] == "finish"
    g.undo().score(1, 6, category="field").finish()
    assert [p.score for p in g.state.players] == [12, 6]
    rows = final_breakdown(_effective_events(g), 2)
    assert rows[0]["city"] == 9 and rows[1]["field"] == 6
    assert sum(rows[1].values()) == 6


def _effective_events(g: Game) -> list[dict]:
    """The events of the game as it stands, by replaying only the actions that count."""
    record = export(g.state)
    record["actions"] = [record["actions"][i] for i in effective(record["actions"])]
    return replay(record).events


def test_undo_is_for_tabletop_games_only():
    g = Game("c2-hig", tiles=["E"], messages=ORDER)
    with pytest.raises(IllegalCommand, match="tabletop"):
        g.undo()


def test_a_finished_game_refuses_everything_but_undo():
    g = table("c1-zmg").end_game().finish()
    with pytest.raises(GameOver):
        g.end_turn(0)
    assert not g.undo().state.finished


@pytest.mark.parametrize("preset", PRESETS)
def test_a_record_with_undos_replays_to_the_same_state(preset):
    g = table(preset).score(0, 5, "meeple").end_turn().undo().undo().score(0, 1, "messenger")
    g.end_turn().score(1, 3, "meeple", "road").undo()
    assert g.state.active == 1 and g.state.stack == tuple(ORDER)
    again = replay(export(g.state)).state
    assert again.players == g.state.players
    assert again.stack == g.state.stack
    assert again.log == g.state.log


def test_the_view_names_the_entry_an_undo_would_take_back():
    g = table().score(0, 4, "meeple", "city")
    assert view(g.state)["undoable"] == {
        "seat": 0,
        "type": "score",
        "points": 4,
        "figure": "meeple",
        "category": "city",
    }
    g.undo()
    assert view(g.state)["undoable"] is None
    assert "undoable" not in view(Game("c2-hig", tiles=["E"]).state)


def test_undo_and_categories_in_words():
    g = table().score(0, 4, "meeple", "city").undo(1)
    lines = [line["text"] for line in narrate(g.events, ["Ann", "Bob"])]
    assert lines[-2] == "\u2068Ann\u2069 scores 4 points for a city; the meeple lands on 4"
    assert lines[-1] == (
        "Undone by \u2068Bob\u2069: \u2068Ann\u2069 scores 4 points for a city with the meeple"
    )
