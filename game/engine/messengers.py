"""The Messengers: the two figures, dark spaces, when a round of scoring earns a message, and what
each message's action is worth on the current board (rules/messengers.md §1, §3, §4).

Everything here is a pure function of values; the turn runner (``runner.py``) calls it at the
right moments.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Protocol

from .board import Board, Segment
from .presets import MessageSet, Options, ScoreAndReturn, Trigger
from .scoring import final_value, holds_majority
from .tiles import FeatureKind

SCOREBOARD_SPACES: Final = 50
DARK_EVERY: Final = 5
MESSAGE_POINTS: Final = 2
"""What "take 2 points" pays, and the least any message is worth."""
POINTS_PER_COAT_OF_ARMS: Final = 2
POINTS_PER_KNIGHT: Final = 2
POINTS_PER_FARMER: Final = 2


class Figure(StrEnum):
    """A player's two scoring figures."""

    MEEPLE = "meeple"
    MESSENGER = "messenger"


class MessageAction(StrEnum):
    """What a message tile tells its drawer to do (the names used in events)."""

    SMALLEST_ROAD = "smallest_road"
    SMALLEST_CITY = "smallest_city"
    SMALLEST_MONASTERY = "smallest_monastery"
    COATS_OF_ARMS = "coats_of_arms"
    KNIGHTS = "knights"
    FARMERS = "farmers"
    EXTRA_TILE = "extra_tile"
    SCORE_AND_RETURN = "score_and_return"


_A = MessageAction
MESSAGE_SETS: Final[dict[MessageSet, dict[int, MessageAction]]] = {
    MessageSet.C1: {
        1: _A.SMALLEST_ROAD,
        2: _A.SMALLEST_CITY,
        3: _A.SMALLEST_MONASTERY,
        4: _A.COATS_OF_ARMS,
        5: _A.KNIGHTS,
        6: _A.FARMERS,
        7: _A.EXTRA_TILE,
        8: _A.SCORE_AND_RETURN,
    },
    MessageSet.C2: {
        1: _A.SMALLEST_ROAD,
        2: _A.SMALLEST_CITY,
        3: _A.SMALLEST_MONASTERY,
        4: _A.EXTRA_TILE,
        5: _A.COATS_OF_ARMS,
        6: _A.KNIGHTS,
        7: _A.FARMERS,
        8: _A.SCORE_AND_RETURN,
    },
    MessageSet.C3: {
        1: _A.SMALLEST_CITY,
        2: _A.SMALLEST_ROAD,
        3: _A.SMALLEST_MONASTERY,
        4: _A.EXTRA_TILE,
        5: _A.COATS_OF_ARMS,
        6: _A.KNIGHTS,
        7: _A.FARMERS,
        8: _A.SCORE_AND_RETURN,
    },
}


def space(points: int) -> int:
    """The scoreboard space of a figure carrying ``points`` (the track has 50 spaces and wraps).

    >>> space(4), space(50), space(63)
    (4, 0, 13)
    """
    return points % SCOREBOARD_SPACES


def is_dark(points: int) -> bool:
    """Whether a figure carrying ``points`` stands on a dark space (0, 5, 10, ... 45).

    >>> is_dark(45), is_dark(50), is_dark(52)
    (True, True, False)
    """
    return space(points) % DARK_EVERY == 0


@dataclass(frozen=True, slots=True)
class Movement:
    """One move of one figure during a round of scoring."""

    seat: int
    figure: Figure
    start: int
    points: int


def landings(movements: Sequence[Movement], any_order: bool) -> set[int]:
    """The point totals one figure may have stopped on during a round.

    ``movements`` are that figure's moves in the order they were made. With ``any_order`` (board
    mode, where the player chooses the order of scoring features) every non-empty subset of the
    moves may come first; otherwise (tabletop) only the prefixes in the given order count.

    >>> moves = [Movement(0, Figure.MEEPLE, 3, 4), Movement(0, Figure.MEEPLE, 7, 2)]
    >>> sorted(landings(moves, any_order=True)), sorted(landings(moves, any_order=False))
    ([5, 7, 9], [7, 9])
    """
    if not movements:
        return set()
    start = movements[0].start
    if not any_order:
        totals, total = set(), start
        for move in movements:
            total += move.points
            totals.add(total)
        return totals
    sums: set[int] = set()
    for move in movements:
        sums |= {s + move.points for s in sums} | {move.points}
    return {start + s for s in sums}


def qualifying_figures(
    options: Options,
    seat: int,
    movements: Iterable[Movement],
    final_points: dict[Figure, int],
    others_spaces: set[int],
    any_order: bool,
) -> int:
    """How many of ``seat``'s figures earned a message in a round that has just ended.

    ``final_points``: what each of the seat's figures carries now; ``others_spaces``: the spaces
    where other players' figures stand now (the alone rule judges the landing against them as the
    round ends).
    """
    count = 0
    for figure in Figure:
        moves = [m for m in movements if m.seat == seat and m.figure is figure]
        if not moves:
            continue
        if options.trigger is Trigger.END_OF_ROUND:
            stops = {final_points[figure]}
        else:
            stops = landings(moves, any_order)
        if any(
            is_dark(total) and not (options.alone_rule and space(total) in others_spaces)
            for total in stops
        ):
            count += 1
    return count


