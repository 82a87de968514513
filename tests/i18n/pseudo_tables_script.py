"""The tables the pseudo-language's browser test reads (tests/i18n/test_pseudo_pages.py), made in
the database DATABASE_URL names; prints each one's code and the token of Ann, its host, as JSON.

* ``lobby``: a new board table, Ann alone in it;
* ``computer``: a started board game, Ann against a computer player;
* ``board``: a board game of Ann and Bob, 30 moves in (a log, scores, figures on the board);
* ``tabletop``: a game night's table being played, three players, a few scores;
* ``finished``: a game night's table played to its end (its story, its ranking).

Run as ``python -m tests.i18n.pseudo_tables_script``: the test drives a real Daphne and so cannot
use the ORM itself (tests/lobby_script.py says why).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

    import django

    django.setup()

    from game.engine.autoplay import random_command
    from game.engine.views import pending
    from game.models import Table
    from game.services.commands import submit_command
    from game.services.lobby import create_table, join_table, start_game
    from game.services.seating import add_computer
    from game.store.tables import load_state

    tables: dict[str, dict[str, Any]] = {}

    lobby, ann = create_table(preset="c2-hig", seats=3, name="Ann", colour="blue")
    tables["lobby"] = {"code": lobby.code, "token": ann.token}

    computer, ann = create_table(preset="c2-hig", seats=2, name="Ann", colour="blue")
    add_computer(computer.code, ann.token, "strong")
    start_game(computer.code, ann.token)
    tables["computer"] = {"code": computer.code, "token": ann.token}

    board, ann = create_table(preset="c2-hig", seats=2, name="Ann", colour="blue")
    join_table(board.code, name="Bob", colour="orange")
    start_game(board.code, ann.token)
    rng = random.Random(4)
    for _ in range(30):
        table = Table.objects.get(pk=board.pk)
        seat, command = random_command(load_state(table), rng)
        body = {k: v for k, v in command.to_action(seat).items() if k != "seat"}
        submit_command(table.code, seat, table.version, f"b{table.version}", body)
    tables["board"] = {"code": board.code, "token": ann.token}

    for name, finish in (("tabletop", False), ("finished", True)):
        table, ann = create_table(
            preset="c2-hig", mode="tabletop", seats=3, name="Ann", colour="blue"
        )
        join_table(table.code, name="Bob", colour="orange")
        join_table(table.code, name="Cy", colour="green")
        start_game(table.code, ann.token)

        def send(body: dict[str, Any], as_seat: int | None = None, table: Table = table) -> None:
            version = Table.objects.get(pk=table.pk).version
            submit_command(table.code, 0, version, f"s{version}", body, as_seat)

        send({"type": "score", "points": 5, "figure": "meeple", "category": "road"}, 0)
        send({"type": "end_turn"}, 0)
        if pending(load_state(Table.objects.get(pk=table.pk)))["type"] == "resolve_message":
            send({"type": "resolve_message", "choice": "points"}, 0)
            send({"type": "choose_figure", "figure": "messenger"}, 0)
        send({"type": "score", "points": 4, "figure": "messenger", "category": "city"}, 1)
        send({"type": "end_turn"}, 1)
        send({"type": "score", "points": 8, "figure": "meeple", "category": "monastery"}, 2)
        send({"type": "end_turn"}, 2)
        if finish:
            send({"type": "end_game"})
            for seat in range(3):
                send({"type": "choose_figure", "figure": "meeple"}, seat)
            send({"type": "score", "points": 6, "figure": "meeple", "category": "field"}, 0)
            send({"type": "finish"})
        tables[name] = {"code": table.code, "token": ann.token}

    print(json.dumps(tables))


if __name__ == "__main__":
    main()
