"""The one place that changes a game: load the table, apply a command, save, publish.

``submit_command`` runs in one transaction with the table row locked, so two commands on one
table never interleave; the update goes to the table's group once that transaction commits
(game/publish.py), so nobody ever sees a state that was not saved, whoever called it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from django.conf import settings
from django.db import transaction

from . import limits, metrics, publish, tables
from .engine.commands import (
    Adjust,
    ChooseFigure,
    Command,
    Correct,
    EndGame,
    EndTurn,
    Finish,
    Score,
    ScoreShared,
    Undo,
    parse_command,
)
from .engine.corrections import TooOld, Window, check_window
from .engine.errors import EngineError, GameOver, MalformedCommand, NotYourDecision, TurnOver
from .engine.events import LoggedEvent, PlayedBy
from .engine.outlook import figure_outlooks
from .engine.state import Event, GameState, Mode, apply, effective
from .engine.views import pending
from .jsontext import dumps
from .models import LogEntry, Seat, Table
from .names import isolate
from .narration import narrate, scoring_words
from .store import NewEntry, TableHead, append, has_command, lock_table

COMMAND_ID_LENGTH: Final = 64
HOST_SEAT: Final = 0
"""The host of a table made before hosts could change: its creator's seat."""


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


@dataclass(frozen=True, slots=True)
class Applied:
    """What a successful command changed; published to the table's group after the commit."""

    code: str
    from_version: int
    version: int
    command_id: str
    seat: int
    events: list[LoggedEvent]
    lines: list[str]
    view_json: str
    finished: bool
    reopened: bool = False
    """An undo took back the end of a finished tabletop game."""
    publication: publish.Publication = field(
        default_factory=publish.Publication, compare=False, repr=False
    )
    """The update's publication, sent once the transaction commits."""

    def message(self) -> dict[str, Any]:
        """The group message: the ``update`` frame serialised once, the same text for every
        connection of the table (a page knows its own seat from its snapshot)."""
        head = {
            "type": "update",
            "from_version": self.from_version,
            "version": self.version,
            "id": self.command_id,
            "seat": self.seat,
            "events": self.events,
            "lines": self.lines,
        }
        return {
            "type": publish.UPDATE,
            "text": dumps(head)[:-1] + ',"view":' + self.view_json + "}",
            "finished": self.finished or self.reopened,
        }


def _parse(command: object, *, with_seat: bool) -> Command:
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


def _check_command_id(command_id: object) -> str:
    if not isinstance(command_id, str) or _COMMAND_ID.fullmatch(command_id) is None:
        raise CommandRefused(
            "malformed",
            f"a command needs an 'id' of 1 to {COMMAND_ID_LENGTH} characters"
            " (letters, digits and . _ : ~ -)",
        )
    return command_id


def _check_version(version: object) -> int:
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise CommandRefused("malformed", "a command needs the 'version' it was made against")
    return version


def submit_command(
    code: str,
    seat: int | None,
    version: object,
    command_id: object,
    command: object,
    as_seat: object = None,
    *,
    host: bool | None = None,
    computer: str = "",
) -> Applied:
    """Apply ``command`` for ``seat`` if it was made against the table's current ``version``.

    ``as_seat``: at a tabletop game the host enters decisions for every seat; it names the seat
    the command is for. ``host``: whether the sender hosts the table (None: whether ``seat`` is
    the host's, looked up only when it matters); a host who keeps the score without playing
    sends with ``seat`` None. ``computer``: the level of the computer player that sends for
    ``seat``, which must still be played by one; the log then says so. Raises
    ``CommandRefused`` (and changes nothing) for anything that may not be applied.
    """
    parsed = _parse(command, with_seat=False)
    command_id = _check_command_id(command_id)
    version = _check_version(version)
    if seat is None and not host:
        raise CommandRefused("spectator", "Spectators watch; only seated players can play.")
    with transaction.atomic():
        table = _locked_table(code)
        if table.status == Table.Status.LOBBY:
            raise CommandRefused("not_started", "The game has not started yet.", table.version)
        if table.status == Table.Status.FINISHED and not isinstance(parsed, Undo | Correct):
            raise CommandRefused("game_over", "The game is over.", table.version)
        if has_command(table.id, command_id):
            raise CommandRefused("duplicate", "That command was already applied.", table.version)
        if version > table.version:
            raise CommandRefused("stale", "That version is not the game's yet.", table.version)
        state = tables.load_state_at((table.id, table.code), table.version)
        sender = _Sender(table.id, seat, host)
        acting = _acting_seat(state, table, sender, as_seat, parsed)
        _check_host_only(state, table, sender, parsed)
        _check_shared_sender(table, sender, parsed)
        if version != table.version:
            _check_concurrent(state, table, version, acting, parsed)
        if computer:
            _check_computer(table, acting)
        try:
            limits.check(state, table.id, table.version, parsed)
        except limits.LimitReached as error:
            raise CommandRefused("limit", str(error), table.version) from None
        if isinstance(parsed, Undo):
            state, entries = _undo(state, table, sender, acting, command_id)
            return _save(table, state, entries, command_id, acting)
        events: Sequence[LoggedEvent]
        if isinstance(parsed, Correct):
            state, events = _correct(state, table, acting, parsed)
        else:
            state, events = _apply(state, table, acting, parsed)
        if computer:
            events = [played_by(acting, computer), *events]
        entries = [_entry(state, events, command_id, automatic=False)]
        state = _answer_by_preference(table, state, entries)
        return _save(table, state, entries, command_id, acting)


