"""Creating tables, taking seats and starting games: everything before the first command.

Each change that a table's pages show (a seat taken, the start, the rematch) is published to
the table after its commit (game/services/publish.py), whoever called the function."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django_stubs_ext import StrPromise

from game.engine.errors import EngineError
from game.engine.play import new_game
from game.engine.presets import PRESETS, resolve_options
from game.engine.shuffle import KEYED_SEED_MIN
from game.engine.state import MAX_PLAYERS, MIN_PLAYERS
from game.models import Seat, Table
from game.ops.address_limits import new_tables, too_many_tables
from game.services import publish
from game.services.names import BadName, alike, clean_name, isolate
from game.words.refusals import engine_words


@dataclass(frozen=True, slots=True)
class Colour:
    id: str
    label: StrPromise
    """The colour's name in the active language (lazy: read it with ``str``)."""
    hex: str
    symbol: str
    """A letter drawn on every figure, so that colours never need to be told apart by hue; the
    same in every language, since players at one table read it on pages in different ones
    (docs/languages.md)."""


COLOURS: Final = (
    Colour("blue", pgettext_lazy("colour", "Blue"), "#0072b2", "B"),
    Colour("orange", pgettext_lazy("colour", "Orange"), "#e69f00", "O"),
    Colour("green", pgettext_lazy("colour", "Green"), "#009e73", "G"),
    Colour("yellow", pgettext_lazy("colour", "Yellow"), "#f0e442", "Y"),
    Colour("pink", pgettext_lazy("colour", "Pink"), "#cc79a7", "P"),
    Colour("black", pgettext_lazy("colour", "Black"), "#222222", "K"),
    Colour("red", pgettext_lazy("colour", "Red"), "#d55e00", "R"),
)
"""The Okabe–Ito palette, chosen to stay distinct for the common forms of colour blindness; red
(its vermillion) is a colour of the base game, listed last so that a computer seated by the host
still takes the first free colour it took before. Each has its letter, shown on every figure and
swatch, for whoever still cannot tell two of them apart. A seat's colour is stored by its id, so
adding one changes no table that exists."""
COLOUR_IDS: Final = tuple(colour.id for colour in COLOURS)

NAME_LENGTH: Final = 20
MODES: Final = ("board", "tabletop")
DEFAULT_MODE: Final = "board"
DEFAULT_SEATS: Final = 4

EDITION_REFUSED: Final = gettext_lazy("Please choose one of the four editions.")
MODE_REFUSED: Final = gettext_lazy("Please choose whether to play on the board or at a game night.")
SEATS_REFUSED: Final = lazy(
    lambda: (
        _("A table has %(least)s to %(most)s seats.") % {"least": MIN_PLAYERS, "most": MAX_PLAYERS}
    ),
    str,
)()
COLOUR_REFUSED: Final = gettext_lazy("Please choose a colour.")
"""What a person is told about a field of the create or join form; the forms
(game/web/forms.py) check the same fields first, in the same words."""
_CODE_ALPHABET: Final = "abcdefghjkmnpqrstuvwxyz23456789"
_CODE_LENGTH: Final = 8
SEED_BITS: Final = 128


class LobbyError(ValueError):
    """A lobby request that cannot be granted; the message is shown to the player and ``code``
    names it in the websocket protocol's errors."""

    def __init__(self, message: str, code: str = "lobby") -> None:
        super().__init__(message)
        self.code = code


def new_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(16)


def clean_player_name(name: object) -> str:
    """The name as the table shows it (game/services/names.py), or a ``LobbyError`` saying why
    not."""
    try:
        return clean_name(name, NAME_LENGTH)
    except BadName as error:
        raise LobbyError(str(error)) from None


def clean_seat_name(name: object, others: Iterable[str]) -> str:
    """``name`` cleaned, unless it looks like one of ``others`` (``LobbyError`` says so)."""
    cleaned = clean_player_name(name)
    taken = alike(cleaned, others)
    if taken is not None:
        raise LobbyError(
            _(
                "%(name)s looks too much like %(taken)s, who already sits at this table (letters"
                " that look alike, or differ only in case, count as the same); please choose a"
                " name that tells you apart."
            )
            % {"name": isolate(cleaned), "taken": isolate(taken)}
        )
    return cleaned


def host_token_of(table: Table) -> str:
    """The host's token; seat 0's for tables made before hosts could change."""
    if table.host_token:
        return table.host_token
    return table.seats.filter(index=0).values_list("token", flat=True).first() or ""


