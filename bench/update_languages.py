"""Benchmark: what wording each update in every language of LANGUAGES costs the server.

Usage (from the repository root)::

    .venv/bin/python bench/update_languages.py [--games 3] [--rounds 3]

An update is worded and serialised once per language of ``settings.LANGUAGES``
(``game.services.saving.update_texts``: the view's facts once, then the lines and the view's
words per language), whoever reads the table. This plays ``--games`` random four-player games
(2nd edition) and times ``update_texts`` for every command of them, with English alone and with
English, German and Czech, side by side in the same process, ``--rounds`` times in turn. The CPU
time per command is the calling thread's (``time.thread_time``). Compare the difference with the
server's whole CPU per command from ``bench/ws_load.py`` (docs/performance.md, "Languages").
The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

import django  # noqa: E402

django.setup()

from django.test.utils import override_settings  # noqa: E402

from game.engine.autoplay import random_command  # noqa: E402
from game.engine.play import apply, new_game  # noqa: E402
from game.services.saving import new_entry, update_texts  # noqa: E402

ONE: Any = [("en", "English")]
THREE: Any = [("en", "English"), ("de", "Deutsch"), ("cs", "Čeština")]
HEAD = {"type": "update", "from_version": 0, "version": 1, "id": "b", "seat": 0, "events": []}


def updates(games: int) -> list[tuple[Any, list[Any]]]:
    """Every command of ``games`` random games: the state after it and its entry."""
    rng = random.Random(1)
    played = []
    for seed in range(games):
        state, _ = new_game(["Ann", "Bob", "Cleo", "Dan"], "c2-hig", seed=seed)
        while not state.finished:
            seat, command = random_command(state, rng)
            state, events = apply(state, seat, command)
            played.append((state, [new_entry(state, events, "b", automatic=False)]))
    return played


def per_command_ms(played: list[tuple[Any, list[Any]]], languages: Any) -> float:
    with override_settings(LANGUAGES=languages):
        start = time.thread_time()
        for state, entries in played:
            update_texts(HEAD, entries, state)
        return (time.thread_time() - start) / len(played) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    played = updates(args.games)
    per_command_ms(played, THREE)  # the catalogues loaded, the code warm
    one, three = [], []
    for _ in range(args.rounds):
        one.append(per_command_ms(played, ONE))
        three.append(per_command_ms(played, THREE))
    result = {
        "commands": len(played),
        "english_ms": round(statistics.median(one), 3),
        "three_languages_ms": round(statistics.median(three), 3),
    }
    print(f"{len(played)} commands of {args.games} games, median of {args.rounds} rounds")
    print(f"  update worded in English alone         {result['english_ms']:.3f} ms per command")
    print(f"  update worded in English, German, Czech {result['three_languages_ms']:.3f} ms")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
