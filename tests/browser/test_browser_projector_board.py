"""An online (board mode) game on the projector and the end of a game on every screen, in
Chromium.

Ann and Bob play the opening of tests/browser/test_browser.py's game (its fixed tiles and messages)
over websockets of their own browsers, as their pages would; the projector must show the shared
board (read-only, every tile within the screen), the track and the message reveals, at 16:9 and at
4:3. The house rules chosen on the home page are named in the lobby, on the table page and on the
projector. When the game is over, the final breakdown shows every column ("Fields" and "Total"
included) on a phone, a laptop and the projector.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine.record import replay
from tests import servers
from tests.browser.test_browser import (
    FIRST_MESSAGE_DRAWN,
    MESSAGES,
    PLAN,
    TILES,
    ConsoleWatch,
    screenshot,
)
from tests.browser.test_browser_projector import OPEN, SEND
from tests.browser_pages import english_view, join

pytestmark = pytest.mark.services

HOUSE_RULES = "One more tile: Extra turn · Messages per turn: 2"
"""Chosen on the home page for c2-hig (whose rules have neither): they change nothing in the
game played here (no message 7 is drawn, and never more than one message a turn)."""

SIZES = [(1920, 1080), (1024, 768)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("projector-board")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGES) as url:
        yield url


def create_with_house_rules(page: Page) -> str:
    """Ann creates a 2-seat c2-hig board table with two house rules; returns its code."""
    page.goto("/")
    page.locator('label.card:has(input[name="preset"][value="c2-hig"])').click()
    page.locator("#name").fill("Ann")
    page.locator("label.swatch", has_text="Blue").click()
    page.locator("details.house-rules summary").click()
    page.locator("#opt_extra_tile").select_option("extra_turn")
    page.locator("#opt_messages_per_turn").select_option("2")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")
    expect(page.locator("#conn")).to_have_text("Live")
    return page.url.rsplit("/", 1)[1]


class Link:
    """A websocket of a player's own browser context (its session cookie holds the seat)."""

    def __init__(self, page: Page, code: str) -> None:
        self.page = page.context.new_page()
        self.page.goto("/static/game/common/ui.js")
        self.page.evaluate(OPEN, code)

    def command(self, action: dict[str, Any]) -> int:
        """Send `action` and wait for its update; return the version it made."""
        command = {key: value for key, value in action.items() if key != "seat"}
        return int(self.page.evaluate(SEND, [{"type": "command", "command": command}, "update"]))

    def wait_for(self, version: int) -> None:
        self.page.wait_for_function("v => window.testLink.version >= v", arg=version)


def play(links: list[Link], actions: list[dict[str, Any]]) -> None:
    """Each action from its seat's own socket, once that socket has seen the one before."""
    for action in actions:
        version = links[action["seat"]].command(action)
        for link in links:
            link.wait_for(version)


def record_view(actions: list[dict[str, Any]]) -> dict[str, Any]:
    record = {
        "format": "carcassonne-messengers/1",
        "players": ["Ann", "Bob"],
        "preset": "c2-hig",
        "mode": "board",
        "seed": 0,
        "options": {"extra_tile": "extra_turn", "messages_per_turn": 2},
        "tiles": TILES,
        "messages": MESSAGES,
        "actions": actions,
    }
    return english_view(replay(record).state)


BOARD_MEASURE = """() => {
    const box = (element) => {
        const r = element.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const board = document.querySelector(".pj-board");
    return {
        scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
        board: box(board),
        tiles: [...board.querySelectorAll(".layer-tiles > g")].map(box),
        turn: parseFloat(getComputedStyle(document.querySelector(".pj-band .pj-turn")).fontSize),
        track: document.querySelectorAll(".sb-track .sb-space, .sb-space").length,
    };
}"""


