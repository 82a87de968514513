"""Race "Play again" from many connections at once on a real PostgreSQL; print what happened.

Run by tests/services/test_rematch_postgres.py as `python -m tests.pg_rematch_script` with
DATABASE_URL naming an empty PostgreSQL database and MESSENGERS_FIXED_TILES making the game two
tiles long. Every thread has its own database connection, as two Daphne processes would; a barrier
releases them together, each calling `rematch` for one of the two players of the same finished game.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any

THREADS = 12
SHORT_GAME = [
    (0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 0}),
    (0, {"type": "skip_follower"}),
    (1, {"type": "place_tile", "x": 0, "y": -1, "rotation": 180}),
    (1, {"type": "skip_follower"}),
]


def _call(barrier: threading.Barrier, code: str, token: str) -> dict[str, Any]:
    from django.db import connection

    from game.services.lobby import rematch

    try:
        connection.ensure_connection()
        barrier.wait(timeout=60)
        table, created = rematch(code, token)
        return {"outcome": "ok", "code": table.code, "created": created}
    except Exception as error:  # reported to the test, which fails on it
        return {"outcome": "error", "error": f"{type(error).__name__}: {error}"}
    finally:
        connection.close()


def main() -> None:
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

    from game.models import Table
    from game.services.commands import submit_command
    from game.services.lobby import create_table, join_table, start_game

    call_command("migrate", interactive=False, verbosity=0)
    table, ann = create_table(preset="c1-zmg", seats=2, name="Ann", colour="blue")
    bob = join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    for version, (seat, command) in enumerate(SHORT_GAME):
        submit_command(table.code, seat, version, f"c{version}", command)
    before = Table.objects.count()
    tokens = [ann.token, bob.token] * (THREADS // 2)
    barrier = threading.Barrier(len(tokens))
    results: list[dict[str, Any]] = [{} for _ in tokens]

    def run(index: int) -> None:
        results[index] = _call(barrier, table.code, tokens[index])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    after = Table.objects.count()
    status = Table.objects.get(code=table.code).status
    connection.close()
    print(json.dumps({"status": status, "before": before, "after": after, "results": results}))


if __name__ == "__main__":
    main()
