"""Create a two-seat table in the lobby of the database DATABASE_URL names; print code and tokens.

`python -m tests.lobby_script [CREATOR GUEST]` names the two players (Ann and Bob by default).

Run by the tests that drive real Daphne processes (`python -m tests.lobby_script`), which cannot
use the ORM themselves: their own Django is configured for the SQLite test database. Seat tokens
are what a script passes in the `X-Seat-Token` header on the websocket (docs/protocol.md).
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    """Seat the creator and a guest; leave the start to the websocket, as a browser does."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

    import django

    django.setup()

    from game.services.lobby import create_table, join_table

    creator_name, guest_name = sys.argv[1:3] if len(sys.argv) >= 3 else ("Ann", "Bob")
    table, creator = create_table(preset="c2-hig", seats=2, name=creator_name, colour="blue")
    guest = join_table(table.code, name=guest_name, colour="orange")
    print(json.dumps({"code": table.code, "tokens": [creator.token, guest.token]}))


if __name__ == "__main__":
    main()
