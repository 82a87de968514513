"""``undo_from`` (undo given the state before the action taken back) agrees with the engine's
rebuild from the setup, in random tabletop games full of undos."""

from __future__ import annotations

import random

import pytest

from game.engine import commands as cmd
from game.engine.autoplay import random_command
from game.engine.errors import IllegalCommand
from game.engine.play import apply, new_game, undo_from, undo_target
from game.engine.state import effective


@pytest.mark.parametrize("preset", ["c1-zmg", "c2-hig", "c2-zmg", "c3"])
@pytest.mark.parametrize("seed", range(4))
def test_undo_from_the_state_before_equals_the_rebuild(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    state, _ = new_game(["Ann", "Bob", "Cy"], preset, mode="tabletop", seed=seed)
    history = [state]
    undos = 0
    while len(history) < 250 and not state.finished:
        if effective(state.log) and rng.random() < 0.35:
            seat = rng.randrange(3)
            rebuilt, events = apply(state, seat, cmd.Undo())
            quick, quick_events = undo_from(state, seat, history[undo_target(state)])
            assert quick == rebuilt and quick_events == events
            state = rebuilt
            undos += 1
        else:
            seat, command = random_command(state, rng)
            state, _ = apply(state, seat, command)
        history.append(state)
    assert undos > 50


def test_undo_from_refuses_a_state_that_is_not_the_one_before() -> None:
    state, _ = new_game(["Ann", "Bob"], "c2-hig", mode="tabletop", seed=1)
    start = state
    state, _ = apply(state, 0, cmd.Score(3, "meeple"))
    state, _ = apply(state, 1, cmd.Score(2, "meeple"))
    with pytest.raises(IllegalCommand):
        undo_from(state, 0, start)
