"""Computer players: the command a computer sends for a seat's pending decision.

Stand-in: every level picks uniformly among the legal choices (``engine.autoplay``), so that the
web side (game/computer.py) can seat computers and be tested; the real levels replace this module
with the same API.
"""

from __future__ import annotations

import random
from typing import Any, Final

from game.engine.autoplay import random_command
from game.engine.state import GameState

LEVELS: Final = ("easy", "strong")
"""The levels a table offers; ``random`` is for benchmarks only."""


def decide(level: str, state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
    """The command body (as a browser sends it) for ``seat``'s pending decision in ``state``."""
    if level not in (*LEVELS, "random"):
        raise ValueError(f"unknown level {level!r}")
    chosen, command = random_command(state, rng)
    if chosen != seat:
        raise ValueError(f"the game waits for seat {chosen}, not seat {seat}")
    action = command.to_action(seat)
    del action["seat"]
    return action
