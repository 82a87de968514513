"""The strong player: every placement, rotation and follower spot evaluated with the engine's
own board (``Board.place``, completion, majorities), one ply deep, by ``evaluate.Estimator``;
the Messengers' figure race by ``figures``; messages by the value of each way to resolve them.
"""

from __future__ import annotations

import random
from typing import Any

from game.engine import commands as cmd
from game.engine.board import Board, Feature, Segment
from game.engine.messengers import MESSAGE_POINTS, Figure
from game.engine.presets import ExtraTile
from game.engine.scoring import completed_value, majority_holders
from game.engine.seat_view import SeatView
from game.engine.state import GameState
from game.engine.tiles import FeatureKind

from .evaluate import Estimator, objective
from .figures import EXTRA_TILE_VALUE, best_figure, can_earn, message_value

EXTRA_TILE_MESSAGE_SHARE = 0.2
"""The part of a message's worth counted for an extra tile placed at once (``immediate``): its
scoring is a new round that may earn one."""
_AROUND = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


class _Position:
    """The current board's values, from which each candidate's value is worked out by changing
    only the features the candidate touches."""

    def __init__(self, state: GameState, seat: int) -> None:
        assert state.board is not None
        self.state = state
        self.seat = seat
        self.board: Board = state.board
        self.estimator = Estimator(state.bag, len(state.players))
        self.features = {f.id: f for f in self.board.features_with_followers()}
        self.values = {
            fid: self.estimator.contribution(self.board, f) for fid, f in self.features.items()
        }
        self.fields = [fid for fid, f in self.features.items() if f.kind is FeatureKind.FIELD]
        self.totals = [
            player.score + self.estimator.follower_value * player.followers
            for player in state.players
        ]
        for values in self.values.values():
            for index, value in enumerate(values):
                self.totals[index] += value
        self.message = message_value(state, seat)

    def touched(self, board: Board, x: int, y: int) -> set[int]:
        """Ids of features (on ``board`` or the current one) whose value a tile at (x, y) may
        have changed."""
        ids = {fid for fid, f in self.features.items() if board.features.get(fid) is not f}
        ids.update(self.fields)
        tile = board.tiles[(x, y)]
        for index in range(len(tile.features)):
            ids.add(board.feature_of[(x, y, index)])
        for dx, dy in _AROUND:
            around = board.tiles.get((x + dx, y + dy))
            if around is not None and around.monastery is not None:
                ids.add(board.feature_of[(x + dx, y + dy, around.monastery)])
        fields = (f.id for f in board.features_with_followers() if f.kind is FeatureKind.FIELD)
        ids.update(fields)
        return ids

    def candidate(self, board: Board, x: int, y: int) -> tuple[list[float], list[int]]:
        """Each seat's value after a tile at (x, y) gives ``board``, and the points the seat
        scores at once (one entry per completed feature it holds)."""
        totals = list(self.totals)
        awards: list[int] = []
        estimator = self.estimator
        for fid in self.touched(board, x, y):
            old = self.values.get(fid)
            if old is not None:
                for index, value in enumerate(old):
                    totals[index] -= value
            feature = board.features.get(fid)
            if feature is None or not feature.followers:
                continue
            for index, value in enumerate(estimator.contribution(board, feature)):
                totals[index] += value
            if self.seat in majority_holders(feature) and board.is_complete(feature):
                awards.append(completed_value(board, feature))
        return totals, awards

    def with_follower(
        self, board: Board, segment: Segment, totals: list[float], awards: list[int]
    ) -> tuple[list[float], list[int]]:
        """Values after also placing a follower of the seat on ``segment`` (a feature that had
        none, so it added nothing before)."""
        after = board.with_follower(self.seat, segment)
        feature: Feature = after.feature_at(segment)
        totals = list(totals)
        totals[self.seat] -= self.estimator.follower_value
        for index, value in enumerate(self.estimator.contribution(after, feature)):
            totals[index] += value
        if after.is_complete(feature):
            awards = [*awards, completed_value(after, feature)]
        return totals, awards

    def score(self, totals: list[float], awards: list[int]) -> float:
        value = objective(totals, self.seat)
        if awards and can_earn(self.state, self.seat, awards):
            value += self.message
        return value

    def options(self, board: Board, x: int, y: int) -> list[tuple[float, Segment | None]]:
        """(value, follower segment or None) for every follower choice on the tile at (x, y)."""
        totals, awards = self.candidate(board, x, y)
        results: list[tuple[float, Segment | None]] = [(self.score(totals, awards), None)]
        if self.state.players[self.seat].followers == 0:
            return results
        tile = board.tiles[(x, y)]
        for index in range(len(tile.features)):
            segment = (x, y, index)
            if board.feature_at(segment).followers:
                continue
            placed = self.with_follower(board, segment, totals, awards)
            results.append((self.score(*placed), segment))
        return results


