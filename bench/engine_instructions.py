"""Ten random 2-player games for an instruction count (docs/performance.md, "Instruction counts").

Usage (from the repository root), under ``valgrind --tool=callgrind``::

    .venv/bin/python bench/engine_instructions.py [--games 10] [--imports-only]

Game ``s`` (seeds 0 to ``games - 1``) is ``new_game(["A", "B"], "c2-hig", seed=s)`` played to
its end with ``autoplay.random_command`` drawing on ``random.Random(s)``: the same games as the
counts recorded in docs/performance.md. ``--imports-only`` stops after importing the engine, so
that its count can be subtracted from the games' count. Run it with ``PYTHONHASHSEED=0``: string
hashes then stay the same from run to run, and so does the count, to the instruction.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.engine.autoplay import random_command  # noqa: E402
from game.engine.play import apply, new_game  # noqa: E402

MAX_COMMANDS = 5000
"""A safety bound on commands per game; a random game needs a few hundred."""


def play(seed: int) -> list[int]:
    """Play game ``seed`` to its end; return the final scores."""
    rng = random.Random(seed)
    state, _ = new_game(["A", "B"], "c2-hig", seed=seed)
    for _ in range(MAX_COMMANDS):
        if state.finished:
            return [player.score for player in state.players]
        seat, command = random_command(state, rng)
        state, _ = apply(state, seat, command)
    raise RuntimeError(f"game with seed {seed} did not end after {MAX_COMMANDS} commands")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument("--imports-only", action="store_true", help="import the engine only")
    args = parser.parse_args(argv)
    if not args.imports_only:
        for seed in range(args.games):
            play(seed)


if __name__ == "__main__":
    main()
