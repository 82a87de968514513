"""The shapes of the engine's events: what ``apply`` says happened, one dictionary per event.

Events go unchanged into the log entries, the websocket ``update`` frames and the narration
(docs/protocol.md), so each kind is a ``TypedDict`` tagged by its ``type``: mypy checks every
place that builds one, and code that reads them narrows on ``event["type"]``.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, final

Action = dict[str, Any]
"""A record action (rules/record-format.md): a command as the log keeps it."""


class Place(TypedDict):
    """A segment named as records name it (``Board.describe``)."""

    x: int
    y: int
    feature: str
    at: NotRequired[str]


class TurnStarted(TypedDict):
    type: Literal["turn_started"]
    seat: int
    turn: int


class TileDrawn(TypedDict):
    type: Literal["tile_drawn"]
    seat: int
    tile: str
    tiles_left: int


class TileDiscarded(TypedDict):
    type: Literal["tile_discarded"]
    tile: str
    tiles_left: int


class TilePlaced(TypedDict):
    type: Literal["tile_placed"]
    seat: int
    tile: str
    x: int
    y: int
    rotation: int


class FollowerPlaced(TypedDict):
    type: Literal["follower_placed"]
    seat: int
    x: int
    y: int
    feature: str
    at: NotRequired[str]


class FollowerReturned(TypedDict):
    type: Literal["follower_returned"]
    seat: int
    x: int
    y: int
    feature: str
    at: NotRequired[str]


class FeatureCompleted(TypedDict):
    type: Literal["feature_completed"]
    feature: str
    tiles: int
    points: int
    where: Place


class Points(TypedDict):
    """Points moved a figure. ``reason``: a feature kind, ``message``, ``tabletop`` or
    ``final``; the optional keys are the award's details (where, what was entered, which
    message action)."""

    type: Literal["points"]
    seat: int
    points: int
    figure: str
    reason: str
    choice: NotRequired[str]
    action: NotRequired[str]
    where: NotRequired[Place]
    category: NotRequired[str]
    total: int
    space: int
    dark: bool


class SharedScoring(TypedDict):
    type: Literal["shared_scoring"]
    seats: list[int]
    points: int
    category: NotRequired[str]


class MessageCapped(TypedDict):
    type: Literal["message_capped"]
    seat: int
    cap: int


class MessageDrawn(TypedDict):
    type: Literal["message_drawn"]
    seat: int
    message: int
    action: str


class MessageResolved(TypedDict):
    """``follower``: message 8's follower; ``feature``: the feature an action scored."""

    type: Literal["message_resolved"]
    action: str
    seat: int
    message: int
    choice: str
    follower: NotRequired[Place]
    feature: NotRequired[Place]
    points: int


class ExtraTurn(TypedDict):
    type: Literal["extra_turn"]
    seat: int


class GameEnding(TypedDict):
    type: Literal["game_ending"]
    turn: int


class FiguresMerged(TypedDict):
    type: Literal["figures_merged"]
    seat: int
    figure: str
    points: int


class GameOver(TypedDict):
    type: Literal["game_over"]
    scores: list[int]


class Undone(TypedDict):
    type: Literal["undone"]
    seat: int
    action: Action


class Adjusted(TypedDict):
    type: Literal["adjusted"]
    seat: int
    points: int
    figure: str
    total: int
    space: int
    dark: bool


class Corrected(TypedDict):
    """``before``/``scores``: each seat's figures before and after the correction."""

    type: Literal["corrected"]
    seat: int
    entry: int
    action: Action
    replacement: Action | None
    lapsed: list[int]
    before: list[dict[str, int]]
    scores: list[dict[str, int]]
    inserted: NotRequired[bool]
    """True: ``replacement`` is a forgotten entry added before entry ``entry`` (``action``)."""
    turn: NotRequired[int]
    """With ``inserted``: the turn the entry is added to."""


class Lapsed(TypedDict):
    """A later entry that no longer applies after a correction."""

    type: Literal["lapsed"]
    entry: int
    action: Action
    message: NotRequired[int]
    message_action: NotRequired[str]


class Undrawn(TypedDict):
    """A message that was drawn and waited to be decided, no longer drawn after a correction
    (it goes back on top of the stack)."""

    type: Literal["undrawn"]
    seat: int
    message: int
    action: str


Event = (
    TurnStarted
    | TileDrawn
    | TileDiscarded
    | TilePlaced
    | FollowerPlaced
    | FollowerReturned
    | FeatureCompleted
    | Points
    | SharedScoring
    | MessageCapped
    | MessageDrawn
    | MessageResolved
    | ExtraTurn
    | GameEnding
    | FiguresMerged
    | GameOver
    | Undone
    | Adjusted
    | Corrected
    | Lapsed
    | Undrawn
)
"""Any event ``new_game``, ``apply`` or a correction reports."""


class PlayedBy(TypedDict):
    """Not the engine's: the web layer puts it first in a computer's log entry, so that the
    log can say who played (docs/protocol.md)."""

    type: Literal["played_by"]
    seat: int
    computer: str


LoggedEvent = Event | PlayedBy
"""Any event a log entry holds."""


# Pending decisions (``views.pending``) ---------------------------------------------------------
# What the game waits for, with the legal choices: sent to every page in the view's ``pending``
# (docs/protocol.md). ``seat`` is None when any seat may act.