class Standing(Protocol):
    """A seat's two figures as the round's end judges them (``PlayerState`` is one)."""

    def points_on(self, figure: Figure, /) -> int: ...


def round_messages(
    options: Options,
    active: int,
    movements: Sequence[Movement],
    standings: Sequence[Standing],
    any_order: bool,
) -> int:
    """How many messages a round of scoring earns the active seat as it ends (rules/messengers.md §3
    ``trigger``, ``alone_rule``, ``messages_per_round``; only the active player draws).

    The one judgement of a round: the runner applies it when the round ends, and the figure
    outlook (``outlook.py``) applies it to a round that has not ended yet, with or without the
    points a seat is about to place, so that a promise and the outcome cannot disagree.
    """
    if not any(m.seat == active for m in movements):
        return 0
    others = {
        space(standing.points_on(figure))
        for seat, standing in enumerate(standings)
        if seat != active
        for figure in Figure
    }
    own = standings[active]
    earned = qualifying_figures(
        options,
        active,
        movements,
        {figure: own.points_on(figure) for figure in Figure},
        others,
        any_order,
    )
    return min(earned, options.messages_per_round)


def cap_reached(options: Options, messages_this_turn: int) -> bool:
    """Whether the edition's cap on messages per turn (``messages_per_turn``) forbids another."""
    cap = options.messages_per_turn
    return cap is not None and messages_this_turn >= cap


# Message actions on the board --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionOffer:
    """What carrying out a message's action would do now.

    ``feature``: the feature scored (smallest road, city or monastery), shown to every seat.
    """

    points: int
    feature: Segment | None = None


@dataclass(frozen=True, slots=True)
class ReturnTarget:
    """A follower that message 8 may score and return, with the points it gives if scored.

    ``score_optional``: the edition lets the player return it without scoring.
    """

    segment: Segment
    points: int
    score_optional: bool


_SMALLEST: Final = {
    _A.SMALLEST_ROAD: FeatureKind.ROAD,
    _A.SMALLEST_CITY: FeatureKind.CITY,
    _A.SMALLEST_MONASTERY: FeatureKind.MONASTERY,
}


def action_offer(
    board: Board, seat: int, action: MessageAction, tiles_left: bool
) -> ActionOffer | None:
    """The outcome of a message's action for ``seat``, or None where it is not offered.

    Score-and-return is offered per follower (``return_targets``); "one more tile" only while
    land tiles remain.
    """
    if action in _SMALLEST:
        kind = _SMALLEST[action]
        candidates = [
            feature
            for feature in board.features_with_followers()
            if feature.kind is kind and any(f.seat == seat for f in feature.followers)
        ]
        if not candidates:
            return None
        smallest = min(
            candidates, key=lambda feature: (final_value(board, feature), min(feature.segments))
        )
        return ActionOffer(final_value(board, smallest), min(smallest.segments))
    if action is _A.COATS_OF_ARMS:
        points = POINTS_PER_COAT_OF_ARMS * sum(
            feature.coats
            for feature in board.features_with_followers()
            if feature.kind is FeatureKind.CITY and any(f.seat == seat for f in feature.followers)
        )
        return ActionOffer(points) if points else None
    if action in (_A.KNIGHTS, _A.FARMERS):
        kind = FeatureKind.CITY if action is _A.KNIGHTS else FeatureKind.FIELD
        per = POINTS_PER_KNIGHT if action is _A.KNIGHTS else POINTS_PER_FARMER
        points = per * sum(
            1
            for feature in board.features_with_followers()
            if feature.kind is kind
            for follower in feature.followers
            if follower.seat == seat
        )
        return ActionOffer(points) if points else None
    if action is _A.EXTRA_TILE:
        return ActionOffer(0) if tiles_left else None
    if action is _A.SCORE_AND_RETURN:
        return None
    raise ValueError(action)


def return_targets(board: Board, seat: int, variant: ScoreAndReturn) -> list[ReturnTarget]:
    """The followers message 8 may pick, per the edition's reading (rules/messengers.md §4)."""
    targets = []
    for feature in sorted(board.features_with_followers(), key=lambda f: min(f.segments)):
        majority = holds_majority(feature, seat)
        value = final_value(board, feature)
        for follower in sorted(feature.followers, key=lambda f: f.segment):
            if follower.seat != seat:
                continue
            if variant is ScoreAndReturn.MAJORITY_ONLY:
                if majority:
                    targets.append(ReturnTarget(follower.segment, value, False))
            elif variant is ScoreAndReturn.ANY_MEEPLE_SCORE_IF_MAJORITY:
                targets.append(ReturnTarget(follower.segment, value if majority else 0, False))
            elif variant is ScoreAndReturn.ANY_MEEPLE_SCORE_ALWAYS:
                targets.append(ReturnTarget(follower.segment, value, True))
            else:
                targets.append(ReturnTarget(follower.segment, value if majority else 0, majority))
    return targets
