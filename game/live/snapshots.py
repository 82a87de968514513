"""What a connection receives when it (re)connects: the table, its state and its history, worded
in the connection's language (the one active while these functions run)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from game.engine.messengers import DARK_EVERY, SCOREBOARD_SPACES
from game.engine.presets import resolve_options
from game.models import Seat, Table
from game.players import TABLE_LEVELS as LEVELS
from game.services import presence
from game.services.lobby import COLOURS, rematch_seat
from game.services.presence import connected_seats, offer_in
from game.services.seating import Viewer, away_seconds, viewer
from game.store.tables import effective_events, history_entries, load_state
from game.words.messages import message_names, message_rule, preset_name
from game.words.narration import Line, final_breakdown, narrate
from game.words.views import public_view_json

_SYMBOLS = {colour.id: colour.symbol for colour in COLOURS}

TRACK: Final = {
    "spaces": SCOREBOARD_SPACES,
    "dark": list(range(0, SCOREBOARD_SPACES, DARK_EVERY)),
}
"""The score track the scoreboard draws: its spaces and the dark ones (rules/messengers.md §1)."""


class NoSuchTable(LookupError):
    """The table code names no table."""


def _table(code: str) -> Table:
    try:
        return Table.objects.get(code=code)
    except Table.DoesNotExist:
        raise NoSuchTable(code) from None


def _seat_of(table: Table, token: str | None) -> int | None:
    if not token:
        return None
    return Seat.objects.filter(table=table, token=token).values_list("index", flat=True).first()


@dataclass(frozen=True, slots=True)
class Welcome:
    """All a new connection receives, read in one visit to the database."""

    seat: int | None
    """The seat its token holds, or None for a spectator (no token, or a wrong one)."""
    host: bool
    """Whether its token is the host's (who may hold no seat at a tabletop game)."""
    snapshot: str
    history: str
    """The ``history`` message (its latest page)."""
    presence: list[dict[str, object]] | None
    """Who is connected now that this seat is, to tell the table; None for a spectator."""
    computers: bool
    """A game with computer players: one may be waiting for someone to watch
    (game/services/computers.py)."""


def welcome(code: str, token: str | None, channel: str) -> Welcome:
    """Seat a new connection: who it is, its arrival noted, its snapshot and the history.

    One call instead of one per step: after a server restart every browser reconnects at once,
    and each thread hop and each read of the table row is paid by every one of them.
    """
    table = _table(code)
    who = viewer(table, token)
    seat = who.seat
    presence.arrive(table, seat, channel)
    return Welcome(
        seat=seat,
        host=who.host,
        snapshot=snapshot_of(table, seat, host=who.host),
        history=history_page(history_of(table)),
        presence=None if seat is None else presence.summary_of(table),
        computers=has_computers(table),
    )


def table_info(table: Table, seat: int | None, *, host: bool | None = None) -> dict[str, Any]:
    """The table as ``seat`` sees it; ``host``: whether the viewer hosts (None: whether ``seat``
    is the host's). Only the host's copy holds other seats' personal links."""
    seats = list(table.seats.all())
    connected = connected_seats(table)
    own = next((s for s in seats if s.index == seat), None)
    finished = table.status == Table.Status.FINISHED
    host_token = table.host_token or next((s.token for s in seats if s.index == 0), "")
    if host is None:
        host = own is not None and own.token == host_token
    now = timezone.now()
    away = {s.index: 0 if s.index in connected else int(away_seconds(s, now)) for s in seats}
    options = resolve_options(table.preset, table.overrides)
    return {
        "code": table.code,
        "status": table.status,
        "preset": table.preset,
        "preset_name": preset_name(table.preset),
        "mode": table.mode,
        "max_seats": table.max_seats,
        "options": options.to_json(),
        "message_names": message_names(options),
        "message_rule": message_rule(options),
        "track": TRACK,
        "seats": [
            {
                "seat": s.index,
                "name": s.name,
                "colour": s.colour,
                "symbol": _SYMBOLS.get(s.colour, "?"),
                "connected": s.index in connected,
                "away_seconds": away[s.index],
                "offer_in": offer_in(table, s.index in connected, bool(s.computer), away[s.index]),
                "preference": s.preference,
                "computer": s.computer or None,
                "stand_in": s.stand_in,
                "vacant": s.vacant,
                "host": s.token == host_token,
            }
            for s in seats
        ],
        "you": seat,
        "creator": host,
        "host": host,
        "absent_after": table.absent_after,
        "absent_after_range": [
            settings.ABSENT_AFTER_MIN_SECONDS,
            settings.ABSENT_AFTER_MAX_SECONDS,
        ],
        "levels": list(LEVELS),
        "rejoin_url": None if own is None else rejoin_url(table.code, own.token),
        "rejoin_qr_url": None if own is None else seat_qr_url(table.code, own.index),
        "join_url": reverse("table", kwargs={"code": table.code}),
        "projector_url": reverse("projector", kwargs={"code": table.code}),
        "record_url": reverse("record", kwargs={"code": table.code}) if finished else None,
        "seat_links": _seat_links(table, seats) if host else None,
        "rematch": _rematch_info(table, own) if finished else None,
        "previous": _previous_info(table),
    }