def test_an_online_game_on_the_projector(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann_context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 768})
    ann = ann_context.new_page()
    watch.watch(ann, "Ann")
    code = create_with_house_rules(ann)
    # The lobby names the house rules, in the words of the home page's form.
    expect(ann.locator("#lobby [data-house-rules]")).to_contain_text(HOUSE_RULES)

    tv = browser.new_context(base_url=server, viewport={"width": 1920, "height": 1080})
    projector = tv.new_page()
    watch.watch(projector, "projector")
    projector.goto(f"/t/{code}/projector")
    expect(projector.locator(".pj-head [data-house-rules]")).to_contain_text(HOUSE_RULES)
    # Opened through 127.0.0.1: phones cannot follow its QR code, and the page says so.
    expect(projector.locator("#pj-qr-warning")).to_contain_text("Phones cannot open this address")

    bob_context = browser.new_context(base_url=server, viewport={"width": 390, "height": 844})
    bob = bob_context.new_page()
    watch.watch(bob, "Bob")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()
    # The table page names them too, beside the players.
    expect(ann.locator("#game [data-house-rules]")).to_contain_text(HOUSE_RULES)
    links = [Link(ann, code), Link(bob, code)]

    # The start tile alone, on the board in the middle of the track.
    expect(projector.locator(".pj-board .layer-tiles > g")).to_have_count(1)
    expect(projector.locator(".sb-player")).to_have_count(2)

    play(links, PLAN[:FIRST_MESSAGE_DRAWN])
    view = record_view(PLAN[:FIRST_MESSAGE_DRAWN])
    assert view["revealed"]["message"] == 1
    main = projector.locator("main.pj")
    expect(main).to_have_attribute("data-version", str(view["version"]))
    # The reveal stands over the board, as at a tabletop game.
    overlay = projector.locator("#pj-overlay")
    expect(overlay.locator(".pj-card-text")).to_have_text(view["revealed"]["text"])
    tiles = len(view["board"]["tiles"])
    expect(projector.locator(".pj-board .layer-tiles > g")).to_have_count(tiles)
    expect(projector.locator(".pj-board .layer-followers > g")).to_have_count(
        len(view["board"]["followers"])
    )
    projector.evaluate("() => { document.getElementById('pj-overlay').hidden = true; }")

    for width, height in SIZES:
        projector.set_viewport_size({"width": width, "height": height})
        # The board is fitted again to the new size (a ResizeObserver); wait for it to settle.
        projector.wait_for_function(
            """() => {
                const board = document.querySelector('.pj-board').getBoundingClientRect();
                return [...document.querySelectorAll('.pj-board .layer-tiles > g')].every((g) => {
                    const r = g.getBoundingClientRect();
                    return r.left >= board.left - 0.5 && r.right <= board.right + 0.5
                        && r.top >= board.top - 0.5 && r.bottom <= board.bottom + 0.5;
                });
            }"""
        )
        measured = projector.evaluate(BOARD_MEASURE)
        screenshot(projector, f"projector-board-{width}x{height}.png")
        assert measured["scroll"] == [width, height]
        board = measured["board"]
        assert board["bottom"] - board["top"] >= 0.3 * height, board
        assert len(measured["tiles"]) == tiles
        # A tile is big enough to read across a room: at least 4% of the screen's height.
        assert min(t["bottom"] - t["top"] for t in measured["tiles"]) >= 0.04 * height
        assert measured["turn"] >= 0.022 * height
    for context in (ann_context, bob_context, tv):
        context.close()
    assert not watch.errors, watch.errors


# The widest breakdowns there are: every category used, 2 or 6 players with names of 20
# characters (the names' limit), three-digit points.
LONG_NAMES = [
    "Annabelle Fitzgerald",
    "Bartholomew Ashcroft",
    "Cleopatra Montgomery",
    "Dan Dan Dan Dan Dan!",
    "Evangeline Whitfield",
    "Maximilian Sinclair.",
]
WIDE_ROWS = [
    {"play": 187, "road": 112, "city": 124, "monastery": 109, "field": 115, "table": 100}
    for _ in LONG_NAMES
]
WIDE_SCORES = [747, 646, 545, 444, 343, 242]
WIDE = {
    count: [
        {"seat": n, "name": name, "score": WIDE_SCORES[n]}
        for n, name in enumerate(LONG_NAMES[:count])
    ]
    for count in (2, 6)
}

