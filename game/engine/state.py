"""The game state, and ``apply``: the one way a game moves forward.

A turn is an *agenda*: a queue of steps (draw a tile, wait for its placement, score completed
features, end the round of scoring, draw a message, ...). ``apply`` checks a command against the
step at the head of the queue, carries it out, then runs the automatic steps that follow until
the next step needs somebody's decision. A message's action pushes new steps at the head of the
queue (a nested placement, a new round of scoring), so "the interrupted turn resumes where it was"
is simply the rest of the queue.

The state is immutable. Inside ``apply`` a mutable ``runner.Work`` copy is changed and then frozen
into a new ``GameState``; the state passed in is never touched, so an illegal command changes
nothing. ``runner.py`` holds that working copy and the table of step rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from . import commands as cmd
from .agenda import (
    StartTurn,
    Step,
)
from .board import Board
from .errors import (
    GameOver,
    IllegalCommand,
    MalformedCommand,
    NotYourDecision,
    OptionError,
)
from .events import Event, Undone
from .messengers import (
    Figure,
    MessageAction,
    Movement,
)
from .presets import Options, resolve_options
from .shuffle import shuffled_orders
from .tiles import CATALOGUE, START_TILE, standard_bag

if TYPE_CHECKING:
    from .corrections import Amendments

FOLLOWERS_PER_PLAYER: Final = 7
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
MESSAGES: Final = tuple(range(1, 9))

STATE_VERSION: Final = 1
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


def new_game(
    players: Sequence[str],
    preset: str,
    *,
    options: Mapping[str, Any] | None = None,
    mode: str = "board",
    seed: int = 0,
    tiles: Sequence[str] | None = None,
    messages: Sequence[int] | None = None,
) -> tuple[GameState, list[Event]]:
    """Set up a game: the start tile placed, the first turn begun.

    ``tiles`` (the land tiles after the start tile, in draw order) and ``messages`` (the message
    stack, top first) default to shuffles from ``seed`` (``shuffle.py``: a seed of 2**128 or
    more is a secret key; smaller ones are older records' seeds).

    >>> state, events = new_game(["Ann", "Bob"], "c2-hig", seed=3)
    >>> state.active, len(state.bag) + 1, state.stack == tuple(sorted(state.stack))
    (0, 71, False)
    """
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalCommand(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise IllegalCommand("every player needs a name")
    try:
        game_mode = Mode(mode)
    except ValueError:
        raise OptionError(f"mode must be board or tabletop, not {mode!r}") from None
    resolved = resolve_options(preset, options)
    bag, stack = shuffled_orders(seed, standard_bag(), MESSAGES)
    if tiles is not None:
        bag = list(tiles)
        _check_tiles(bag)
    if messages is not None:
        stack = list(messages)
        if sorted(stack) != list(MESSAGES):
            raise IllegalCommand("the message stack must hold the messages 1 to 8, once each")
    if game_mode is Mode.TABLETOP:
        bag = []
    setup = Setup(
        game_mode,
        names,
        preset,
        resolved,
        seed,
        tuple(bag),
        tuple(stack),
    )
    state = GameState(
        setup=setup,
        players=tuple(PlayerState(name) for name in names),
        board=Board.start() if game_mode is Mode.BOARD else None,
        bag=tuple(bag),
        stack=tuple(stack),
        active=0,
        turn=0,
        tile=None,
        last_placed=(0, 0) if game_mode is Mode.BOARD else None,
        agenda=(StartTurn(0),),
        movements=None,
        round_can_draw=False,
        turn_figures=MappingProxyType({}),
        messages_this_turn=0,
        extra_turns=0,
        revealed=None,
        finished=False,
    )
    work = runner.Work(state)
    work.advance()
    return work.freeze(state.log), work.events


def _check_tiles(bag: list[str]) -> None:
    for letter in bag:
        if letter not in CATALOGUE:
            raise IllegalCommand(f"unknown tile {letter!r}; tiles are lettered A to X")
    for letter, tile in CATALOGUE.items():
        available = tile.count - (letter == START_TILE)
        if bag.count(letter) > available:
            raise IllegalCommand(f"the game has only {available} tiles {letter}")


def apply(state: GameState, seat: int, command: cmd.Command) -> tuple[GameState, list[Event]]:
    """Apply ``command`` from ``seat``; return the new state and what happened.

    Raises an ``IllegalCommand`` (naming the reason) when the rules do not allow it now; the
    given state is unchanged either way.
    """
    if not isinstance(command, cmd.Command):
        raise MalformedCommand("a command must be built with commands.parse_command")
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise NotYourDecision(f"there is no seat {seat!r} at this table")
    if isinstance(command, cmd.Undo):
        return _undo(state, seat)
    if isinstance(command, cmd.Correct):
        from .corrections import correct  # corrections.py builds on this module

        return correct(state, seat, command)
    if state.finished:
        raise GameOver("the game is over")
    if isinstance(command, cmd.Adjust):
        from .corrections import adjust

        return adjust(state, seat, command)
    work = runner.Work(state)
    work.decide(seat, command)
    work.advance()
    return work.freeze((*state.log, command.to_action(seat))), work.events


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


def undo_target(state: GameState) -> int:
    """The index in ``state.log`` of the action an undo would take back.

    Raises ``IllegalCommand`` when no undo is possible.
    """
    if state.mode is not Mode.TABLETOP:
        raise IllegalCommand("only entries of a tabletop game can be undone")
    kept = effective(state.log)
    if not kept:
        raise IllegalCommand("there is nothing to undo")
    return kept[-1]


def undo_from(
    state: GameState, seat: int, before: GameState, *, target: int | None = None
) -> tuple[GameState, list[Event]]:
    """Undo, given ``before``: the game as it stood before the action the undo takes back
    (``undo_target(state)`` actions of its log applied).

    That is the state a rebuild from the setup without the action reaches: when the action was
    applied, the actions that counted were exactly those that still count before it (later
    ones were pushed and taken back above it). So a caller that keeps earlier states (the
    server's checkpoints) need not replay the game from its setup.

    ``target``: ``undo_target(state)`` when the caller already tracks it (working it out reads
    the whole log, which a replay of many undos should not do at each one).
    """
    if target is None:
        target = undo_target(state)
    elif state.mode is not Mode.TABLETOP:
        raise IllegalCommand("only entries of a tabletop game can be undone")
    if before.version != target or before.setup.messages != state.setup.messages:
        raise IllegalCommand("the state given is not the one before the action to undo")
    undone = state.log[target]
    log = (*state.log, cmd.Undo().to_action(seat))
    restored = dataclasses.replace(before, setup=state.setup, log=log)
    event: Undone = {"type": "undone", "seat": seat, "action": dict(undone)}
    return restored, [event]


def _undo(state: GameState, seat: int) -> tuple[GameState, list[Event]]:
    """Rebuild the game from its setup without the latest action that still counts.

    The message stack keeps the order fixed at setup: a message drawn by the cancelled action goes
    back on top, so the stack is never reshuffled and no other message is revealed. The log keeps
    every action, the undo included: the record shows what was corrected.
    """
    target = undo_target(state)
    return undo_from(state, seat, state_at(state, target))


def started(setup: Setup) -> tuple[GameState, list[Event]]:
    """The state before the first action of a game set up as ``setup``, with the events of its
    start: what every rebuild (undo, corrections, the story) replays the actions onto."""
    return new_game(
        setup.players,
        setup.preset,
        options=setup.options.to_json(),
        mode=setup.mode.value,
        seed=setup.seed,
        tiles=setup.tiles if setup.mode is Mode.BOARD else None,
        messages=setup.messages,
    )


def fresh(setup: Setup) -> GameState:
    """The state before the first action of a game set up as ``setup``."""
    return started(setup)[0]


def state_at(state: GameState, version: int) -> GameState:
    """The game after the first ``version`` actions of ``state``'s log, rebuilt from the setup.

    Each action that counts is applied with the log before it in place, so that a ``correct``
    among them reads its entry index against the log it was made on."""
    rebuilt = fresh(state.setup)
    for index in effective(state.log[:version]):
        action = state.log[index]
        rebuilt = dataclasses.replace(rebuilt, log=state.log[:index])
        rebuilt, _ = apply(rebuilt, action["seat"], cmd.parse_command(action))
    return dataclasses.replace(rebuilt, log=state.log[:version])


# The turn runner builds on the types above: imported last, as a module, so that either module
# may be imported first (``runner`` imports these types; ``apply`` reads ``runner.Work`` when
# called).
from . import runner  # noqa: E402
