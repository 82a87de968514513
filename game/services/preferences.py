"""A seat's standing answer to "which figure takes these points?", used at once when it is asked.

A player who always moves the same figure is not asked each time: the server answers the prompt
for them as they would have (``saving.answer_by_preference``, after every command). Setting the
preference while such a prompt waits answers it at once, saved and published like a command."""

from __future__ import annotations

from typing import Final

from django.db import transaction
from django.utils.translation import gettext as _

from game.engine.state import Mode
from game.models import Seat, Table
from game.services import publish
from game.services.permissions import Sender, locked_table
from game.services.refusals import CommandRefused
from game.services.saving import Applied, answer_by_preference, save_applied
from game.store import tables
from game.store.log import NewEntry

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
        raise CommandRefused("spectator", _("Spectators have no figures."))
    if figure not in Seat.Preference.values:
        raise CommandRefused("malformed", _("'figure' must be ask, meeple or messenger"))
    with transaction.atomic():
        table = locked_table(code)
        if as_seat is not None and as_seat != seat:
            mode = Table.objects.values_list("mode", flat=True).get(pk=table.id)
            if mode != Mode.TABLETOP or not Sender(table.id, seat, host).host:
                raise CommandRefused(
                    "not_host", _("Only the host of a tabletop game sets other seats' figures.")
                )
            if not isinstance(as_seat, int) or isinstance(as_seat, bool):
                raise CommandRefused("malformed", _("'seat' must be a seat number."))
            if not Seat.objects.filter(table_id=table.id, index=as_seat).exists():
                raise CommandRefused(
                    "malformed", _("There is no seat %(number)s.") % {"number": as_seat + 1}
                )
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
            state = answer_by_preference(table, state, entries)
            if entries:
                applied = save_applied(table, state, entries, "", seat)  # type: ignore[arg-type]
        publish.changed(code)
        return applied
