"""The runner's table of step rules (game/engine/runner.py): one row per kind of agenda step,
and a step without a row stops the engine from loading."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.engine import agenda, commands
from game.engine.errors import IllegalCommand
from game.engine.play import apply, new_game
from game.engine.runner import STEP_RULES, StepRule, _never_decided, _never_runs, _nobody

ROOT = Path(__file__).resolve().parents[2]

STEPS = sorted(
    (
        kind
        for kind in vars(agenda).values()
        if isinstance(kind, type) and issubclass(kind, agenda.Step) and kind is not agenda.Step
    ),
    key=lambda kind: kind.__name__,
)


def test_every_step_has_one_row():
    assert set(STEPS) == set(STEP_RULES)


@pytest.mark.parametrize("kind", STEPS, ids=lambda kind: kind.__name__)
def test_each_row_either_runs_or_takes_commands(kind):
    """A step that never waits runs by itself; a step that may wait names the commands it
    takes and how it carries them out; a command any seat may send is one it takes."""
    rule: StepRule = STEP_RULES[kind]
    waits = rule.decider is not _nobody
    assert waits or rule.run is not _never_runs
    assert waits == bool(rule.allows) == (rule.decide is not _never_decided)
    assert set(rule.any_seat_may) <= set(rule.allows)


def test_a_command_the_step_does_not_take_is_refused_by_name():
    state, _ = new_game(["Ann", "Bob"], "c2-hig", seed=1)
    assert type(state.agenda[0]) is agenda.AwaitPlacement
    with pytest.raises(IllegalCommand, match="waits for placing a tile, not placing no follower"):
        apply(state, 0, commands.SkipFollower())


def test_a_step_without_a_row_stops_the_engine_from_loading():
    script = (
        "from dataclasses import dataclass\n"
        "import game.engine.agenda as agenda\n"
        "@dataclass(frozen=True, slots=True)\n"
        "class Forgotten(agenda.Step):\n"
        "    pass\n"
        "agenda.Forgotten = Forgotten\n"
        "import game.engine.play\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode != 0
    assert "steps without a row in STEP_RULES: ['Forgotten']" in done.stderr
