"""The host's and the players' own changes to the seats: order, names, who hosts, who plays.

Every change runs with the table row locked and raises ``LobbyError`` (with a protocol error code)
before it changes anything when it is not allowed. Every page of the table takes a fresh snapshot
once the change is committed (``_changing``, game/services/publish.py), so every page shows it at
once, whoever made the change.

A seat is played by its person (who holds its token) or by a computer: one seated from the lobby,
or one that stands in for an absent person until they take the seat back. A token that should no
longer act (a removed player, one who left) is replaced, never kept beside a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from game.models import Connection, Seat, Table
from game.players import TABLE_LEVELS as LEVELS
from game.services import publish
from game.services.lobby import COLOUR_IDS, LobbyError, clean_seat_name, host_token_of, new_token
from game.services.presence import connected_seats

COMPUTER_NAMES: Final = ("Ada", "Bruno", "Carla", "Dario", "Elsa", "Fritz", "Greta", "Hugo")
"""Names for computer players, the first one that looks like nobody's at the table."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who a connection is: the seat its token holds (or None) and whether it hosts."""

    seat: int | None
    host: bool


host_token = host_token_of


def viewer(table: Table, token: str | None) -> Viewer:
    if not token:
        return Viewer(None, False)
    seat = Seat.objects.filter(table=table, token=token).values_list("index", flat=True).first()
    return Viewer(seat, token == host_token(table))


def _changing(code: str) -> Table:
    """The table, locked for a change in the current transaction; every page of the table
    takes a fresh snapshot once it commits (nothing is sent if it rolls back: a refused
    change)."""
    try:
        table = Table.objects.select_for_update().get(code=code)
    except Table.DoesNotExist:
        raise LobbyError(_("There is no such table."), code="no_table") from None
    publish.changed(code)
    return table


def _host_table(code: str, token: str | None, refusal: str) -> Table:
    """The table, if ``token`` is its host's; else ``refusal`` (worded) is raised."""
    table = _changing(code)
    if not token or token != host_token(table):
        raise LobbyError(refusal, code="not_host")
    return table


def _in_lobby(table: Table, refusal: str) -> None:
    if table.status != Table.Status.LOBBY:
        raise LobbyError(refusal, code="not_lobby")


def _playing(table: Table, refusal: str) -> None:
    if table.status != Table.Status.PLAYING:
        raise LobbyError(refusal, code="not_playing")


def _seat(table: Table, index: object) -> Seat:
    if not isinstance(index, int) or isinstance(index, bool):
        raise LobbyError(_("'seat' must be a seat number."), code="malformed")
    seat = Seat.objects.filter(table=table, index=index).first()
    if seat is None:
        raise LobbyError(_("There is no seat %(number)s.") % {"number": index + 1}, code="no_seat")
    return seat


def _renumber(table: Table, order: Sequence[int]) -> None:
    """Give the seats now at indices ``order`` the indices 0, 1, ... (and their connections)."""
    seats = {seat.index: seat for seat in Seat.objects.filter(table=table)}
    moved = {old: new for new, old in enumerate(order) if old != new}
    if not moved:
        return
    # Out of the way first: (table, index) is unique at every step.
    for old in moved:
        Seat.objects.filter(pk=seats[old].pk).update(index=old + 100)
    for old, new in moved.items():
        Seat.objects.filter(pk=seats[old].pk).update(index=new)
    for connection in list(Connection.objects.filter(table=table, seat__in=list(moved))):
        if connection.seat is not None:  # always: the filter names seats
            Connection.objects.filter(pk=connection.pk).update(seat=moved[connection.seat])


def reorder(code: str, token: str | None, order: object) -> None:
    """Seat the players in ``order`` (their current seat numbers); the first one starts."""
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can change the seating order."))
        _in_lobby(table, _("Players can change seats only before the game starts."))
        indices = sorted(Seat.objects.filter(table=table).values_list("index", flat=True))
        if (
            not isinstance(order, list)
            or not all(isinstance(i, int) and not isinstance(i, bool) for i in order)
            or sorted(order) != indices
        ):
            raise LobbyError(
                _("'order' must list every seat number once, in the new order."), code="malformed"
            )
        _renumber(table, order)
        table.save(update_fields=["updated"])


def start_player(code: str, token: str | None, seat: object) -> None:
    """Let ``seat`` start, keeping the order around the table (the seats turn round)."""
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can choose who starts."))
        _in_lobby(table, _("Players can change seats only before the game starts."))
        first = _seat(table, seat).index
        count = Seat.objects.filter(table=table).count()
        _renumber(table, [(first + step) % count for step in range(count)])
        table.save(update_fields=["updated"])