def _rematch_info(table: Table, own: Seat | None) -> dict[str, Any] | None:
    """Where the next game with the same players is, once someone pressed "Play again".

    ``rejoin_url`` carries the token of the reader's own seat there (in the fragment, like
    ``rejoin_url`` above), so only a seat's own pages ever receive it; None for a spectator.
    """
    new = Table.objects.filter(rematch_of=table).only("code").first()
    if new is None:
        return None
    return rematch_links(new.code, None if own is None else rematch_seat(own))


def rematch_links(code: str, seat: Seat | None) -> dict[str, Any]:
    """The addresses of the rematch table ``code`` for the holder of ``seat`` (None: anyone)."""
    return {
        "code": code,
        "url": reverse("table", kwargs={"code": code}),
        "projector_url": reverse("projector", kwargs={"code": code}),
        "rejoin_url": None if seat is None else rejoin_url(code, seat.token),
    }


def _previous_info(table: Table) -> dict[str, Any] | None:
    """The finished game this table is the rematch of, with its record, for a link back."""
    if table.rematch_of_id is None:
        return None
    previous = Table.objects.filter(pk=table.rematch_of_id).only("code").first()
    if previous is None:
        return None
    return {
        "code": previous.code,
        "url": reverse("table", kwargs={"code": previous.code}),
        "record_url": reverse("record", kwargs={"code": previous.code}),
    }


def rematch_message(code: str, token: str | None) -> str | None:
    """The ``rematch`` message for one connection of the finished table ``code``: the new
    table's addresses, with the token of this connection's own seat there and no other.

    None when the table has no rematch (yet).
    """
    table = _table(code)
    new = Table.objects.filter(rematch_of=table).only("code").first()
    if new is None:
        return None
    own = Seat.objects.filter(table=table, token=token).first() if token else None
    links = rematch_links(new.code, None if own is None else rematch_seat(own))
    return json.dumps({"type": "rematch", **links}, separators=(",", ":"))


def rejoin_url(code: str, token: str) -> str:
    """A seat's personal link, with its token in the fragment: browsers never send a fragment,
    so the token stays out of every access log (the page there posts it to claim the seat)."""
    return reverse("rejoin", kwargs={"code": code}) + "#" + token


def seat_qr_url(code: str, index: int) -> str:
    """The QR code of a seat's personal link; the URL names the seat, never its token."""
    return reverse("seat_qr", kwargs={"code": code, "index": index})


def _seat_links(table: Table, seats: list[Seat]) -> list[dict[str, Any]]:
    """Every seat's personal link, for the host only: to hand to a player who lost theirs, to
    someone new the host admits to a seat, or at a tabletop game to players who would rather
    enter their own points on their phones."""
    return [
        {
            "seat": s.index,
            "url": rejoin_url(table.code, s.token),
            "qr_url": seat_qr_url(table.code, s.index),
        }
        for s in seats
    ]


def snapshot(code: str, seat: int | None, *, host: bool | None = None) -> str:
    """The ``snapshot`` message for ``seat`` (None: a spectator), as JSON text."""
    return snapshot_of(_table(code), seat, host=host)


def refreshed(code: str, token: str | None) -> tuple[Viewer, str, bool]:
    """Who ``token`` is now, its snapshot and whether the game has computer players: after a
    change to the seats a connection's seat may have moved (a new order), or gone (removed,
    left, a new link for it)."""
    table = _table(code)
    who = viewer(table, token)
    return who, snapshot_of(table, who.seat, host=who.host), has_computers(table)


def has_computers(table: Table) -> bool:
    """A game under way with a seat that a computer plays (game/services/computers.py)."""
    return table.status == Table.Status.PLAYING and table.seats.exclude(computer="").exists()


def snapshot_of(table: Table, seat: int | None, *, host: bool | None = None) -> str:
    info = table_info(table, seat, host=host)
    if table.status == Table.Status.FINISHED:
        info["final_scoring"] = final_breakdown(effective_events(table), len(info["seats"]))
    view_json = "null"
    if table.status != Table.Status.LOBBY:
        view_json = public_view_json(load_state(table))
    head = json.dumps(
        {"type": "snapshot", "table": info, "version": table.version}, separators=(",", ":")
    )
    return head[:-1] + ',"view":' + view_json + "}"


def history(code: str, before: int | None = None) -> str:
    """The ``history`` message: the game so far in words, its latest page or the page that ends
    just before line ``before``."""
    return history_page(history_of(_table(code)), before)


def history_page(lines: list[Line], before: int | None = None) -> str:
    """At most ``settings.HISTORY_LINES`` lines ending before line ``before`` (default: the end).

    A long tabletop game logs thousands of entries; sending them all on every connect and sync
    costs hundreds of kilobytes. ``earlier`` says how many lines precede the page (a client may ask
    for them with ``before``); it is also the index of the page's first line.
    """
    end = len(lines) if before is None else max(0, min(before, len(lines)))
    start = max(0, end - settings.HISTORY_LINES)
    return json.dumps(
        {"type": "history", "lines": lines[start:end], "earlier": start},
        separators=(",", ":"),
    )


def history_of(table: Table) -> list[Line]:
    if table.setup is None:
        return []
    names = table.setup["players"]
    options = resolve_options(table.preset, table.overrides)
    return [line for events in history_entries(table) for line in narrate(events, names, options)]
