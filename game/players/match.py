"""Whole games between computer players, each seat at its own level: for the tests and the
benchmark (``bench/bot_match.py``). Every decision goes through ``seat_view`` and ``decide`` and
then the engine's ``apply``, as the server's path does; a command the engine refuses is an
error, never skipped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.engine.commands import parse_command
from game.engine.events import Event
from game.engine.play import apply, new_game
from game.engine.seat_view import seat_view
from game.engine.state import GameState
from game.engine.views import pending

from .decide import decide

MAX_DECISIONS = 5000
"""A bound on decisions in one game (a game needs a few hundred): a loop is a bug."""


@dataclass
class Played:
    """A finished game, its events, and how long each decision took (seat, seconds)."""

    state: GameState
    events: list[Event]
    timings: list[tuple[int, float]] = field(default_factory=list)


def play_game(
    levels: Sequence[str],
    preset: str,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    mode: str = "board",
) -> Played:
    """Play one game, seat ``i`` at ``levels[i]``; the tile bag and message stack come from
    ``seed``, and each seat's tie-breaks from its own ``random.Random`` seeded from ``seed``."""
    names = [f"Computer {n}" for n in range(1, len(levels) + 1)]
    state, events = new_game(names, preset, seed=seed, mode=mode, options=options)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(levels))]
    played = Played(state, events)
    for _ in range(MAX_DECISIONS):
        if state.finished:
            break
        waiting = pending(state)
        assert waiting is not None
        seat = state.active if waiting["seat"] is None else waiting["seat"]
        started = time.perf_counter()
        command = decide(levels[seat], seat_view(state, seat), rngs[seat])
        played.timings.append((seat, time.perf_counter() - started))
        state, new_events = apply(state, seat, parse_command(command))
        events.extend(new_events)
    else:
        raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
    played.state = state
    return played
