"""The tabletop console on a phone with its browser's toolbars (390×664), in Chromium against a
real Daphne: the form's main action ("End Ann's turn") is on screen without scrolling, and a
message drawn as the turn ends comes into view although the person had scrolled down."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser.test_browser_tabletop import names_split_by_flex
from tests.browser_pages import create_table, join

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


# Every control of the console's main column, as the page shows it.
CONTROLS = ".cs-main :is(button, input, select, summary)"

COVERED = """(sel) => {
    const head = document.querySelector(".tp-head").getBoundingClientRect().bottom;
    const covered = [];
    for (const el of document.querySelectorAll(sel)) {
        if (!el.getClientRects().length) continue;
        el.scrollIntoView({ block: "end" });
        const box = el.getBoundingClientRect();
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        if (y < head || y > innerHeight) continue;
        const hit = document.elementFromPoint(x, y);
        const under = hit?.outerHTML.slice(0, 60);
        if (!el.contains(hit)) covered.push(`${el.textContent.trim()} under ${under}`);
    }
    return covered;
}"""

SPLIT_WORDS = """(sel) => {
    const split = [];
    for (const el of document.querySelectorAll(sel)) {
        if (!el.getClientRects().length) continue;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/[\\p{L}\\p{N}]+/gu)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (lines.size > 1) split.push(match[0]);
            }
        }
    }
    return split;
}"""

OVERFLOWING = """(sel) => {
    const out = [];
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
        && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    for (const button of document.querySelectorAll(sel)) {
        if (!button.getClientRects().length) continue;
        const box = button.getBoundingClientRect();
        const column = button.parentElement.getBoundingClientRect();
        if (!inside(box, column)) out.push(`${button.textContent.trim()} beyond its column`);
        for (const child of button.querySelectorAll("*")) {
            if (!inside(child.getBoundingClientRect(), box))
                out.push(`${child.textContent.trim()} out of ${button.textContent.trim()}`);
        }
    }
    return out;
}"""

HEADINGS = """() => [...document.querySelectorAll(".cs-main :is(#turn, h2, h3)")]
    .filter((el) => el.getClientRects().length)
    .map((el) => el.textContent.replace(/\\s+/g, " ").trim())
    .filter(Boolean)"""


def phone_checks(page: Page) -> None:
    """What every state of the console on a phone keeps: no control covered by the bar at the
    foot, no word split across lines, nothing beyond its button, no name split from its sentence
    by a flex box, no heading said twice."""
    assert page.evaluate(COVERED, CONTROLS) == []
    assert page.evaluate(SPLIT_WORDS, ".cs-main :is(button, h2, h3, #turn)") == []
    assert page.evaluate(OVERFLOWING, "#panel .btn") == []
    assert names_split_by_flex(page) == []
    headings = page.evaluate(HEADINGS)
    assert len(headings) == len(set(headings)), headings


def test_a_players_phone_through_a_shared_scoring_and_the_final_scoring(
    server: str, browser: Browser
) -> None:
    """Ann hosts a 3rd edition game on her laptop; Ben plays on his phone. Through another's turn,
    a shared scoring with a message drawn, the question to Ann, the final scoring and the end,
    Ben's phone keeps its layout: no empty bar at the foot (none covers a control), "Messenger"
    on one line, the shared figure's note inside its button, the send button's words and the
    question's name in one flow, "Final scoring" and "Game over" said once."""
    watch = ConsoleWatch()
    host = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800}).new_page()
    code = create_table(host, "Ann", preset="c3", tabletop=True)
    ben = browser.new_context(base_url=server, **PHONE).new_page()
    join(ben, code, "Ben", "Orange")
    expect(host.locator("#lobby-seats .seat-name", has_text="Ben")).to_have_count(1)
    host.locator('#start-box button[data-act="start"]').click()
    watch.watch(host, "host")
    watch.watch(ben, "ben")
    panel = ben.locator("#panel")
    expect(panel.locator('button[data-act="score"][data-figure="messenger"]')).to_be_visible()
    # Ann's turn: Ben's form has no "End …'s turn", and no bar at the foot of his screen.
    expect(panel.locator("> .actions")).to_be_hidden()
    phone_checks(ben)

    # A shared road: Ben and Ann, 5 points; Ben's messenger lands on a dark space.
    panel.locator('button[data-act="multi"]').click()
    panel.locator('button[data-act="seat"]', has_text="Ann").click()
    panel.locator('button[data-act="points"][data-n="5"]').click()
    panel.locator('button[data-act="category"][data-cat="road"]').click()
    mine = panel.locator(".cs-share", has=ben.locator('button[data-seat="1"]'))
    expect(mine).to_contain_text("figure: asked after sending")
    messenger = mine.locator('button[data-figure="messenger"]')
    messenger.click()
    expect(messenger).to_have_attribute("aria-pressed", "true")
    expect(messenger.locator(".dark-tag")).to_be_visible()
    send = panel.locator('.cs-shares button[data-act="score"]')
    expect(send).to_have_text("Score 5 points each for Ben and Ann")
    phone_checks(ben)
    send.click()
    # Ann is asked which of her figures moves: Ben's phone shows the question while it waits.
    question = "Ann scores 5 points for a road: which figure moves?"
    expect(panel.locator("h2")).to_contain_text(question)
    phone_checks(ben)
    host.locator('#panel button[data-act="figure"][data-figure="meeple"]').click()
    expect(ben.locator("#players .p-score")).to_have_text(["5", "5"])

    # Ann ends her turn: Ben's has its bar at the foot, and a control scrolled into view stops
    # above it.
    end_turn = host.locator('#panel button[data-act="end-turn"]')
    expect(end_turn).to_be_enabled()
    end_turn.click()
    # Her meeple on 5, a dark space, draws a message: the host takes its 2 points.
    host.locator('#panel button[data-act="message"][data-choice="points"]').click()
    figure = host.locator('#panel button[data-act="figure"]')
    expect(figure.first.or_(host.locator("#turn", has_text="Ben's turn"))).to_be_visible()
    if figure.count():
        figure.first.click()
    expect(ben.locator("#turn")).to_contain_text("Ben's turn")
    expect(panel.locator('> .actions button[data-act="end-turn"]')).to_be_visible()
    phone_checks(ben)

    # The host ends the game; the figures merge on the meeple (3rd edition), unasked.
    end_game = host.locator('#panel button[data-act="end-game"]')
    expect(end_game).to_be_enabled()
    end_game.click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(panel.locator("h2")).to_have_text("Final scoring")
    # Ben's phone cannot finish: no bar; a shared field, its button whole and uncovered.
    expect(panel.locator("> .actions")).to_be_hidden()
    panel.locator('button[data-act="multi"]').click()
    panel.locator('button[data-act="seat"]', has_text="Ann").click()
    panel.locator('button[data-act="points"][data-n="3"]').click()
    expect(panel.locator('button[data-act="score"]')).to_have_text("Add 3 points for Ben and Ann")
    phone_checks(ben)

    host.locator('#panel button[data-act="finish"]').click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(panel.locator("h2")).to_have_text("Game over")
    phone_checks(ben)
    assert not watch.errors, watch.errors
