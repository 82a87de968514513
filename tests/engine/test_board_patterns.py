"""Open cells' demand patterns: numbers that say which edge kind each side of an empty cell
demands, and legal placements read from them (rules/base-game.md: a tile is placed edge to edge with
at least one placed tile, every touching edge matching)."""

from __future__ import annotations

import dataclasses
import random
from itertools import product

import pytest

from game.engine.agenda import AwaitPlacement
from game.engine.autoplay import random_command
from game.engine.board import Board
from game.engine.play import apply, new_game
from game.engine.state import GameState
from game.engine.tiles import (
    CITY_EDGE,
    DEMANDS,
    EDGE_OFFSETS,
    FIELD_EDGE,
    OPPOSITE,
    ORIENTED,
    ROAD_EDGE,
    ROTATIONS,
    demand,
    demands_of,
    pattern_of,
)
from game.store import checkpoints
from tests import checkpoints_before


def test_each_pattern_names_the_kinds_its_four_sides_demand() -> None:
    every = list(product(DEMANDS, repeat=4))
    patterns = {pattern_of(kinds) for kinds in every}
    assert patterns == set(range(256))
    for kinds in every:
        assert demands_of(pattern_of(kinds)) == kinds
    north_city, west_road = demand(0, CITY_EDGE), demand(3, ROAD_EDGE)
    assert demands_of(north_city | west_road) == (CITY_EDGE, None, None, ROAD_EDGE)


def _placements_by_edges(board: Board, letter: str) -> set[tuple[int, int, int]]:
    """Legal placements worked out from the neighbours' edges, without patterns."""
    empty_next_to_a_tile = {
        (x + dx, y + dy)
        for x, y in board.tiles
        for dx, dy in EDGE_OFFSETS.values()
        if (x + dx, y + dy) not in board.tiles
    }
    legal = set()
    for (x, y), rotation in product(empty_next_to_a_tile, ROTATIONS):
        edges = ORIENTED[letter][rotation].edges
        if all(
            (x + dx, y + dy) not in board.tiles
            or board.tiles[(x + dx, y + dy)].edge_kind(OPPOSITE[edge]) == kind
            for (edge, (dx, dy)), kind in zip(EDGE_OFFSETS.items(), edges, strict=True)
        ):
            legal.add((x, y, rotation))
    return legal


def _placement_decisions(seed: int) -> list[GameState]:
    """Every state of a random 2-player game that waits for a tile's placement."""
    rng = random.Random(seed)
    state, _ = new_game(["A", "B"], "c2-hig", seed=seed)
    waiting = []
    while not state.finished:
        if type(state.agenda[0]) is AwaitPlacement:
            waiting.append(state)
        seat, command = random_command(state, rng)
        state, _ = apply(state, seat, command)
    return waiting


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_legal_placements_are_the_rotations_matching_every_neighbouring_edge(seed: int) -> None:
    for state in _placement_decisions(seed):
        assert state.board is not None and state.tile is not None
        placements = state.board.legal_placements(state.tile)
        assert len(placements) == len(set(placements))
        assert set(placements) == _placements_by_edges(state.board, state.tile)


def test_a_checkpoint_written_when_demands_were_tuples_of_kinds_is_refused() -> None:
    """Checkpoints stored before patterns were numbers hold each open cell's demands as a tuple
    (N, E, S, W) of kinds, and no engine state version: they are refused before anything is
    unpickled (the server rebuilds such a table from its log, tests/store/test_checkpoints.py)."""
    state = _placement_decisions(4)[30]
    board = state.board
    assert board is not None
    as_tuples = {cell: demands_of(pattern) for cell, pattern in board.open_cells.items()}
    assert FIELD_EDGE in {kind for kinds in as_tuples.values() for kind in kinds}
    older = dataclasses.replace(board, open_cells=as_tuples)
    with pytest.raises(checkpoints.StaleCheckpoint, match="before checkpoints carried"):
        checkpoints.decode(checkpoints_before.encode(dataclasses.replace(state, board=older)))
