"""Benchmark: the work of loading a table and of one undo, by the length of its log.

Usage (from the repository root)::

    .venv/bin/python bench/table_load.py [--lengths 80,8000] [--every 100] [--repeat 5]
        [--sqlite]

For each log length a tabletop game (three seats, preset c1-zmg) is written straight into a
fresh database: random legal entries from ``autoplay.random_command`` (the game never ends) with
one in four an undo, as a flood of corrections would be, and a checkpoint every ``--every``
entries as the server writes them. The same game is then written again without checkpoints
(``--every 0``: what the server did before checkpoints), and for each:

* **cold load**: ``tables.load_state`` with the process's state cache emptied, as a process that
  has not seen the table does it (``--repeat`` times; the median is printed);
* **undo**: ``services.commands.submit_command`` of an undo by the host, with the cache warm, as
  at a live table: lock, find the state before the entry taken back, save, under the table's
  lock (``--repeat`` undos in a row; the median).

The database is a private PostgreSQL started here (``tests/servers.py``), or with ``--sqlite`` a
temporary SQLite file. The limits on entries are raised so that the long logs can be written.
The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RECENT = 64
"""How many recent states the writer keeps to take entries back without a replay."""


def setup_django(sqlite: bool, stack: ExitStack) -> None:
    """Set Django up in this process on a new, migrated database, with the limits on entries
    raised so that the long logs can be written."""
    from tests import servers

    if sqlite:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        database_url = f"sqlite:///{folder}/bench.sqlite3"
    else:
        url = stack.enter_context(servers.private_postgres())
        database_url = servers.create_database(url, "table_load")
    settings = {
        "DATABASE_URL": database_url,
        "MESSENGERS_TABLETOP_ENTRIES_PER_TURN": "1000000",
        "MESSENGERS_GAME_MAX_ENTRIES": "1000000",
    }
    os.environ.update(settings)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")
    servers.migrate(settings)
    import django

    django.setup()


def write_game(length: int, every: int, seed: int, undo_share: float = 0.25) -> Any:
    """A started tabletop table whose log holds ``length`` random entries, ``undo_share`` of
    them undos; the game never ends (``bench/abuse.py`` writes one without undos, whose every
    entry still counts)."""
    from django.db import transaction
    from django.test import override_settings

    from game.engine.autoplay import random_command
    from game.engine.commands import EndGame, EndTurn
    from game.engine.play import apply, undo_from, undo_target
    from game.engine.state import effective
    from game.models import Table
    from game.services import limits
    from game.services.lobby import create_table, join_table, start_game
    from game.store import tables
    from game.store.log import NewEntry, TableHead, append

    table, ann = create_table(preset="c1-zmg", mode="tabletop", seats=3, name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    join_table(table.code, name="Cy", colour="green")
    start_game(table.code, ann.token)
    table.refresh_from_db()
    state = tables.load_state(table)
    rng = random.Random(seed)
    recent = {state.version: state}
    entries: list[NewEntry] = []
    with override_settings(CHECKPOINT_EVERY=every), transaction.atomic():
        while state.version < length:
            previous = state.version
            undoing = effective(state.log) and rng.random() < undo_share
            target = undo_target(state) if undoing else None
            if target is not None and target in recent:
                state, events = undo_from(state, 0, recent[target])
            else:
                seat, command = random_command(state, rng)
                if isinstance(command, EndGame):
                    seat, command = state.active, EndTurn()
                state, events = apply(state, seat, command)
            entry = NewEntry(
                index=previous,
                action=dict(state.log[-1]),
                events=events,
                command_id=f"b{previous}",
                automatic=False,
                turn=limits.turn_key(state),
            )
            entries.append(entry)
            tables.save_checkpoint(table.id, previous, state)
            recent[state.version] = state
            recent.pop(state.version - RECENT, None)
            if len(entries) == 500 or state.version == length:
                head = TableHead(table.id, table.code, Table.Status.PLAYING, entries[0].index)
                append(head, entries, finished=False)
                entries = []
    table.refresh_from_db()
    return table


def measure(table: Any, repeat: int) -> dict[str, float]:
    from game.models import Checkpoint
    from game.services.commands import submit_command
    from game.store import tables

    loads = []
    for _ in range(repeat):
        table.refresh_from_db()
        tables.STATES.clear()
        start = time.perf_counter()
        tables.load_state(table)
        loads.append(time.perf_counter() - start)
    undos = []
    for _ in range(repeat):
        table.refresh_from_db()
        tables.load_state(table)
        start = time.perf_counter()
        submit_command(table.code, 0, table.version, f"u{table.version}", {"type": "undo"})
        undos.append(time.perf_counter() - start)
    sizes = [
        len(bytes(blob))
        for blob in Checkpoint.objects.filter(table=table).values_list("state", flat=True)
    ]
    return {
        "cold_load_ms": round(statistics.median(loads) * 1000, 2),
        "undo_ms": round(statistics.median(undos) * 1000, 2),
        "checkpoints": len(sizes),
        "checkpoint_kb": round(sum(sizes) / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="80,8000")
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args()
    results: list[dict[str, Any]] = []
    with ExitStack() as stack:
        setup_django(args.sqlite, stack)
        from django.db import connection

        for length in (int(n) for n in args.lengths.split(",")):
            for every in (args.every, 0):
                table = write_game(length, every, seed=length)
                figures = {"entries": length, "every": every, **measure(table, args.repeat)}
                results.append(figures)
                print(
                    f"{length:>6} entries, checkpoint every {every or '-':>4}: cold load "
                    f"{figures['cold_load_ms']:>8.2f} ms, undo {figures['undo_ms']:>8.2f} ms, "
                    f"{figures['checkpoints']} checkpoints ({figures['checkpoint_kb']} KB)"
                )
        vendor = connection.vendor
    print(json.dumps({"database": vendor, "results": results}))


if __name__ == "__main__":
    main()
