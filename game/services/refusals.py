"""Refusals: the error of a request that changes nothing, and the words that tell its sender why.

``CommandRefused`` carries one of docs/protocol.md's error codes and a message a person reads.
Every service raises it, and the websocket answers it to the sender alone as an ``error`` frame,
so one class here, below every service that refuses, keeps the codes and their words together.
The functions below turn into a refusal what may be refused: a command that does not parse, an
id or a version that is not one, an engine error (``apply_or_refuse``), and, for a command that
came too late, what happened meanwhile, in words."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from game.engine.commands import (
    Command,
    EndGame,
    EndTurn,
    Finish,
    Score,
    ScoreShared,
    Undo,
    parse_command,
)
from game.engine.errors import EngineError, GameOver, MalformedCommand, NotYourDecision, TurnOver
from game.engine.events import Event
from game.engine.play import apply
from game.engine.state import GameState
from game.models import LogEntry
from game.services import limits
from game.services.names import isolate
from game.store.log import TableHead

COMMAND_ID_LENGTH: Final = 64


class CommandRefused(Exception):
    """A request that changes nothing; ``code`` is one of protocol.md's error codes."""

    def __init__(
        self, code: str, message: str, version: int | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version
        self.field = field
        """The key of the message at fault, for an unknown or misplaced one."""


def parse_or_refuse(command: object, *, with_seat: bool) -> Command:
    """``with_seat``: whether the command may name its ``seat`` (a preview's entry does; a
    command frame names the seat beside the command, never inside it)."""
    try:
        return parse_command(command, with_seat=with_seat)  # type: ignore[arg-type]
    except MalformedCommand as error:
        message = str(error)
        if error.field == "seat":
            message += ": the seat a command is for goes beside it, as the frame's 'seat'"
        raise CommandRefused("malformed", message, field=error.field) from None


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
            f"a command needs an 'id' of 1 to {COMMAND_ID_LENGTH} characters"
            " (letters, digits and . _ : ~ -)",
        )
    return command_id


def check_version(version: object) -> int:
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise CommandRefused("malformed", "a command needs the 'version' it was made against")
    return version


def apply_or_refuse(
    state: GameState, table: TableHead, seat: int, command: Command
) -> tuple[GameState, list[Event]]:
    try:
        return apply(state, seat, command)
    except NotYourDecision as error:
        raise CommandRefused("not_your_turn", str(error), table.version) from None
    except TurnOver as error:
        message = turn_over_words(state, table, command, error)
        raise CommandRefused("turn_over", message, table.version) from None
    except GameOver as error:
        raise CommandRefused("game_over", str(error), table.version) from None
    except EngineError as error:
        raise CommandRefused("illegal", str(error), table.version) from None


_MEANWHILE_SHOWN: Final = 3
"""How many of the entries made meanwhile a refusal names (the latest); more are counted."""


def meanwhile_words(state: GameState, since: Sequence[Mapping[str, Any]]) -> str:
    """What the entries since a client's version did, in words: "4 points were entered for
    Cleo", for a refusal that must say why the client's entry did not count."""
    names = [player.name for player in state.players]
    said = [entry_words(action, names) for action in since if action["type"] != "choose_figure"]
    if not said:
        said = ["a figure was chosen"] if since else ["the game moved on"]
    shown = said[-_MEANWHILE_SHOWN:]
    text = ", ".join(shown)
    if len(said) > len(shown):
        text = f"{len(said) - len(shown)} more entries were made, then {text}"
    return text


def entry_words(action: Mapping[str, Any], names: Sequence[str]) -> str:
    """One entry in words for a refusal's "Meanwhile ..."."""

    def name(seat: int) -> str:
        return isolate(names[seat]) if 0 <= seat < len(names) else f"seat {seat + 1}"

    kind = action["type"]
    if kind == Score.type:
        points = action["points"]
        were = "1 point was" if points == 1 else f"{points} points were"
        return f"{were} entered for {name(action['seat'])}"
    if kind == ScoreShared.type:
        seats = [name(share["seat"]) for share in action["shares"]]
        return (
            f"{action['points']} points each were entered for {', '.join(seats[:-1])}"
            f" and {seats[-1]}"
        )
    if kind == EndTurn.type:
        return f"{name(action['seat'])}'s turn was ended"
    if kind == Undo.type:
        return "an entry was undone"
    if kind == "resolve_message":
        return f"{name(action['seat'])} resolved a message"
    if kind == EndGame.type:
        return "the game was ended"
    if kind == Finish.type:
        return "the final scoring was completed"
    done = _DONE.get(kind, f"played ({kind.replace('_', ' ')})")
    return f"{name(action['seat'])} {done}"


_DONE: Final = {
    "place_tile": "placed a tile",
    "place_follower": "placed a follower",
    "skip_follower": "placed no follower",
    "adjust": "had points adjusted by the host",
    "correct": "corrected an earlier entry",
}


def turn_over_words(state: GameState, table: TableHead, command: Command, error: TurnOver) -> str:
    """A refused ``end_turn`` naming whose turn it ended already: "Ann's turn has already
    ended; it is Bob's turn now." (the engine's words when the turn's seat is not known)."""
    assert isinstance(command, EndTurn) and command.turn is not None
    seat: int | None = None
    if command.turn < state.turn:
        seat = _turn_seat(table.id, command.turn)
    elif command.turn == state.turn and limits.turn_key(state) != limits.ENDING_TURN:
        seat = state.active
    if seat is None or not 0 <= seat < len(state.players):
        return f"{str(error)[:1].upper()}{str(error)[1:]}."
    ended = isolate(state.players[seat].name)
    now = isolate(state.players[state.active].name)
    if command.turn == state.turn:
        return f"{ended}'s turn is already ending; nothing more was ended."
    if seat == state.active:
        return f"{ended}'s turn {command.turn} has already ended; {now} plays another turn now."
    return f"{ended}'s turn has already ended; it is {now}'s turn now. Nothing more was ended."


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
