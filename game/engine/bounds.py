"""The most points one entry of a category can honestly be worth at a tabletop game, from the
72-tile catalogue and the number of tiles on the table so far.

A tabletop game's board is a real one, so the engine cannot count features; but it knows how
many tiles can have been placed (``tiles_placed``: the start tile, one per turn begun, one more
for each "one more tile" carried out at once; no other message places a tile), and the
catalogue says what the best tiles can give. Each bound assumes the tiles placed are the
catalogue's best for that category, so a score the board allows never exceeds it; the console
asks before sending more (``docs/players.md``).

* road: 1 point per tile for each road on it (a junction's tile counts in each road ending
  there); the same during play and in the final scoring.
* city: during play 2 per tile for each city on it and 2 per coat of arms; in the final
  scoring (incomplete cities) 1 and 1.
* monastery: up to 9 for each monastery tile placed (6 in the catalogue), never more than 1 per
  tile placed.
* field: a field's farmers score 3 per completed city it touches, each city once per field;
  so all fields together score 3 for each pair of a field and a completed city it touches. A
  pair needs a tile that shows the two touching (a field running past a city on several tiles
  still makes one pair), so there are no more pairs than such places on the tiles placed: 3 for
  each, and none before two tiles (the smallest completed city) are on the table. Counting the
  completed cities instead (each needs two city pieces, so at most half of the city pieces
  placed) does not make this smaller: one big field may touch every one of them, and the
  seven farmers a player has could stand in seven such fields. Nor can it be made smaller
  without the board: a chain of tiles with two cities each (a city closed on both sides by
  its neighbours) and caps closing the ends shows nearly one pair per place, all different.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import Final

from . import commands as cmd
from .presets import ExtraTile
from .state import GameState, effective
from .tiles import CATALOGUE, TOTAL_TILES, FeatureKind, TileType

CATEGORIES: Final = ("road", "city", "monastery", "field")
MONASTERY_POINTS: Final = 9
"""A complete monastery: its tile and the 8 around it."""


def _count(tile: TileType, kind: FeatureKind, coat: bool = False) -> int:
    return sum(1 for f in tile.features if f.kind is kind and (f.coat_of_arms or not coat))


def _best(value: Callable[[TileType], int]) -> tuple[int, ...]:
    """``best[t]``: the most ``value`` the ``t`` best tiles of the catalogue add up to."""
    values = sorted(
        (value(tile) for tile in CATALOGUE.values() for _ in range(tile.count)), reverse=True
    )
    return (0, *accumulate(values))


_ROADS: Final = _best(lambda tile: _count(tile, FeatureKind.ROAD))
_CITY_POINTS: Final = _best(
    lambda tile: _count(tile, FeatureKind.CITY) + _count(tile, FeatureKind.CITY, coat=True)
)
_MONASTERIES: Final = _best(lambda tile: _count(tile, FeatureKind.MONASTERY))
_TOUCHES: Final = _best(
    lambda tile: sum(len(f.touches) for f in tile.features if f.kind is FeatureKind.FIELD)
)


def tiles_placed(state: GameState) -> int:
    """The most tiles that can be on the table now: the start tile, one for each turn begun
    (an extra turn is one), and one for each "one more tile" carried out at once.

    No other message places a tile. At a tabletop game every other action is resolved with the
    points counted at the table (or, returning a follower, with ``score`` false), while "one
    more tile" takes none: its tile's points are entered after it is placed. So the log tells
    those tiles apart from what every page sees, not from the stack's hidden order."""
    if state.options.extra_tile is not ExtraTile.IMMEDIATE:
        return min(TOTAL_TILES, 1 + state.turn)
    amendments = state.amendments
    replaced = dict(amendments.replaced) if amendments is not None else {}
    lapsed = amendments.lapsed if amendments is not None else frozenset()
    extra = 0
    for index in effective(state.log):
        action = replaced.get(index, state.log[index])
        if (
            index not in lapsed
            and action is not None
            and action.get("type") == cmd.ResolveMessage.type
            and action.get("choice") == "action"
            and action.get("points") is None
            and action.get("score", True)
        ):
            extra += 1
    return min(TOTAL_TILES, 1 + state.turn + extra)


def most_points(tiles: int, *, final: bool) -> dict[str, int]:
    """The most one entry of each category can be worth with ``tiles`` tiles on the table,
    during play or in the final scoring (``final``)."""
    t = max(0, min(tiles, TOTAL_TILES))
    per_city = 1 if final else 2
    completed = t >= 2  # a completed city lies on two tiles at least
    return {
        "road": _ROADS[t],
        "city": per_city * _CITY_POINTS[t],
        "monastery": _MONASTERIES[t] * min(MONASTERY_POINTS, t),
        "field": 3 * _TOUCHES[t] if completed else 0,
    }