def _pick(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    """The best choice; ties broken by ``rng`` (seeded by the caller, so reproducible)."""
    best = max(value for value, _ in scored)
    tied = [choice for value, choice in scored if value >= best - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def place_tile(seen: SeatView, rng: random.Random) -> cmd.Command:
    state = seen.state
    waiting = seen.pending
    assert state.board is not None and state.tile is not None
    assert waiting is not None and waiting["type"] == "place_tile"
    position = _Position(state, seen.seat)
    scored: list[tuple[float, tuple[int, int, int]]] = []
    for spot in waiting["placements"]:
        x, y = spot["x"], spot["y"]
        for rotation in spot["rotations"]:
            board = state.board.place(state.tile, x, y, rotation)
            best = max(value for value, _ in position.options(board, x, y))
            scored.append((best, (x, y, rotation)))
    x, y, rotation = _pick(scored, rng)
    return cmd.PlaceTile(x, y, rotation)


def place_follower(seen: SeatView, rng: random.Random) -> cmd.Command:
    state = seen.state
    assert state.board is not None and state.last_placed is not None
    x, y = state.last_placed
    position = _Position(state, seen.seat)
    segment = _pick(position.options(state.board, x, y), rng)
    if segment is None:
        return cmd.SkipFollower()
    return follower_command(state.board, segment)


def follower_command(board: Board, segment: Segment) -> cmd.PlaceFollower:
    """The command that places a follower on ``segment`` of the tile just placed."""
    x, y, index = segment
    tile = board.tiles[(x, y)]
    return cmd.PlaceFollower(tile.features[index].kind.value, tile.location_name(index))


def choose_figure(seen: SeatView, rng: random.Random) -> cmd.Command:
    waiting = seen.pending
    assert waiting is not None and waiting["type"] == "choose_figure"
    if waiting.get("final"):
        return cmd.ChooseFigure(Figure.MEEPLE.value)
    figure = best_figure(seen.state, seen.seat, waiting["points"])
    return cmd.ChooseFigure(figure.value)


def resolve_message(seen: SeatView, rng: random.Random) -> cmd.Command:
    """Each way to resolve is valued as the position it leaves (points on the track, a follower
    back in supply, the feature it leaves) plus the chance its points earn a chained message."""
    state, seat, waiting = seen.state, seen.seat, seen.pending
    assert waiting is not None and waiting["type"] == "resolve_message"
    if state.board is None:
        return cmd.ResolveMessage("points")
    position = _Position(state, seat)
    chain = state.options.chain
    scored: list[tuple[float, cmd.Command]] = []
    for choice in waiting["choices"]:
        totals = list(position.totals)
        if choice["choice"] == "points":
            totals[seat] += MESSAGE_POINTS
            points = MESSAGE_POINTS
            command = cmd.ResolveMessage("points")
        elif "x" in choice:
            points = choice["points"]
            totals[seat] += points
            board = state.board
            segment = board.segment_named(
                choice["x"], choice["y"], choice["feature"], choice.get("at")
            )
            feature = board.feature_at(segment)
            keep = tuple(f for f in feature.followers if f.segment != segment)
            after = board.without_followers(feature.id, keep)
            for index, value in enumerate(position.values[feature.id]):
                totals[index] -= value
            if keep:
                for index, value in enumerate(
                    position.estimator.contribution(after, after.features[feature.id])
                ):
                    totals[index] += value
            totals[seat] += position.estimator.follower_value
            command = cmd.ResolveMessage(
                "action", choice["x"], choice["y"], choice["feature"], choice.get("at")
            )
        elif waiting["action"] == "extra_tile":
            points = 0
            totals[seat] += EXTRA_TILE_VALUE
            if state.options.extra_tile is ExtraTile.IMMEDIATE:
                totals[seat] += position.message * EXTRA_TILE_MESSAGE_SHARE
            command = cmd.ResolveMessage("action")
        else:
            points = choice["points"] or 0  # None only at a tabletop game (entered there)
            totals[seat] += points
            command = cmd.ResolveMessage("action")
        value = objective(totals, seat)
        if points and can_earn(state, seat, [points], round_open=chain):
            value += position.message
        scored.append((value, command))
    return _pick(scored, rng)
