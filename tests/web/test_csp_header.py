"""Every response carries the Content-Security-Policy that docs/deployment.md describes.

Each of the site's routes is asked in the states it has (a lobby, a game of either mode, a
finished game, a refused form), and so are the admin, a static file, a page that does not exist
and a form refused by the CSRF check: each answer must carry exactly the policy stated here. A
new route must be added to `CASES` (a test checks that every route of game/urls.py is there), and
a change of the policy must change `EXPECTED` too. That the pages obey it is checked in Chromium
(tests/browser/test_browser_csp.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import URLPattern

from game import urls
from game.models import Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game

pytestmark = pytest.mark.django_db

EXPECTED = {
    "default-src": {"'none'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'", "blob:"},
    "connect-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'none'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}
"""The policy: the site's own scripts, styles, images (and blob: URLs its scripts make) and
websocket; nothing inline, nothing from elsewhere; no plugin, no <base>, forms only to the site,
never in a frame."""

CREATE_FORM = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Ann", "colour": "blue"}


def policy(response: HttpResponse) -> dict[str, set[str]]:
    """The directives of the response's Content-Security-Policy, each with its sources."""
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy (status {response.status_code})"
    directives: dict[str, set[str]] = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = set(sources)
    return directives


@dataclass
class Tables:
    """A client holding the host's seat at each table, and the tables' codes."""

    host: Client
    lobby: str
    board: str
    tabletop: str
    finished: str


def host_tables() -> Tables:
    """Tables in each state, all created by one browser (the host's seat in its session)."""
    host = Client()

    def create(**fields: str) -> str:
        response = host.post("/tables", {**CREATE_FORM, **fields})
        assert response.status_code == 302, response.content
        return str(response["Location"]).rsplit("/", 1)[1]

    lobby = create()
    board = create()
    tabletop = create(mode="tabletop")
    for code in (board, tabletop):
        join_table(code, name="Bob", colour="orange")
        start_game(code, Table.objects.get(code=code).host_token)
    finished = finished_table()
    return Tables(host, lobby, board, tabletop, finished)


def finished_table() -> str:
    """A tabletop game played to its end through the services (story, record, results)."""
    table, ann = create_table(preset="c2-hig", mode="tabletop", name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)

    def send(body: dict[str, Any], as_seat: int | None = None) -> None:
        version = Table.objects.get(pk=table.pk).version
        submit_command(table.code, 0, version, f"c{version}", body, as_seat)

    send({"type": "score", "points": 3, "figure": "meeple"}, 0)
    send({"type": "end_turn"}, 0)
    send({"type": "end_game"})
    for seat in (0, 1):
        send({"type": "choose_figure", "figure": "meeple"}, seat)
    send({"type": "finish"})
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    return table.code


Request = Callable[[Tables], HttpResponse]

CASES: dict[str, tuple[str, Request]] = {
    "home": ("home", lambda t: t.host.get("/")),
    "create": ("create", lambda t: Client().post("/tables", CREATE_FORM)),
    "create refused": ("create", lambda t: Client().post("/tables", {"name": ""})),
    "lobby": ("table", lambda t: t.host.get(f"/t/{t.lobby}")),
    "lobby, visitor": ("table", lambda t: Client().get(f"/t/{t.lobby}")),
    "board game": ("table", lambda t: t.host.get(f"/t/{t.board}")),
    "tabletop console": ("table", lambda t: t.host.get(f"/t/{t.tabletop}")),
    "finished game": ("table", lambda t: Client().get(f"/t/{t.finished}")),
    "join": (
        "join",
        lambda t: Client().post(f"/t/{t.lobby}/join", {"name": "Cy", "colour": "green"}),
    ),
    "join refused": ("join", lambda t: Client().post(f"/t/{t.lobby}/join", {"name": ""})),
    "rejoin": ("rejoin", lambda t: Client().get(f"/t/{t.board}/rejoin")),
    "rejoin refused": ("rejoin", lambda t: Client().post(f"/t/{t.board}/rejoin", {"token": "x"})),
    "seat QR code": ("seat_qr", lambda t: t.host.get(f"/t/{t.board}/seats/1/qr.svg")),
    "projector": ("projector", lambda t: Client().get(f"/t/{t.board}/projector")),
    "record": ("record", lambda t: Client().get(f"/t/{t.finished}/record.json")),
    "record refused": ("record", lambda t: Client().get(f"/t/{t.board}/record.json")),
    "story page": ("story_page", lambda t: Client().get(f"/t/{t.finished}/story")),
    "story": ("story", lambda t: Client().get(f"/t/{t.finished}/story.json")),
    "results": ("results", lambda t: Client().get(f"/t/{t.finished}/results.csv")),
    "health": ("healthz", lambda t: Client().get("/healthz")),
    "metrics": ("metrics", lambda t: Client().get("/metrics")),
    "no such page": ("", lambda t: Client().get("/no-such-page")),
    "no such table": ("table", lambda t: Client().get("/t/zzzzzzzz")),
    "CSRF refused": (
        "",
        lambda t: Client(enforce_csrf_checks=True).post("/tables", CREATE_FORM),
    ),
    "admin": ("", lambda t: Client().get("/admin/login/")),
    "static file": ("", lambda t: Client().get("/static/css/site.css")),
}
"""What is asked: the route it asks (its name in game/urls.py; "" for none of them), and how."""


@pytest.mark.parametrize("case", list(CASES))
def test_every_answer_carries_the_policy(case: str) -> None:
    _, ask = CASES[case]
    response = ask(host_tables())
    assert response.status_code < 500, response.content
    assert policy(response) == EXPECTED


def test_every_route_is_asked() -> None:
    routes = {p.name for p in urls.urlpatterns if isinstance(p, URLPattern)}
    asked = {route for route, _ in CASES.values()}
    assert routes - asked == set(), "routes of game/urls.py that CASES does not ask"


def test_the_csrf_page_is_the_sites_own() -> None:
    """Django's page for a form refused by the CSRF check styles itself inline, which the policy
    refuses; templates/403_csrf.html takes its place."""
    response = Client(enforce_csrf_checks=True).post("/tables", CREATE_FORM)
    assert response.status_code == 403
    page = response.content.decode()
    assert "<style" not in page and "style=" not in page
    assert "CSRF verification failed" in page


@override_settings(DEBUG=True)
def test_with_debug_on_only_the_debug_pages_go_without_it() -> None:
    """django-csp leaves Django's debug pages for 404 and 500 (inline script and style) without
    the header; every other page keeps it while developing."""
    client = Client()
    assert policy(client.get("/")) == EXPECTED
    missing = client.get("/no-such-page")
    assert missing.status_code == 404
    assert "Content-Security-Policy" not in missing.headers
