"""The one entry point of computer players: a level and a seat's view in, a command out.

The command is the JSON object a browser sends for the same decision, so the web layer submits
it through the same path as a person's (and it lands in the log and the record the same way).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from game.engine import commands as cmd
from game.engine.autoplay import legal_commands
from game.engine.seat_view import SeatView
from game.engine.state import Mode

from . import easy, strong

LEVELS: Final = ("random", "easy", "strong")
"""The levels a seat may be given, weakest first."""

TABLE_LEVELS: Final = ("easy", "strong")
"""The levels offered at a table; "random" is a yardstick for the benchmark only."""

Decider = Callable[[SeatView, random.Random], cmd.Command]

_BY_DECISION: Final[dict[str, dict[str, Decider]]] = {
    "easy": {
        "place_tile": easy.place_tile,
        "place_follower": easy.place_follower,
        "choose_figure": easy.choose_figure,
        "resolve_message": easy.resolve_message,
    },
    "strong": {
        "place_tile": strong.place_tile,
        "place_follower": strong.place_follower,
        "choose_figure": strong.choose_figure,
        "resolve_message": strong.resolve_message,
    },
}


class UnknownLevel(ValueError):
    """A level that is not one of ``LEVELS``."""


class NotThisSeatsDecision(ValueError):
    """The game waits for nothing, or for another seat."""


def decide(level: str, seen: SeatView, rng: random.Random) -> dict[str, Any]:
    """The command ``seen.seat`` sends for the decision the game waits for, at ``level``.

    Only what ``seen`` holds is read (the redacted state: no hidden order). ``rng`` breaks ties
    and drives the random level; the same view and the same rng state give the same command.
    Decisions a tabletop game leaves to the people at the table (entering points) are answered
    with the choice that needs no counting: end the turn, finish, take the 2 points.
    """
    if level not in LEVELS:
        raise UnknownLevel(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    waiting = seen.pending
    if waiting is None or waiting["seat"] not in (None, seen.seat):
        raise NotThisSeatsDecision(f"the game waits for no decision of seat {seen.seat}")
    kind = waiting["type"]
    deciders = _BY_DECISION.get(level, {})
    if kind in deciders and seen.state.mode is Mode.BOARD:
        command = deciders[kind](seen, rng)
    else:
        legal = legal_commands(waiting)
        command = rng.choice(legal) if level == "random" else legal[0]
    return command.to_message()