class Placement(TypedDict):
    """A cell where the drawn tile fits, with the rotations that fit there."""

    x: int
    y: int
    rotations: list[int]


class PlaceTile(TypedDict):
    seat: int | None
    type: Literal["place_tile"]
    tile: str
    placements: list[Placement]


class Spot(TypedDict):
    """A feature of the placed tile where a follower may go."""

    feature: str
    at: NotRequired[str]


class PlaceFollower(TypedDict):
    seat: int | None
    type: Literal["place_follower"]
    x: int
    y: int
    spots: list[Spot]
    followers_in_supply: int


class Blocker(TypedDict):
    """The other player's figure that the alone rule stops a landing on: its seat and figure."""

    seat: int
    figure: str


WhyNot = Literal["not_active", "alone_rule", "cap", "chain_off", "already_earned", "final"]
"""Why a figure landing on a dark space draws no message (docs/protocol.md, ``why_not``)."""

FigureOption = TypedDict(
    "FigureOption",
    {
        "figure": str,
        "from": int,
        "to": int,
        "total": int,
        "laps": int,
        "dark": bool,
        "draws_message": bool,
        "maybe": bool,
        "why_not": WhyNot | None,
        "blocker": Blocker | None,
        "note": NotRequired[str],
    },
)
"""A figure's space now (``from``) and after the points (``to``), the laps past space 0, and
whether the move would draw the active player a message, judged now (``outlook.py``);
``why_not``: the rule that stops a dark landing from drawing one, ``blocker``: for the alone rule,
the other player's figure standing there; ``note``: the words of all this, added by
``game.words.decisions``. ``from`` is a Python keyword, hence the functional form."""


class PreviewFigure(FigureOption):
    """One figure of one seat in a tabletop entry's preview: the outlook of that seat's points
    going on that figure now."""

    seat: int


class ChooseFigure(TypedDict):
    """Which figure takes ``points``; ``final``: the merge at the end of the game. The optional
    keys repeat the award's details (where, category, choice, action)."""

    seat: int | None
    type: Literal["choose_figure"]
    final: NotRequired[bool]
    points: int
    reason: NotRequired[str]
    choice: NotRequired[str]
    action: NotRequired[str]
    where: NotRequired[Place]
    category: NotRequired[str]
    for_what: NotRequired[str]
    options: list[FigureOption]


class ResolveCommand(TypedDict):
    """The ``resolve_message`` command a choice stands for, exactly as the engine takes it."""

    type: Literal["resolve_message"]
    choice: Literal["points", "action"]
    x: NotRequired[int]
    y: NotRequired[int]
    feature: NotRequired[str]
    at: NotRequired[str]
    score: NotRequired[bool]


class Skip(TypedDict):
    """Message 8's other way where scoring is optional: return the follower without scoring."""

    label: NotRequired[str]
    command: ResolveCommand


@final
class MessageChoice(TypedDict):
    """A way to resolve the revealed message: its 2 points or its action. ``points`` None: the
    action's points are entered at the table; ``feature``: the feature the action scores;
    ``label``: its words; ``command``: what the page sends for it; ``mark``: the number the
    page draws on the board at ``feature``."""

    choice: Literal["points", "action"]
    points: int | None
    entered_at_table: NotRequired[bool]
    feature: NotRequired[Place]
    label: NotRequired[str]
    command: ResolveCommand
    mark: NotRequired[int]


@final
class ReturnChoice(TypedDict):
    """Message 8 in board mode: one of the seat's followers to score (perhaps optionally) and
    return, named by ``x``, ``y``, ``feature`` and ``at``; ``mark``: the number the page draws
    at that follower; ``skip``: returning it without scoring, where the edition allows."""

    choice: Literal["action"]
    points: int
    score_optional: bool
    x: int
    y: int
    feature: str
    at: NotRequired[str]
    label: NotRequired[str]
    command: ResolveCommand
    mark: int
    skip: NotRequired[Skip]


Unavailability = Literal[
    "no_tiles_left",
    "no_follower",
    "no_follower_on_road",
    "no_follower_in_city",
    "no_follower_in_monastery",
    "no_coat_of_arms",
    "no_knight",
    "no_farmer",
]


class Unavailable(TypedDict):
    """Why a message's action is not offered now, as a code (``text``: its words, added by
    ``game.words.decisions``)."""

    reason: Unavailability
    text: NotRequired[str]


class ResolveMessage(TypedDict):
    seat: int | None
    type: Literal["resolve_message"]
    message: int
    action: str
    text: NotRequired[str]
    choices: list[MessageChoice | ReturnChoice]
    unavailable: Unavailable | None


class EndTurn(TypedDict):
    """Tabletop: points entered by anyone, then the active seat ends the turn."""

    seat: int | None
    type: Literal["end_turn"]
    turn: int
    extra_tile: bool
    anyone_may_score: bool
    may_end_game: bool


class Finish(TypedDict):
    seat: int | None
    type: Literal["finish"]
    anyone_may_score: bool


Pending = PlaceTile | PlaceFollower | ChooseFigure | ResolveMessage | EndTurn | Finish
"""Any decision ``views.pending`` reports."""