BREAKDOWN_AT = """([rows, players]) =>
  import("/static/game/common/ui.js").then(({ breakdownHtml }) => {
    // The end screen's breakdown, with every column: the page's own markup and style.
    const wrap = document.querySelector(".breakdown-wrap");
    const swatch = () => '<span class="sw">A</span>';
    wrap.outerHTML = breakdownHtml(rows, players, swatch);
})"""

FITS = """() => {
    // Every header and cell of the breakdown within its box, its box within the screen, and no
    // box around it that scrolls sideways (a projector cannot scroll, a phone's reader would not
    // know there is more).
    const wrap = document.querySelector(".breakdown-wrap");
    const box = wrap.getBoundingClientRect();
    const out = [];
    for (const cell of wrap.querySelectorAll("th, td")) {
        const r = cell.getBoundingClientRect();
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.width <= 0
            || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5 || r.top < -0.5) {
            out.push([cell.textContent, r.left, r.right, r.top, r.bottom]);
        }
    }
    const scrolling = [];
    for (let el = wrap; el && el !== document.documentElement; el = el.parentElement) {
        if (el.scrollWidth > el.clientWidth + 1) {
            scrolling.push([el.className, el.scrollWidth, el.clientWidth]);
        }
    }
    // The numbers and the heads themselves are whole (their text within their cell: none cut
    // with an ellipsis, none spilling over its neighbour) and on top (nothing covers them).
    const cut = [];
    const covered = [];
    for (const cell of wrap.querySelectorAll("td, thead th:not(:first-child)")) {
        // The text's own length, unclipped, against the room its cell gives it.
        const style = getComputedStyle(cell);
        const vertical = style.writingMode.startsWith("vertical");
        const probe = document.createElement("span");
        probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;"
            + `writing-mode:${style.writingMode}`;
        probe.innerHTML = cell.innerHTML;
        cell.appendChild(probe);
        const size = probe.getBoundingClientRect();
        const needs = vertical ? size.height : size.width;
        probe.remove();
        const r = cell.getBoundingClientRect();
        const room = vertical
            ? r.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
            : r.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        // (An upright head sets its row's height: only rounding may differ there.)
        if (needs > room + (vertical ? 0.5 : 0.01)) cut.push([cell.textContent, needs, room]);
        const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        if (!wrap.contains(top)) covered.push([cell.textContent, top && top.className]);
    }
    return {
        out, scrolling, cut, covered,
        box: [box.left, box.right, innerWidth],
        heads: [...wrap.querySelectorAll("thead th")].map((th) => th.textContent),
        totals: [...wrap.querySelectorAll("tbody td:last-child")].map((td) => td.textContent),
        page: document.documentElement.scrollWidth <= innerWidth,
    };
}"""

SHORT_HEADS = ["", "Play", "Roads", "Cities", "Mon.", "Fields", "Entered", "Total"]


def assert_breakdown_fits(page: Page, label: str) -> None:
    """With 2 and with 6 players of long names, every column of the breakdown on `page` shows
    within its box without scrolling, and the Total column holds each player's score."""
    expect(page.locator(".breakdown-wrap")).to_be_visible()
    for count, players in WIDE.items():
        page.evaluate(BREAKDOWN_AT, [WIDE_ROWS[:count], players])
        expect(page.locator(".breakdown-wrap tbody tr")).to_have_count(count)
        page.locator(".breakdown-wrap").scroll_into_view_if_needed()
        found = page.evaluate(FITS)
        screenshot(page, f"breakdown-{label}-{count}.png")
        assert found["heads"] == SHORT_HEADS, (label, found)
        assert found["totals"] == [str(p["score"]) for p in players], (label, found)
        assert not found["out"], (label, count, found)
        assert not found["scrolling"], (label, count, found)
        assert not found["cut"], (label, count, found)
        assert not found["covered"], (label, count, found)
        assert found["page"], (label, found)
    # The short heads keep their full names for whoever points at them.
    titles = page.locator(".breakdown-wrap thead abbr").evaluate_all(
        "els => els.map((el) => el.title)"
    )
    assert titles == [
        "All points during play",
        "Roads",
        "Cities",
        "Monasteries",
        "Fields",
        "Entered",
    ]


