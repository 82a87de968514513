"""Race many copies of one command against a real PostgreSQL; print what happened as JSON.

Run by tests/services/test_services_postgres.py as `python -m tests.pg_concurrency_script` with
DATABASE_URL naming an empty PostgreSQL database. It lives in its own process because the main
test run keeps Django on SQLite, and the race is only meaningful where `SELECT ... FOR UPDATE`
really locks rows across connections.

Each round starts THREADS threads, each with its own database connection, releases them together
with a barrier, and has every one call `submit_command` for the same seat and version. Round
"same_id" sends one identical command (a client resending); round "distinct_ids" sends the same
move under different ids (several tabs of one seat). Exactly one call per round may apply.
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
from functools import partial
from typing import Any

THREADS = 16


def _connected_call(barrier: threading.Barrier, call: Any) -> dict[str, Any]:
    """Open this thread's own connection, wait for the others, then race; always disconnect.

    Connecting before the barrier makes the threads contend for the table's row lock, not for
    the time it takes to log in.
    """
    from django.db import connection

    from game.services.refusals import CommandRefused

    try:
        connection.ensure_connection()
        barrier.wait(timeout=60)
        try:
            applied = call()
        except CommandRefused as refused:
            return {"outcome": "refused", "code": refused.code, "version": refused.version}
        return {"outcome": "applied", "version": applied.version}
    except Exception as error:  # reported to the test, which fails on it
        return {"outcome": "error", "error": f"{type(error).__name__}: {error}"}
    finally:
        connection.close()


def _race(calls: list[Any]) -> list[dict[str, Any]]:
    """Run the calls in simultaneous threads and collect their outcomes in order."""
    barrier = threading.Barrier(len(calls))
    results: list[dict[str, Any]] = [{} for _ in calls]

    def run(index: int) -> None:
        results[index] = _connected_call(barrier, calls[index])

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def _table_facts(code: str) -> dict[str, int]:
    """The table's version and number of log rows, as saved."""
    from game.models import LogEntry, Table

    table = Table.objects.get(code=code)
    return {"version": table.version, "log_rows": LogEntry.objects.filter(table=table).count()}


def _next_command(code: str, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A legal (seat, client command) for whatever the game now waits for."""
    from game.engine.autoplay import random_command
    from game.models import Table
    from game.store.tables import load_state

    state = load_state(Table.objects.get(code=code))
    seat, command = random_command(state, rng)
    action = command.to_action(seat)
    del action["seat"]
    return seat, action


def main() -> None:
    """Set up a started two-seat game, run both rounds, print the outcomes."""
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must name a PostgreSQL database")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")
    # Every thread holds a connection at the barrier, and the main thread keeps its own: the
    # pool must have one for each.
    os.environ.setdefault("DATABASE_POOL_MAX_SIZE", str(THREADS + 1))

    import django

    django.setup()

    from django.core.management import call_command
    from django.db import connection

    from game.services.commands import submit_command
    from game.services.lobby import create_table, join_table, start_game

    call_command("migrate", interactive=False, verbosity=0)
    table, creator = create_table(preset="c2-hig", seats=2, name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, creator.token)
    code = table.code
    rng = random.Random(7)

    rounds: dict[str, Any] = {}
    for name in ("same_id", "distinct_ids"):
        before = _table_facts(code)
        seat, command = _next_command(code, rng)
        version = before["version"]
        ids = (
            [f"{name}-0"] * THREADS
            if name == "same_id"
            else [f"{name}-{i}" for i in range(THREADS)]
        )
        calls = [partial(submit_command, code, seat, version, cid, command) for cid in ids]
        results = _race(calls)
        after = _table_facts(code)
        rounds[name] = {
            "command": command,
            "seat": seat,
            "before": before,
            "after": after,
            "results": results,
        }
    rounds |= _tabletop_rounds()
    connection.close()
    print(json.dumps({"code": code, "threads": THREADS, "rounds": rounds}))


def _tabletop_rounds() -> dict[str, Any]:
    """At a six-seat tabletop game: every seat enters points for itself at the same version
    ("distinct_seats", all must count), then THREADS entries for one seat at one version
    ("one_seat", one may count)."""
    from game.services.commands import submit_command
    from game.services.lobby import add_player, create_table, start_game

    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]
    table, host = create_table(preset="c2-hig", mode="tabletop", seats=6, name="Ann", colour="blue")
    for name, colour in zip(names[1:], ["orange", "green", "yellow", "pink", "black"], strict=True):
        add_player(table.code, host.token, name=name, colour=colour)
    start_game(table.code, host.token)
    code = table.code
    rounds: dict[str, Any] = {}
    for name in ("distinct_seats", "one_seat"):
        before = _table_facts(code)
        version = before["version"]
        if name == "distinct_seats":
            calls = [
                partial(
                    submit_command,
                    code,
                    seat,
                    version,
                    f"{name}-{seat}",
                    {"type": "score", "points": seat + 1, "figure": "meeple"},
                )
                for seat in range(len(names))
            ]
        else:
            calls = [
                partial(
                    submit_command,
                    code,
                    1,
                    version,
                    f"{name}-{i}",
                    {"type": "score", "points": 2, "figure": "messenger"},
                )
                for i in range(THREADS)
            ]
        results = _race(calls)
        rounds[name] = {
            "before": before,
            "after": _table_facts(code),
            "results": results,
            "scores": _scores(code),
        }
    return rounds


def _scores(code: str) -> list[list[int]]:
    """Each seat's (meeple, messenger) as the saved game says."""
    from game.models import Table
    from game.store.tables import load_state

    state = load_state(Table.objects.get(code=code))
    return [[player.meeple, player.messenger] for player in state.players]


if __name__ == "__main__":
    main()
