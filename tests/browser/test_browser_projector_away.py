"""The projector says why an online game stopped: the player it waits for has no connection.

While the seat to move has no connection, the projector says, large, in how many seconds a
computer can be offered for it (the server's ``offer_in`` counted down), and once that time is
over how long the player has been away; the table page's words. In the players list a computer
has a mark of its own, never the hollow dot of an absent person.

One server counts a seat as absent after ten minutes (the countdown is still running whatever the
machine's speed), another after one second (the note turns to "has been away" at once); the
assertions wait for what the pages show, never for a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests import servers
from tests.browser_pages import create_table, join
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services

COUNTDOWN = re.compile(
    r"Bob\u2069?\s+has no connection\. A computer can be offered for them in (\d+) seconds?\."
)
AWAY = re.compile(r"Bob\u2069?\s+has been away for \d+ seconds?\.")

# The note's text height as a share of the screen's, for reading across a room.
NOTE_SIZE = """() => {
    const note = document.querySelector(".pj-away");
    return parseFloat(getComputedStyle(note).fontSize) / window.innerHeight;
}"""


def start_server(tmp_path_factory: pytest.TempPathFactory, absent_after: int) -> Iterator[str]:
    database = tmp_path_factory.mktemp(f"projector-away-{absent_after}") / "db.sqlite3"
    env = servers.project_env(
        DATABASE_URL=f"sqlite:///{database}",
        MESSENGERS_COMPUTER_PAUSE_MS="200",
        MESSENGERS_ABSENT_AFTER_SECONDS=str(absent_after),
        MESSENGERS_ABSENT_AFTER_MIN_SECONDS="1",
    )
    servers.migrate(env)
    with servers.daphne_server(env) as url:
        yield url


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from start_server(tmp_path_factory, 600)


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from start_server(tmp_path_factory, 1)


def person(
    browser: Browser, server: str, errors: list[str], who: str, size: dict[str, int]
) -> BrowserContext:
    context = browser.new_context(base_url=server, viewport=size)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    context.on(
        "page",
        lambda page: page.on("pageerror", lambda error: errors.append(f"{who}: {error}")),
    )
    return context


def game_waiting_for_absent_bob(
    browser: Browser, server: str, errors: list[str]
) -> tuple[Page, Page]:
    """Ann hosts Bob and the computer Ada; Bob starts and his page goes away. Returns Ann's page
    and the projector at 1280 x 720."""
    ann = person(browser, server, errors, "Ann", {"width": 1280, "height": 800}).new_page()
    code = create_table(ann, "Ann", seats=3)
    bob = person(browser, server, errors, "Bob", {"width": 390, "height": 664}).new_page()
    join(bob, code, "Bob", "Orange")
    ann.get_by_role("button", name="Add easy computer").click()
    ann.get_by_role("button", name="\u2068Bob\u2069 starts").click()
    expect(bob.locator("#lobby-seats .seat-name").first).to_have_text("Bob (you)")
    tv = person(browser, server, errors, "TV", {"width": 1280, "height": 720}).new_page()
    tv.goto(f"/t/{code}/projector")
    expect(tv.locator("main.pj")).to_have_attribute("data-link", "live")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob).to_have_title(re.compile(r"^● "))
    expect(tv.locator("main.pj")).to_have_attribute("data-status", "playing")
    bob.close()  # Bob's phone is gone while it is his turn
    return ann, tv


def test_the_projector_counts_down_to_the_offer_and_marks_the_computer(
    browser: Browser, slow_server: str
) -> None:
    errors: list[str] = []
    _, tv = game_waiting_for_absent_bob(browser, slow_server, errors)
    note = tv.locator(".pj-away")
    expect(note).to_contain_text(COUNTDOWN)
    match = COUNTDOWN.search(note.inner_text())
    assert match and 0 < int(match[1]) <= 600, note.inner_text()
    assert tv.evaluate(NOTE_SIZE) >= 0.022
    # Bob's dot is hollow, the computer's is a mark of its own.
    players = tv.locator(".sb-players .sb-player")
    bob = players.filter(has_text="Bob").locator(".sb-conn")
    ada = players.filter(has_text="Ada").locator(".sb-conn")
    expect(bob).to_have_attribute("title", "not connected")
    expect(bob).not_to_have_class(re.compile(r"is-computer"))
    expect(ada).to_have_class(re.compile(r"\bis-computer\b"))
    expect(ada).to_have_attribute("title", "computer plays")
    assert bob.evaluate("d => getComputedStyle(d).borderColor") != ada.evaluate(
        "d => getComputedStyle(d).borderColor"
    )
    assert errors == []


def test_the_projector_says_how_long_the_player_has_been_away(
    browser: Browser, quick_server: str
) -> None:
    errors: list[str] = []
    ann, tv = game_waiting_for_absent_bob(browser, quick_server, errors)
    note = tv.locator(".pj-away")
    expect(note).to_contain_text(AWAY)
    # A computer takes over: the note goes.
    tools = ann.locator("#players li", has_text="Bob").locator(".p-seat-tools")
    tools.get_by_role("button", name=re.compile(r"^Let the computer play for .?Bob")).click()
    expect(note).to_have_count(0)
    assert errors == []
