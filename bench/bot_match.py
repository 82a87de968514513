"""Computer players against each other: whole board-mode games, seats rotated.

Usage (from the repository root)::

    .venv/bin/python bench/bot_match.py --a strong --b random --games 100 --preset c2-hig \\
        [--players 2] [--seed 1]

Game ``i`` uses seed ``seed + i`` for the tile bag and the message stack. Level A sits at seat
``i % players`` and level B fills every other seat, so over the games A plays from every seat.
A game counts as A's win when A's score is above every other seat's, as B's win when a B seat's
score is above every other, and as a draw otherwise (a tie at the top).

A decision's time covers ``seat_view`` and ``decide``, as the server would run them. A short
summary is printed, and the last line of output is one JSON object with ``a_win_rate``,
``b_win_rate``, ``draws``, ``a_mean_score``, ``b_mean_score``, ``decision_ms_median``,
``decision_ms_p95`` (all decisions), ``a_decision_ms_p95``, ``b_decision_ms_p95`` and
``messages_drawn_per_game`` (by both sides; ``a_messages_per_game`` for A's seat alone).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine_playouts import percentile  # noqa: E402  (bench/ is the script's folder)

from game.engine.presets import PRESETS  # noqa: E402
from game.engine.state import MAX_PLAYERS, MIN_PLAYERS  # noqa: E402
from game.players import LEVELS  # noqa: E402
from game.players.match import play_game  # noqa: E402


def run(a: str, b: str, games: int, preset: str, players: int, seed: int) -> dict[str, Any]:
    a_wins = b_wins = draws = 0
    a_scores: list[int] = []
    b_scores: list[int] = []
    all_ms: list[float] = []
    a_ms: list[float] = []
    b_ms: list[float] = []
    messages = a_messages = 0
    started = time.perf_counter()
    for game in range(games):
        a_seat = game % players
        levels = [a if seat == a_seat else b for seat in range(players)]
        played = play_game(levels, preset, seed + game)
        scores = [player.score for player in played.state.players]
        top = max(scores)
        leaders = [seat for seat, score in enumerate(scores) if score == top]
        if len(leaders) > 1:
            draws += 1
        elif leaders[0] == a_seat:
            a_wins += 1
        else:
            b_wins += 1
        a_scores.append(scores[a_seat])
        b_scores.extend(score for seat, score in enumerate(scores) if seat != a_seat)
        for seat, seconds in played.timings:
            ms = seconds * 1000
            all_ms.append(ms)
            (a_ms if seat == a_seat else b_ms).append(ms)
        drawn = [e for e in played.events if e["type"] == "message_drawn"]
        messages += len(drawn)
        a_messages += sum(1 for e in drawn if e["seat"] == a_seat)
        print(f"game {game + 1}/{games}: A at seat {a_seat}, scores {scores}", flush=True)
    return {
        "a": a,
        "b": b,
        "preset": preset,
        "players": players,
        "games": games,
        "seed": seed,
        "a_win_rate": round(a_wins / games, 4),
        "b_win_rate": round(b_wins / games, 4),
        "draws": draws,
        "a_mean_score": round(statistics.fmean(a_scores), 2),
        "b_mean_score": round(statistics.fmean(b_scores), 2),
        "decision_ms_median": round(statistics.median(all_ms), 3),
        "decision_ms_p95": round(percentile(all_ms, 95), 3),
        "a_decision_ms_p95": round(percentile(a_ms, 95), 3),
        "b_decision_ms_p95": round(percentile(b_ms, 95), 3),
        "decision_ms_max": round(max(all_ms), 3),
        "decisions": len(all_ms),
        "messages_drawn_per_game": round(messages / games, 2),
        "a_messages_per_game": round(a_messages / games, 2),
        "seconds": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, choices=LEVELS, help="level A")
    parser.add_argument("--b", required=True, choices=LEVELS, help="level B (every other seat)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--preset", default="c2-hig", choices=sorted(PRESETS))
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        help=f"seats per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 2)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players must be between {MIN_PLAYERS} and {MAX_PLAYERS}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = run(args.a, args.b, args.games, args.preset, args.players, args.seed)
    print(
        f"{args.a} vs {args.b}, {args.preset}, {args.players} players, {args.games} games: "
        f"A wins {result['a_win_rate']:.0%}, B wins {result['b_win_rate']:.0%}, "
        f"draws {result['draws']}; decision p95 {result['decision_ms_p95']} ms"
    )
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
