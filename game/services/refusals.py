"""Refusals: the error of a request that changes nothing, and the words that tell its sender why.

``CommandRefused`` carries one of docs/protocol.md's error codes and a message a person reads.
Every service raises it, and the websocket answers it to the sender alone as an ``error`` frame,
so one class here, below every service that refuses, keeps the codes and their words together.
The functions below turn into a refusal what may be refused: a command that does not parse, an
id or a version that is not one, an engine error (``apply_or_refuse``), and, for a command that
came too late, what happened meanwhile; game.words.refusals words them in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from django.utils.translation import gettext as _

from game.engine.commands import Command, EndTurn, parse_command
from game.engine.errors import EngineError, GameOver, MalformedCommand, NotYourDecision, TurnOver
from game.engine.events import Event
from game.engine.play import apply
from game.engine.state import GameState
from game.models import LogEntry
from game.services import limits
from game.services.names import isolate
from game.store.log import TableHead
from game.words import refusals as words

COMMAND_ID_LENGTH: Final = 64


class CommandRefused(Exception):
    """A request that changes nothing; ``code`` is one of protocol.md's error codes.

    ``message`` is worded in the reader's language (the one active where the refusal is made:
    the page's, or the websocket's, which its handlers and their threads inherit); programs
    read ``code``. ``reason``: the engine's code when the engine refused (game.words.refusals
    words it), for a client that wants to tell refusals of one code apart.
    """

    def __init__(
        self,
        code: str,
        message: str,
        version: int | None = None,
        field: str | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version
        self.field = field
        """The key of the message at fault, for an unknown or misplaced one."""
        self.reason = reason

    @classmethod
    def engine(cls, code: str, error: EngineError, version: int | None = None) -> CommandRefused:
        """A refusal for an engine error, in the reader's words (names isolated, as in every
        message that quotes one)."""
        field = error.field if isinstance(error, MalformedCommand) else None
        return cls(code, words.engine_words(error, isolate), version, field, error.code)


def parse_or_refuse(command: object, *, with_seat: bool) -> Command:
    """``with_seat``: whether the command may name its ``seat`` (a preview's entry does; a
    command frame names the seat beside the command, never inside it)."""
    try:
        return parse_command(command, with_seat=with_seat)  # type: ignore[arg-type]
    except MalformedCommand as error:
        if error.field == "seat":
            message = _(
                "A command takes no 'seat': the seat a command is for goes beside it, as the"
                " frame's 'seat'."
            )
            raise CommandRefused("malformed", message, field="seat", reason=error.code) from None
        raise CommandRefused.engine("malformed", error) from None


_COMMAND_ID: Final = re.compile(rf"[A-Za-z0-9._:~-]{{1,{COMMAND_ID_LENGTH}}}")
"""Printable ASCII without quotes, spaces or backslashes: an id is stored and echoed back, and
PostgreSQL refuses NUL and lone surrogates half-way through the transaction."""


def echoable_id(value: object) -> str | None:
    """A request's ``id`` as an answer may echo it: only a valid command id (a client's ids are
    short and plain), never an object or a long string sent back whole."""
    return value if isinstance(value, str) and _COMMAND_ID.fullmatch(value) else None


def check_command_id(command_id: object) -> str:
    if not isinstance(command_id, str) or _COMMAND_ID.fullmatch(command_id) is None:
        raise CommandRefused(
            "malformed",
            _(
                "A command needs an 'id' of 1 to %(length)s characters (letters, digits and"
                " . _ : ~ -)."
            )
            % {"length": COMMAND_ID_LENGTH},
        )
    return command_id


def check_version(version: object) -> int:
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise CommandRefused("malformed", _("A command needs the 'version' it was made against."))
    return version


def apply_or_refuse(
    state: GameState, table: TableHead, seat: int, command: Command
) -> tuple[GameState, list[Event]]:
    try:
        return apply(state, seat, command)
    except NotYourDecision as error:
        raise CommandRefused.engine("not_your_turn", error, table.version) from None
    except TurnOver as error:
        message = turn_over_words(state, table, command, error)
        raise CommandRefused("turn_over", message, table.version, reason=error.code) from None
    except GameOver as error:
        raise CommandRefused.engine("game_over", error, table.version) from None
    except EngineError as error:
        raise CommandRefused.engine("illegal", error, table.version) from None


def meanwhile_words(state: GameState, since: Sequence[Mapping[str, Any]]) -> str:
    """What the entries since a client's version did, in the reader's words."""
    return words.meanwhile_words([isolate(player.name) for player in state.players], since)


def turn_over_words(state: GameState, table: TableHead, command: Command, error: TurnOver) -> str:
    """A refused ``end_turn`` naming whose turn it ended already: "Ann's turn has already
    ended; it is Bob's turn now." (the engine's reason when the turn's seat is not known)."""
    assert isinstance(command, EndTurn) and command.turn is not None
    seat: int | None = None
    if command.turn < state.turn:
        seat = _turn_seat(table.id, command.turn)
    elif command.turn == state.turn and limits.turn_key(state) != limits.ENDING_TURN:
        seat = state.active
    if seat is None or not 0 <= seat < len(state.players):
        return words.engine_words(error, isolate)
    return words.turn_over_words(
        isolate(state.players[seat].name),
        isolate(state.players[state.active].name),
        command.turn,
        same_turn=command.turn == state.turn,
        again=seat == state.active,
    )


_TURN_STARTS_READ: Final = 8
"""How many of a turn's first log entries are read for the event that began it."""


def _turn_seat(table_id: int, turn: int) -> int | None:
    """The seat whose turn ``turn`` was, from the ``turn_started`` event of the entry that
    began it (the first turn began with the game, at seat 0)."""
    if turn == 1:
        return 0
    rows = (
        LogEntry.objects.filter(table_id=table_id, turn=turn)
        .order_by("index")
        .values_list("events", flat=True)[:_TURN_STARTS_READ]
    )
    for events in rows:
        for event in events:
            if event.get("type") == "turn_started" and event.get("turn") == turn:
                return int(event["seat"])
    return None
