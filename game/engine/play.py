"""How a game moves: its start, ``apply`` (the one way it moves forward), undo and the rebuilds of
earlier states.

``state.py`` holds the types alone, so that the turn runner (``runner.py``), the corrections and
the views build on them without importing this module back."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from . import commands as cmd
from . import runner
from .agenda import (
    StartTurn,
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
from .presets import resolve_options
from .shuffle import shuffled_orders
from .state import (
    MAX_PLAYERS,
    MESSAGES,
    MIN_PLAYERS,
    GameState,
    Mode,
    PlayerState,
    Setup,
    effective,
)
from .tiles import CATALOGUE, START_TILE, standard_bag


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
        raise IllegalCommand(
            f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}",
            "player_count",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            count=len(names),
        )
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise IllegalCommand("every player needs a name", "player_unnamed")
    try:
        game_mode = Mode(mode)
    except ValueError:
        raise OptionError(
            f"mode must be board or tabletop, not {mode!r}", "bad_mode", mode=str(mode)[:40]
        ) from None
    resolved = resolve_options(preset, options)
    bag, stack = shuffled_orders(seed, standard_bag(), MESSAGES)
    if tiles is not None:
        bag = list(tiles)
        _check_tiles(bag)
    if messages is not None:
        stack = list(messages)
        if sorted(stack) != list(MESSAGES):
            raise IllegalCommand(
                "the message stack must hold the messages 1 to 8, once each", "bad_message_stack"
            )
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
            raise IllegalCommand(
                f"unknown tile {letter!r}; tiles are lettered A to X",
                "unknown_tile",
                tile=str(letter)[:40],
            )
    for letter, tile in CATALOGUE.items():
        available = tile.count - (letter == START_TILE)
        if bag.count(letter) > available:
            raise IllegalCommand(
                f"the game has only {available} tiles {letter}",
                "too_many_tiles",
                tile=letter,
                count=available,
            )


def apply(state: GameState, seat: int, command: cmd.Command) -> tuple[GameState, list[Event]]:
    """Apply ``command`` from ``seat``; return the new state and what happened.

    Raises an ``IllegalCommand`` (naming the reason) when the rules do not allow it now; the
    given state is unchanged either way.
    """
    if not isinstance(command, cmd.Command):
        raise MalformedCommand(
            "a command must be built with commands.parse_command", "command_not_parsed"
        )
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise NotYourDecision(f"there is no seat {seat!r} at this table", "no_seat", seat=seat)
    if isinstance(command, cmd.Undo):
        return _undo(state, seat)
    if isinstance(command, cmd.Correct):
        from .corrections import correct  # corrections.py builds on this module

        return correct(state, seat, command)
    if state.finished:
        raise GameOver("the game is over", "game_over")
    if isinstance(command, cmd.Adjust):
        from .corrections import adjust

        return adjust(state, seat, command)
    work = runner.Work(state)
    work.decide(seat, command)
    work.advance()
    return work.freeze((*state.log, command.to_action(seat))), work.events


def undo_target(state: GameState) -> int:
    """The index in ``state.log`` of the action an undo would take back.

    Raises ``IllegalCommand`` when no undo is possible.
    """
    if state.mode is not Mode.TABLETOP:
        raise IllegalCommand("only entries of a tabletop game can be undone", "undo_not_tabletop")
    kept = effective(state.log)
    if not kept:
        raise IllegalCommand("there is nothing to undo", "nothing_to_undo")
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
        raise IllegalCommand("only entries of a tabletop game can be undone", "undo_not_tabletop")
    if before.version != target or before.setup.messages != state.setup.messages:
        raise IllegalCommand(
            "the state given is not the one before the action to undo", "undo_wrong_state"
        )
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
