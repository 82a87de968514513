"""Start a table's game and play its first move from a plain process, as a management command
would: no websocket, no consumer, no event loop. Prints the version after the move.

`python -m tests.publish_script CODE HOST_TOKEN` against the database DATABASE_URL names and the
channel layer REDIS_URL names. The service functions publish after their commits by themselves
(game/services/publish.py): every page of the table, on any server process, hears of both.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    """Start, then place the first tile where the view's ``pending`` first allows it."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

    import django

    django.setup()

    from game.engine.views import pending
    from game.models import Table
    from game.services.commands import submit_command
    from game.services.lobby import start_game
    from game.store.tables import load_state

    code, token = sys.argv[1:3]
    start_game(code, token)
    state = load_state(Table.objects.get(code=code))
    waiting = pending(state)
    assert waiting is not None and waiting["type"] == "place_tile", waiting
    spot = waiting["placements"][0]
    command = {
        "type": "place_tile",
        "x": spot["x"],
        "y": spot["y"],
        "rotation": spot["rotations"][0],
    }
    applied = submit_command(code, 0, state.version, "script-1", command, host=True)
    delivered = applied.publication._future.result(timeout=30)
    print(json.dumps({"version": applied.version, "delivered": delivered}))


if __name__ == "__main__":
    main()