def played_by(seat: int, level: str) -> PlayedBy:
    """The marker put first in the events of a computer's entry, so that the log says who
    played (narration.py names the seat "Bob (computer)" for the entry's lines)."""
    return {"type": "played_by", "seat": seat, "computer": level}


def _check_computer(table: TableHead, seat: int) -> None:
    """A computer's move for a seat its person took back in the meantime is refused."""
    if not Seat.objects.filter(table_id=table.id, index=seat).exclude(computer="").exists():
        raise CommandRefused("not_computer", "A person plays that seat again.", table.version)


class _Sender:
    """Who sent a command: a seat (or none, for a host who does not play) and whether they
    host, looked up only when a rule asks."""

    def __init__(self, table_id: int, seat: int | None, host: bool | None) -> None:
        self.table_id = table_id
        self.seat = seat
        self._host = host

    @property
    def host(self) -> bool:
        if self._host is None:
            self._host = self.seat is not None and is_host_seat(self.table_id, self.seat)
        return self._host


def is_host_seat(table_id: int, seat: int) -> bool:
    """Whether the seat's token is the host's (seat 0 hosts tables made before hosts could
    change)."""
    row = Table.objects.filter(pk=table_id).values_list("host_token", flat=True).first()
    if not row:
        return seat == HOST_SEAT
    return Seat.objects.filter(table_id=table_id, index=seat, token=row).exists()


def _apply(
    state: GameState, table: TableHead, seat: int, command: Command
) -> tuple[GameState, list[Event]]:
    try:
        return apply(state, seat, command)
    except NotYourDecision as error:
        raise CommandRefused("not_your_turn", str(error), table.version) from None
    except TurnOver as error:
        message = _turn_over(state, table, command, error)
        raise CommandRefused("turn_over", message, table.version) from None
    except GameOver as error:
        raise CommandRefused("game_over", str(error), table.version) from None
    except EngineError as error:
        raise CommandRefused("illegal", str(error), table.version) from None


def _correct(
    state: GameState, table: TableHead, seat: int, command: Correct
) -> tuple[GameState, list[Event]]:
    """The engine's correction, replayed from the nearest checkpoint before the entry; an entry
    beyond the correction window is refused ``too_old`` before any replay."""
    try:
        check_window(state, command.entry, correction_window())
    except TooOld as error:
        message = str(error)
        raise CommandRefused(
            "too_old", f"{message[:1].upper()}{message[1:]}.", table.version
        ) from None
    try:
        return tables.correct((table.id, table.code), state, seat, command)
    except EngineError as error:
        raise CommandRefused("illegal", str(error), table.version) from None


def _started_table(code: str) -> tuple[TableHead, GameState]:
    """A started table's head and its current state, for a preview (inside a transaction)."""
    row = Table.objects.filter(code=code).values_list("id", "status", "version").first()
    if row is None:
        raise CommandRefused("no_table", "There is no such table.")
    table = TableHead(id=row[0], code=code, status=row[1], version=row[2])
    if table.status == Table.Status.LOBBY:
        raise CommandRefused("not_started", "The game has not started yet.", table.version)
    return table, tables.load_state_at((table.id, table.code), table.version)


