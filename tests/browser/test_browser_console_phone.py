"""The tabletop console on a phone with its browser's toolbars (390×664), in Chromium against a
real Daphne: the form's main action ("End Ann's turn") is on screen without scrolling, and a
message drawn as the turn ends comes into view although the person had scrolled down."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser_pages import create_table

pytestmark = pytest.mark.services

PHONE = {"viewport": {"width": 390, "height": 664}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("phone")
    with servers.sqlite_daphne(folder, messages=[1, 2, 3, 4, 5, 6, 7, 8]) as url:
        yield url


def hosted_on_a_phone(server: str, browser: Browser) -> Page:
    """Ann hosts a tabletop game on her phone, with Bob added by her; the game started."""
    page = browser.new_context(base_url=server, **PHONE).new_page()
    create_table(page, "Ann", tabletop=True)
    add = page.locator("#add-form")
    add.locator('input[name="name"]').fill("Bob")
    add.locator('select[name="colour"]').select_option("orange")
    add.get_by_role("button", name="Add").click()
    expect(page.locator("#lobby-seats .seat-name", has_text="Bob")).to_have_count(1)
    page.locator('#start-box button[data-act="start"]').click()
    # The table page turns into the console.
    expect(page.locator("#panel.cs-panel")).to_be_visible()
    expect(page.locator("#table-page")).to_have_attribute("data-version", "0")
    expect(page.locator('#panel button[data-act="end-turn"]')).to_be_visible()
    return page


UNCOVERED = """(el) => {
    const box = el.getBoundingClientRect();
    const head = document.querySelector(".tp-head").getBoundingClientRect().bottom;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return box.top >= head && box.bottom <= innerHeight && el.contains(hit);
}"""


def on_screen(element: Locator) -> None:
    """`element` is wholly on screen, below the sticky header, and nothing covers it."""
    expect(element).to_be_in_viewport(ratio=1)
    element.page.wait_for_function(UNCOVERED, arg=element.element_handle())


def test_end_turn_is_on_screen_and_a_drawn_message_comes_into_view(
    server: str, browser: Browser
) -> None:
    watch = ConsoleWatch()
    page = hosted_on_a_phone(server, browser)
    watch.watch(page, "phone")
    panel = page.locator("#panel")
    end_turn = panel.locator('button[data-act="end-turn"]')
    on_screen(end_turn)

    # Ann's messenger lands on 5, a dark space: ending her turn draws message 1.
    panel.locator('button[data-act="points"][data-n="5"]').click()
    panel.locator('button[data-act="score"][data-figure="messenger"]').click()
    expect(page.locator("#table-page")).to_have_attribute("data-version", "1")
    on_screen(end_turn)
    # She scrolled down to the end of the form, as she would without the button on screen.
    page.evaluate("scrollTo(0, document.querySelector('#panel .actions').offsetTop)")
    page.wait_for_function("scrollY > 200")
    end_turn.click()
    message = panel.get_by_text("Score your smallest road")
    expect(message.first).to_be_visible()
    on_screen(page.locator("#turn"))
    on_screen(message.first)
    assert not watch.errors, watch.errors