def create_table(
    *,
    preset: str,
    overrides: Mapping[str, Any] | None = None,
    mode: str = DEFAULT_MODE,
    seats: int = DEFAULT_SEATS,
    name: str,
    colour: str,
) -> tuple[Table, Seat]:
    """Create a table with its creator in seat 0. Raises ``LobbyError`` for bad input."""
    if preset not in PRESETS:
        raise LobbyError(str(EDITION_REFUSED))
    try:
        resolve_options(preset, overrides or {})
    except EngineError as error:
        raise LobbyError(engine_words(error)) from None
    if mode not in MODES:
        raise LobbyError(str(MODE_REFUSED))
    if not isinstance(seats, int) or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise LobbyError(str(SEATS_REFUSED))
    cleaned = clean_player_name(name)
    if colour not in COLOUR_IDS:
        raise LobbyError(str(COLOUR_REFUSED))
    with transaction.atomic():
        for _attempt in range(5):
            code = new_code()
            if not Table.objects.filter(code=code).exists():
                break
        table = Table.objects.create(
            code=code,
            preset=preset,
            overrides=dict(overrides or {}),
            mode=mode,
            max_seats=seats,
            absent_after=settings.ABSENT_AFTER_SECONDS,
        )
        seat = Seat.objects.create(
            table=table, index=0, name=cleaned, colour=colour, token=new_token()
        )
        table.host_token = seat.token
        table.save(update_fields=["host_token"])
    return table, seat


def add_player(code: str, token: str | None, *, name: str, colour: str) -> Seat:
    """The host of a tabletop game seats a player who has no device of their own.

    The seat has a token like any other: the host can hand its rejoin link to the player later.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(code=code)
        if not token or token != host_token_of(table):
            raise LobbyError(_("Only the host can add players."), code="not_creator")
        if table.mode != "tabletop":
            raise LobbyError(
                _("Players without a device are added at tabletop games only."), code="not_tabletop"
            )
    return join_table(code, name=name, colour=colour)


def join_table(code: str, *, name: str, colour: str) -> Seat:
    """Give the next free seat to a new player. Raises ``LobbyError`` when that is impossible."""
    cleaned = clean_player_name(name)
    if colour not in COLOUR_IDS:
        raise LobbyError(str(COLOUR_REFUSED))
    try:
        with transaction.atomic():
            table = Table.objects.select_for_update().get(code=code)
            if table.status != Table.Status.LOBBY:
                raise LobbyError(_("This game has already started."))
            seats = list(table.seats.all())
            if len(seats) >= table.max_seats:
                raise LobbyError(_("Every seat at this table is taken."))
            if any(seat.colour == colour for seat in seats):
                raise LobbyError(_("That colour is taken; please choose another."))
            cleaned = clean_seat_name(cleaned, (seat.name for seat in seats))
            publish.changed(code)
            return Seat.objects.create(
                table=table, index=len(seats), name=cleaned, colour=colour, token=new_token()
            )
    except IntegrityError:
        raise LobbyError(
            _("Someone took that seat or colour a moment ago; please try again.")
        ) from None


def secret_seed() -> int:
    """A new game's seed: 128 bits from ``secrets``, marked (bit 128 set) as a key for the
    engine's keyed shuffle, so no number of public draws predicts the next one."""
    return KEYED_SEED_MIN | secrets.randbits(SEED_BITS)