def preview(
    code: str, seat: int | None, command: object, *, host: bool | None = None
) -> dict[str, Any]:
    """What a ``correct`` would do, computed and not saved (protocol.md, "preview"): the lines
    the log would show, the entries that would lapse and every seat's figures after it.

    Host only; refused with the code and reason the correction itself would be refused with.
    A ``score`` or ``score_shared`` is previewed by ``entry_preview``.
    """
    parsed = _parse(command, with_seat=True)
    if isinstance(parsed, Score | ScoreShared):
        assert isinstance(command, Mapping)
        return entry_preview(code, seat, command, parsed, host=host)
    if not isinstance(parsed, Correct):
        raise CommandRefused(
            "malformed", "A preview shows a 'correct', 'score' or 'score_shared' command only."
        )
    if seat is None and not host:
        raise CommandRefused("spectator", "Spectators watch; only the host corrects entries.")
    with transaction.atomic():
        table, state = _started_table(code)
        sender = _Sender(table.id, seat, host)
        acting = seat if seat is not None else _default_seat(state, table, parsed)
        _check_host_only(state, table, sender, parsed)
        after, events = _correct(state, table, acting, parsed)
    names = [player.name for player in after.players]
    lines = narrate(
        [event for event in events if event["type"] != "message_drawn"], names, after.options
    )
    # Which message a correction would draw is hidden until the correction is made: a preview
    # must not let the host peek at the stack.
    lines += [
        f"{isolate(names[event['seat']])} draws a message"
        for event in events
        if event["type"] == "message_drawn"
    ]
    return {
        "type": "preview",
        "command": command,
        "lines": lines,
        "lapsed": [
            {"entry": event.get("entry"), "line": narrate([event], names)[0]}
            for event in events
            if event["type"] in ("lapsed", "undrawn")
        ],
        "scores": [{"meeple": p.meeple, "messenger": p.messenger} for p in after.players],
        "version": table.version,
    }


def correction_window() -> Window:
    """How far back a ``correct`` reaches (settings ``CORRECTABLE_ENTRIES`` and
    ``CORRECTION_REACH``): the entries the ``entries`` list shows, and only those."""
    return Window(entries=settings.CORRECTABLE_ENTRIES, reach=settings.CORRECTION_REACH)


def correctable(code: str, seat: int | None, *, host: bool | None = None) -> dict[str, Any]:
    """The entries a ``correct`` may name (the correction window), newest first, each in its
    latest form and in words (protocol.md, "entries"): what the host's console lists to choose
    from. Host only."""
    if seat is None and not host:
        raise CommandRefused("spectator", "Spectators watch; only the host corrects entries.")
    row = Table.objects.filter(code=code).values_list("id", "status", "version", "mode").first()
    if row is None:
        raise CommandRefused("no_table", "There is no such table.")
    table = TableHead(id=row[0], code=code, status=row[1], version=row[2])
    if not _Sender(table.id, seat, host).host:
        raise CommandRefused("not_host", "Only the host corrects entries.", table.version)
    if table.status == Table.Status.LOBBY or row[3] != Mode.TABLETOP:
        return {"type": "entries", "version": table.version, "entries": []}
    state = tables.load_state_at((table.id, table.code), table.version)
    names = [player.name for player in state.players]
    found = correction_window().plays(state)
    turns = dict(
        LogEntry.objects.filter(
            table_id=table.id, index__in=[index for index, _ in found]
        ).values_list("index", "turn")
    )
    return {
        "type": "entries",
        "version": table.version,
        "entries": [
            {
                "entry": index,
                "action": dict(action),
                "turn": turns.get(index),
                "line": scoring_words(action, names),
            }
            for index, action in reversed(found)
        ],
    }


