"""Commands: the decisions players send, parsed from (and written back to) record actions.

A command is the ``type`` plus keys of a record action (rules/record-format.md, "Actions"), without
the deciding seat, which travels beside it (the web layer takes it from the seat's token).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Final

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
        return {"seat": seat, **self.to_message()}

    def to_message(self) -> dict[str, Any]:
        """The command as a client sends it: its type and keys, and no ``seat`` (the frame
        names the seat it is for beside the command)."""
        message: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if value is not None and not (name == "score" and value is True):
                message[name] = value
        return message


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type[Command]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in fields(cls))
    return names


def _whole(name: str, value: object, *, optional: bool = False, share: bool = False) -> None:
    """``share``: the key is one of a share's (``score_shared``), not the command's own."""
    if value is None and optional:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        where = "share " if share else ""
        raise MalformedCommand(
            f"{where}{name!r} must be a whole number", "not_whole", key=name, share=share
        )


def _one_of(
    name: str,
    value: object,
    allowed: frozenset[str],
    *,
    optional: bool = False,
    share: bool = False,
) -> None:
    """Check a string option; the type first, so a list or an object from a client is refused as
    malformed rather than failing the set lookup with ``TypeError``."""
    if value is None and optional:
        return
    if not isinstance(value, str) or value not in allowed:
        where = "share " if share else ""
        raise MalformedCommand(
            f"{where}{name!r} must be one of {', '.join(sorted(allowed))}",
            "not_one_of",
            key=name,
            allowed=sorted(allowed),
            share=share,
        )


_FEATURES: Final = frozenset(kind.value for kind in FeatureKind)
_LOCATIONS: Final = frozenset(EDGES) | frozenset(HALF_EDGES)
_FIGURES: Final = frozenset(figure.value for figure in Figure)
_CHOICES: Final = frozenset({"action", "points"})


def _feature_at(feature: object, at: object, *, optional: bool) -> None:
    _one_of("feature", feature, _FEATURES, optional=optional)
    if feature == FeatureKind.MONASTERY.value:
        if at is not None:
            raise MalformedCommand("a monastery is named without 'at'", "monastery_at", key="at")
    elif feature is not None:
        _one_of("at", at, _LOCATIONS)
    elif at is not None:
        raise MalformedCommand("'at' needs a 'feature'", "at_without_feature", key="at")


@dataclass(frozen=True, slots=True)
class PlaceTile(Command):
    type: ClassVar[str] = "place_tile"
    x: int
    y: int
    rotation: int

    def __post_init__(self) -> None:
        _whole("x", self.x)
        _whole("y", self.y)
        if (
            not isinstance(self.rotation, int)
            or isinstance(self.rotation, bool)
            or self.rotation not in ROTATIONS
        ):
            raise MalformedCommand(
                "'rotation' must be 0, 90, 180 or 270", "bad_rotation", key="rotation"
            )


@dataclass(frozen=True, slots=True)
class PlaceFollower(Command):
    type: ClassVar[str] = "place_follower"
    feature: str
    at: str | None = None

    def __post_init__(self) -> None:
        _feature_at(self.feature, self.at, optional=False)


@dataclass(frozen=True, slots=True)
class SkipFollower(Command):
    type: ClassVar[str] = "skip_follower"


@dataclass(frozen=True, slots=True)
class ChooseFigure(Command):
    type: ClassVar[str] = "choose_figure"
    figure: str

    def __post_init__(self) -> None:
        _one_of("figure", self.figure, _FIGURES)


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

    def __post_init__(self) -> None:
        _one_of("choice", self.choice, _CHOICES)
        _whole("x", self.x, optional=True)
        _whole("y", self.y, optional=True)
        _feature_at(self.feature, self.at, optional=True)
        _whole("points", self.points, optional=True)
        if self.points is not None and not 0 <= self.points <= MAX_ENTERED_POINTS:
            raise MalformedCommand(
                f"'points' must be between 0 and {MAX_ENTERED_POINTS}",
                "points_range",
                key="points",
                least=0,
                most=MAX_ENTERED_POINTS,
            )
        if not isinstance(self.score, bool):
            raise MalformedCommand("'score' must be true or false", "not_boolean", key="score")

    @property
    def names_a_follower(self) -> bool:
        return any(key is not None for key in (self.x, self.y, self.feature, self.at))


@dataclass(frozen=True, slots=True)
class Score(Command):
    """Points counted at a tabletop game; ``category`` (road, city, monastery, field) says what
    for, so that the log and the final scoring's breakdown can name it."""

    type: ClassVar[str] = "score"
    points: int
    figure: str | None = None
    category: str | None = None

    def __post_init__(self) -> None:
        _entered_points(self.points)
        _one_of("figure", self.figure, _FIGURES, optional=True)
        _one_of("category", self.category, _FEATURES, optional=True)


