"""HTTP views: create a table, join it, the table page, the projector, the record and the story."""

from __future__ import annotations

import io
import ipaddress
import math
from typing import Any, Final

import segno
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from game.engine.presets import PRESETS
from game.engine.state import MAX_PLAYERS
from game.models import Seat, Table
from game.ops import read_budget
from game.ops.address_limits import HourlyLimit, client_address, new_tables, too_many_tables
from game.services.lobby import (
    COLOURS,
    LobbyError,
    create_table,
    host_token_of,
    join_table,
)
from game.services.seating import claim
from game.services.stories import results_csv, story_json
from game.store.tables import downloadable_record
from game.web.catalogue import catalogue_json
from game.web.forms import OPTION_FIELDS, CreateTableForm, JoinForm, RejoinForm, house_rules
from game.words.messages import preset_name, preset_names, preset_summary
from messengers.serve import is_loopback

SEATS_KEY = "seats"
"""Session key: table code → the seat token this browser holds there."""


def _colour_map() -> dict[str, dict[str, str]]:
    return {c.id: {"hex": c.hex, "symbol": c.symbol, "label": str(c.label)} for c in COLOURS}


def _colours(taken: set[str] = frozenset()) -> list[dict[str, Any]]:  # type: ignore[assignment]
    return [
        {
            "id": c.id,
            "label": str(c.label),
            "hex": c.hex,
            "symbol": c.symbol,
            "taken": c.id in taken,
        }
        for c in COLOURS
    ]


def _remember_seat(request: HttpRequest, code: str, token: str) -> None:
    """Keep the seat in the session, most recent last, and only the latest ``SESSION_SEATS``:
    the session is a signed cookie, and a browser drops a cookie over 4 KB, and with it every
    seat it held (about 115 seats' worth)."""
    seats = dict(request.session.get(SEATS_KEY, {}))
    seats.pop(code, None)
    seats[code] = token
    kept = list(seats.items())[-settings.SESSION_SEATS :]
    request.session[SEATS_KEY] = dict(kept)


def _seat(request: HttpRequest, table: Table) -> Seat | None:
    token = request.session.get(SEATS_KEY, {}).get(table.code)
    if not token:
        return None
    return table.seats.filter(token=token).first()


def _is_host(request: HttpRequest, table: Table) -> bool:
    """Whether this browser's session holds the table's host token (which, at a tabletop game
    whose host keeps the score without playing, holds no seat)."""
    token = request.session.get(SEATS_KEY, {}).get(table.code)
    return bool(token) and token == host_token_of(table)


def _get_table(code: str) -> Table:
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise Http404(_("There is no table with that code."))
    return table


def _home_context(errors: list[str], values: dict[str, Any]) -> dict[str, Any]:
    return {
        "presets": [
            {"id": preset, "name": preset_name(preset), "summary": preset_summary(preset)}
            for preset in PRESETS
        ],
        "option_fields": OPTION_FIELDS,
        "colours": _colours(),
        "errors": errors,
        "values": values,
        "editions": list(preset_names().values()),
    }


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "game/home.html", _home_context([], {}))


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    """The home page's form (``CreateTableForm``): counted against the sender's hourly limit on
    new tables first, refused or not, then checked; a refusal shows the form again as it was
    posted, with every reason."""
    form = CreateTableForm(request.POST)
    limit = new_tables()
    if not limit.allow(request):
        error = too_many_tables(limit)
        return render(request, "game/home.html", _home_context([error], form.shown()), status=429)
    if not form.is_valid():
        context = _home_context(form.messages(), form.shown())
        return render(request, "game/home.html", context, status=400)
    fields = form.cleaned_data
    try:
        table, seat = create_table(
            preset=fields["preset"],
            overrides=fields["overrides"],
            mode=fields["mode"],
            seats=fields["seats"],
            name=fields["name"],
            colour=fields["colour"],
        )
    except LobbyError as error:
        context = _home_context([str(error)], form.shown())
        return render(request, "game/home.html", context, status=400)
    _remember_seat(request, table.code, seat.token)
    return redirect("table", code=table.code)


@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    return _table_page(request, _get_table(code), None)