def rename(code: str, token: str | None, seat: object, name: object) -> None:
    """A new name for a seat: the host renames anyone, a player themselves."""
    with transaction.atomic():
        table = _changing(code)
        target = _seat(table, seat)
        if not token or token not in (host_token(table), target.token):
            raise LobbyError(_("Only the host can rename other players."), code="not_host")
        _in_lobby(table, _("Players can change names only before the game starts."))
        others = Seat.objects.filter(table=table).exclude(pk=target.pk)
        target.name = clean_seat_name(name, [other.name for other in others])
        target.save(update_fields=["name"])


def remove(code: str, token: str | None, seat: object) -> None:
    """Take a player (or a computer) off the table; their link stops working."""
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can remove players."))
        _in_lobby(table, _("Players can be removed only before the game starts."))
        target = _seat(table, seat)
        if target.token == host_token(table):
            raise LobbyError(
                _("The host cannot remove their own seat; hand the host role on first."),
                code="host_seat",
            )
        _delete_seat(table, target)


def _delete_seat(table: Table, target: Seat) -> None:
    Connection.objects.filter(table=table, seat=target.index).update(seat=None)
    target.delete()
    remaining = list(Seat.objects.filter(table=table).values_list("index", flat=True))
    _renumber(table, sorted(remaining))
    table.save(update_fields=["updated"])


def hand_host(code: str, token: str | None, seat: object) -> None:
    """Make the person in ``seat`` the host (at any time); the old host keeps their seat. The
    new host's page must be open, so that the role never lands where nobody can use it."""
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can hand the host role on."))
        target = _seat(table, seat)
        if target.token == table.host_token or (not table.host_token and target.index == 0):
            raise LobbyError(_("That player is the host already."), code="already_host")
        if target.computer and not target.stand_in:
            raise LobbyError(_("A computer player cannot host."), code="computer_seat")
        if target.vacant:
            raise LobbyError(_("Nobody sits in that seat now."), code="vacant_seat")
        if target.index not in connected_seats(table):
            # A seat nobody has open (a player without a phone, one who has gone) would take
            # the host role where nobody can use it.
            raise LobbyError(
                _("Hand the host role to a player whose page is open."), code="not_connected"
            )
        table.host_token = target.token
        table.save(update_fields=["host_token", "updated"])


def host_without_seat(code: str, token: str | None) -> None:
    """At a tabletop game, the host gives up their seat and keeps the score without playing.

    Their token stays the host's; it just holds no seat any more. A board game has no such host:
    everyone at it plays on the screen.
    """
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can keep the score without playing."))
        _in_lobby(table, _("Players can change seats only before the game starts."))
        if table.mode != "tabletop":
            raise LobbyError(
                _("Only at a tabletop game can the host keep the score without playing."),
                code="not_tabletop",
            )
        own = Seat.objects.filter(table=table, token=token).first()
        if own is None:
            raise LobbyError(_("You already keep the score without playing."), code="no_seat")
        table.host_token = own.token
        table.save(update_fields=["host_token", "updated"])
        _delete_seat(table, own)


def add_computer(code: str, token: str | None, level: object) -> Seat:
    """Seat a computer player in the lobby of a board game."""
    if level not in LEVELS:
        raise LobbyError(
            _("'level' must be one of %(levels)s.") % {"levels": ", ".join(LEVELS)},
            code="malformed",
        )
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can add computer players."))
        _in_lobby(table, _("Players can be added only before the game starts."))
        if table.mode != "board":
            raise LobbyError(
                _("Computer players play board games only; at a tabletop game the table plays."),
                code="not_board",
            )
        seats = list(Seat.objects.filter(table=table))
        if len(seats) >= table.max_seats:
            raise LobbyError(_("Every seat at this table is taken."), code="full")
        taken = {seat.colour for seat in seats}
        colour = next(colour for colour in COLOUR_IDS if colour not in taken)
        name = _computer_name([seat.name for seat in seats])
        return Seat.objects.create(
            table=table,
            index=len(seats),
            name=name,
            colour=colour,
            token=new_token(),
            computer=str(level),
        )


def _computer_name(names: Sequence[str]) -> str:
    for candidate in COMPUTER_NAMES:
        try:
            return clean_seat_name(candidate, names)
        except LobbyError:
            continue
    return clean_seat_name(f"Computer {len(names) + 1}", names)


def leave(code: str, token: str | None) -> None:
    """A player gives up their seat. In the lobby it goes; in a game it waits, vacant, for a
    computer or for someone the host admits, and the old personal link stops working."""
    with transaction.atomic():
        table = _changing(code)
        own = Seat.objects.filter(table=table, token=token).first() if token else None
        if own is None:
            raise LobbyError(_("You have no seat at this table."), code="spectator")
        if token == host_token(table):
            raise LobbyError(
                _("The host cannot leave; hand the host role to another player first."),
                code="host_seat",
            )
        if table.status == Table.Status.LOBBY:
            _delete_seat(table, own)
            return
        _playing(table, _("You can leave your seat only during the game."))
        own.token = new_token()
        own.vacant = True
        own.away_since = timezone.now()
        own.save(update_fields=["token", "vacant", "away_since"])
        Connection.objects.filter(table=table, seat=own.index).update(seat=None)
        table.save(update_fields=["updated"])


