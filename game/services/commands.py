"""The one place that changes a game: load the table, apply a command, save, publish.

``submit_command`` runs in one transaction with the table row locked, so two commands on one
table never interleave; the update goes to the table's group once that transaction commits
(game/services/publish.py), so nobody ever sees a state that was not saved, whoever called it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any, Final

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from game.engine.commands import (
    Adjust,
    ChooseFigure,
    Command,
    Correct,
    EndTurn,
    Score,
    ScoreShared,
    Undo,
)
from game.engine.errors import EngineError, TurnOver
from game.engine.events import LoggedEvent, PlayedBy
from game.engine.play import apply
from game.engine.state import GameState, Mode, effective
from game.models import LogEntry, Seat, Table
from game.services import limits
from game.services.corrections import correct_entry
from game.services.names import isolate
from game.services.permissions import (
    Sender,
    acting_seat,
    check_host_only,
    check_shared_sender,
    locked_table,
)
from game.services.refusals import (
    CommandRefused,
    apply_or_refuse,
    check_command_id,
    check_version,
    meanwhile_words,
    parse_or_refuse,
    turn_over_words,
)
from game.services.saving import Applied, answer_by_preference, new_entry, save_applied
from game.store import tables
from game.store.log import NewEntry, TableHead, has_command
from game.words.refusals import repeated_words, stale_words


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
    device: str = "",
    repeat: bool = False,
) -> Applied:
    """Apply ``command`` for ``seat`` if it was made against the table's current ``version``.

    ``as_seat``: at a tabletop game the host enters decisions for every seat; it names the seat
    the command is for. ``host``: whether the sender hosts the table (None: whether ``seat`` is
    the host's, looked up only when it matters); a host who keeps the score without playing
    sends with ``seat`` None. ``computer``: the level of the computer player that sends for
    ``seat``, which must still be played by one; the log then says so. Raises
    ``CommandRefused`` (and changes nothing) for anything that may not be applied.
    """
    parsed = parse_or_refuse(command, with_seat=False)
    command_id = check_command_id(command_id)
    version = check_version(version)
    if seat is None and not host:
        raise CommandRefused("spectator", _("Spectators watch; only seated players can play."))
    with transaction.atomic():
        table = locked_table(code)
        if table.status == Table.Status.LOBBY:
            raise CommandRefused("not_started", _("The game has not started yet."), table.version)
        if table.status == Table.Status.FINISHED and not isinstance(parsed, Undo | Correct):
            raise CommandRefused("game_over", _("The game is over."), table.version)
        if has_command(table.id, command_id):
            raise CommandRefused("duplicate", _("That command was already applied."), table.version)
        if version > table.version:
            raise CommandRefused("stale", _("That version is not the game's yet."), table.version)
        state = tables.load_state_at((table.id, table.code), table.version)
        sender = Sender(table.id, seat, host)
        acting = acting_seat(state, table, sender, as_seat, parsed)
        check_host_only(state, table, sender, parsed)
        check_shared_sender(table, sender, parsed)
        if version != table.version:
            _check_concurrent(state, table, version, acting, parsed)
        if computer:
            _check_computer(table, acting)
        try:
            limits.check(state, table.id, table.version, parsed)
        except limits.LimitReached as error:
            raise CommandRefused("limit", str(error), table.version) from None
        if device and not repeat and isinstance(parsed, _CONCURRENT):
            _check_repeat(state, table, parsed.to_action(acting), device)
        if isinstance(parsed, Undo):
            state, entries = _undo(state, table, sender, acting, command_id)
            return save_applied(table, state, entries, command_id, acting)
        events: Sequence[LoggedEvent]
        if isinstance(parsed, Correct):
            state, events = correct_entry(state, table, acting, parsed)
        else:
            state, events = apply_or_refuse(state, table, acting, parsed)
        if computer:
            events = [played_by(acting, computer), *events]
        entries = [new_entry(state, events, command_id, automatic=False, device=device)]
        state = answer_by_preference(table, state, entries)
        return save_applied(table, state, entries, command_id, acting)


def played_by(seat: int, level: str) -> PlayedBy:
    """The marker put first in the events of a computer's entry, so that the log says who
    played (narration.py names the seat "Bob (computer)" for the entry's lines)."""
    return {"type": "played_by", "seat": seat, "computer": level}


def _check_computer(table: TableHead, seat: int) -> None:
    """A computer's move for a seat its person took back in the meantime is refused."""
    if not Seat.objects.filter(table_id=table.id, index=seat).exclude(computer="").exists():
        raise CommandRefused("not_computer", _("A person plays that seat again."), table.version)


_CONCURRENT: Final = (Score, ScoreShared)
_CONCURRENT_TYPES: Final = frozenset({Score.type, ScoreShared.type})


def _check_concurrent(
    state: GameState, table: TableHead, version: int, acting: int, command: Command
) -> None:
    """Refuse a command made against an older ``version``, unless it is an entry of points that
    nothing since contradicts.

    At a game night several people enter points at once, and points for different seats in one round
    of scoring do not conflict (the order of other seats' entries changes nothing: only the active
    seat draws, judged when the round ends). So a ``score`` or ``score_shared`` is applied to the
    current state when every entry since ``version`` is one too (with the figure choices they asked
    for) or a host's adjustment (which draws nothing), of the same round, none of them for a seat
    this one credits; it must still be legal now. Anything else is refused ``stale``, saying what
    happened meanwhile; an ``end_turn`` naming a turn that is over is refused ``turn_over`` instead.
    """
    since = state.log[version:]
    meanwhile = meanwhile_words(state, since)
    if isinstance(command, EndTurn) and command.turn is not None:
        try:
            apply(state, acting, command)
        except TurnOver as error:
            raise CommandRefused(
                "turn_over", turn_over_words(state, table, command, error), table.version
            ) from None
        except EngineError:
            pass
    if not isinstance(command, _CONCURRENT):
        raise CommandRefused("stale", stale_words(meanwhile, counted=True), table.version)
    not_counted = stale_words(meanwhile, counted=False)
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
            "stale",
            stale_words(meanwhile, counted=False, reason=error, shown=isolate),
            table.version,
            None,
            error.code,
        ) from None


_BETWEEN_SCORES: Final = _CONCURRENT_TYPES | {Adjust.type, ChooseFigure.type}
"""Entries that may come between two entries of points of one round of scoring."""


def _check_repeat(
    state: GameState, table: TableHead, action: Mapping[str, Any], device: str
) -> None:
    """Refuse ``repeated`` an entry of points identical (same players, same points) to one
    another device made within ``REPEAT_ENTRY_SECONDS`` in the same round of scoring: the host
    and a player entering the same points at once would count them twice."""
    seconds = settings.REPEAT_ENTRY_SECONDS
    if not seconds:
        return
    since = timezone.now() - timedelta(seconds=seconds)
    recent = (
        LogEntry.objects.filter(table_id=table.id, created__gte=since, automatic=False)
        .order_by("-index")
        .values_list("action", "device")[:_REPEAT_LOOKBACK]
    )
    mine = _same_entry(action)
    for earlier, other in recent:
        if earlier["type"] not in _BETWEEN_SCORES:
            return
        if other and other != device and _same_entry(earlier) == mine:
            names = [isolate(player.name) for player in state.players]
            raise CommandRefused("repeated", repeated_words(earlier, names), table.version)


_REPEAT_LOOKBACK: Final = 20
"""How many of the latest entries an entry of points is compared with."""


def _same_entry(action: Mapping[str, Any]) -> tuple[str, frozenset[int], object]:
    """What makes two entries of points the same: their kind, players and points (not the
    figure or the category, which two people may well say differently)."""
    return (action["type"], frozenset(_credited(action)), action.get("points"))


def _credited(action: Mapping[str, Any]) -> list[int]:
    """The seats an entry of points credits."""
    if action["type"] == ScoreShared.type:
        return [share["seat"] for share in action["shares"]]
    if action["type"] in (Score.type, Adjust.type):
        return [action["seat"]]
    return []


def _undo(
    state: GameState, table: TableHead, sender: Sender, acting: int, command_id: str
) -> tuple[GameState, list[NewEntry]]:
    """Take back the latest entry a player made, with the figure choices the server then made
    for them from their standing preference (which would otherwise be made again at once).

    A player takes back only their own entries; the host, anyone's. A board game has no undo:
    every move stands, whoever asks.
    """
    if state.mode is not Mode.TABLETOP:
        raise CommandRefused(
            "illegal",
            _("Undo is only for game nights: in a board game every move stands."),
            table.version,
        )
    kept = effective(state.log)
    count = 1
    while count < len(kept) and _automatic(table.id, kept[-count]):
        count += 1
    if kept and not sender.host and state.log[kept[-count]]["seat"] != sender.seat:
        raise CommandRefused(
            "not_yours",
            _("Only the host can undo another player's entry."),
            table.version,
        )
    entries: list[NewEntry] = []
    key = (table.id, table.code)
    for taken in range(count):
        target = kept[-1 - taken] if kept else None
        try:
            state, events = tables.undo(key, state, acting, target)
        except EngineError as error:
            raise CommandRefused.engine("illegal", error, table.version) from None
        entries.append(new_entry(state, events, command_id if not entries else "", automatic=False))
    return state, entries


def _automatic(table_id: int, index: int) -> bool:
    """Whether log entry ``index`` is a figure choice the server made from a preference."""
    return LogEntry.objects.filter(table_id=table_id, index=index, automatic=True).exists()
