"""Where a figure would land with some points, and whether that would draw a message.

A player choosing a figure (board mode) or entering points (tabletop) wants to know what the
move does before making it. The answer must be the engine's own: this module judges the round
with ``messengers.round_messages`` and ``messengers.cap_reached``, the functions the runner
applies when the round ends, once as the round stands and once with the points added. A choice
draws a message when it raises what the round earns; when it lands on a dark space and does not,
``why_not`` says which rule stops it (rules/messengers.md §1, §3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from .agenda import (
    AwaitPlacement,
    AwaitScores,
    Award,
    DrawExtraTile,
    EndRound,
    ScoreFeature,
    ScorePlacement,
    Step,
)
from .events import Blocker, FigureOption, WhyNot
from .messengers import (
    SCOREBOARD_SPACES,
    Figure,
    Movement,
    Standing,
    cap_reached,
    is_dark,
    round_messages,
    space,
)
from .presets import Trigger
from .state import GameState, Mode

_MOVERS: Final = (Award, ScoreFeature, ScorePlacement, AwaitScores, AwaitPlacement, DrawExtraTile)
"""Steps that may still move figures before the round ends."""


class _Moved(NamedTuple):
    """A seat's figures with the previewed points added (a ``Standing``)."""

    meeple: int
    messenger: int

    def points_on(self, figure: Figure, /) -> int:
        return self.meeple if figure is Figure.MEEPLE else self.messenger


def figure_outlooks(
    state: GameState, seat: int, points: int, merge: bool = False
) -> list[FigureOption]:
    """Each of ``seat``'s figures, as if ``points`` went on it now (``merge``: as if it took
    the seat's whole score at the end of the game)."""
    return [figure_outlook(state, seat, figure, points, merge) for figure in Figure]


def figure_outlook(
    state: GameState,
    seat: int,
    figure: Figure,
    points: int,
    merge: bool = False,
    *,
    before: int | None = None,
    more_to_come: bool | None = None,
) -> FigureOption:
    """Where ``figure`` of ``seat`` lands with ``points`` and whether that draws a message.

    ``draws_message``: the round, ended right after this move, would draw more messages than
    without it. ``maybe``: that can still change, because the round may move figures again
    before it ends and the edition judges the figure where it stands then (``end_of_round``) or
    against where the others stand then (``alone_rule``). ``before`` and ``more_to_come`` may
    be passed when several figures are judged against the same state.
    """
    player = state.players[seat]
    start = player.points_on(figure)
    total = player.score if merge else start + points
    dark = is_dark(total)
    options = state.options
    draws = maybe = False
    why: WhyNot | None
    if merge or state.movements is None:
        why = "final"
    elif seat != state.active:
        why = "not_active"
    elif not state.round_can_draw:
        why = "chain_off"
    elif cap_reached(options, state.messages_this_turn):
        why = "cap"
    elif not dark and not _may_stop_on_the_way(state, seat, figure):
        # A landing that is not dark adds no stop on a dark space (the round's judgement, in
        # short: this is most choices, and ``pending`` runs at every decision).
        why = None
    else:
        if before is None:
            before = _earned_now(state)
        moved = (*state.movements, Movement(seat, figure, start, total - start))
        standings: list[Standing] = list(state.players)
        standings[seat] = _Moved(
            total if figure is Figure.MEEPLE else player.meeple,
            total if figure is Figure.MESSENGER else player.messenger,
        )
        any_order = state.mode is Mode.BOARD
        draws = round_messages(options, seat, moved, standings, any_order) > before
        why = None
        if draws:
            if more_to_come is None:
                more_to_come = _more_points_this_round(state)
            maybe = more_to_come and (options.trigger is Trigger.END_OF_ROUND or options.alone_rule)
        elif options.alone_rule and space(total) in _others_spaces(state.players, seat):
            why = "alone_rule"
        else:
            why = "already_earned"
    if draws or not dark:
        why = None
    blocker = _blocker(state, seat, total) if why == "alone_rule" else None
    option: FigureOption = {
        "figure": figure.value,
        "from": space(start),
        "to": space(total),
        "total": total,
        "laps": total // SCOREBOARD_SPACES - start // SCOREBOARD_SPACES,
        "dark": dark,
        "draws_message": draws,
        "maybe": maybe,
        "why_not": why,
        "blocker": blocker,
    }
    return option


def _may_stop_on_the_way(state: GameState, seat: int, figure: Figure) -> bool:
    """Whether points that do not end on a dark space may still stop the figure on one: only
    in board mode under ``on_landing``, where the round's scorings count in any order, and only
    if the figure has already moved in this round (``messengers.landings``)."""
    if state.mode is not Mode.BOARD or state.options.trigger is not Trigger.ON_LANDING:
        return False
    movements = state.movements or ()
    return any(move.seat == seat and move.figure is figure for move in movements)


def earned_now(state: GameState) -> int:
    """How many messages the round under way would draw if it ended now (0 outside a round,
    in a round that may draw none, or once the turn's cap is reached)."""
    if state.movements is None or not state.round_can_draw:
        return 0
    if cap_reached(state.options, state.messages_this_turn):
        return 0
    return _earned_now(state)


def _earned_now(state: GameState) -> int:
    if state.movements is None:
        return 0
    any_order = state.mode is Mode.BOARD
    return round_messages(state.options, state.active, state.movements, state.players, any_order)


def _more_points_this_round(state: GameState) -> bool:
    """Whether figures may still move in this round after the decision at the head of the
    agenda (an award being decided is that decision; an entry form is open to more)."""
    agenda: Sequence[Step] = state.agenda
    for index, step in enumerate(agenda):
        if isinstance(step, EndRound):
            return False
        if isinstance(step, _MOVERS) and not (index == 0 and isinstance(step, Award)):
            return True
    return False


def _others_spaces(players: Sequence[Standing], seat: int) -> set[int]:
    return {
        space(other.points_on(figure))
        for other_seat, other in enumerate(players)
        if other_seat != seat
        for figure in Figure
    }


def _blocker(state: GameState, seat: int, total: int) -> Blocker | None:
    """The first other player's figure on the space ``total`` lands on."""
    for other_seat, other in enumerate(state.players):
        if other_seat == seat:
            continue
        for figure in Figure:
            if space(other.points_on(figure)) == space(total):
                return {"seat": other_seat, "figure": figure.value}
    return None
