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
