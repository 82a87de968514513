"""Who may do what at a table: the sender of a request, the host, and the seat a command is for.

Commands, previews, corrections and preferences ask the same questions (is the sender the host,
which seat does a host without one enter for), so the answers live here once, and a rule about
who may act changes in one place for all of them."""

from __future__ import annotations

from typing import Final

from django.utils.translation import gettext as _

from game.engine.commands import (
    Adjust,
    Command,
    Correct,
    EndGame,
    Finish,
    ScoreShared,
    Undo,
)
from game.engine.state import GameState, Mode, effective
from game.engine.views import pending
from game.models import Seat, Table
from game.services.refusals import CommandRefused
from game.store import tables
from game.store.log import TableHead, lock_table

HOST_SEAT: Final = 0
"""The host of a table made before hosts could change: its creator's seat."""


class Sender:
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


def started_table(code: str) -> tuple[TableHead, GameState]:
    """A started table's head and its current state, for a preview (inside a transaction)."""
    row = Table.objects.filter(code=code).values_list("id", "status", "version").first()
    if row is None:
        raise CommandRefused("no_table", _("There is no such table."))
    table = TableHead(id=row[0], code=code, status=row[1], version=row[2])
    if table.status == Table.Status.LOBBY:
        raise CommandRefused("not_started", _("The game has not started yet."), table.version)
    return table, tables.load_state_at((table.id, table.code), table.version)


def acting_seat(
    state: GameState, table: TableHead, sender: Sender, as_seat: object, command: Command
) -> int:
    """The seat a command is for: the sender's own, or any seat when a tabletop host says so.

    A host who does not play names the seat, or enters for the seat the game waits for (for an
    undo: the seat whose entry it takes back)."""
    if as_seat is None or as_seat == sender.seat:
        if sender.seat is not None:
            return sender.seat
        return default_seat(state, table, command)
    if not isinstance(as_seat, int) or isinstance(as_seat, bool):
        raise CommandRefused("malformed", _("'seat' must be a seat number."), table.version)
    if state.mode is not Mode.TABLETOP or not sender.host:
        raise CommandRefused(
            "not_host", _("Only the host of a tabletop game enters for other seats."), table.version
        )
    if not 0 <= as_seat < len(state.players):
        raise CommandRefused(
            "malformed", _("There is no seat %(number)s.") % {"number": as_seat + 1}, table.version
        )
    return as_seat


def default_seat(state: GameState, table: TableHead, command: Command) -> int:
    """The seat a host without one enters for when the command names none."""
    if state.mode is not Mode.TABLETOP:
        raise CommandRefused("spectator", _("Spectators watch; only seated players can play."))
    if isinstance(command, Undo):
        kept = effective(state.log)
        return int(state.log[kept[-1]]["seat"]) if kept else 0
    waiting = pending(state)
    if waiting is not None and waiting["seat"] is not None:
        return waiting["seat"]
    return state.active


def check_host_only(state: GameState, table: TableHead, sender: Sender, command: Command) -> None:
    """Only the host ends or finishes a tabletop game: anyone else could otherwise end it in the
    middle of another's turn. Only the host adjusts points and corrects earlier entries."""
    if state.mode is Mode.TABLETOP and isinstance(command, EndGame | Finish) and not sender.host:
        raise CommandRefused(
            "not_host", _("Only the host ends or finishes a tabletop game."), table.version
        )
    if isinstance(command, Adjust | Correct) and not sender.host:
        raise CommandRefused(
            "not_host",
            _("Only the host adjusts points or corrects earlier entries."),
            table.version,
        )


def check_shared_sender(table: TableHead, sender: Sender, command: Command) -> None:
    """A shared scoring comes from the host or from a player who shares it: a player enters
    points for others only together with their own, and chooses only their own figure (each
    player of a shared scoring chooses theirs where the edition lets them)."""
    if not isinstance(command, ScoreShared) or sender.host:
        return
    if sender.seat not in command.seats:
        raise CommandRefused(
            "not_host",
            _(
                "Only the host, or a player among those who share the points, enters a shared"
                " scoring."
            ),
            table.version,
        )
    if any(share.figure is not None and share.seat != sender.seat for share in command.shares):
        raise CommandRefused(
            "not_host",
            _(
                "Each player chooses the figure for their own share; leave the others' figures"
                " open (they are asked), or let the host enter it."
            ),
            table.version,
        )


def locked_table(code: str) -> TableHead:
    table = lock_table(code)
    if table is None:
        raise CommandRefused("no_table", _("There is no such table."))
    return table
