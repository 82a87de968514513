"""The 72-tile catalogue of the base game, as data, and the geometry of rotated tiles.

Each tile type lists its features in canonical orientation (``rules/base-game.md``). Everything a
board needs at play time (edge kinds, rotated locations, which feature touches an edge or half-edge)
is computed once here for the four rotations, so placing a tile never recomputes geometry.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final


class FeatureKind(StrEnum):
    """What a feature is; its value is the name used in records and events."""

    ROAD = "road"
    CITY = "city"
    MONASTERY = "monastery"
    FIELD = "field"


EDGES: Final = ("N", "E", "S", "W")
HALF_EDGES: Final = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
ROTATIONS: Final = (0, 90, 180, 270)
EDGE_OFFSETS: Final = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE: Final = {"N": "S", "E": "W", "S": "N", "W": "E"}

CITY_EDGE: Final = "C"
ROAD_EDGE: Final = "R"
FIELD_EDGE: Final = "F"


def rotate_location(location: str, rotation: int) -> str:
    """Rotate an edge (``"N"``) or half-edge (``"NL"``) clockwise by ``rotation`` degrees.

    >>> rotate_location("N", 90), rotate_location("WR", 90), rotate_location("EL", 270)
    ('E', 'NR', 'NL')
    """
    steps = (rotation // 90) % 4
    edge = EDGES[(EDGES.index(location[0]) + steps) % 4]
    return edge + location[1:]


def facing_half_edge(half_edge: str) -> str:
    """The neighbour's half-edge that touches ``half_edge`` across their shared edge.

    Left and right swap because each is named as seen from its own tile's centre.

    >>> facing_half_edge("EL"), facing_half_edge("NR")
    ('WR', 'SL')
    """
    side = "R" if half_edge[1] == "L" else "L"
    return OPPOSITE[half_edge[0]] + side


@dataclass(frozen=True, slots=True)
class TileFeature:
    """One feature printed on a tile.

    ``locations``: the edges a road or city touches, or the half-edges a field touches, or nothing
    for a monastery. ``touches``: for a field, the indices (in the tile's feature list) of the
    cities it borders, which farm scoring needs.
    """

    kind: FeatureKind
    locations: tuple[str, ...] = ()
    coat_of_arms: bool = False
    touches: tuple[int, ...] = ()

    def rotated(self, rotation: int) -> TileFeature:
        return TileFeature(
            self.kind,
            tuple(rotate_location(loc, rotation) for loc in self.locations),
            self.coat_of_arms,
            self.touches,
        )


@dataclass(frozen=True, slots=True)
class TileType:
    """A tile of the catalogue in canonical orientation, with how many the game has."""

    letter: str
    count: int
    features: tuple[TileFeature, ...]


@dataclass(frozen=True, slots=True)
class OrientedTile:
    """A tile type turned by a rotation: what the board needs to place it.

    ``edges`` gives the kind (``C``, ``R`` or ``F``) of the N, E, S and W edge. ``feature_at`` maps
    each road or city edge and each field half-edge to the index of the feature there.
    """

    letter: str
    rotation: int
    edges: tuple[str, str, str, str]
    features: tuple[TileFeature, ...]
    feature_at: MappingProxyType[str, int]
    monastery: int | None
    scorable: tuple[int, ...]
    """Indices of the features that can be completed during play (all but fields)."""
    names: tuple[str | None, ...]
    """Per feature, its first location in clockwise order from north (None for a monastery)."""

    def edge_kind(self, edge: str) -> str:
        return self.edges[EDGES.index(edge)]

    def location_name(self, index: int) -> str | None:
        """The first location of feature ``index`` in board orientation (None for a monastery):
        the ``at`` that events and views use to name it."""
        return self.names[index]


_R, _C, _M, _F = FeatureKind.ROAD, FeatureKind.CITY, FeatureKind.MONASTERY, FeatureKind.FIELD
_ALL_HALVES = HALF_EDGES


def _t(letter: str, count: int, *features: TileFeature) -> TileType:
    return TileType(letter, count, features)


def _city(*edges: str, coat: bool = False) -> TileFeature:
    return TileFeature(_C, edges, coat)


def _road(*edges: str) -> TileFeature:
    return TileFeature(_R, edges)


def _field(halves: str, *cities: int) -> TileFeature:
    return TileFeature(_F, tuple(halves.split()), False, cities)


_MONASTERY = TileFeature(_M)

CATALOGUE: Final[dict[str, TileType]] = {
    tile.letter: tile
    for tile in (
        _t("A", 2, _MONASTERY, _road("S"), _field("NL NR EL ER SL SR WL WR")),
        _t("B", 4, _MONASTERY, _field("NL NR EL ER SL SR WL WR")),
        _t("C", 1, _city("N", "E", "S", "W", coat=True)),
        _t("D", 4, _city("N"), _road("W", "E"), _field("EL WR", 0), _field("ER SL SR WL")),
        _t("E", 5, _city("N"), _field("EL ER SL SR WL WR", 0)),
        _t("F", 2, _city("W", "E", coat=True), _field("NL NR", 0), _field("SL SR", 0)),
        _t("G", 1, _city("W", "E"), _field("NL NR", 0), _field("SL SR", 0)),
        _t("H", 3, _city("E"), _city("W"), _field("NL NR SL SR", 0, 1)),
        _t("I", 2, _city("N"), _city("W"), _field("EL ER SL SR", 0, 1)),
        _t("J", 3, _city("N"), _road("E", "S"), _field("ER SL"), _field("EL SR WL WR", 0)),
        _t("K", 3, _city("N"), _road("S", "W"), _field("SR WL"), _field("EL ER SL WR", 0)),
        _t(
            "L",
            3,
            _city("N"),
            _road("E"),
            _road("S"),
            _road("W"),
            _field("EL WR", 0),
            _field("ER SL"),
            _field("SR WL"),
        ),
        _t("M", 2, _city("N", "W", coat=True), _field("EL ER SL SR", 0)),
        _t("N", 3, _city("N", "W"), _field("EL ER SL SR", 0)),
        _t(
            "O", 2, _city("N", "W", coat=True), _road("E", "S"), _field("ER SL"), _field("EL SR", 0)
        ),
        _t("P", 3, _city("N", "W"), _road("E", "S"), _field("ER SL"), _field("EL SR", 0)),
        _t("Q", 1, _city("N", "E", "W", coat=True), _field("SL SR", 0)),
        _t("R", 3, _city("N", "E", "W"), _field("SL SR", 0)),
        _t("S", 2, _city("N", "E", "W", coat=True), _road("S"), _field("SL", 0), _field("SR", 0)),
        _t("T", 1, _city("N", "E", "W"), _road("S"), _field("SL", 0), _field("SR", 0)),
        _t("U", 8, _road("N", "S"), _field("NR EL ER SL"), _field("SR WL WR NL")),
        _t("V", 9, _road("S", "W"), _field("SR WL"), _field("NL NR EL ER SL WR")),
        _t(
            "W",
            4,
            _road("E"),
            _road("S"),
            _road("W"),
            _field("WR NL NR EL"),
            _field("ER SL"),
            _field("SR WL"),
        ),
        _t(
            "X",
            1,
            _road("N"),
            _road("E"),
            _road("S"),
            _road("W"),
            _field("NR EL"),
            _field("ER SL"),
            _field("SR WL"),
            _field("WR NL"),
        ),
    )
}

START_TILE: Final = "D"
TOTAL_TILES: Final = sum(tile.count for tile in CATALOGUE.values())


def standard_bag() -> list[str]:
    """The 71 land tiles dealt after the start tile, in catalogue order (shuffle before use)."""
    bag = [letter for letter, tile in CATALOGUE.items() for _ in range(tile.count)]
    bag.remove(START_TILE)
    return bag


def _orient(tile: TileType, rotation: int) -> OrientedTile:
    features = tuple(feature.rotated(rotation) for feature in tile.features)
    feature_at: dict[str, int] = {}
    edge_kinds = dict.fromkeys(EDGES, FIELD_EDGE)
    monastery = None
    for index, feature in enumerate(features):
        if feature.kind is _M:
            monastery = index
        for location in feature.locations:
            feature_at[location] = index
            if feature.kind is _C:
                edge_kinds[location] = CITY_EDGE
            elif feature.kind is _R:
                edge_kinds[location] = ROAD_EDGE
    edges = (edge_kinds["N"], edge_kinds["E"], edge_kinds["S"], edge_kinds["W"])
    scorable = tuple(i for i, feature in enumerate(features) if feature.kind is not _F)
    names = tuple(
        min(feature.locations, key=(HALF_EDGES if feature.kind is _F else EDGES).index)
        if feature.locations
        else None
        for feature in features
    )
    return OrientedTile(
        tile.letter,
        rotation,
        edges,
        features,
        MappingProxyType(feature_at),
        monastery,
        scorable,
        names,
    )


ORIENTED: Final[dict[str, dict[int, OrientedTile]]] = {
    letter: {rotation: _orient(tile, rotation) for rotation in ROTATIONS}
    for letter, tile in CATALOGUE.items()
}

DEMANDS: Final = (None, CITY_EDGE, ROAD_EDGE, FIELD_EDGE)
"""What one side of an empty cell may demand (None: no tile there), in the order of its code."""

Pattern = int
"""The edge kinds an empty cell demands on its N, E, S and W side, two bits a side (north in the
lowest): side ``i`` demands ``DEMANDS[pattern >> 2 * i & 3]``, so 0 demands nothing. A number
rather than a tuple of kinds because legal placements look one up per open cell: indexing a
tuple by it costs a fraction of hashing and comparing a tuple (docs/performance.md)."""


def demand(side: int, kind: str) -> Pattern:
    """The pattern demanding ``kind`` on side ``side`` (0 to 3: N, E, S, W) and nothing else;
    patterns of different sides combine with ``|``.

    >>> demands_of(demand(0, CITY_EDGE) | demand(2, ROAD_EDGE))
    ('C', None, 'R', None)
    """
    return DEMANDS.index(kind) << 2 * side


NO_DEMAND: Final[Pattern] = 0
"""The pattern of a cell with no tile around it (only the start tile's cell)."""


def pattern_of(demands: tuple[str | None, ...]) -> Pattern:
    """The pattern of the kinds demanded on the N, E, S and W sides (None: nothing)."""
    return sum(DEMANDS.index(kind) << 2 * side for side, kind in enumerate(demands))


def demands_of(pattern: Pattern) -> tuple[str | None, ...]:
    """The kinds ``pattern`` demands on the N, E, S and W sides (None: nothing).

    >>> demands_of(pattern_of(("C", None, "F", "R")))
    ('C', None, 'F', 'R')
    """
    return tuple(DEMANDS[pattern >> 2 * side & 3] for side in range(4))


def _fits(edges: tuple[str, ...], demands: tuple[str | None, ...]) -> bool:
    return all(want is None or want == have for want, have in zip(demands, edges, strict=True))


_EVERY_DEMAND: Final = tuple(demands_of(pattern) for pattern in range(4**4))

FITTING_ROTATIONS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    letter: tuple(
        tuple(
            rotation for rotation in ROTATIONS if _fits(ORIENTED[letter][rotation].edges, demands)
        )
        for demands in _EVERY_DEMAND
    )
    for letter in CATALOGUE
}
"""For each tile, indexed by the demand pattern of a cell, the rotations that fit: the index that
makes legal placements one lookup per open cell."""


def _check_catalogue() -> None:
    assert TOTAL_TILES == 72, TOTAL_TILES
    for tile in CATALOGUE.values():
        for rotation in ROTATIONS:
            oriented = ORIENTED[tile.letter][rotation]
            for edge, kind in zip(EDGES, oriented.edges, strict=True):
                halves = [edge + "L", edge + "R"]
                covered = [half in oriented.feature_at for half in halves]
                if kind == CITY_EDGE:
                    assert not any(covered), (tile.letter, edge)
                else:
                    assert all(covered), (tile.letter, edge)


_check_catalogue()
