"""Play part of a tabletop game (c2-hig, three players) in the database DATABASE_URL names;
print its code. With the argument ``finish`` the game is played to its end; with ``board``, a
board game of two players is played at random for 30 moves instead.

Run by the story's browser test (`python -m tests.story_table_script`), which drives a real
Daphne and so cannot use the ORM itself (tests/lobby_script.py says why).
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

    import django

    django.setup()

    from game.engine.views import pending
    from game.models import Table
    from game.services.commands import submit_command
    from game.services.lobby import create_table, join_table, start_game
    from game.store.tables import load_state

    if sys.argv[1:] == ["board"]:
        print(json.dumps({"code": board_game()}))
        return
    table, ann = create_table(preset="c2-hig", mode="tabletop", seats=3, name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    join_table(table.code, name="Cy", colour="green")
    start_game(table.code, ann.token)

    def send(body: dict, as_seat: int | None = None) -> None:
        version = Table.objects.get(pk=table.pk).version
        submit_command(table.code, 0, version, f"s{version}", body, as_seat)

    def score(seat: int, points: int, figure: str, category: str | None = None) -> None:
        body = {"type": "score", "points": points, "figure": figure}
        if category:
            body["category"] = category
        send(body, seat)

    score(0, 5, "meeple", "road")
    send({"type": "end_turn"}, 0)
    if pending(load_state(Table.objects.get(pk=table.pk)))["type"] == "resolve_message":
        send({"type": "resolve_message", "choice": "points"}, 0)
        send({"type": "choose_figure", "figure": "messenger"}, 0)
    score(1, 4, "messenger", "city")
    score(2, 3, "meeple")
    send({"type": "end_turn"}, 1)
    score(2, 8, "meeple", "monastery")
    send({"type": "end_turn"}, 2)
    if sys.argv[1:] == ["finish"]:
        send({"type": "end_game"})
        for seat in range(3):
            send({"type": "choose_figure", "figure": "meeple"}, seat)
        score(0, 6, "meeple", "field")
        score(1, 2, "meeple", "city")
        send({"type": "finish"})
    print(json.dumps({"code": table.code}))


def board_game() -> str:
    import random

    from game.engine.autoplay import random_command
    from game.models import Table
    from game.services.commands import submit_command
    from game.services.lobby import create_table, join_table, start_game
    from game.store.tables import load_state

    table, ann = create_table(preset="c2-hig", seats=2, name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    rng = random.Random(4)
    for _ in range(30):
        table = Table.objects.get(pk=table.pk)
        seat, command = random_command(load_state(table), rng)
        body = {k: v for k, v in command.to_action(seat).items() if k != "seat"}
        submit_command(table.code, seat, table.version, f"b{table.version}", body)
    return table.code


if __name__ == "__main__":
    main()
