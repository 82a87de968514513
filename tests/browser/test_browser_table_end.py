"""The table page's end and its header on phones and laptops, in Chromium against a real Daphne.

* A long name (20 characters without a space, one with spaces, a right-to-left one) stays on
  one line of the fixed-height header of the table page and of the scoreboard console, cut with
  an ellipsis, the full name in its title (isolated, as every name the pages show), at 390×844
  and 360×740.
* At the end "Game over" is said once (the status line), not by a toast as well; the end panel
  is the one way to the story of the game, and it lies clear of the side cards, for the players
  and for a spectator, at 1366×768 and 390×844.

The games are two tiles long (MESSENGERS_FIXED_TILES): Ann places one, Bob the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.browser.test_browser import (
    ConsoleWatch,
    cell_on_board,
    dock_button,
    status_bar,
    wholly_visible,
)
from tests.browser.test_browser_board_keys import tab_to_board
from tests.browser_pages import create_table, join

pytestmark = pytest.mark.services

TILES = ["W", "E"]
MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]
PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]
LAPTOP = {"width": 1366, "height": 768}
NAMES = ["Bartholomew_Wiggles1", "Anna Maria de la Cru", "שרה الحلو שרה الحلו"]

# Every toast the page shows, kept after it fades.
TOASTS = """
window.__toasts = [];
new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) {
    if (n.classList?.contains("toast")) window.__toasts.push(n.textContent);
  }
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("table-end")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGES) as url:
        yield url


def page_at(browser: Browser, server: str, viewport: dict[str, int]) -> Page:
    phone = viewport["width"] < 900
    context = browser.new_context(
        base_url=server, viewport=viewport, is_mobile=phone, has_touch=phone
    )
    context.add_init_script(TOASTS)
    return context.new_page()


def assert_name_fits_the_header(page: Page, name: str) -> None:
    """The seat's name sits on one line inside the header, and the header inside the screen."""
    shown = page.locator(".tp-head .tp-me bdi")
    head = page.locator(".tp-head").bounding_box()
    box = shown.bounding_box()
    assert head is not None and box is not None
    size = float(shown.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)"))
    assert box["height"] < 2 * size, f"{name!r} takes {box['height']}px at {size}px"
    assert head["y"] <= box["y"] and box["y"] + box["height"] <= head["y"] + head["height"]
    width = page.viewport_size["width"] if page.viewport_size else 0
    rights = page.locator(".tp-head > *").evaluate_all(
        "(all) => all.map((e) => e.getBoundingClientRect().right)"
    )
    assert max(rights) <= width + 0.5, f"the header runs past the screen for {name!r}"
    full = re.compile(rf"(Host console · )?\u2068{re.escape(name)}\u2069$")
    expect(page.locator(".tp-head .tp-name")).to_have_attribute("title", full)


@pytest.mark.parametrize("tabletop", [False, True], ids=["table", "console"])
def test_a_long_name_stays_on_one_line_of_the_header(
    server: str, browser: Browser, tabletop: bool
) -> None:
    watch = ConsoleWatch()
    for viewport in PHONES:
        for name in NAMES:
            page = page_at(browser, server, viewport)
            watch.watch(page, name)
            code = create_table(page, name, tabletop=tabletop)
            if tabletop:
                other = page_at(browser, server, viewport)
                join(other, code, "Bob", "Orange")
                page.locator('#start-box button[data-act="start"]').click()
                expect(page.locator("#panel")).to_be_visible()
            assert_name_fits_the_header(page, name)
            page.context.close()
    assert watch.errors == []


def take_turn(page: Page, x: int, y: int) -> None:
    """Place the drawn tile on (x, y) as the page first turns it, and place no follower."""
    expect(status_bar(page)).to_contain_text("Your turn")
    cell = cell_on_board(page, x, y)
    if not wholly_visible(page, cell):
        page.locator('.board-tools [data-act="centre"]').click()
    cell.click()
    dock_button(page, "place").click()
    dock_button(page, "skip").click()


def visible_story_links(page: Page) -> int:
    """How many links to the story of the game a person can see (scrolling where needed)."""
    links = page.locator("a", has_text="Story of the game")
    return int(links.evaluate_all("(all) => all.filter((a) => a.checkVisibility()).length"))


def assert_end_panel_clear(page: Page) -> None:
    """The end panel overlaps no card of the side column (each scrolled into view in turn)."""
    dock = page.locator("#dock")
    for card in page.locator(".side > .tp-card").all():
        if not card.is_visible():
            continue
        card.scroll_into_view_if_needed()
        a, b = dock.bounding_box(), card.bounding_box()
        assert a is not None and b is not None
        apart = (
            a["y"] + a["height"] <= b["y"] + 0.5
            or b["y"] + b["height"] <= a["y"] + 0.5
            or a["x"] + a["width"] <= b["x"] + 0.5
            or b["x"] + b["width"] <= a["x"] + 0.5
        )
        hidden = card.evaluate(
            """(c) => { const r = c.getBoundingClientRect();
                const top = document.elementFromPoint(r.left + r.width / 2, r.top + 4);
                return !(top && c.contains(top)); }"""
        )
        assert apart or hidden is False, f"the end panel overlaps {card.inner_text()[:30]!r}"


def test_the_end_is_said_once_with_one_way_to_the_story(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann = page_at(browser, server, LAPTOP)
    bob = page_at(browser, server, PHONES[0])
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann", preset="c1-zmg")
    join(bob, code, "<img src=x onerror=", "Orange")
    expect(bob.locator("#lobby-seats li")).to_have_count(2)
    ann.locator('#start-box button[data-act="start"]').click()
    take_turn(ann, 1, 0)
    take_turn(bob, 0, -1)

    watchers = [page_at(browser, server, LAPTOP), page_at(browser, server, PHONES[0])]
    for i, page in enumerate(watchers):
        watch.watch(page, f"spectator {i}")
        page.goto(f"/t/{code}")
    for page in (ann, bob, *watchers):
        expect(status_bar(page)).to_have_text("Game over")
        expect(page.locator("#dock h3").first).to_have_text("Game over")
        toasts = page.evaluate("() => window.__toasts")
        assert not [t for t in toasts if "Game over" in t], toasts
        assert visible_story_links(page) == 1
        expect(page.locator("#dock a", has_text="Story of the game")).to_be_visible()
        assert_end_panel_clear(page)
    assert watch.errors == []


def test_play_again_by_keyboard_lands_on_the_next_decision(server: str, browser: Browser) -> None:
    """Ann plays with the keyboard alone; "Play again" pressed with Enter opens the next game
    with her focus on its board (its first decision), not on the page's body."""
    watch = ConsoleWatch()
    ann = page_at(browser, server, LAPTOP)
    bob = page_at(browser, server, LAPTOP)
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann", preset="c1-zmg")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    for page in (ann, bob):
        expect(status_bar(page)).to_contain_text("Your turn")
        tab_to_board(page)
        page.keyboard.press("Enter")
        expect(dock_button(page, "place")).to_be_visible()
        page.keyboard.press("Enter")
        expect(status_bar(page)).to_have_text("Place a follower, or not")
        page.keyboard.press("x")
    expect(status_bar(ann)).to_have_text("Game over")
    again = dock_button(ann, "rematch")
    expect(again).to_be_focused()
    ann.keyboard.press("Enter")
    ann.wait_for_url(re.compile(rf"/t/(?!{code})[a-z0-9]+$"))
    expect(ann.locator("#table-page")).to_have_attribute("data-status", "playing")
    expect(ann.locator("#board")).to_be_focused()
    assert watch.errors == []
