"""Corrections on a real PostgreSQL: after each correction, a cold load (from the checkpoints
in the database) equals a replay of the whole record; print what was checked as JSON.

Run by tests/services/test_corrections_postgres.py as `python -m tests.pg_corrections_script` with
DATABASE_URL naming an empty PostgreSQL database (the main test run keeps Django on SQLite).
"""

from __future__ import annotations

import json
import os
import random
import sys


def main() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must name a PostgreSQL database")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

    import django

    django.setup()

    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import override_settings

    from game.engine import record
    from game.models import Checkpoint, LogEntry
    from game.store.tables import STATES, load_state, record_of
    from tests.services.test_corrections_server import _corrections, tabletop
    from tests.store.test_bounded_work import play

    call_command("migrate", interactive=False, verbosity=0)
    checks = []
    with override_settings(CHECKPOINT_EVERY=5, TABLETOP_ENTRIES_PER_TURN=10_000):
        table = tabletop()
        rng = random.Random(11)
        play(table, 30, seed=11)
        for _ in range(6):
            _corrections(table, rng, 1)
            expected = record.replay(record_of(table)).state
            warm = load_state(table) == expected
            STATES.clear()
            cold = load_state(table) == expected
            checks.append({"version": table.version, "warm": warm, "cold": cold})
            play(table, table.version + 4, seed=rng.randrange(1000))
        actions = list(LogEntry.objects.filter(table=table).values_list("action", flat=True))
        report = {
            "vendor": connection.vendor,
            "checks": checks,
            "corrections": sum(1 for action in actions if action["type"] == "correct"),
            "checkpoints": Checkpoint.objects.filter(table=table).count(),
        }
    connection.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