def admit(code: str, token: str | None, seat: object) -> None:
    """Give a seat a new personal link for a new person (the old link stops working); the host
    shows it, and whoever opens it takes the seat."""
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can admit someone to a seat."))
        target = _seat(table, seat)
        if target.token == host_token(table):
            raise LobbyError(_("That is the host's own seat."), code="host_seat")
        if target.computer and not target.stand_in and table.status == Table.Status.LOBBY:
            raise LobbyError(_("Remove the computer player instead."), code="computer_seat")
        if table.status == Table.Status.FINISHED:
            raise LobbyError(_("The game is over."), code="game_over")
        target.token = new_token()
        target.vacant = True
        target.save(update_fields=["token", "vacant"])
        Connection.objects.filter(table=table, seat=target.index).update(seat=None)
        table.save(update_fields=["updated"])


def claim(table: Table, token: str) -> None:
    """Someone opened a seat's personal link: a vacant seat has its person again."""
    Seat.objects.filter(table=table, token=token, vacant=True).update(vacant=False)
    publish.changed(table.code)


def away_seconds(seat: Seat, now: object = None) -> float:
    """How long the seat has had no connection (since it joined, if it never had one)."""
    since = seat.away_since or seat.joined
    moment = now if now is not None else timezone.now()
    return max(0.0, (moment - since).total_seconds())  # type: ignore[operator]


def computer_for(code: str, token: str | None, seat: object, level: object = "strong") -> None:
    """Let a computer play for an absent seat until its person takes it back.

    The host may do so for any seat without a connection, at any time; another seated player
    only for the seat to move once it has been absent for the table's ``absent_after``. A
    connected player's seat is never handed away.
    """
    if level not in LEVELS:
        raise LobbyError(
            _("'level' must be one of %(levels)s.") % {"levels": ", ".join(LEVELS)},
            code="malformed",
        )
    from game.services.computers import seat_to_move  # the engine's view of whose turn it is

    with transaction.atomic():
        table = _changing(code)
        target = _seat(table, seat)
        host = bool(token) and token == host_token(table)
        own = Seat.objects.filter(table=table, token=token).first() if token else None
        if not host and own is None:
            raise LobbyError(_("Only players at the table can do that."), code="spectator")
        _playing(table, _("You can hand a seat to a computer only during the game."))
        if table.mode != "board":
            raise LobbyError(_("Computer players play board games only."), code="not_board")
        if target.computer:
            raise LobbyError(_("A computer already plays that seat."), code="computer_seat")
        if target.index in connected_seats(table):
            raise LobbyError(
                _("That player is connected; only an absent player's seat can be handed over."),
                code="not_absent",
            )
        if not host:
            if seat_to_move(table) != target.index:
                raise LobbyError(
                    _("Only the host hands over a seat that is not the one to move."),
                    code="not_host",
                )
            if away_seconds(target) < table.absent_after:
                raise LobbyError(
                    _("Wait until the player has been away %(seconds)s seconds.")
                    % {"seconds": table.absent_after},
                    code="not_absent",
                )
        target.computer = str(level)
        target.stand_in = True
        target.save(update_fields=["computer", "stand_in"])
        table.save(update_fields=["updated"])


def take_back(code: str, token: str | None, seat: object) -> None:
    """The seat's person (or the host for them) takes the seat back from its stand-in."""
    with transaction.atomic():
        table = _changing(code)
        target = _seat(table, seat)
        if not token or token not in (target.token, host_token(table)):
            raise LobbyError(
                _("Only the seat's player or the host can take it back."), code="not_host"
            )
        if not target.stand_in:
            raise LobbyError(_("No computer stands in for that seat."), code="no_stand_in")
        target.computer = ""
        target.stand_in = False
        target.save(update_fields=["computer", "stand_in"])
        table.save(update_fields=["updated"])


def set_absent_after(code: str, token: str | None, seconds: object) -> None:
    """The host sets how long the seat to move may go without a connection before it counts as
    absent."""
    low, high = settings.ABSENT_AFTER_MIN_SECONDS, settings.ABSENT_AFTER_MAX_SECONDS
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not low <= seconds <= high:
        raise LobbyError(
            _("'seconds' must be a whole number from %(low)s to %(high)s.")
            % {"low": low, "high": high},
            "malformed",
        )
    with transaction.atomic():
        table = _host_table(code, token, _("Only the host can change the table's settings."))
        table.absent_after = seconds
        table.save(update_fields=["absent_after", "updated"])
