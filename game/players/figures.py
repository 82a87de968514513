"""The Messengers' figure race: which figure should take points, and whether points would earn
a message, judged by the engine's own rule (``messengers.qualifying_figures``) with the table's
options: the trigger, the alone rule, one figure per turn, the message caps and the chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Final

from game.engine.agenda import Award, EndRound, ScoreFeature
from game.engine.messengers import (
    DARK_EVERY,
    MESSAGE_POINTS,
    Figure,
    MessageAction,
    Movement,
    action_offer,
    qualifying_figures,
    return_targets,
    space,
)
from game.engine.presets import FigureChoice
from game.engine.scoring import completed_value, majority_holders
from game.engine.state import GameState

MAX_AWARDS: Final = 5
"""Awards searched jointly when assigning figures (2**5 assignments at most)."""
EXTRA_TILE_VALUE: Final = 5.0
"""What one more tile (or turn) is worth: about what a placement gains in a game."""
_FIGURES: Final = tuple(Figure)


def may_draw(state: GameState, seat: int, round_open: bool | None = None) -> bool:
    """Whether ``seat`` could draw a message from the round under way (or, with ``round_open``
    given, from a new round that may or may not draw): only the active seat draws, and only
    below the edition's cap on messages per turn."""
    if seat != state.active:
        return False
    can = state.round_can_draw if round_open is None else round_open
    cap = state.options.messages_per_turn
    return can and (cap is None or state.messages_this_turn < cap)


def assignments(state: GameState, seat: int, count: int) -> list[tuple[Figure, ...]]:
    """The ways ``seat`` may put ``count`` awards on figures: any mix per scoring, or one figure
    for the whole turn (the one already fixed, if any) under ``per_turn``."""
    player = state.players[seat]
    if player.carrier is not None:
        return [(player.carrier,) * count]
    if state.options.figure_choice is FigureChoice.PER_TURN:
        fixed = state.turn_figures.get(seat)
        figures = (fixed,) if fixed is not None else _FIGURES
        return [(figure,) * count for figure in figures]
    return list(product(_FIGURES, repeat=count))


def earns_message(
    state: GameState,
    seat: int,
    awards: Sequence[int],
    plan: Sequence[Figure],
    movements: Sequence[Movement] = (),
) -> bool:
    """Whether ``awards`` put on figures as ``plan`` says would earn ``seat`` a message when the
    round ends, given the round's earlier ``movements``."""
    player = state.players[seat]
    points = {figure: player.points_on(figure) for figure in _FIGURES}
    moves = [m for m in movements if m.seat == seat]
    for amount, figure in zip(awards, plan, strict=True):
        if amount <= 0:
            continue
        moves.append(Movement(seat, figure, points[figure], amount))
        points[figure] += amount
    if not moves:
        return False
    others = {
        space(other.points_on(figure))
        for index, other in enumerate(state.players)
        if index != seat
        for figure in _FIGURES
    }
    return qualifying_figures(state.options, seat, moves, points, others, any_order=True) > 0


def can_earn(
    state: GameState, seat: int, awards: Sequence[int], round_open: bool | None = None
) -> bool:
    """Whether some legal way of taking ``awards`` earns ``seat`` a message."""
    awards = [a for a in awards if a > 0][:MAX_AWARDS]
    if not awards or not may_draw(state, seat, round_open):
        return False
    movements = (state.movements or ()) if round_open is None else ()
    return any(
        earns_message(state, seat, awards, plan, movements)
        for plan in assignments(state, seat, len(awards))
    )


def coming_awards(state: GameState, seat: int) -> list[int]:
    """``seat``'s points still to come in this round after the award at the head of the agenda:
    awards already queued and completed features not yet scored (public: they are on the
    board)."""
    board = state.board
    coming = []
    for step in state.agenda[1:]:
        if isinstance(step, EndRound):
            break
        if isinstance(step, Award) and step.seat == seat and step.figure is None:
            coming.append(step.points)
        elif isinstance(step, ScoreFeature) and board is not None:
            feature = board.features.get(step.feature_id)
            if feature is not None and seat in majority_holders(feature):
                coming.append(completed_value(board, feature))
    return coming


def best_figure(state: GameState, seat: int, points: int) -> Figure:
    """The figure for an award of ``points`` now: one that lets the round earn a message if any
    does; otherwise, under the alone rule during another player's turn, one that ends on a dark
    space (where it blocks the active player's landing); otherwise one that leaves the two
    figures on different spaces modulo 5 (so that more future amounts land on a dark space);
    else the meeple."""
    awards = [points, *coming_awards(state, seat)][:MAX_AWARDS]
    plans = assignments(state, seat, len(awards))
    drawing = may_draw(state, seat)
    movements = state.movements or ()
    blocking = state.options.alone_rule and seat != state.active
    best: tuple[int, int, int, int] | None = None
    choice = plans[0][0]
    player = state.players[seat]
    for plan in plans:
        earns = drawing and earns_message(state, seat, awards, plan, movements)
        totals = {figure: player.points_on(figure) for figure in _FIGURES}
        for amount, figure in zip(awards, plan, strict=True):
            totals[figure] += amount
        residues = {total % DARK_EVERY for total in totals.values()}
        blocks = blocking and any(
            totals[figure] % DARK_EVERY == 0 and totals[figure] != player.points_on(figure)
            for figure in _FIGURES
        )
        score = (int(earns), int(blocks), len(residues), int(plan[0] is Figure.MEEPLE))
        if best is None or score > best:
            best, choice = score, plan[0]
    return choice


def message_value(state: GameState, seat: int) -> float:
    """What drawing a message is worth to ``seat`` now: the mean, over the eight actions, of the
    better of the action and the 2 points (every message is in the stack's multiset)."""
    board = state.board
    if board is None:
        return float(MESSAGE_POINTS)
    total = 0.0
    for action in MessageAction:
        best: float
        if action is MessageAction.SCORE_AND_RETURN:
            targets = return_targets(board, seat, state.options.score_and_return)
            best = max((t.points for t in targets), default=0)
        elif action is MessageAction.EXTRA_TILE:
            best = EXTRA_TILE_VALUE if state.bag else 0.0
        else:
            offer = action_offer(board, seat, action, bool(state.bag))
            best = 0 if offer is None else offer.points
        total += max(MESSAGE_POINTS, best)
    return total / len(MessageAction)