def entry_preview(
    code: str,
    seat: int | None,
    command: Mapping[str, Any],
    parsed: Score | ScoreShared,
    *,
    host: bool | None = None,
) -> dict[str, Any]:
    """Where each named seat's figures would land with a tabletop entry's points, and whether
    that would draw a message (``outlook.figure_outlook``), computed and not saved.

    Allowed to whoever may send the entry itself (the host for any seat, a player for their
    own seat or a shared scoring that includes it), and refused with the codes the entry would
    get: the entry is applied to the table's state and thrown away, so every rule it breaks is
    the engine's to say.
    """
    if seat is None and not host:
        raise CommandRefused("spectator", "Spectators watch; only seated players can play.")
    with transaction.atomic():
        table, state = _started_table(code)
    if state.mode is not Mode.TABLETOP:
        raise CommandRefused(
            "illegal", "Entries are previewed at tabletop games only.", table.version
        )
    sender = _Sender(table.id, seat, host)
    if isinstance(parsed, Score):
        named = command.get("seat")
        if named is not None and (not isinstance(named, int) or isinstance(named, bool)):
            raise CommandRefused("malformed", "'seat' must be a seat number", table.version)
        acting = _acting_seat(state, table, sender, named, parsed)
        seats = [acting]
    else:
        _check_shared_sender(table, sender, parsed)
        acting = seat if seat is not None else _default_seat(state, table, parsed)
        seats = list(parsed.seats)
    _apply(state, table, acting, parsed)
    figures = [
        {"seat": named, **option}
        for named in seats
        for option in figure_outlooks(state, named, parsed.points)
    ]
    return {
        "type": "preview",
        "command": dict(command),
        "version": table.version,
        "figures": figures,
    }


def _acting_seat(
    state: GameState, table: TableHead, sender: _Sender, as_seat: object, command: Command
) -> int:
    """The seat a command is for: the sender's own, or any seat when a tabletop host says so.

    A host who does not play names the seat, or enters for the seat the game waits for (for an
    undo: the seat whose entry it takes back)."""
    if as_seat is None or as_seat == sender.seat:
        if sender.seat is not None:
            return sender.seat
        return _default_seat(state, table, command)
    if not isinstance(as_seat, int) or isinstance(as_seat, bool):
        raise CommandRefused("malformed", "'seat' must be a seat number", table.version)
    if state.mode is not Mode.TABLETOP or not sender.host:
        raise CommandRefused(
            "not_host", "Only the host of a tabletop game enters for other seats.", table.version
        )
    if not 0 <= as_seat < len(state.players):
        raise CommandRefused("malformed", f"There is no seat {as_seat + 1}.", table.version)
    return as_seat


def _default_seat(state: GameState, table: TableHead, command: Command) -> int:
    """The seat a host without one enters for when the command names none."""
    if state.mode is not Mode.TABLETOP:
        raise CommandRefused("spectator", "Spectators watch; only seated players can play.")
    if isinstance(command, Undo):
        kept = effective(state.log)
        return int(state.log[kept[-1]]["seat"]) if kept else 0
    waiting = pending(state)
    if waiting is not None and waiting["seat"] is not None:
        return waiting["seat"]
    return state.active


def _check_host_only(state: GameState, table: TableHead, sender: _Sender, command: Command) -> None:
    """Only the host ends or finishes a tabletop game: anyone else could otherwise end it in the
    middle of another's turn. Only the host adjusts points and corrects earlier entries."""
    if state.mode is Mode.TABLETOP and isinstance(command, EndGame | Finish) and not sender.host:
        raise CommandRefused(
            "not_host", "Only the host ends or finishes a tabletop game.", table.version
        )
    if isinstance(command, Adjust | Correct) and not sender.host:
        raise CommandRefused(
            "not_host", "Only the host adjusts points or corrects earlier entries.", table.version
        )


def _check_shared_sender(table: TableHead, sender: _Sender, command: Command) -> None:
    """A shared scoring comes from the host or from a player who shares it: a player enters
    points for others only together with their own, and chooses only their own figure (each
    player of a shared scoring chooses theirs where the edition lets them)."""
    if not isinstance(command, ScoreShared) or sender.host:
        return
    if sender.seat not in command.seats:
        raise CommandRefused(
            "not_host",
            "Only the host, or a player among those who share the points, enters a shared scoring.",
            table.version,
        )
    if any(share.figure is not None and share.seat != sender.seat for share in command.shares):
        raise CommandRefused(
            "not_host",
            "Each player chooses the figure for their own share; leave the others' figures open"
            " (they are asked), or let the host enter it.",
            table.version,
        )


_CONCURRENT: Final = (Score, ScoreShared)
_CONCURRENT_TYPES: Final = frozenset({Score.type, ScoreShared.type})