PHONES = [(390, 844), (360, 740)]
PROJECTORS = [(1920, 1080), (1280, 720), (1024, 768)]


def test_the_final_breakdown_shows_every_column_on_every_screen(
    server: str, browser: Browser
) -> None:
    """The game over of a whole game; then the widest breakdowns in its place on phones, a
    laptop and the projector: every column, Total above all, within its box, none scrolled away
    or cut off."""
    ann_context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 768})
    ann = ann_context.new_page()
    code = create_with_house_rules(ann)
    bob_context = browser.new_context(
        base_url=server, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    bob = bob_context.new_page()
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()
    links = [Link(ann, code), Link(bob, code)]
    play(links, PLAN)
    view = record_view(PLAN)
    assert view["finished"]

    tv = browser.new_context(base_url=server, viewport={"width": 1920, "height": 1080})
    projector = tv.new_page()
    projector.goto(f"/t/{code}/projector")
    # The projector's end screen: the ranking with the points of every category.
    table = projector.locator(".pj-breakdown table.breakdown")
    expect(table.locator("thead th")).to_have_text(["", "Play", "Roads", "Mon.", "Total"])
    expect(table.locator("tbody th .pj-rank-place")).to_have_text(["1", "2"])
    expect(table.locator("tbody th")).to_contain_text(["Bob", "Ann"])
    expect(table.locator("tbody td:last-child")).to_have_text(["13", "9"])
    screenshot(projector, "projector-final-breakdown.png")

    assert_breakdown_fits(ann, "table-1366")
    for width, height in PHONES:
        bob.set_viewport_size({"width": width, "height": height})
        assert_breakdown_fits(bob, f"phone-{width}")
    # The story opens by itself a while (GAME_OVER_MS and 3 s) after the end, over the end
    # screen: wait for it, whenever it comes, then go back to the table's end screen, so that it
    # cannot open in the middle of the measures below.
    story = projector.locator("#pj-story")
    expect(story).to_be_visible(timeout=60_000)
    projector.locator("#pj-story-button").click()
    expect(story).to_be_hidden()
    for width, height in PROJECTORS:
        projector.set_viewport_size({"width": width, "height": height})
        assert_breakdown_fits(projector, f"projector-{width}")
    for context in (ann_context, bob_context, tv):
        context.close()


def test_the_tabletop_console_names_the_house_rules_in_its_header(
    server: str, browser: Browser
) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 768})
    host = context.new_page()
    host.goto("/")
    host.locator('label.card:has(input[name="preset"][value="c2-hig"])').click()
    host.locator("label.card", has_text="At the table").click()
    host.locator("#name").fill("Ann")
    host.locator("label.swatch", has_text="Blue").click()
    host.locator("details.house-rules summary").click()
    host.locator("#opt_extra_tile").select_option("extra_turn")
    host.locator("#opt_messages_per_turn").select_option("2")
    host.get_by_role("button", name="Create the table").click()
    host.wait_for_url("**/t/*")
    expect(host.locator("#lobby [data-house-rules]")).to_contain_text(HOUSE_RULES)
    host.locator("#add-form input[name=name]").fill("Bob")
    host.locator("#add-form select[name=colour]").select_option("orange")
    host.locator("#add-form button[type=submit]").click()
    expect(host.locator("#lobby-seats")).to_contain_text("Bob")
    host.locator('#start-box button[data-act="start"]').click()
    header = host.locator(".tp-head [data-house-rules]")
    expect(header).to_be_visible()
    expect(header).to_have_attribute("title", f"House rules: {HOUSE_RULES}")
    expect(header).to_contain_text("House rules:")
    context.close()
