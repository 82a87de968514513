"""The steps of a turn's agenda (see ``state.py``): what happens next, in order.

A step either runs by itself (drawing a tile, scoring a feature, ending a round) or waits for a
seat's decision (``runner.STEP_RULES`` says which). Steps are small immutable values so that the
agenda can be part of the immutable game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import Segment
from .messengers import Figure


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the turn's agenda."""


@dataclass(frozen=True, slots=True)
class StartTurn(Step):
    """``extra``: an extra turn of the seat that just played (a message's action)."""

    seat: int
    extra: bool = False


@dataclass(frozen=True, slots=True)
class OpenRound(Step):
    """A round of scoring begins; ``can_draw``: whether it may earn a message."""

    can_draw: bool


@dataclass(frozen=True, slots=True)
class EndRound(Step):
    pass


@dataclass(frozen=True, slots=True)
class AwaitPlacement(Step):
    pass


@dataclass(frozen=True, slots=True)
class AwaitFollower(Step):
    pass


@dataclass(frozen=True, slots=True)
class ScorePlacement(Step):
    pass


@dataclass(frozen=True, slots=True)
class ScoreFeature(Step):
    feature_id: int


@dataclass(frozen=True, slots=True)
class Award(Step):
    """``seat`` scores ``points``; a figure must take them (asked of the seat when needed)."""

    seat: int
    points: int
    reason: str
    figure: Figure | None = None
    details: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class ReturnFollowers(Step):
    feature_id: int


@dataclass(frozen=True, slots=True)
class ReturnFollower(Step):
    segment: Segment


@dataclass(frozen=True, slots=True)
class DrawMessage(Step):
    pass


@dataclass(frozen=True, slots=True)
class AwaitMessage(Step):
    pass


@dataclass(frozen=True, slots=True)
class DrawExtraTile(Step):
    pass


@dataclass(frozen=True, slots=True)
class AwaitScores(Step):
    """Tabletop: any seat enters points; the active seat ends the round (``end_turn``).

    ``extra``: the round of an extra tile placed because of a message (not the turn's own).
    """

    extra: bool = False


@dataclass(frozen=True, slots=True)
class EndTurn(Step):
    pass


@dataclass(frozen=True, slots=True)
class EndGame(Step):
    pass


@dataclass(frozen=True, slots=True)
class MergeFigures(Step):
    """At the end, ``seat`` puts both figures' points on one (``figure`` None: asked)."""

    seat: int
    figure: Figure | None


@dataclass(frozen=True, slots=True)
class FinalScoring(Step):
    pass


@dataclass(frozen=True, slots=True)
class AwaitFinalScores(Step):
    pass


@dataclass(frozen=True, slots=True)
class CloseGame(Step):
    pass
