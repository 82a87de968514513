"""The easy player: greedy on the points a placement scores at once, a follower only where it
scores at once or on a monastery, city or road while it has several left, never a farmer; the
figure that lands on a dark space if one does; a message's first action if it pays at least the
2 points, else the 2 points. No look-ahead, no opponent model."""

from __future__ import annotations

import random

from game.engine import commands as cmd
from game.engine.board import Board, Segment
from game.engine.messengers import MESSAGE_POINTS
from game.engine.scoring import completed_value, majority_holders
from game.engine.seat_view import SeatView
from game.engine.tiles import FeatureKind

from .strong import follower_command

KEEP_IN_SUPPLY = 2
"""Below this many followers left, the easy player places one only where it scores at once."""
_PREFERRED = (FeatureKind.MONASTERY, FeatureKind.CITY, FeatureKind.ROAD)
_AROUND = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def _scored_now(board: Board, x: int, y: int, seat: int) -> int:
    """Points ``seat`` scores from features completed by the tile at (x, y)."""
    ids = {board.feature_of[(x, y, i)] for i in range(len(board.tiles[(x, y)].features))}
    for dx, dy in _AROUND:
        around = board.tiles.get((x + dx, y + dy))
        if around is not None and around.monastery is not None:
            ids.add(board.feature_of[(x + dx, y + dy, around.monastery)])
    points = 0
    for fid in ids:
        feature = board.features[fid]
        if feature.kind is FeatureKind.FIELD or not board.is_complete(feature):
            continue
        if feature.followers and seat in majority_holders(feature):
            points += completed_value(board, feature)
    return points


def _claimable(board: Board, x: int, y: int) -> list[tuple[int, Segment]]:
    """(points if claimed now, segment) for free completed features on the tile at (x, y)."""
    found = []
    for index in range(len(board.tiles[(x, y)].features)):
        feature = board.feature_at((x, y, index))
        if not feature.followers and board.is_complete(feature):
            found.append((completed_value(board, feature), (x, y, index)))
    return found


def place_tile(seen: SeatView, rng: random.Random) -> cmd.Command:
    state = seen.state
    waiting = seen.pending
    assert state.board is not None and state.tile is not None
    assert waiting is not None and waiting["type"] == "place_tile"
    has_follower = state.players[seen.seat].followers > 0
    best = -1
    choices: list[tuple[int, int, int]] = []
    for spot in waiting["placements"]:
        x, y = spot["x"], spot["y"]
        for rotation in spot["rotations"]:
            board = state.board.place(state.tile, x, y, rotation)
            points = _scored_now(board, x, y, seen.seat)
            if has_follower:
                points += max((p for p, _ in _claimable(board, x, y)), default=0)
            if points > best:
                best, choices = points, []
            if points == best:
                choices.append((x, y, rotation))
    x, y, rotation = rng.choice(choices)
    return cmd.PlaceTile(x, y, rotation)


def place_follower(seen: SeatView, rng: random.Random) -> cmd.Command:
    state = seen.state
    assert state.board is not None and state.last_placed is not None
    if state.players[seen.seat].followers == 0:
        return cmd.SkipFollower()
    board = state.board
    x, y = state.last_placed
    claim = _claimable(board, x, y)
    if claim:
        return follower_command(board, max(claim)[1])
    if state.players[seen.seat].followers < KEEP_IN_SUPPLY:
        return cmd.SkipFollower()
    for kind in _PREFERRED:
        free = [
            (x, y, index)
            for index, feature in enumerate(board.tiles[(x, y)].features)
            if feature.kind is kind and not board.feature_at((x, y, index)).followers
        ]
        if free:
            return follower_command(board, rng.choice(free))
    return cmd.SkipFollower()


def choose_figure(seen: SeatView, rng: random.Random) -> cmd.Command:
    waiting = seen.pending
    assert waiting is not None and waiting["type"] == "choose_figure"
    options = waiting["options"]
    dark = [option for option in options if option["dark"]]
    return cmd.ChooseFigure((dark or options)[0]["figure"])


def resolve_message(seen: SeatView, rng: random.Random) -> cmd.Command:
    waiting = seen.pending
    assert waiting is not None and waiting["type"] == "resolve_message"
    for choice in waiting["choices"]:
        if choice["choice"] != "action" or choice.get("entered_at_table"):
            continue
        if (choice["points"] or 0) < MESSAGE_POINTS:
            break
        if "x" in choice:
            where = (choice["x"], choice["y"], choice["feature"], choice.get("at"))
            return cmd.ResolveMessage("action", *where)
        return cmd.ResolveMessage("action")
    return cmd.ResolveMessage("points")