def _check_concurrent(
    state: GameState, table: TableHead, version: int, acting: int, command: Command
) -> None:
    """Refuse a command made against an older ``version``, unless it is an entry of points that
    nothing since contradicts.

    At a game night several people enter points at once, and points for different seats in one
    round of scoring do not conflict (the order of other seats' entries changes nothing: only the
    active seat draws, judged when the round ends). So a ``score`` or ``score_shared`` is applied
    to the current state when every entry since ``version`` is one too (with the figure choices
    they asked for) or a host's adjustment (which draws nothing), of the same round, none of them
    for a seat this one credits; it must still
    be legal now. Anything else is refused ``stale``, saying what happened meanwhile; an
    ``end_turn`` naming a turn that is over is refused ``turn_over`` instead.
    """
    since = state.log[version:]
    meanwhile = _meanwhile(state, since)
    if isinstance(command, EndTurn) and command.turn is not None:
        try:
            apply(state, acting, command)
        except TurnOver as error:
            raise CommandRefused(
                "turn_over", _turn_over(state, table, command, error), table.version
            ) from None
        except EngineError:
            pass
    if not isinstance(command, _CONCURRENT):
        raise CommandRefused("stale", f"Meanwhile {meanwhile}; please decide again.", table.version)
    not_counted = f"Meanwhile {meanwhile}; yours were not counted."
    if (
        not since
        or since[0]["type"] not in _CONCURRENT_TYPES | {Adjust.type}
        or any(
            action["type"] not in _CONCURRENT_TYPES | {Adjust.type, ChooseFigure.type}
            for action in since
        )
    ):
        raise CommandRefused("stale", not_counted, table.version)
    credited = {seat for action in since for seat in _credited(action)}
    mine = set(_credited(command.to_action(acting)))
    if credited & mine:
        raise CommandRefused("stale", not_counted, table.version)
    try:
        apply(state, acting, command)
    except EngineError as error:
        raise CommandRefused(
            "stale", f"Meanwhile {meanwhile}; yours were not counted ({error}).", table.version
        ) from None


def _credited(action: Mapping[str, Any]) -> list[int]:
    """The seats an entry of points credits."""
    if action["type"] == ScoreShared.type:
        return [share["seat"] for share in action["shares"]]
    if action["type"] in (Score.type, Adjust.type):
        return [action["seat"]]
    return []


_MEANWHILE_SHOWN: Final = 3
"""How many of the entries made meanwhile a refusal names (the latest); more are counted."""


def _meanwhile(state: GameState, since: Sequence[Mapping[str, Any]]) -> str:
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


def _turn_over(state: GameState, table: TableHead, command: Command, error: TurnOver) -> str:
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


def _undo(
    state: GameState, table: TableHead, sender: _Sender, acting: int, command_id: str
) -> tuple[GameState, list[NewEntry]]:
    """Take back the latest entry a player made, with the figure choices the server then made
    for them from their standing preference (which would otherwise be made again at once).

    A player takes back only their own entries; the host, anyone's. A board game has no undo:
    every move stands, whoever asks.
    """
    if state.mode is not Mode.TABLETOP:
        raise CommandRefused(
            "illegal",
            "Undo is only for tabletop games: in a board game every move stands.",
            table.version,
        )
    kept = effective(state.log)
    count = 1
    while count < len(kept) and _automatic(table.id, kept[-count]):
        count += 1
    if kept and not sender.host and state.log[kept[-count]]["seat"] != sender.seat:
        raise CommandRefused(
            "not_yours",
            "Only the host can undo another player's entry.",
            table.version,
        )
    entries: list[NewEntry] = []
    key = (table.id, table.code)
    for taken in range(count):
        target = kept[-1 - taken] if kept else None
        try:
            state, events = tables.undo(key, state, acting, target)
        except EngineError as error:
            raise CommandRefused("illegal", str(error), table.version) from None
        entries.append(_entry(state, events, command_id if not entries else "", automatic=False))
    return state, entries


def _automatic(table_id: int, index: int) -> bool:
    """Whether log entry ``index`` is a figure choice the server made from a preference."""
    return LogEntry.objects.filter(table_id=table_id, index=index, automatic=True).exists()


UNCHANGED: Final = "unchanged"
"""What ``set_preference`` returns when the seat already had that preference: nothing to tell."""


