"""Computer players: pure Python beside the engine (no Django, Channels or Redis).

``decide(level, seat_view(state, seat), rng)`` gives the command a seat sends; see
``docs/computer-players.md``.
"""

from game.engine.seat_view import SeatView, seat_view

from .decide import LEVELS, TABLE_LEVELS, NotThisSeatsDecision, UnknownLevel, decide

__all__ = [
    "LEVELS",
    "TABLE_LEVELS",
    "NotThisSeatsDecision",
    "SeatView",
    "UnknownLevel",
    "decide",
    "seat_view",
]
