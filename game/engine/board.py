"""The board: placed tiles, connected features, followers, and where the next tile may go.

Features are kept up to date as tiles are placed (each tile's features merge with their
neighbours'), so completion, majorities and the "is this feature occupied" question are lookups,
not searches. Open cells keep the edge pattern they demand, so legal placements of a tile are one
dictionary lookup per open cell (``tiles.FITTING_ROTATIONS``).

A ``Board`` is immutable: every change returns a new board, and its mappings are never mutated
after construction.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple, TypeVar

from .errors import IllegalCommand
from .events import Place
from .tiles import (
    EDGE_OFFSETS,
    EDGES,
    FITTING_ROTATIONS,
    NO_DEMAND,
    OPPOSITE,
    ORIENTED,
    START_TILE,
    FeatureKind,
    OrientedTile,
    Pattern,
    demand,
    facing_half_edge,
)

Cell = tuple[int, int]
Segment = tuple[int, int, int]
"""A feature printed on one placed tile: the tile's cell and the feature's index on the tile."""

_NEIGHBOURS_8 = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))


@dataclass(frozen=True, slots=True)
class Follower:
    """A follower of ``seat`` standing on ``segment``."""

    seat: int
    segment: Segment


class Feature(NamedTuple):
    """A connected feature on the board.

    ``open_edges`` counts the edges of a road or city that face an empty cell: 0 means complete.
    ``cities`` (fields only) holds one segment of each city the field borders; the city's current
    feature is looked up through ``Board.feature_of`` because cities keep merging.

    An immutable named tuple rather than a frozen dataclass: several are built for every tile
    placed, and a tuple is built several times faster.
    """

    id: int
    kind: FeatureKind
    segments: frozenset[Segment]
    tiles: frozenset[Cell]
    open_edges: int
    coats: int
    followers: tuple[Follower, ...]
    cities: frozenset[Segment] = frozenset()


@dataclass(frozen=True, slots=True)
class Board:
    """Placed tiles (cell -> oriented tile), features, and open cells with their demands."""

    tiles: Mapping[Cell, OrientedTile]
    feature_of: Mapping[Segment, int]
    features: Mapping[int, Feature]
    open_cells: Mapping[Cell, Pattern]
    next_id: int

    @classmethod
    def start(cls) -> Board:
        """The board with the start tile (a D) at (0, 0), rotation 0."""
        empty = cls({}, {}, {}, {(0, 0): NO_DEMAND}, 0)
        return empty.place(START_TILE, 0, 0, 0)

    # Queries -------------------------------------------------------------------------------

    def legal_placements(self, letter: str) -> list[tuple[int, int, int]]:
        """Every (x, y, rotation) where ``letter`` may be placed, in a stable order.

        >>> sorted(Board.start().legal_placements("C"))
        [(0, -1, 0), (0, -1, 90), (0, -1, 180), (0, -1, 270)]
        """
        fitting = FITTING_ROTATIONS[letter]
        return [
            (x, y, rotation)
            for (x, y), pattern in self.open_cells.items()
            for rotation in fitting[pattern]
        ]

    def legal_cells(self, letter: str) -> list[tuple[Cell, tuple[int, ...]]]:
        """Each open cell where ``letter`` fits, with the rotations that fit there."""
        fitting = FITTING_ROTATIONS[letter]
        return [
            (cell, fitting[pattern])
            for cell, pattern in self.open_cells.items()
            if fitting[pattern]
        ]

    def can_place(self, letter: str) -> bool:
        fitting = FITTING_ROTATIONS[letter]
        return any(fitting[pattern] for pattern in self.open_cells.values())

    def feature_at(self, segment: Segment) -> Feature:
        return self.features[self.feature_of[segment]]

    def is_complete(self, feature: Feature) -> bool:
        kind = feature.kind
        if kind is _MONASTERY:
            return self.monastery_neighbours(feature) == 8
        if kind is _FIELD:
            return False
        return feature.open_edges == 0

    def monastery_neighbours(self, feature: Feature) -> int:
        ((x, y),) = feature.tiles
        return sum((x + dx, y + dy) in self.tiles for dx, dy in _NEIGHBOURS_8)

    def completed_cities(self, field: Feature) -> list[Feature]:
        """The distinct completed cities a field borders."""
        ids = {self.feature_of[segment] for segment in field.cities}
        cities = [self.features[i] for i in sorted(ids)]
        return [city for city in cities if city.open_edges == 0]

    def features_with_followers(self) -> Iterator[Feature]:
        for feature_id in sorted(self.features):
            feature = self.features[feature_id]
            if feature.followers:
                yield feature

    def followers(self) -> list[Follower]:
        return [f for feature in self.features_with_followers() for f in feature.followers]

    def segment_named(self, x: int, y: int, kind: str, at: str | None) -> Segment:
        """The segment on the tile at (x, y) that a record names as ``kind`` at ``at``."""
        tile = self.tiles.get((x, y))
        if tile is None:
            raise IllegalCommand(f"there is no tile at ({x}, {y})", "no_tile", x=x, y=y)
        if kind == FeatureKind.MONASTERY:
            if tile.monastery is None:
                raise IllegalCommand(
                    f"the tile at ({x}, {y}) has no monastery", "no_monastery", x=x, y=y
                )
            return (x, y, tile.monastery)
        index = tile.feature_at.get(at or "")
        if index is None or tile.features[index].kind != kind:
            raise IllegalCommand(
                f"the tile at ({x}, {y}) has no {kind} at {at!r}",
                "no_feature",
                x=x,
                y=y,
                feature=str(kind),
                at=at,
            )
        return (x, y, index)

    def describe(self, segment: Segment) -> Place:
        """A segment named as records name it: x, y, feature and (except monasteries) at."""
        x, y, index = segment
        tile = self.tiles[(x, y)]
        described: Place = {
            "x": x,
            "y": y,
            "feature": tile.features[index].kind.value,
        }
        at = tile.location_name(index)
        if at is not None:
            described["at"] = at
        return described

    # Changes -------------------------------------------------------------------------------

    def place(self, letter: str, x: int, y: int, rotation: int) -> Board:
        """Place a tile; raise ``IllegalCommand`` if it does not fit there."""
        pattern = self.open_cells.get((x, y))
        if pattern is None:
            raise IllegalCommand(
                f"({x}, {y}) is not an empty cell next to the tiles on the board",
                "not_open_cell",
                x=x,
                y=y,
            )
        if rotation not in FITTING_ROTATIONS[letter][pattern]:
            raise IllegalCommand(
                f"tile {letter} turned {rotation} does not fit at ({x}, {y})",
                "does_not_fit",
                tile=letter,
                rotation=rotation,
                x=x,
                y=y,
            )
        return _Placement(self, ORIENTED[letter][rotation], x, y).run()

    def with_follower(self, seat: int, segment: Segment) -> Board:
        feature = self.feature_at(segment)
        if feature.followers:
            raise IllegalCommand("a follower already stands on that feature", "feature_occupied")
        features = _copy(self.features)
        followers = (*feature.followers, Follower(seat, segment))
        features[feature.id] = _replace_followers(feature, followers)
        return Board(self.tiles, self.feature_of, features, self.open_cells, self.next_id)

    def without_followers(self, feature_id: int, keep: tuple[Follower, ...] = ()) -> Board:
        features = _copy(self.features)
        features[feature_id] = _replace_followers(features[feature_id], keep)
        return Board(self.tiles, self.feature_of, features, self.open_cells, self.next_id)


_K = TypeVar("_K")
_V = TypeVar("_V")

if TYPE_CHECKING:

    def _copy(mapping: Mapping[_K, _V]) -> dict[_K, _V]:
        """A mutable copy of one of a board's mappings, which are always dictionaries."""

