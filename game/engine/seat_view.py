"""What a computer player may know: a seat's view of the game as a redacted state.

A player that simulates moves needs the engine's own rules, so it needs a ``GameState``; but the
state holds hidden orders (the tile bag, the message stack, the setup's initial orders and the
seed they came from). ``seat_view`` is the one place that builds a player's input, and it
replaces every hidden order by the sorted multiset of the same items: the counts stay (the
remaining tiles of each kind are public at a real table), the order is gone. Two games that differ
only in those orders give equal ``SeatView`` values, so nothing decided from one can depend on
them.
"""

from __future__ import annotations

import copyreg
import dataclasses
import types
from dataclasses import dataclass
from typing import Any

from .events import Pending
from .state import GameState
from .views import pending


def _read_only(items: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    return types.MappingProxyType(items)


def _pickle_mapping(mapping: types.MappingProxyType[Any, Any]) -> tuple[Any, tuple[Any, ...]]:
    return _read_only, (dict(mapping),)


# The state's read-only mappings travel as copies, so that a seat's view can be handed to a
# computer player in another process (game/services/computers.py), away from the server's event
# loop.
copyreg.pickle(types.MappingProxyType, _pickle_mapping)


@dataclass(frozen=True, slots=True)
class SeatView:
    """The decision waiting for ``seat`` and the redacted state it is taken in."""

    seat: int
    state: GameState
    """The game with hidden orders replaced by sorted multisets (see ``redacted``)."""
    pending: Pending | None
    """``views.pending`` of the redacted state: the decision and its legal choices."""


def redacted(state: GameState) -> GameState:
    """A copy of ``state`` whose hidden orders are sorted and whose seed is zero.

    The log is dropped: it is public, but nothing a player decides needs it, and a smaller state
    is cheaper to simulate with.
    """
    setup = dataclasses.replace(
        state.setup,
        seed=0,
        tiles=tuple(sorted(state.setup.tiles)),
        messages=tuple(sorted(state.setup.messages)),
    )
    return dataclasses.replace(
        state,
        setup=setup,
        bag=tuple(sorted(state.bag)),
        stack=tuple(sorted(state.stack)),
        log=(),
    )


def seat_view(state: GameState, seat: int) -> SeatView:
    """``seat``'s view: the redacted state and the decision it waits for, built from it."""
    hidden_free = redacted(state)
    return SeatView(seat, hidden_free, pending(hidden_free))
