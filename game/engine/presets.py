"""The edition presets of The Messengers as bundles of typed options (rules/messengers.md §2, §3).

An edition is data: adding one, or a house rule, is a new bundle or an override, never a new
branch in the rules code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, Final

from .errors import OptionError


class MessageSet(StrEnum):
    """Which numbering of the eight messages the printed tiles use."""

    C1 = "c1"
    C2 = "c2"
    C3 = "c3"


class FigureChoice(StrEnum):
    """When the scoring player picks the figure that moves."""

    PER_SCORING = "per_scoring"
    """For each scored feature (and each message's points)."""
    PER_TURN = "per_turn"
    """Once per turn: the first scoring of more than 0 points fixes it for that turn."""


class Trigger(StrEnum):
    """When a round of scoring qualifies the active player for a message."""

    ON_LANDING = "on_landing"
    """Any movement of one of their figures in the round ends on a dark space."""
    END_OF_ROUND = "end_of_round"
    """A figure that moved in the round stands on a dark space when the round ends."""


class ExtraTile(StrEnum):
    """What the "one more tile" message does."""

    IMMEDIATE = "immediate"
    """Draw and place a tile now, with its own follower and scoring phases."""
    EXTRA_TURN = "extra_turn"
    """Take one more whole turn after this one."""


class ScoreAndReturn(StrEnum):
    """The four readings of message 8, "score a meeple and return it" (rules/messengers.md §4)."""

    MAJORITY_ONLY = "majority_only"
    ANY_MEEPLE_SCORE_IF_MAJORITY = "any_meeple_score_if_majority"
    ANY_MEEPLE_SCORE_ALWAYS = "any_meeple_score_always"
    MAJORITY_OR_RETURN_ANY = "majority_or_return_any"


class FinalFigure(StrEnum):
    """Which figure carries a player's total at the end of the game."""

    MEEPLE = "meeple"
    PLAYER_CHOICE = "player_choice"


@dataclass(frozen=True, slots=True)
class Options:
    """The resolved rule options of a table. Field docs: rules/messengers.md §3."""

    message_set: MessageSet
    figure_choice: FigureChoice
    trigger: Trigger
    chain: bool
    alone_rule: bool
    extra_tile: ExtraTile
    score_and_return: ScoreAndReturn
    final_figure: FinalFigure
    messages_per_round: int = 1
    """At most this many messages from one round of scoring (1 in every edition; 2 lets each of
    the active player's figures that qualifies draw one, a house rule)."""
    messages_per_turn: int | None = None
    """A hard cap on messages in one turn; None for no cap."""

    def to_json(self) -> dict[str, Any]:
        values = ((field.name, getattr(self, field.name)) for field in fields(self))
        return {
            key: (value.value if isinstance(value, StrEnum) else value) for key, value in values
        }


PRESETS: Final[dict[str, Options]] = {
    "c1-zmg": Options(
        message_set=MessageSet.C1,
        figure_choice=FigureChoice.PER_SCORING,
        trigger=Trigger.ON_LANDING,
        chain=True,
        alone_rule=False,
        extra_tile=ExtraTile.IMMEDIATE,
        score_and_return=ScoreAndReturn.MAJORITY_ONLY,
        final_figure=FinalFigure.MEEPLE,
    ),
    "c2-hig": Options(
        message_set=MessageSet.C2,
        figure_choice=FigureChoice.PER_SCORING,
        trigger=Trigger.END_OF_ROUND,
        chain=True,
        alone_rule=False,
        extra_tile=ExtraTile.IMMEDIATE,
        score_and_return=ScoreAndReturn.ANY_MEEPLE_SCORE_IF_MAJORITY,
        final_figure=FinalFigure.PLAYER_CHOICE,
    ),
    "c2-zmg": Options(
        message_set=MessageSet.C2,
        figure_choice=FigureChoice.PER_SCORING,
        trigger=Trigger.ON_LANDING,
        chain=True,
        alone_rule=True,
        extra_tile=ExtraTile.IMMEDIATE,
        score_and_return=ScoreAndReturn.ANY_MEEPLE_SCORE_ALWAYS,
        final_figure=FinalFigure.MEEPLE,
    ),
    "c3": Options(
        message_set=MessageSet.C3,
        figure_choice=FigureChoice.PER_TURN,
        trigger=Trigger.END_OF_ROUND,
        chain=False,
        alone_rule=False,
        extra_tile=ExtraTile.EXTRA_TURN,
        score_and_return=ScoreAndReturn.MAJORITY_OR_RETURN_ANY,
        final_figure=FinalFigure.MEEPLE,
        messages_per_turn=1,
    ),
}

_ENUM_OPTIONS: Final[dict[str, type[StrEnum]]] = {
    "message_set": MessageSet,
    "figure_choice": FigureChoice,
    "trigger": Trigger,
    "extra_tile": ExtraTile,
    "score_and_return": ScoreAndReturn,
    "final_figure": FinalFigure,
}
_BOOL_OPTIONS: Final = ("chain", "alone_rule")
OPTION_NAMES: Final = tuple(field.name for field in fields(Options))


def _parse_value(name: str, value: Any) -> Any:
    if name in _ENUM_OPTIONS:
        enum = _ENUM_OPTIONS[name]
        allowed = [member.value for member in enum]
        if value not in allowed:
            raise OptionError(f"option {name} must be one of {', '.join(allowed)}, not {value!r}")
        return enum(value)
    if name in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise OptionError(f"option {name} must be true or false, not {value!r}")
        return value
    if name == "messages_per_round":
        if value not in (1, 2) or isinstance(value, bool):
            raise OptionError(f"option messages_per_round must be 1 or 2, not {value!r}")
        return value
    if name == "messages_per_turn":
        if value in (None, "none"):
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise OptionError(
                f"option messages_per_turn must be a positive whole number or none, not {value!r}"
            )
        return value
    raise OptionError(f"unknown option {name!r}; known options: {', '.join(OPTION_NAMES)}")


def resolve_options(preset: str, overrides: Mapping[str, Any] | None = None) -> Options:
    """The preset's options with single options overridden (house rules).

    >>> resolve_options("c2-hig", {"alone_rule": True}).alone_rule
    True
    >>> resolve_options("c4")
    Traceback (most recent call last):
    ...
    game.engine.errors.OptionError: unknown preset 'c4'; known presets: c1-zmg, c2-hig, c2-zmg, c3
    """
    if preset not in PRESETS:
        raise OptionError(f"unknown preset {preset!r}; known presets: {', '.join(PRESETS)}")
    if overrides is None:
        return PRESETS[preset]
    if not isinstance(overrides, Mapping):
        raise OptionError("options must be an object mapping option names to values")
    changes = {name: _parse_value(name, value) for name, value in overrides.items()}
    return replace(PRESETS[preset], **changes)
