"""The table page on a phone (390×664, a touch screen), in Chromium against a real Daphne.

* The Alerts button in the header keeps its light words on the dark header after a tap: a phone
  keeps the hover look of what was tapped last, and buttons turn pale on hover.
* At the start of a game the start tile sits in the middle of the board's free part, between the
  status line and the zoom buttons, once the dock below the board has taken its height.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests import servers
from tests.browser_pages import create_table, join
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with servers.sqlite_daphne(tmp_path_factory.mktemp("table-phone")) as url:
        yield url


def phone(browser: Browser, server: str, errors: list[str], who: str) -> BrowserContext:
    context = browser.new_context(
        base_url=server,
        viewport={"width": 390, "height": 664},
        has_touch=True,
        is_mobile=True,
    )
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    context.on(
        "page",
        lambda page: page.on("pageerror", lambda error: errors.append(f"{who}: {error}")),
    )
    return context


LOOK = """(element) => {
    const style = getComputedStyle(element);
    return [style.color, style.backgroundColor, getComputedStyle(element.closest("header")).color];
}"""

BALANCED = """() => {
    const tile = document.querySelector("#board .layer-tiles > g").getBoundingClientRect();
    const status = document.querySelector("#status-bar").getBoundingClientRect();
    const tools = document.querySelector(".board-tools").getBoundingClientRect();
    const above = tile.top - status.bottom;
    const below = tools.top - tile.bottom;
    return above > 0 && below > 0 && Math.abs(above - below) <= 16;
}"""


def test_the_alerts_button_keeps_its_words_after_a_tap(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = phone(browser, server, errors, "Ann").new_page()
    create_table(ann, "Ann", seats=2)
    summary = ann.locator("#alerts > summary")
    summary.tap()
    expect(ann.locator("#alerts .alerts-menu")).to_be_visible()
    summary.tap()
    expect(ann.locator("#alerts .alerts-menu")).to_be_hidden()
    summary.hover()  # where a phone's last tap leaves the hover look
    colour, background, header = summary.evaluate(LOOK)
    assert colour == header, (colour, header)
    assert background == "rgba(0, 0, 0, 0)", background
    assert errors == []


def test_the_start_tile_sits_in_the_middle_of_the_free_board(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = phone(browser, server, errors, "Ann").new_page()
    code = create_table(ann, "Ann", seats=2)
    bob = phone(browser, server, errors, "Bob").new_page()
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob.locator("#table-page")).to_have_attribute("data-status", "playing")
    expect(bob.locator("#dock")).to_contain_text("is placing tile")
    expect(bob.locator("#board .layer-tiles > g")).to_have_count(1)
    # The page settles (the dock fills, the board fits): wait for that state, not for a time.
    bob.wait_for_function(BALANCED)
    assert errors == []


CLEAR = """() => {
    // Points along the status line's words: each must hit the status line itself, neither the
    // board nor the note of places off-screen; and the board starts below it.
    const bar = document.querySelector("#status-bar");
    bar.style.pointerEvents = "auto"; // taps go through it; here it must be found under its words
    const words = document.createRange();
    words.selectNodeContents(bar.querySelector("span:not(.sw)"));
    const hits = [...words.getClientRects()].flatMap((r) =>
        [0.1, 0.5, 0.9].map((f) =>
            document.elementFromPoint(r.left + f * r.width, r.top + r.height / 2)),
    );
    bar.style.pointerEvents = "";
    const board = document.querySelector("#board").getBoundingClientRect();
    return {
        lines: words.getClientRects().length,
        covered: hits.filter((e) => !bar.contains(e))
            .map((e) => e?.id || e?.className?.baseVal || e?.className),
        boardBelow: board.top >= bar.getBoundingClientRect().bottom - 1,
    };
}"""


def test_nothing_covers_the_status_line_on_a_phone(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = phone(browser, server, errors, "Ann").new_page()
    code = create_table(ann, "Bartholomew Longname", seats=2)
    bob = phone(browser, server, errors, "Bob").new_page()
    # A long name: a long status line.
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob.locator("#status-bar")).to_contain_text("Longname is placing tile")
    # Bob's page settles into its layout, then the note of places off-screen shows (as it does
    # when places lie beyond the screen) where the board puts it.
    expect(bob.locator("#board .layer-tiles > g")).to_have_count(1)
    expect(ann.locator("#status-bar")).to_contain_text("Your turn")
    ann.evaluate(
        """() => { const more = document.querySelector('.board-more');
        more.textContent = '7 more places off-screen: show'; more.hidden = false; }"""
    )
    expect(ann.locator(".board-more")).to_be_visible()
    state = ann.evaluate(CLEAR)
    assert state["covered"] == [] and state["boardBelow"], state
    expect(bob.locator("#status-bar")).to_contain_text("Bartholomew Longname is placing tile")
    state = bob.evaluate(CLEAR)
    assert state["covered"] == [] and state["boardBelow"], state
    assert errors == []