def set_preference(
    code: str, seat: int | None, figure: object, as_seat: object = None, *, host: bool | None = None
) -> Applied | str | None:
    """Store a seat's standing answer to "which figure?", and use it at once if it is asked.

    Returns the commands it answered, None if it answered none, or ``UNCHANGED``. Every page
    of the table takes a fresh snapshot after the commit (after the update, if any).

    ``as_seat``: the host of a tabletop game sets it for a player who has no device.
    """
    if seat is None and not (host and as_seat is not None):
        raise CommandRefused("spectator", "Spectators have no figures.")
    if figure not in Seat.Preference.values:
        raise CommandRefused("malformed", "'figure' must be ask, meeple or messenger")
    with transaction.atomic():
        table = _locked_table(code)
        if as_seat is not None and as_seat != seat:
            mode = Table.objects.values_list("mode", flat=True).get(pk=table.id)
            if mode != Mode.TABLETOP or not _Sender(table.id, seat, host).host:
                raise CommandRefused(
                    "not_host", "Only the host of a tabletop game sets other seats' figures."
                )
            if not isinstance(as_seat, int) or isinstance(as_seat, bool):
                raise CommandRefused("malformed", "'seat' must be a seat number")
            if not Seat.objects.filter(table_id=table.id, index=as_seat).exists():
                raise CommandRefused("malformed", f"There is no seat {as_seat + 1}.")
            seat = as_seat
        assert seat is not None  # refused above: a spectator acts only as a host for a seat
        changed = (
            Seat.objects.filter(table_id=table.id, index=seat)
            .exclude(preference=figure)
            .update(preference=figure)
        )
        if not changed:
            return UNCHANGED
        applied: Applied | None = None
        if table.status == Table.Status.PLAYING:
            state = tables.load_state_at((table.id, table.code), table.version)
            entries: list[NewEntry] = []
            state = _answer_by_preference(table, state, entries)
            if entries:
                applied = _save(table, state, entries, "", seat)  # type: ignore[arg-type]
        publish.changed(code)
        return applied


def _locked_table(code: str) -> TableHead:
    table = lock_table(code)
    if table is None:
        raise CommandRefused("no_table", "There is no such table.")
    return table


def _entry(
    state: GameState, events: Sequence[LoggedEvent], command_id: str, *, automatic: bool
) -> NewEntry:
    return NewEntry(
        index=state.version - 1,
        action=dict(state.log[-1]),
        events=events,
        command_id=command_id,
        automatic=automatic,
        turn=limits.turn_key(state),
    )


def _answer_by_preference(table: TableHead, state: GameState, entries: list[NewEntry]) -> GameState:
    """Answer figure prompts of seats that set a standing preference, as they would have."""
    preferences: dict[int, str] | None = None
    while True:
        waiting = pending(state)
        if waiting is None or waiting["type"] != "choose_figure" or waiting["seat"] is None:
            return state
        if preferences is None:
            preferences = dict(
                Seat.objects.filter(table_id=table.id)
                .exclude(preference=Seat.Preference.ASK)
                .values_list("index", "preference")
            )
        figure = preferences.get(waiting["seat"])
        if figure is None:
            return state
        state, events = apply(state, waiting["seat"], ChooseFigure(figure))
        entries.append(_entry(state, events, "", automatic=True))


def _save(
    table: TableHead, state: GameState, entries: list[NewEntry], command_id: str, seat: int
) -> Applied:
    append(table, entries, finished=state.finished)
    tables.save_checkpoint(table.id, table.version, state)
    transaction.on_commit(lambda: tables.remember((table.id, table.code), state))
    transaction.on_commit(functools.partial(metrics.count_decisions, len(entries)))
    events = [event for entry in entries for event in entry.events]
    applied = Applied(
        code=table.code,
        from_version=table.version,
        version=state.version,
        command_id=command_id,
        seat=seat,
        events=events,
        lines=[
            line
            for entry in entries
            for line in narrate(
                entry.events, [player.name for player in state.players], state.options
            )
        ],
        view_json=tables.public_view_json(state),
        finished=state.finished,
        reopened=table.status == Table.Status.FINISHED and not state.finished,
    )
    publish.after_commit(table.code, applied.message, applied.publication)
    return applied
