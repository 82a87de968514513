"""Playing in Chromium against a server with DEBUG off, after `collectstatic`.

The pages must load every ES module by its hashed name, the modules they import included, or a
deploy could leave a browser running an old module against a new server: no request may name a
plain `/static/game/table/table.js`. Ann creates the table, Bob joins, and they play the first two
turns of the scenario of tests/browser/test_browser.py through the user interface; both pages must
show what the
engine says.

Sync tests on purpose, as in tests/browser/test_browser.py (Playwright's sync API and asyncio).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Page

from tests import servers
from tests.browser.test_browser import (
    MESSAGES,
    PERFORM,
    PLAN,
    TILES,
    ConsoleWatch,
    expect_table_page,
    expected_view,
    open_table,
    place_tile,
)

pytestmark = pytest.mark.services

TURNS = 5
"""Decisions of the first two turns: Ann places a tile and a highwayman; Bob closes the start
tile's city with a knight and moves his meeple 4 spaces."""

HASHED_MODULE = re.compile(r"/static/game/[\w-]+/[\w-]+\.[0-9a-f]{12}\.js$")


@dataclass
class RequestWatch(ConsoleWatch):
    """The console errors of the pages, and the URL of every request they make."""

    requests: list[str] = field(default_factory=list)

    def watch(self, page: Page, who: str) -> None:
        super().watch(page, who)
        page.on("request", lambda request: self.requests.append(request.url))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[servers.RestartableDaphne]:
    """Daphne with DEBUG off over plain HTTP, serving the collected static files."""
    database = tmp_path_factory.mktemp("production-browser") / "db.sqlite3"
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{database}",
        MESSENGERS_FIXED_TILES=",".join(TILES),
        MESSENGERS_FIXED_MESSAGES=",".join(str(m) for m in MESSAGES),
    )
    servers.migrate(env)
    with servers.restartable_daphne(env) as daphne:
        yield daphne


def test_a_turn_on_a_production_server_loads_only_hashed_modules(
    browser: Browser, server: servers.RestartableDaphne
) -> None:
    watch = RequestWatch()
    table = open_table(browser, server, watch)
    for player in table.players:
        expect_table_page(player, expected_view(0))

    for index, action in enumerate(PLAN[:TURNS]):
        player = table.players[action["seat"]]
        pending = expected_view(index)["pending"]
        if action["type"] == "place_tile":
            place_tile(player, action, pending)
        else:
            PERFORM[action["type"]](player, action, pending)
    view = expected_view(TURNS)
    assert view["players"][1]["score"] == 4, "the plan's second turn scores Bob's city"
    for player in table.players:
        expect_table_page(player, view)

    assert not watch.errors, watch.errors
    modules = [url for url in watch.requests if "/static/game/" in url and url.endswith(".js")]
    plain = [url for url in modules if not HASHED_MODULE.search(url)]
    assert not plain, f"modules loaded by their plain names: {plain}"
    loaded = {HASHED_MODULE.search(url).group(0).split("/")[-1].split(".")[0] for url in modules}
    # table.js and its panels with everything they import, the turn alerts it imports when the
    # page holds a seat (a dynamic import, hashed all the same), and the projector's own module.
    panels = {
        "table-state",
        "table-dock",
        "table-lobby",
        "table-log",
        "table-overlay",
        "table-players",
    }
    expected = {"table", "connection", "scoreboard", "board", "ui", "shared", "alerts", "projector"}
    expected |= panels
    assert expected <= loaded, loaded
