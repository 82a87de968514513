"""Benchmark: the server work of the expensive reads at one long tabletop game.

Usage (from the repository root)::

    .venv/bin/python bench/read_costs.py [--length 5000] [--repeat 5] [--undo-share 0] [--sqlite]

A tabletop game of three seats is written as ``bench/table_load.py`` writes one (random legal
entries, a checkpoint every 100 entries), by default without undos, so that nearly every entry
still counts and a correction replays all that follow it; then each read a websocket client
may ask for is timed as the server runs it, with the state cache warm:

* **preview, oldest allowed entry**: ``services.corrections.preview`` of a ``correct`` of the
  oldest entry the ``entries`` list shows (the correction window's far end);
* **preview, entry 1**: the same for the first correctable entry of the log (refused with
  ``too_old`` where the correction window is enforced: the figure is then the cost of refusing);
* **entries**: ``services.corrections.correctable``;
* **history**: ``snapshots.history``, the latest page (the work of narrating the log);
* **sync**: a snapshot and the history page, as ``sync`` sends them;
* **story**: ``stories.story_json`` with its cache emptied.

For each, the median CPU time of the calling thread (``time.thread_time``, what the read budget
charges) and of wall time over ``--repeat`` runs. The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.table_load import setup_django, write_game  # noqa: E402


def timed(run: Callable[[], Any], repeat: int) -> dict[str, float]:
    cpu, wall = [], []
    for _ in range(repeat):
        start_cpu, start_wall = time.thread_time(), time.perf_counter()
        try:
            run()
        except Exception as error:  # a refusal is a read too: its cost is what is measured
            code = getattr(error, "code", type(error).__name__)
            if not isinstance(code, str):
                raise
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return {
        "cpu_ms": round(statistics.median(cpu) * 1000, 1),
        "wall_ms": round(statistics.median(wall) * 1000, 1),
    }


def correction_of(action: dict[str, Any]) -> dict[str, Any] | None:
    """A ``correct``'s replacement for the entry: deleted, or a message's points changed by one
    (a resolution cannot be deleted)."""
    if action["type"] != "resolve_message":
        return None
    return {**action, "points": action["points"] + 1}


def measure(table: Any, repeat: int) -> dict[str, Any]:
    from game.engine.commands import CORRECTABLE
    from game.engine.corrections import plays
    from game.live import snapshots
    from game.services import stories
    from game.services.corrections import correctable, preview
    from game.store import tables

    table.refresh_from_db()
    state = tables.load_state(table)
    listed = correctable(table.code, 0, host=True)["entries"]
    oldest = listed[-1]
    first = next(
        (index, dict(action))
        for index, action in plays(state)
        if action["type"] in CORRECTABLE and action["type"] != "resolve_message"
    )

    def preview_of(entry: int, action: dict[str, Any]) -> Callable[[], Any]:
        command = {"type": "correct", "entry": entry, "replacement": correction_of(action)}
        return lambda: preview(table.code, 0, command, host=True)

    def story() -> Any:
        stories.CACHE.clear()
        return stories.story_json(table)

    def sync() -> Any:
        snapshots.snapshot(table.code, 0, host=True)
        return snapshots.history(table.code)

    reads = {
        "preview_oldest_allowed": preview_of(oldest["entry"], oldest["action"]),
        "preview_entry_1": preview_of(*first),
        "entries": lambda: correctable(table.code, 0, host=True),
        "history": lambda: snapshots.history(table.code),
        "sync": sync,
        "story": story,
    }
    figures: dict[str, Any] = {
        "entries_in_log": table.version,
        "oldest_allowed_entry": oldest["entry"],
        "first_correctable_entry": first[0],
    }
    for name, run in reads.items():
        figures[name] = timed(run, repeat)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--undo-share", type=float, default=0.0)
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args()
    with ExitStack() as stack:
        setup_django(args.sqlite, stack)
        from django.db import connection

        table = write_game(args.length, 100, seed=args.length, undo_share=args.undo_share)
        figures = measure(table, args.repeat)
        for name, value in figures.items():
            if isinstance(value, dict):
                print(
                    f"{name:>24}: {value['cpu_ms']:>8.1f} ms CPU, {value['wall_ms']:>8.1f} ms wall"
                )
        vendor = connection.vendor
    print(json.dumps({"database": vendor, **figures}))


if __name__ == "__main__":
    main()