def _entered_points(points: int) -> None:
    """Points entered at a tabletop game: a whole number from 1 to ``MAX_ENTERED_POINTS``."""
    _whole("points", points)
    if not 1 <= points <= MAX_ENTERED_POINTS:
        raise MalformedCommand(
            f"'points' must be between 1 and {MAX_ENTERED_POINTS}",
            "points_range",
            key="points",
            least=1,
            most=MAX_ENTERED_POINTS,
        )


@dataclass(frozen=True, slots=True)
class Share:
    """One seat's part of a shared scoring: the seat, and the figure its points go on (None: the
    seat's usual choice, asked when the edition lets it choose)."""

    seat: int
    figure: str | None = None


MIN_SHARES: Final = 2
MAX_SHARES: Final = 6


@dataclass(frozen=True, slots=True)
class ScoreShared(Command):
    """Points counted at a tabletop game that several seats score alike (a feature whose
    majority they share): one entry, applied to every seat or to none, so a shared feature can
    never be half-entered. Each share names a seat and, optionally, its figure."""

    type: ClassVar[str] = "score_shared"
    points: int
    shares: tuple[Share, ...]
    category: str | None = None

    def __post_init__(self) -> None:
        _entered_points(self.points)
        _one_of("category", self.category, _FEATURES, optional=True)
        object.__setattr__(self, "shares", _read_shares(self.shares))

    def to_message(self) -> dict[str, Any]:
        action: dict[str, Any] = {"type": self.type, "points": self.points}
        if self.category is not None:
            action["category"] = self.category
        action["shares"] = [
            {"seat": share.seat}
            if share.figure is None
            else {"seat": share.seat, "figure": share.figure}
            for share in self.shares
        ]
        return action

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(share.seat for share in self.shares)


def _read_shares(shares: object) -> tuple[Share, ...]:
    """The shares of a ``score_shared`` from JSON (a list of objects) or already read; refused
    as malformed unless 2 to 6 distinct seats, each with at most a valid figure."""
    if isinstance(shares, tuple) and all(isinstance(share, Share) for share in shares):
        items: list[Mapping[str, Any]] = [
            {"seat": share.seat, "figure": share.figure} for share in shares
        ]
    elif isinstance(shares, list) and all(isinstance(share, Mapping) for share in shares):
        items = shares
    else:
        raise MalformedCommand(
            "'shares' must be a list of objects with a 'seat'", "shares_not_list", key="shares"
        )
    if not MIN_SHARES <= len(items) <= MAX_SHARES:
        raise MalformedCommand(
            f"'shares' must name {MIN_SHARES} to {MAX_SHARES} seats",
            "shares_count",
            key="shares",
            least=MIN_SHARES,
            most=MAX_SHARES,
        )
    read = []
    for item in items:
        unknown = sorted(set(item) - {"seat", "figure"})
        if unknown:
            raise MalformedCommand(
                f"a share takes no {', '.join(repr(key) for key in unknown)}",
                "share_unknown_key",
                key="shares",
                keys=[str(key) for key in unknown],
            )
        _whole("seat", item.get("seat"), share=True)
        _one_of("figure", item.get("figure"), _FIGURES, optional=True, share=True)
        read.append(Share(item["seat"], item.get("figure")))
    if len({share.seat for share in read}) != len(read):
        raise MalformedCommand("'shares' names a seat twice", "shares_seat_twice", key="shares")
    return tuple(read)


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """``turn``: the turn it ends (``GameState.turn``), so that a repeated "end turn" never ends
    the next one; records made before it existed leave it out."""

    type: ClassVar[str] = "end_turn"
    turn: int | None = None

    def __post_init__(self) -> None:
        _whole("turn", self.turn, optional=True)
        if self.turn is not None and self.turn < 1:
            raise MalformedCommand("'turn' must be 1 or more", "turn_too_small", key="turn")


