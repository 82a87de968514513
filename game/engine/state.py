"""The game state: the immutable types a game is made of, and what its log says still counts.

``play.py`` moves a game forward (``apply``); this module holds only what every other part of the
engine builds on (the types, and ``effective``: which entries of a log still count), so that the
runner, the corrections and the views import it without importing ``play.py``, which builds on
them.

A turn is an *agenda*: a queue of steps (draw a tile, wait for its placement, score completed
features, end the round of scoring, draw a message, ...). ``play.apply`` checks a command against
the step at the head of the queue, carries it out, then runs the automatic steps that follow until
the next step needs somebody's decision. A message's action pushes new steps at the head of the
queue (a nested placement, a new round of scoring), so "the interrupted turn resumes where it was"
is simply the rest of the queue.

The state is immutable. Inside ``apply`` a mutable ``runner.Work`` copy is changed and then frozen
into a new ``GameState``; the state passed in is never touched, so an illegal command changes
nothing. ``runner.py`` holds that working copy and the table of step rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from . import commands as cmd
from .agenda import (
    Step,
)
from .board import Board
from .messengers import (
    Figure,
    MessageAction,
    Movement,
)
from .presets import Options

if TYPE_CHECKING:
    from .corrections import Amendments

FOLLOWERS_PER_PLAYER: Final = 7
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
MESSAGES: Final = tuple(range(1, 9))

STATE_VERSION: Final = 2
"""The version of the types a ``GameState`` is built of, as a stored state depends on them.

The server stores states (its checkpoints) and reads them back with the code running then, which
may be a later release. A state stored under another version is never read: the server rebuilds
it from the game's setup and log instead. So change this number whenever a type reachable from
``GameState`` changes its fields, their types, or its members (an enum's). A test compares these
types with ``tests/state_fingerprint.json`` and says when to change it.
"""


class Mode(StrEnum):
    """``board``: the app plays the whole game. ``tabletop``: the board is physical and players
    enter their points; the app keeps the scoreboard and the message stack."""

    BOARD = "board"
    TABLETOP = "tabletop"


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat's figures and supply.

    ``carrier``: once the game has ended, the figure that carries the merged total.
    """

    name: str
    meeple: int = 0
    messenger: int = 0
    followers: int = FOLLOWERS_PER_PLAYER
    carrier: Figure | None = None

    @property
    def score(self) -> int:
        return self.meeple + self.messenger

    def points_on(self, figure: Figure) -> int:
        return self.meeple if figure is Figure.MEEPLE else self.messenger


@dataclass(frozen=True, slots=True)
class Revealed:
    """The message drawn and not yet resolved: public to every seat."""

    seat: int
    message: int
    action: MessageAction


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything fixed when the game begins, kept so that a record can be exported.

    ``tiles`` and ``messages`` are the full initial orders: hidden information.
    """

    mode: Mode
    players: tuple[str, ...]
    preset: str
    options: Options
    seed: int
    tiles: tuple[str, ...]
    messages: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameState:
    """A game at one moment. Produced only by ``new_game`` and ``apply``.

    Hidden fields (never shown to a seat): ``bag`` (the land tiles still to be drawn, in order)
    and ``stack`` (the message stack, top first); see ``views.py`` for what seats may see.
    """

    setup: Setup
    players: tuple[PlayerState, ...]
    board: Board | None
    bag: tuple[str, ...]
    stack: tuple[int, ...]
    active: int
    turn: int
    tile: str | None
    """The drawn tile waiting to be placed (public)."""
    last_placed: tuple[int, int] | None
    agenda: tuple[Step, ...]
    movements: tuple[Movement, ...] | None
    """Figure moves of the open round of scoring; None when no round is open."""
    round_can_draw: bool
    turn_figures: Mapping[int, Figure]
    """per_turn: the figure each seat's points go on this turn, once fixed."""
    messages_this_turn: int
    extra_turns: int
    revealed: Revealed | None
    finished: bool
    log: tuple[Mapping[str, Any], ...] = field(default=())
    """Every applied command as a record action: with ``setup`` it is the game record."""
    amendments: Amendments | None = None
    """Tabletop mode: what ``correct`` actions changed in the log (``corrections.py``)."""
    extra_turn: bool = False
    """Whether the turn under way is an extra one (a message's action), not the next seat's."""

    @property
    def options(self) -> Options:
        return self.setup.options

    @property
    def mode(self) -> Mode:
        return self.setup.mode

    @property
    def version(self) -> int:
        """How many commands have been applied."""
        return len(self.log)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.setup.preset} {self.setup.mode.value} turn={self.turn} "
            f"active={self.active} version={self.version} finished={self.finished}>"
        )


def effective(log: Sequence[Mapping[str, Any]]) -> list[int]:
    """The indices of the actions of ``log`` that still count, in order.

    An ``undo`` cancels the latest action that still counts, so two undos in a row cancel the
    last two actions; undos themselves are never cancelled.

    >>> effective([dict(type=kind) for kind in ("score", "end_turn", "undo", "score")])
    [0, 3]
    """
    kept: list[int] = []
    for index, action in enumerate(log):
        if action.get("type") == cmd.Undo.type:
            if kept:
                kept.pop()
        else:
            kept.append(index)
    return kept
