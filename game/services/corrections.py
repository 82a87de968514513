"""Corrections at a tabletop game: the entries the host may correct, what a correction or an
entry would do before it is sent (previews, which change nothing), and the correction itself.

The engine knows how to correct a game (``engine.corrections``); this module adds what only the
server knows: how far back a correction may reach (``correction_window``, from the settings),
which entries the host's console lists, and the state to replay from (the store's nearest
checkpoint). A correction itself is a command like any other: ``commands.submit_command`` calls
``correct_entry`` under the table's lock and saves it the same way. A preview runs the same
checks on the current state and throws the result away, so it is refused with the code the
command would get."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from game.engine.commands import (
    CORRECTABLE,
    ChooseFigure,
    Correct,
    EndTurn,
    Score,
    ScoreShared,
)
from game.engine.corrections import TooOld, Window, check_window, plays
from game.engine.errors import EngineError
from game.engine.events import Event
from game.engine.outlook import figure_outlooks
from game.engine.state import GameState, Mode
from game.models import LogEntry, Table
from game.services.permissions import (
    Sender,
    acting_seat,
    check_host_only,
    check_shared_sender,
    default_seat,
    started_table,
)
from game.services.refusals import CommandRefused, apply_or_refuse, parse_or_refuse
from game.store import tables
from game.store.log import TableHead
from game.words.decisions import word_options
from game.words.narration import Line, narrate, scoring_words, undisclosed_draw

FIRST_TURN = 1
"""The turn a game's first entry is made in (turns are numbered from 1)."""


def correct_entry(
    state: GameState, table: TableHead, seat: int, command: Correct
) -> tuple[GameState, list[Event]]:
    """The engine's correction, replayed from the nearest checkpoint before the entry; an entry
    beyond the correction window is refused ``too_old`` before any replay."""
    try:
        check_window(state, command.entry, correction_window())
    except TooOld as error:
        raise CommandRefused.engine("too_old", error, table.version) from None
    try:
        return tables.correct((table.id, table.code), state, seat, command)
    except EngineError as error:
        raise CommandRefused.engine("illegal", error, table.version) from None