@dataclass(frozen=True, slots=True)
class EndGame(Command):
    type: ClassVar[str] = "end_game"


@dataclass(frozen=True, slots=True)
class Finish(Command):
    type: ClassVar[str] = "finish"


@dataclass(frozen=True, slots=True)
class Undo(Command):
    """Tabletop mode: cancel the latest action that still counts (see ``state.effective``)."""

    type: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Adjust(Command):
    """Tabletop mode: a signed correction of one figure of the sending seat, applied now.

    It is not a scoring: it moves no figure along the track in the rules' sense, so it never
    draws a message (our ruling) and it may be entered at any moment of a running game."""

    type: ClassVar[str] = "adjust"
    points: int
    figure: str

    def __post_init__(self) -> None:
        _whole("points", self.points)
        if not self.points:
            raise MalformedCommand(
                "an adjustment of 0 points changes nothing", "adjust_zero", key="points"
            )
        if abs(self.points) > MAX_ENTERED_POINTS:
            raise MalformedCommand(
                f"'points' of an adjustment must be between -{MAX_ENTERED_POINTS}"
                f" and {MAX_ENTERED_POINTS}",
                "adjust_range",
                key="points",
                most=MAX_ENTERED_POINTS,
            )
        _one_of("figure", self.figure, _FIGURES)


CORRECTABLE: Final = frozenset({"score", "score_shared", "adjust", "resolve_message"})
INSERTABLE: Final = frozenset({"score", "score_shared"})
"""The entries a correction may add where they were forgotten (``Correct.insert``)."""
"""The action types a ``correct`` may change or delete: the entries that carry points."""


@dataclass(frozen=True, slots=True)
class Correct(Command):
    """Tabletop mode: change (``replacement``, a whole action with its ``seat``) or delete
    (``replacement`` None) the log entry ``entry``; the game is rebuilt from its setup with the
    corrected history (``corrections.py``). The replacement is kept in its parsed, normalised
    form, so that a record written back reads the same."""

    type: ClassVar[str] = "correct"
    explicit: ClassVar[tuple[str, ...]] = ("replacement",)
    entry: int
    replacement: dict[str, Any] | None = None
    insert: bool = False
    """True: ``replacement`` (a ``score`` or ``score_shared``) is a forgotten entry, added to
    the game just before entry ``entry``, which stays as it is."""

    def __post_init__(self) -> None:
        _whole("entry", self.entry)
        if self.entry < 0:
            raise MalformedCommand(
                "'entry' must be the index of an entry of the log", "entry_not_index", key="entry"
            )
        if not isinstance(self.insert, bool):
            raise MalformedCommand("'insert' must be true or false", "not_boolean", key="insert")
        if self.insert and (
            not isinstance(self.replacement, Mapping)
            or self.replacement.get("type") not in INSERTABLE
        ):
            raise MalformedCommand(
                f"an inserted entry is one of {', '.join(sorted(INSERTABLE))}",
                "insert_type",
                key="replacement",
                allowed=sorted(INSERTABLE),
            )
        if self.replacement is None:
            return
        if not isinstance(self.replacement, Mapping):
            raise MalformedCommand(
                "'replacement' must be an action, or null to delete the entry",
                "replacement_not_action",
                key="replacement",
            )
        kind = self.replacement.get("type")
        if kind not in CORRECTABLE:
            raise MalformedCommand(
                f"a replacement is one of {', '.join(sorted(CORRECTABLE))}, not {kind!r}",
                "replacement_type",
                key="replacement",
                allowed=sorted(CORRECTABLE),
                kind=str(kind)[:40],
            )
        seat = self.replacement.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise MalformedCommand(
                "a replacement names its player: 'seat' must be a seat number",
                "replacement_seat",
                key="replacement",
            )
        parsed = parse_command(self.replacement)
        object.__setattr__(self, "replacement", parsed.to_action(seat))

    def to_message(self) -> dict[str, Any]:
        # ``replacement`` is written even when null: null is the deletion.
        message = {"type": self.type, "entry": self.entry, "replacement": self.replacement}
        if self.insert:
            message["insert"] = True
        return message


