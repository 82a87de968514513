"""Engine benchmark: random legal playouts of complete board-mode games.

Usage (from the repository root)::

    .venv/bin/python bench/engine_playouts.py --games 300 --players 2 [--preset c2-hig] [--seed 1]

Two passes over the same games (game ``i`` uses seed ``seed + i`` for the tile bag, the message
stack and the random choices, so both passes play identical games):

1. Timed playouts. Each game is ``new_game`` then, until the game is over, a random legal command
   (``autoplay.random_command``: it reads ``views.pending`` and picks among the offered choices,
   followers are placed at random and every message is resolved at random) applied with
   ``apply``. The game time covers all of that; the time spent inside ``apply`` alone is
   accumulated separately. With ``--rounds R`` the games are played R times and each game keeps
   its fastest run (timeit's convention: the slower runs measure other load on the machine, not
   the engine).
2. Per-turn measurements. The same games are replayed untimed, and at every ``place_tile``
   decision ``Board.legal_placements(tile)`` for the drawn tile, and the full
   ``views.pending(state)``, are each called ``--repeat`` times back to back between two
   ``time.perf_counter_ns`` readings; the per-call time is the elapsed time divided by the number
   of calls.

A human-readable summary is printed, and the last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.engine.autoplay import random_command  # noqa: E402
from game.engine.play import apply, new_game  # noqa: E402
from game.engine.presets import PRESETS  # noqa: E402
from game.engine.state import MAX_PLAYERS, MIN_PLAYERS  # noqa: E402
from game.engine.views import pending  # noqa: E402

MAX_COMMANDS = 5000
"""A safety bound on commands per game; a random game needs a few hundred."""


def percentile(values: list[float], pct: float) -> float:
    """The ``pct`` percentile with linear interpolation between closest ranks."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * pct / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def player_names(count: int) -> list[str]:
    return [f"Player {n}" for n in range(1, count + 1)]


def play_timed(names: list[str], preset: str, seed: int) -> dict[str, Any]:
    """Play one game; return its wall time, time inside ``apply`` and a few counts."""
    perf = time.perf_counter_ns
    in_apply = 0
    commands = 0
    started = perf()
    rng = random.Random(seed)
    state, _ = new_game(names, preset, seed=seed)
    while not state.finished:
        seat, command = random_command(state, rng)
        before = perf()
        state, _ = apply(state, seat, command)
        in_apply += perf() - before
        commands += 1
        if commands > MAX_COMMANDS:
            raise RuntimeError(f"game with seed {seed} did not end after {MAX_COMMANDS} commands")
    elapsed = perf() - started
    return {
        "ns": elapsed,
        "apply_ns": in_apply,
        "commands": commands,
        "turns": state.turn,
        "scores": [player.score for player in state.players],
    }