def _table_page(
    request: HttpRequest, table: Table, join_error: str | None, status: int = 200
) -> HttpResponse:
    seat = _seat(request, table)
    seats = list(table.seats.all())
    host = _is_host(request, table)
    can_join = (
        seat is None
        and not host
        and table.status == Table.Status.LOBBY
        and len(seats) < table.max_seats
    )
    context: dict[str, Any] = {
        "table": table,
        "seat": seat,
        "host": host,
        "can_join": can_join,
        "join_error": join_error,
        "colours": _colours({s.colour for s in seats}),
        "colour_map": _colour_map(),
        "catalogue": catalogue_json(),
        "house_rules": house_rules(table.preset, table.overrides),
    }
    if table.mode == "tabletop" and table.status != Table.Status.LOBBY:
        # No board to draw: the scoreboard console takes the table page's place.
        context["implausible_points"] = settings.IMPLAUSIBLE_POINTS
        return render(request, "game/console.html", context, status=status)
    return render(request, "game/table.html", context, status=status)


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    table = _get_table(code)
    if _seat(request, table) is not None or _is_host(request, table):
        return redirect("table", code=code)
    limit = HourlyLimit("join", settings.JOINS_PER_HOUR)
    if not limit.allow(request):
        error = ngettext(
            "Too many seats taken from your address: at most %(count)s an hour. Please wait a"
            " while before joining another table.",
            "Too many seats taken from your address: at most %(count)s an hour. Please wait a"
            " while before joining another table.",
            limit.per_hour,
        ) % {"count": limit.per_hour}
        return _table_page(request, table, error, status=429)
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _table_page(request, table, form.messages()[0], status=400)
    try:
        seat = join_table(code, name=form.cleaned_data["name"], colour=form.cleaned_data["colour"])
    except LobbyError as error:
        return _table_page(request, table, str(error), status=400)
    _remember_seat(request, code, seat.token)
    return redirect("table", code=code)


@require_http_methods(["GET", "POST"])
def rejoin(request: HttpRequest, code: str) -> HttpResponse:
    """A seat's personal link for another device: ``/t/<code>/rejoin#<token>``.

    The token rides in the fragment, which browsers never send, so it never reaches a server's
    access log, a proxy or a Referer header. The page (GET) reads it with a script and POSTs it
    (with the CSRF token) back here; the POST puts it into this browser's session and redirects
    to the table. A wrong token changes nothing and says so.
    """
    table = _get_table(code)
    if request.method == "GET":
        return render(request, "game/rejoin.html", {"table": table, "error": None})
    form = RejoinForm(request.POST)
    token = form.cleaned_data["token"] if form.is_valid() else ""
    if not token or not table.seats.filter(token=token).exists():
        context = {"table": table, "error": _("This personal link is not valid for this table.")}
        return render(request, "game/rejoin.html", context, status=404)
    _remember_seat(request, code, token)
    claim(table, token)
    return redirect("table", code=code)


def rejoin_link(request: HttpRequest, code: str, token: str) -> str:
    """The absolute personal link of the seat holding ``token``: the token in the fragment."""
    return request.build_absolute_uri(reverse("rejoin", kwargs={"code": code})) + "#" + token


_QR_COLOURS: Final = {"scale": 8, "dark": "#111", "light": "#fff"}


def _qr_svg(url: str) -> str:
    """The QR code of ``url`` as SVG to put inside a page, sized by the page's CSS."""
    return segno.make(url, error="m").svg_inline(omitsize=True, **_QR_COLOURS)


