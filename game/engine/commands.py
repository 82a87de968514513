"""Commands: the decisions players send, parsed from (and written back to) record actions.

A command is the ``type`` plus keys of a record action (record-format.md, "Actions"), without the
deciding seat, which travels beside it (the web layer takes it from the seat's token).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import MalformedCommand
from .messengers import Figure
from .tiles import EDGES, HALF_EDGES, ROTATIONS, FeatureKind

MAX_ENTERED_POINTS = 1000
"""An upper bound on points typed at the table, to catch slips of the keyboard."""


@dataclass(frozen=True, slots=True)
class Command:
    """Base of all commands; ``type`` is the record's action type."""

    type: ClassVar[str] = ""

    def to_action(self, seat: int) -> dict[str, Any]:
        """The record action for this command sent by ``seat``."""
        action: dict[str, Any] = {"seat": seat, "type": self.type}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if value is not None and not (name == "score" and value is True):
                action[name] = value
        return action


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type[Command]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in fields(cls))
    return names


@dataclass(frozen=True, slots=True)
class PlaceTile(Command):
    type: ClassVar[str] = "place_tile"
    x: int
    y: int
    rotation: int


@dataclass(frozen=True, slots=True)
class PlaceFollower(Command):
    type: ClassVar[str] = "place_follower"
    feature: str
    at: str | None = None


@dataclass(frozen=True, slots=True)
class SkipFollower(Command):
    type: ClassVar[str] = "skip_follower"


@dataclass(frozen=True, slots=True)
class ChooseFigure(Command):
    type: ClassVar[str] = "choose_figure"
    figure: str


@dataclass(frozen=True, slots=True)
class ResolveMessage(Command):
    """``choice`` is ``action`` or ``points``. Targets: (x, y, feature, at) names the follower for
    message 8 in board mode; ``points`` is the value counted at the table in tabletop mode;
    ``score`` False returns a follower without scoring where the edition allows it."""

    type: ClassVar[str] = "resolve_message"
    choice: str
    x: int | None = None
    y: int | None = None
    feature: str | None = None
    at: str | None = None
    points: int | None = None
    score: bool = True


@dataclass(frozen=True, slots=True)
class Score(Command):
    type: ClassVar[str] = "score"
    points: int
    figure: str | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    type: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class EndGame(Command):
    type: ClassVar[str] = "end_game"


@dataclass(frozen=True, slots=True)
class Finish(Command):
    type: ClassVar[str] = "finish"


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        PlaceTile,
        PlaceFollower,
        SkipFollower,
        ChooseFigure,
        ResolveMessage,
        Score,
        EndTurn,
        EndGame,
        Finish,
    )
}

_FEATURES = {kind.value for kind in FeatureKind}
_LOCATIONS = set(EDGES) | set(HALF_EDGES)


def _int(action: Mapping[str, Any], key: str, required: bool = True) -> int | None:
    value = action.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedCommand(f"{key!r} must be a whole number")
    return value


def _choice(action: Mapping[str, Any], key: str, allowed: set[str], required: bool) -> str | None:
    value = action.get(key)
    if value is None and not required:
        return None
    if value not in allowed:
        raise MalformedCommand(f"{key!r} must be one of {', '.join(sorted(allowed))}")
    return str(value)


def parse_command(action: Mapping[str, Any]) -> Command:
    """Read a command from a record action or a client message (the ``seat`` key is ignored).

    >>> parse_command({"type": "place_tile", "x": 0, "y": -1, "rotation": 180})
    PlaceTile(x=0, y=-1, rotation=180)
    >>> parse_command({"type": "fly"})
    Traceback (most recent call last):
    ...
    game.engine.errors.MalformedCommand: unknown command type 'fly'
    """
    if not isinstance(action, Mapping):
        raise MalformedCommand("a command must be a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise MalformedCommand(f"unknown command type {kind!r}")
    if kind == "place_tile":
        rotation = _int(action, "rotation")
        if rotation not in ROTATIONS:
            raise MalformedCommand("'rotation' must be 0, 90, 180 or 270")
        return PlaceTile(_int(action, "x"), _int(action, "y"), rotation)  # type: ignore[arg-type]
    if kind == "place_follower":
        feature = _choice(action, "feature", _FEATURES, True)
        at = None if feature == "monastery" else _choice(action, "at", _LOCATIONS, True)
        return PlaceFollower(feature, at)  # type: ignore[arg-type]
    if kind == "choose_figure":
        return ChooseFigure(_choice(action, "figure", {f.value for f in Figure}, True))  # type: ignore[arg-type]
    if kind == "resolve_message":
        choice = _choice(action, "choice", {"action", "points"}, True)
        score = action.get("score", True)
        if not isinstance(score, bool):
            raise MalformedCommand("'score' must be true or false")
        points = _int(action, "points", required=False)
        if points is not None and not 0 <= points <= MAX_ENTERED_POINTS:
            raise MalformedCommand(f"'points' must be between 0 and {MAX_ENTERED_POINTS}")
        feature = _choice(action, "feature", _FEATURES, False)
        return ResolveMessage(
            choice,  # type: ignore[arg-type]
            _int(action, "x", required=False),
            _int(action, "y", required=False),
            feature,
            None if feature == "monastery" else _choice(action, "at", _LOCATIONS, False),
            points,
            score,
        )
    if kind == "score":
        points = _int(action, "points")
        if not 1 <= points <= MAX_ENTERED_POINTS:  # type: ignore[operator]
            raise MalformedCommand(f"'points' must be between 1 and {MAX_ENTERED_POINTS}")
        figure = _choice(action, "figure", {f.value for f in Figure}, False)
        return Score(points, figure)  # type: ignore[arg-type]
    return COMMAND_TYPES[kind]()
