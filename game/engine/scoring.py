"""What features are worth, and who holds the majority on them (rules/base-game.md, "Rules")."""

from __future__ import annotations

from collections import Counter

from .board import Board, Feature
from .tiles import FeatureKind

POINTS_PER_COMPLETED_CITY_FOR_A_FARM = 3


def completed_value(board: Board, feature: Feature) -> int:
    """Points of a feature completed during play: road 1/tile, city 2/tile + 2/coat, monastery 9."""
    if feature.kind is FeatureKind.ROAD:
        return len(feature.tiles)
    if feature.kind is FeatureKind.CITY:
        return 2 * len(feature.tiles) + 2 * feature.coats
    if feature.kind is FeatureKind.MONASTERY:
        return 9
    raise ValueError("fields are never completed")


def final_value(board: Board, feature: Feature) -> int:
    """Points of a feature as in final scoring (also what several messages pay).

    A completed road, city or monastery is worth its completed value; an incomplete one is
    worth road 1/tile, city 1/tile + 1/coat, monastery 1 + its neighbours; a field is worth
    3 per completed city it borders.
    """
    if feature.kind is FeatureKind.FIELD:
        return POINTS_PER_COMPLETED_CITY_FOR_A_FARM * len(board.completed_cities(feature))
    if board.is_complete(feature):
        return completed_value(board, feature)
    if feature.kind is FeatureKind.ROAD:
        return len(feature.tiles)
    if feature.kind is FeatureKind.CITY:
        return len(feature.tiles) + feature.coats
    return 1 + board.monastery_neighbours(feature)


def follower_counts(feature: Feature) -> Counter[int]:
    return Counter(follower.seat for follower in feature.followers)


def majority_holders(feature: Feature) -> list[int]:
    """Seats with the most followers on the feature (ties share the majority), in seat order."""
    counts = follower_counts(feature)
    if not counts:
        return []
    most = max(counts.values())
    return sorted(seat for seat, count in counts.items() if count == most)


def holds_majority(feature: Feature, seat: int) -> bool:
    """True when no other player has more followers there than ``seat`` (a tie is shared)."""
    return seat in majority_holders(feature)
