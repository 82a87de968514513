"""What a position is worth to each seat: points on the track, plus what the followers on the
board should still bring, plus the followers left in supply.

The strong player compares its choices by this value (its own minus the best opponent's). The
estimates use the engine's own scoring (``completed_value``, ``final_value``, majorities) and,
for a feature not yet complete, the chance that the open cells it needs are filled, from the
counts of the land tiles still to come (public at a real table: never their order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from game.engine.board import Board, Cell, Feature
from game.engine.scoring import completed_value, majority_holders
from game.engine.tiles import EDGE_OFFSETS, EDGES, FITTING_ROTATIONS, FeatureKind, Pattern

HORIZON: Final = 1.5
"""Draws counted for filling each open cell a feature needs. Short on purpose: a feature is
contested, only some draws are its owner's, and a follower waiting on it is idle; with longer
horizons the player saw every feature as good as complete and stopped closing its own (it lost
to the easy player)."""
FOLLOWER_VALUE: Final = 4.0
"""What a follower in supply is worth early in the game (it will claim something later)."""
FOLLOWER_VALUE_TILES: Final = 25
"""Below this many tiles left, a follower in supply is worth proportionally less."""
RETURN_SHARE: Final = 0.8
"""The part of a follower's value counted back when its feature is likely to complete in time."""
ROAD_GROWTH: Final = 0.5
CITY_GROWTH: Final = 1.5
MONASTERY_FILL_TILES: Final = 35
MONASTERY_FILL_MAX: Final = 0.85

_ROAD = FeatureKind.ROAD
_CITY = FeatureKind.CITY
_MONASTERY = FeatureKind.MONASTERY
_FIELD = FeatureKind.FIELD


class Estimator:
    """Per-decision estimates: completion chances and feature values, cached by feature.

    ``bag``: the land tiles still to be drawn, as a multiset (the redacted state's sorted bag).
    """

    def __init__(self, bag: Iterable[str], seats: int) -> None:
        counts = Counter(bag)
        self.seats = seats
        self.tiles_left = sum(counts.values())
        self.counts = counts
        self.follower_value = FOLLOWER_VALUE * min(1.0, self.tiles_left / FOLLOWER_VALUE_TILES)
        self.monastery_fill = min(MONASTERY_FILL_MAX, self.tiles_left / MONASTERY_FILL_TILES)
        self._fits: dict[Pattern, int] = {}
        self._chances: dict[int, tuple[Feature, float, int]] = {}

    def fitting(self, pattern: Pattern) -> int:
        """How many of the remaining tiles fit a cell with this demand in some rotation."""
        known = self._fits.get(pattern)
        if known is None:
            known = sum(
                n for letter, n in self.counts.items() if FITTING_ROTATIONS[letter][pattern]
            )
            self._fits[pattern] = known
        return known

    def completion(self, board: Board, feature: Feature) -> tuple[float, int]:
        """The chance a road or city completes before the end, and how many open cells it needs."""
        cached = self._chances.get(id(feature))
        if cached is not None and cached[0] is feature:
            return cached[1], cached[2]
        cells: set[Cell] = set()
        for x, y, index in feature.segments:
            tile = board.tiles[(x, y)]
            for edge in EDGES:
                if tile.feature_at.get(edge) == index:
                    dx, dy = EDGE_OFFSETS[edge]
                    cell = (x + dx, y + dy)
                    if cell in board.open_cells:
                        cells.add(cell)
        chance = 1.0
        left = self.tiles_left
        if left == 0:
            chance = 0.0 if cells else 1.0
        else:
            draws = min(float(left), HORIZON)
            for cell in cells:
                share = self.fitting(board.open_cells[cell]) / left
                chance *= 1.0 - (1.0 - share) ** draws
        self._chances[id(feature)] = (feature, chance, len(cells))
        return chance, len(cells)

    def expected(self, board: Board, feature: Feature) -> tuple[float, float, bool]:
        """(points the majority holders should get, chance their followers come back in time,
        whether the feature is complete now)."""
        kind = feature.kind
        if kind is _FIELD:
            cities = {board.feature_of[segment] for segment in feature.cities}
            points = 0.0
            for city_id in cities:
                city = board.features[city_id]
                if city.open_edges == 0:
                    points += 3.0
                else:
                    points += 3.0 * self.completion(board, city)[0]
            return points, 0.0, False
        if board.is_complete(feature):
            return float(completed_value(board, feature)), 1.0, True
        if kind is _MONASTERY:
            around = board.monastery_neighbours(feature)
            fill = self.monastery_fill
            points = 1 + around + (8 - around) * fill
            return points, fill ** (8 - around), False
        chance, cells = self.completion(board, feature)
        size = len(feature.tiles)
        if kind is _ROAD:
            return size + ROAD_GROWTH * cells, chance, False
        worth = size + feature.coats
        return worth * (1 + chance) + CITY_GROWTH * cells * chance, chance, False

    def contribution(self, board: Board, feature: Feature) -> list[float]:
        """What ``feature`` (with followers) adds to each seat's value."""
        values = [0.0] * self.seats
        points, back, _complete = self.expected(board, feature)
        for seat in majority_holders(feature):
            values[seat] += points
        returned = self.follower_value * (back if back >= 1.0 else RETURN_SHARE * back)
        if returned:
            for follower in feature.followers:
                values[follower.seat] += returned
        return values

    def board_values(self, board: Board) -> dict[int, list[float]]:
        """Each feature with followers and what it adds to each seat's value."""
        return {
            feature.id: self.contribution(board, feature)
            for feature in board.features_with_followers()
        }


def objective(values: list[float], seat: int) -> float:
    """``seat``'s value minus the best other seat's: what the strong player maximises."""
    best_other = max(value for other, value in enumerate(values) if other != seat)
    return values[seat] - best_other
