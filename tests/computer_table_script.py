"""Computer-player tables in the database DATABASE_URL names, for the tests that drive real
Daphne processes (which cannot use the ORM themselves; see tests/lobby_script.py).

`python -m tests.computer_table_script new`: a started two-seat game, Ann against a strong
computer; prints the code and Ann's token.
`python -m tests.computer_table_script log CODE`: the table's log entries as
`[index, seat, command_id, automatic, first event type]`.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

    import django

    django.setup()

    from game.models import LogEntry
    from game.services.lobby import create_table, start_game
    from game.services.seating import add_computer

    if sys.argv[1] == "new":
        table, ann = create_table(preset="c2-hig", seats=2, name="Ann", colour="blue")
        add_computer(table.code, ann.token, "strong")
        start_game(table.code, ann.token)
        print(json.dumps({"code": table.code, "token": ann.token}))
    else:
        rows = LogEntry.objects.filter(table__code=sys.argv[2]).order_by("index")
        print(
            json.dumps(
                [
                    [e.index, e.action["seat"], e.command_id, e.automatic, e.events[0]["type"]]
                    for e in rows
                ]
            )
        )


if __name__ == "__main__":
    main()