def start_game(code: str, token: str) -> Table:
    """Start the game with the seats taken so far, in their order; only the host may."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(code=code)
        seats = list(table.seats.all())
        if not token or token != host_token_of(table):
            raise LobbyError(_("Only the host can start the game."), code="not_creator")
        if table.status != Table.Status.LOBBY:
            raise LobbyError(_("The game has already started."), code="not_ready")
        if len(seats) < MIN_PLAYERS:
            raise LobbyError(
                _("At least %(least)s players are needed to start.") % {"least": MIN_PLAYERS},
                code="not_ready",
            )
        seed = secret_seed()
        names = [seat.name for seat in seats]
        state, events = new_game(
            names,
            table.preset,
            options=table.overrides,
            mode=table.mode,
            seed=seed,
            tiles=settings.FIXED_TILES if table.mode == "board" else None,
            messages=[int(m) for m in settings.FIXED_MESSAGES] if settings.FIXED_MESSAGES else None,
        )
        setup = {
            "mode": table.mode,
            "players": names,
            "preset": table.preset,
            "options": state.options.to_json(),
            "seed": seed,
            "messages": list(state.setup.messages),
        }
        if table.mode == "board":
            setup["tiles"] = list(state.setup.tiles)
        table.setup = setup
        table.status = Table.Status.PLAYING
        table.version = 0
        table.save(update_fields=["setup", "status", "version", "updated"])
        publish.changed(code, history=True)
    return table


def rematch(code: str, token: str | None) -> tuple[Table, bool]:
    """The finished game's rematch ("Play again"), and whether this call created it
    (``start_rematch``)."""
    table, publication = start_rematch(code, token)
    return table, publication is not None


def start_rematch(
    code: str, token: str | None, may_create: Callable[[], bool] | None = None
) -> tuple[Table, publish.Publication | None]:
    """The finished game's rematch ("Play again"), and, when this call created it, the
    publication that moves every page of the finished table there (None otherwise).

    Any player of the finished game may ask; every later request (another player, another
    device, another server process) gets the same new table, so a double click or two players
    pressing at once make one rematch. The new table has the same edition, house rules, mode
    and seat count, and the same players with their names, colours and figure preferences, each
    with a new token; the seats turn by one, so that the start player moves on (the engine
    always starts with seat 0), and the game starts at once: the players are all there. The
    host keeps the role at their new seat (a host without a seat hands it to the start player:
    their token belongs to the finished table only). A computer player keeps its seat; a computer
    that only stood in for an absent person gives the seat back to that person.

    ``may_create`` is asked once, only when this call would make the new table: the sender's
    limit on new tables (address_limits.new_tables), so that "Play again" in a loop cannot make
    tables past the limit that the home page's form keeps. Refused with ``too_many_tables``.
    """
    try:
        with transaction.atomic():
            table = Table.objects.select_for_update().get(code=code)
            seats = list(table.seats.all())
            if not token or (
                all(seat.token != token for seat in seats) and token != host_token_of(table)
            ):
                raise LobbyError(
                    _("Only the players of this game can start a rematch."), code="not_player"
                )
            existing = Table.objects.filter(rematch_of=table).first()
            if existing is not None:
                return existing, None
            if table.status != Table.Status.FINISHED:
                raise LobbyError(
                    _("A rematch can start once the game is over."), code="not_finished"
                )
            if may_create is not None and not may_create():
                raise LobbyError(too_many_tables(new_tables()), code="too_many_tables")
            new = Table.objects.create(
                code=_free_code(),
                preset=table.preset,
                overrides=dict(table.overrides),
                mode=table.mode,
                max_seats=table.max_seats,
                rematch_of=table,
            )
            old_host = host_token_of(table)
            turned = seats[1:] + seats[:1]
            host_token = ""
            for index, old in enumerate(turned):
                seat = Seat.objects.create(
                    table=new,
                    index=index,
                    name=old.name,
                    colour=old.colour,
                    preference=old.preference,
                    token=new_token(),
                    computer="" if old.stand_in else old.computer,
                    vacant=old.vacant,
                )
                if old.token == old_host:
                    host_token = seat.token
            new.host_token = host_token or new.seats.get(index=0).token
            new.save(update_fields=["host_token"])
            publication = publish.rematch(code)
            return start_game(new.code, new.host_token), publication
    except IntegrityError:
        # Another process created it between our look and our insert (the one-to-one link).
        existing = Table.objects.filter(rematch_of__code=code).first()
        if existing is None:
            raise
        return existing, None


def rematch_seat(old: Seat) -> Seat | None:
    """The seat that ``old``'s player holds at the rematch of its table, if there is one.

    Found by colour, which is unique at a table and kept by the rematch.
    """
    return Seat.objects.filter(table__rematch_of_id=old.table_id, colour=old.colour).first()


def _free_code() -> str:
    """A table code no table uses yet (the unique column still has the last word)."""
    for _attempt in range(5):
        code = new_code()
        if not Table.objects.filter(code=code).exists():
            break
    return code


TABLE_CODE: Final = f"[{_CODE_ALPHABET}]{{{_CODE_LENGTH}}}"
"""A table code as ``game.services.lobby`` makes them. Anything else (too long, non-ASCII, a NUL
byte)
names no table, so it answers 404 without a query: PostgreSQL refuses NUL in text outright."""

_TABLE_CODE: Final = re.compile(TABLE_CODE)


def is_table_code(text: str) -> bool:
    return _TABLE_CODE.fullmatch(text) is not None