def preview(
    code: str, seat: int | None, command: object, *, host: bool | None = None
) -> dict[str, Any]:
    """What a ``correct`` would do, computed and not saved (protocol.md, "preview"): the lines
    the log would show, the entries that would lapse and every seat's figures after it.

    Host only; refused with the code and reason the correction itself would be refused with.
    A ``score`` or ``score_shared`` is previewed by ``entry_preview``.
    """
    parsed = parse_or_refuse(command, with_seat=True)
    if isinstance(parsed, Score | ScoreShared):
        assert isinstance(command, Mapping)
        return entry_preview(code, seat, command, parsed, host=host)
    if not isinstance(parsed, Correct):
        raise CommandRefused(
            "malformed", _("A preview shows a 'correct', 'score' or 'score_shared' command only.")
        )
    if seat is None and not host:
        raise CommandRefused("spectator", _("Spectators watch; only the host corrects entries."))
    with transaction.atomic():
        table, state = started_table(code)
        sender = Sender(table.id, seat, host)
        acting = seat if seat is not None else default_seat(state, table, parsed)
        check_host_only(state, table, sender, parsed)
        after, events = correct_entry(state, table, acting, parsed)
    names = [player.name for player in after.players]
    lines: list[Line] = narrate(
        [event for event in events if event["type"] != "message_drawn"], names, after.options
    )
    # Which message a correction would draw is hidden until the correction is made: a preview
    # must not let the host peek at the stack.
    lines += [
        undisclosed_draw(event["seat"], names)
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


def figures_moved(state: GameState) -> dict[int, dict[str, Any]]:
    """The entries whose figure was asked after them, each with the figure that moved filled
    in, by entry: the list names the figure of every entry alike, however it was chosen. The
    answer is the ``choose_figure`` play right after the entry. (A shared scoring's line names
    no figure, whoever's it was.)"""
    played = plays(state)
    found: dict[int, dict[str, Any]] = {}
    for (index, action), (_later, after) in zip(played, played[1:], strict=False):
        if (
            after.get("type") == ChooseFigure.type
            and action.get("type") in CORRECTABLE
            and action.get("type") != ScoreShared.type
            and not action.get("figure")
        ):
            found[index] = {**action, "figure": after.get("figure")}
    return found


def correctable(code: str, seat: int | None, *, host: bool | None = None) -> dict[str, Any]:
    """The entries a ``correct`` may name (the correction window), newest first, each in its
    latest form and in words (protocol.md, "entries"): what the host's console lists to choose
    from. Host only."""
    if seat is None and not host:
        raise CommandRefused("spectator", _("Spectators watch; only the host corrects entries."))
    row = Table.objects.filter(code=code).values_list("id", "status", "version", "mode").first()
    if row is None:
        raise CommandRefused("no_table", _("There is no such table."))
    table = TableHead(id=row[0], code=code, status=row[1], version=row[2])
    if not Sender(table.id, seat, host).host:
        raise CommandRefused("not_host", _("Only the host corrects entries."), table.version)
    if table.status == Table.Status.LOBBY or row[3] != Mode.TABLETOP:
        return {"type": "entries", "version": table.version, "entries": [], "turns": []}
    state = tables.load_state_at((table.id, table.code), table.version)
    names = [player.name for player in state.players]
    window = correction_window()
    found = window.plays(state)
    oldest = window.oldest(state)
    ends = [
        index
        for index, action in plays(state)
        if action.get("type") == EndTurn.type and index >= oldest
    ]

    def made(index: int) -> int:
        """The entry whose turn ``index`` belongs to: an added entry's is the one it was added
        before."""
        action = state.log[index]
        return action["entry"] if action.get("type") == Correct.type else index

    # An entry belongs to the turn it was made in: the turn after the entry before it (a
    # message's resolution moves the game on to the next turn, so its own ``turn`` is the next).
    wanted = {made(index) for index, _ in found} | set(ends)
    after = dict(
        LogEntry.objects.filter(
            table_id=table.id, index__in=[index - 1 for index in wanted if index > 0]
        ).values_list("index", "turn")
    )

    def turn(index: int) -> int | None:
        index = made(index)
        return after.get(index - 1) if index > 0 else FIRST_TURN

    moved = figures_moved(state)
    return {
        "type": "entries",
        "version": table.version,
        "entries": [
            {
                "entry": index,
                "action": dict(action),
                "turn": turn(index),
                "line": scoring_words(moved.get(index, action), names),
            }
            for index, action in reversed(found)
        ],
        "turns": [{"turn": turn(index), "entry": index} for index in reversed(ends)],
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
        raise CommandRefused("spectator", _("Spectators watch; only seated players can play."))
    with transaction.atomic():
        table, state = started_table(code)
    if state.mode is not Mode.TABLETOP:
        raise CommandRefused(
            "illegal", _("Entries are previewed at tabletop games only."), table.version
        )
    sender = Sender(table.id, seat, host)
    if isinstance(parsed, Score):
        named = command.get("seat")
        if named is not None and (not isinstance(named, int) or isinstance(named, bool)):
            raise CommandRefused("malformed", _("'seat' must be a seat number."), table.version)
        acting = acting_seat(state, table, sender, named, parsed)
        seats = [acting]
    else:
        check_shared_sender(table, sender, parsed)
        acting = seat if seat is not None else default_seat(state, table, parsed)
        seats = list(parsed.seats)
    apply_or_refuse(state, table, acting, parsed)
    names = [player.name for player in state.players]
    figures = []
    for named in seats:
        options = figure_outlooks(state, named, parsed.points)
        word_options(options, names, state.active)
        figures += [{"seat": named, **option} for option in options]
    return {
        "type": "preview",
        "command": dict(command),
        "version": table.version,
        "figures": figures,
    }