def _qr_svg_file(url: str) -> bytes:
    """The QR code of ``url`` as a standalone SVG file for an ``<img>``: unlike the inline form,
    it carries the SVG namespace and a natural size, without which browsers show nothing."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, **_QR_COLOURS)
    return out.getvalue()


@require_GET
def seat_qr(request: HttpRequest, code: str, index: int) -> HttpResponse:
    """A seat's personal link as a QR code, so that a player at a real table can take over their
    seat by pointing a phone at a screen instead of typing a long link.

    The URL names the seat, not its token, so no token is ever written to an access log; the
    image is served only to a browser whose session holds that seat or the host's token: the
    host hands out every seat's link (to a player who lost theirs, to someone admitted to a seat,
    to the phones at a tabletop game); it is never cached. Anyone else gets the same 404 as for a
    seat that does not exist.
    """
    table = _get_table(code)
    mine = _seat(request, table)
    seat = table.seats.filter(index=index).first() if index < MAX_PLAYERS else None
    allowed = _is_host(request, table) or (mine is not None and mine.index == index)
    if seat is None or not allowed:
        raise Http404(_("There is no such seat for you at this table."))
    response = HttpResponse(
        _qr_svg_file(rejoin_link(request, code, seat.token)), content_type="image/svg+xml"
    )
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def projector(request: HttpRequest, code: str) -> HttpResponse:
    table = _get_table(code)
    join_url = request.build_absolute_uri(f"/t/{table.code}")
    qr_svg = _qr_svg(join_url)
    context = {
        "table": table,
        "join_url": join_url,
        "qr_svg": qr_svg,
        "qr_warning": _local_only(request, f"/t/{table.code}/projector"),
        "colour_map": _colour_map(),
        "house_rules": house_rules(table.preset, table.overrides),
        # The board of an online game (board.js, loaded only then) draws from the catalogue.
        "catalogue": catalogue_json() if table.mode == "board" else None,
    }
    return render(request, "game/projector.html", context)


def _local_only(request: HttpRequest, path: str) -> dict[str, Any] | None:
    """Whether the page was opened through an address that only this computer can reach
    (localhost, 127.0.0.1, ::1): a QR code of it sends every phone to itself. Then the
    projector's address on the network, when the server is reachable there (a game night's
    `make run HOST=0.0.0.0` allows this machine's network addresses; messengers/serve.py)."""
    name, port = split_domain_port(request.get_host())
    if not is_loopback(name):
        return None
    port = port or request.get_port()
    addresses = [
        allowed
        for allowed in settings.ALLOWED_HOSTS
        if _is_address(allowed) and not is_loopback(allowed)
    ]
    suffix = "" if port in ("80", "443") else f":{port}"
    lan = f"{request.scheme}://{addresses[0]}{suffix}{path}" if addresses else None
    return {"lan_url": lan}


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


@require_GET
def record(request: HttpRequest, code: str) -> HttpResponse:
    table = _get_table(code)
    if table.status != Table.Status.FINISHED:
        return JsonResponse(
            {
                "error": _(
                    "The record holds the tile and message orders: it is offered once the game"
                    " is over."
                )
            },
            status=409,
        )
    response = JsonResponse(downloadable_record(table), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="messengers-{table.code}.json"'
    return response


def _started(code: str) -> Table:
    """A table whose game has started (its story has a beginning); 404 otherwise."""
    table = _get_table(code)
    if table.status == Table.Status.LOBBY or table.setup is None:
        raise Http404(_("The game at this table has not started yet."))
    return table


@require_GET
def story_page(request: HttpRequest, code: str) -> HttpResponse:
    """The story as a page of its own, following the game live: the table page links to it (and
    a finished table keeps it), the console and the projector show the same inside them."""
    table = _started(code)
    return render(request, "game/story.html", {"table": table, "colour_map": _colour_map()})


class _StoryOverBudget(Exception):
    """The story refused past the read budget: answered 429 rather than raised to Django."""

    def __init__(self, over: read_budget.OverBudget) -> None:
        super().__init__(str(over))
        self.over = over

    def response(self) -> HttpResponse:
        """429 with the words for the person and when to try again."""
        answer = JsonResponse({"error": read_budget.refusal(self.over)}, status=429)
        answer["Retry-After"] = str(max(1, math.ceil(self.over.wait)))
        return answer


def _budgeted_story(request: HttpRequest, table: Table) -> dict[str, Any]:
    """The story within the table's and the client's read budget (read_budget.py): computed
    once per version, so only the first asker after an entry pays more than a cache look-up."""
    budget = read_budget.budget()
    keys = read_budget.keys(table.code, client_address(request))
    try:
        budget.check(keys)
    except read_budget.OverBudget as over:
        read_budget.refused("story")
        raise _StoryOverBudget(over) from None
    cost: list[float] = []
    try:
        return read_budget.measured(story_json, cost)(table)
    finally:
        budget.charge(keys, sum(cost))
        read_budget.spent("story", table.code, sum(cost))


@require_GET
def story(request: HttpRequest, code: str) -> HttpResponse:
    """The game's story so far (docs/protocol.md, "The story"): public facts only."""
    try:
        response = JsonResponse(_budgeted_story(request, _started(code)))
    except _StoryOverBudget as refused:
        return refused.response()
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def results(request: HttpRequest, code: str) -> HttpResponse:
    """The results and score history as CSV (columns: ``stories.CSV_COLUMNS``)."""
    table = _started(code)
    try:
        told = _budgeted_story(request, table)
    except _StoryOverBudget as refused:
        return refused.response()
    response = HttpResponse(results_csv(told), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="messengers-{table.code}.csv"'
    response["Cache-Control"] = "no-cache"
    return response