COMMAND_WORDS: Final = {
    "place_tile": "placing a tile",
    "place_follower": "placing a follower",
    "skip_follower": "placing no follower",
    "choose_figure": "a choice of figure",
    "resolve_message": "deciding the message",
    "score": "points",
    "score_shared": "shared points",
    "end_turn": "the end of the turn",
    "end_game": "the end of the game",
    "finish": "the end of the final scoring",
    "undo": "an undo",
    "adjust": "an adjustment",
    "correct": "a correction",
}
"""Each command in words, for refusals a player reads ("the game waits for a choice of figure,
not shared points")."""


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        PlaceTile,
        PlaceFollower,
        SkipFollower,
        ChooseFigure,
        ResolveMessage,
        Score,
        ScoreShared,
        EndTurn,
        EndGame,
        Finish,
        Undo,
        Adjust,
        Correct,
    )
}


def parse_command(action: Mapping[str, Any], *, with_seat: bool = True) -> Command:
    """Read a command from a record action (``with_seat``: its ``seat`` key is the actor's, and
    ignored here) or from a client's message (``with_seat=False``: the seat a command is for is
    the frame's, so a ``seat`` inside the command is refused, never silently ignored).

    >>> parse_command({"type": "place_tile", "x": 0, "y": -1, "rotation": 180})
    PlaceTile(x=0, y=-1, rotation=180)
    >>> parse_command({"type": "fly"})
    Traceback (most recent call last):
    ...
    game.engine.errors.MalformedCommand: unknown command type 'fly'
    >>> parse_command({"type": "score", "seat": 2, "points": 4}, with_seat=False)
    Traceback (most recent call last):
    ...
    game.engine.errors.MalformedCommand: score takes no 'seat'
    """
    if not isinstance(action, Mapping):
        raise MalformedCommand("a command must be a JSON object", "command_not_object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise MalformedCommand(
            f"unknown command type {kind!r}", "unknown_command", key="type", kind=str(kind)[:40]
        )
    cls = COMMAND_TYPES[kind]
    names = _field_names(cls)
    allowed = {"type", "seat", *names} if with_seat else {"type", *names}
    unknown = sorted(set(action) - allowed, key=str)
    if unknown:
        raise MalformedCommand(
            f"{kind} takes no {', '.join(repr(key) for key in unknown)}",
            "unknown_key",
            field=str(unknown[0]),
            command=kind,
            keys=[str(key)[:40] for key in unknown],
        )
    required = [f.name for f in fields(cls) if f.default is MISSING]
    missing = [name for name in required if action.get(name) is None]
    missing += [name for name in getattr(cls, "explicit", ()) if name not in action]
    if missing:
        raise MalformedCommand(
            f"{kind} needs {', '.join(repr(key) for key in missing)}",
            "missing_key",
            key=missing[0],
            command=kind,
            keys=missing,
        )
    return cls(**{name: action[name] for name in names if name in action})