else:
    # ``dict.copy`` clones the table in one go even when entries were deleted from it (merged
    # features, filled cells), where ``dict(mapping)`` inserts the entries again one by one:
    # 1.6 million fewer instructions per game (docs/performance.md). Called directly, not
    # through a function of ours, which would cost a seventh of that back.
    _copy = dict.copy


def _replace_followers(feature: Feature, followers: tuple[Follower, ...]) -> Feature:
    return feature._replace(followers=followers)


class _Placement:
    """One tile placement, building the next board's mappings from copies of the current ones.

    The geometry it needs (new features, connections across each edge, demands on the
    neighbouring cells) is precomputed per tile and rotation in ``_GEOMETRY``.
    """

    def __init__(self, board: Board, tile: OrientedTile, x: int, y: int) -> None:
        self.board = board
        self.tile = tile
        self.x, self.y = x, y
        self.tiles = _copy(board.tiles)
        self.feature_of = _copy(board.feature_of)
        self.features = _copy(board.features)
        self.next_id = board.next_id

    def run(self) -> Board:
        x, y, tile = self.x, self.y, self.tile
        tiles, feature_of, features = self.tiles, self.feature_of, self.features
        tiles[(x, y)] = tile
        geometry = _GEOMETRY[tile.letter][tile.rotation]
        cell = (x, y)
        feature_id = self.next_id
        for index, kind, open_edges, coats, touches in geometry.new_features:
            segment = (x, y, index)
            feature_of[segment] = feature_id
            features[feature_id] = Feature(
                feature_id,
                kind,
                frozenset((segment,)),
                frozenset((cell,)),
                open_edges,
                coats,
                (),
                frozenset((x, y, city) for city in touches),
            )
            feature_id += 1
        self.next_id = feature_id
        for dx, dy, connections in geometry.links:
            neighbour = tiles.get((x + dx, y + dy))
            if neighbour is None:
                continue
            feature_at = neighbour.feature_at
            for own, location, closed_edges in connections:
                self._merge((x, y, own), (x + dx, y + dy, feature_at[location]), closed_edges)
        open_cells = _copy(self.board.open_cells)
        del open_cells[cell]
        for dx, dy, wanted in geometry.demands:
            around = (x + dx, y + dy)
            if around not in tiles:
                # Each side of a cell faces one tile, so its two bits are still 0 here.
                open_cells[around] = open_cells.get(around, NO_DEMAND) | wanted
        return Board(tiles, feature_of, features, open_cells, self.next_id)

    def _merge(self, ours: Segment, theirs: Segment, closed_edges: int) -> None:
        features, feature_of = self.features, self.feature_of
        a = features[feature_of[ours]]
        b = features[feature_of[theirs]]
        if a.id == b.id:
            if closed_edges:
                features[a.id] = a._replace(open_edges=a.open_edges - closed_edges)
            return
        keep, gone = (a, b) if len(a.segments) >= len(b.segments) else (b, a)
        keep_id = keep.id
        for segment in gone.segments:
            feature_of[segment] = keep_id
        del features[gone.id]
        features[keep_id] = Feature(
            keep_id,
            keep.kind,
            keep.segments | gone.segments,
            keep.tiles | gone.tiles,
            keep.open_edges + gone.open_edges - closed_edges,
            keep.coats + gone.coats,
            keep.followers + gone.followers,
            keep.cities | gone.cities,
        )


