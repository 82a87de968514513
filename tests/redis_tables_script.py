"""Create COUNT two-seat tables in the lobby of the database DATABASE_URL names; print them.

`python -m tests.redis_tables_script COUNT` prints one JSON list of {"code", "tokens"} on its last
line. Run by the Redis connection tests, whose own Django is configured for the SQLite test
database and so cannot create tables in the servers' PostgreSQL database itself.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    """Seat Ann (the creator) and Bob at each table; the games stay in the lobby."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

    import django

    django.setup()

    from game.services.lobby import create_table, join_table

    tables = []
    for _ in range(int(sys.argv[1])):
        table, creator = create_table(preset="c2-hig", seats=2, name="Ann", colour="blue")
        guest = join_table(table.code, name="Bob", colour="orange")
        tables.append({"code": table.code, "tokens": [creator.token, guest.token]})
    print(json.dumps(tables))


if __name__ == "__main__":
    main()
