"""The messages left in the stack, as every page shows them: eight at the start, one fewer with
each message drawn, eight again once all eight have been drawn (a drawn message goes to the
bottom of the stack, which comes round in the same order). A count only, never the order."""

from __future__ import annotations

import pytest

from game.engine.views import view
from tests.scenario import Game

ORDER = [3, 1, 4, 5, 2, 6, 7, 8]


def play_on(g: Game) -> None:
    """One step of a tabletop game that draws a message at every turn: the active player lands
    on a dark space with the meeple, never one where the other meeple stands (Ann's meeple on
    5, 15, 25, …, Bob's on 10, 20, …), and takes the points of each message on the messenger."""
    waiting = g.pending
    assert waiting is not None
    if waiting["type"] == "resolve_message":
        g.resolve("points")
    elif waiting["type"] == "choose_figure":
        g.figure("messenger")
    else:
        seat = g.state.active
        g.score(seat, 5 if seat == 0 and g.player(0).meeple == 0 else 10, "meeple").end_turn()


@pytest.mark.parametrize("preset", ["c1-zmg", "c2-hig", "c2-zmg"])
def test_the_messages_left_count_down_and_start_again_after_eight(preset: str) -> None:
    g = Game(preset, mode="tabletop", messages=ORDER)
    assert view(g.state)["messages_left"] == 8
    seen = []
    for _ in range(200):
        if len(g.drawn_messages()) >= 11:
            break
        play_on(g)
        drawn = len(g.drawn_messages())
        shown = view(g.state, 1)
        assert shown["messages_left"] == 8 - drawn % 8, (drawn, g.drawn_messages())
        seen.append(shown["messages_left"])
        assert "stack" not in shown
    assert len(g.drawn_messages()) >= 11
    assert {7, 6, 5, 4, 3, 2, 1, 8} <= set(seen)


def test_an_undone_draw_counts_no_more() -> None:
    g = Game("c2-hig", mode="tabletop", messages=ORDER).score(0, 5, "meeple").end_turn()
    assert view(g.state)["messages_left"] == 7
    g.undo()
    assert view(g.state)["messages_left"] == 8