class _Geometry(NamedTuple):
    """What placing one tile in one rotation needs, computed once.

    ``new_features``: (index, kind, open edges, coats, indices of bordered cities) per feature;
    ``links``: per edge, the neighbour's offset and (own feature, the neighbour's location facing
    it, edges closed by joining); ``demands``: per edge, the neighbouring cell's offset and what
    this tile demands of it on the side that faces this tile, as a ``Pattern``.
    """

    new_features: tuple[tuple[int, FeatureKind, int, int, tuple[int, ...]], ...]
    links: tuple[tuple[int, int, tuple[tuple[int, str, int], ...]], ...]
    demands: tuple[tuple[int, int, Pattern], ...]


def _geometry(tile: OrientedTile) -> _Geometry:
    new_features = tuple(
        (
            index,
            feature.kind,
            len(feature.locations) if feature.kind in _EDGE_KINDS else 0,
            int(feature.coat_of_arms),
            feature.touches,
        )
        for index, feature in enumerate(tile.features)
    )
    links = []
    demands = []
    for edge, (dx, dy) in EDGE_OFFSETS.items():
        kind = tile.edge_kind(edge)
        connections: list[tuple[int, str, int]] = []
        if kind in ("F", "R"):
            for side in "LR":
                half = edge + side
                connections.append((tile.feature_at[half], facing_half_edge(half), 0))
        if kind != "F":
            connections.append((tile.feature_at[edge], OPPOSITE[edge], 2))
        links.append((dx, dy, tuple(connections)))
        demands.append((dx, dy, demand(EDGES.index(OPPOSITE[edge]), kind)))
    return _Geometry(new_features, tuple(links), tuple(demands))


_EDGE_KINDS = (FeatureKind.ROAD, FeatureKind.CITY)
_MONASTERY = FeatureKind.MONASTERY
_FIELD = FeatureKind.FIELD
_GEOMETRY: Final = {
    letter: {rotation: _geometry(oriented) for rotation, oriented in by_rotation.items()}
    for letter, by_rotation in ORIENTED.items()
}