def measure_turns(
    names: list[str], preset: str, seed: int, repeat: int, out: dict[str, list[float]]
) -> list[int]:
    """Replay the game of ``seed`` and time legal placements and ``pending`` at every tile
    placement decision; append per-call times (ms) to ``out``. Return the final scores, to check
    that the replay is the game that was timed."""
    perf = time.perf_counter_ns
    loop = range(repeat)
    rng = random.Random(seed)
    state, _ = new_game(names, preset, seed=seed)
    while not state.finished:
        waiting = pending(state)
        if waiting is not None and waiting["type"] == "place_tile":
            board, tile = state.board, state.tile
            assert board is not None and tile is not None
            legal = board.legal_placements
            start = perf()
            for _ in loop:
                legal(tile)
            out["placements_ms"].append((perf() - start) / repeat / 1e6)
            start = perf()
            for _ in loop:
                pending(state)
            out["pending_ms"].append((perf() - start) / repeat / 1e6)
            out["placements"].append(len(legal(tile)))
            out["open_cells"].append(len(board.open_cells))
        seat, command = random_command(state, rng)
        state, _ = apply(state, seat, command)
    return [player.score for player in state.players]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 2)",
    )
    parser.add_argument("--preset", default="c2-hig", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=20,
        help="calls per turn when timing legal placements and pending (default 20)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="play the timed games this many times and keep each game's fastest run; games "
        "per second come from the fastest round (default 1)",
    )
    parser.add_argument(
        "--warmup", type=int, default=3, help="untimed games played first (default 3)"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    names = player_names(args.players)
    seeds = [args.seed + i for i in range(args.games)]

    for i in range(args.warmup):
        play_timed(names, args.preset, args.seed - 1 - i)

    # Pass 1: whole games, ``--rounds`` times; each game keeps its fastest run.
    games: list[dict[str, Any]] = []
    wall_ns = 0
    round_medians = []
    for round_index in range(args.rounds):
        wall_start = time.perf_counter_ns()
        played = [play_timed(names, args.preset, seed) for seed in seeds]
        elapsed = time.perf_counter_ns() - wall_start
        wall_ns = elapsed if round_index == 0 else min(wall_ns, elapsed)
        round_medians.append(round(statistics.median(g["ns"] for g in played) / 1e6, 3))
        if not games:
            games = played
            continue
        for index, game in enumerate(played):
            if game["scores"] != games[index]["scores"]:
                raise RuntimeError(f"game with seed {seeds[index]} differs between rounds")
            if game["ns"] < games[index]["ns"]:
                games[index] = game

    # Pass 2: the same games again, timing each tile placement decision.
    turns: dict[str, list[float]] = {
        "placements_ms": [],
        "pending_ms": [],
        "placements": [],
        "open_cells": [],
    }
    for seed, game in zip(seeds, games, strict=True):
        scores = measure_turns(names, args.preset, seed, args.repeat, turns)
        if scores != game["scores"]:
            raise RuntimeError(f"replay of seed {seed} differs from the timed game")

    game_ms = [game["ns"] / 1e6 for game in games]
    apply_ms = [game["apply_ns"] / 1e6 for game in games]
    total_game_ms = sum(game_ms)
    commands = [game["commands"] for game in games]
    result: dict[str, Any] = {
        "preset": args.preset,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "python": platform.python_version(),
        "games_per_second": round(args.games / (wall_ns / 1e9), 2),
        "game_ms_median": round(statistics.median(game_ms), 3),
        "game_ms_p95": round(percentile(game_ms, 95), 3),
        "game_ms_mean": round(statistics.fmean(game_ms), 3),
        "apply_ms_median": round(statistics.median(apply_ms), 3),
        "apply_share": round(sum(apply_ms) / total_game_ms, 3),
        "commands_per_game_mean": round(statistics.fmean(commands), 1),
        "turns_per_game_mean": round(statistics.fmean(game["turns"] for game in games), 1),
        "placement_decisions": len(turns["placements_ms"]),
        "placements_ms_median": round(statistics.median(turns["placements_ms"]), 5),
        "placements_ms_p95": round(percentile(turns["placements_ms"], 95), 5),
        "pending_ms_median": round(statistics.median(turns["pending_ms"]), 5),
        "pending_ms_p95": round(percentile(turns["pending_ms"], 95), 5),
        "legal_placements_mean": round(statistics.fmean(turns["placements"]), 1),
        "open_cells_mean": round(statistics.fmean(turns["open_cells"]), 1),
        "repeat": args.repeat,
        "rounds": args.rounds,
        "round_game_ms_medians": round_medians,
    }

    print(
        f"Engine playouts: {args.games} random board-mode games, {args.players} players, "
        f"preset {args.preset}, seeds {seeds[0]}..{seeds[-1]}, "
        f"Python {result['python']} ({platform.python_implementation()})"
    )
    if args.rounds > 1:
        print(
            f"  {args.rounds} rounds; median game time per round (ms): "
            f"{', '.join(f'{m:.2f}' for m in round_medians)}; below: each game's fastest run"
        )
    print(
        f"  games per second     {result['games_per_second']:>10.1f}"
        f"   ({result['commands_per_game_mean']} commands, "
        f"{result['turns_per_game_mean']} turns per game on average)"
    )
    print(
        f"  game time            median {result['game_ms_median']:.2f} ms, "
        f"p95 {result['game_ms_p95']:.2f} ms, mean {result['game_ms_mean']:.2f} ms"
    )
    print(
        f"  of which in apply    median {result['apply_ms_median']:.2f} ms per game "
        f"({100 * result['apply_share']:.0f}% of game time; the rest is new_game, "
        f"views.pending and the random choices)"
    )
    print(
        f"  legal placements     median {result['placements_ms_median'] * 1000:.1f} us, "
        f"p95 {result['placements_ms_p95'] * 1000:.1f} us per call "
        f"({result['placement_decisions']} tile decisions, "
        f"{result['legal_placements_mean']} placements over "
        f"{result['open_cells_mean']} open cells on average)"
    )
    print(
        f"  views.pending        median {result['pending_ms_median'] * 1000:.1f} us, "
        f"p95 {result['pending_ms_p95'] * 1000:.1f} us per call (place_tile decision)"
    )
    print(json.dumps(result, sort_keys=True))
    return result


if __name__ == "__main__":
    main()
