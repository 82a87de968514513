"""An online (board mode) game on the projector and the end of a game on every screen, in
Chromium.

Ann and Bob play the opening of tests/test_browser.py's game (its fixed tiles and messages) over
websockets of their own browsers, as their pages would; the projector must show the shared
board (read-only, every tile within the screen), the track and the message reveals, at 16:9 and
at 4:3. The house rules chosen on the home page are named in the lobby, on the table page and on
the projector. When the game is over, the final breakdown shows every column ("Fields" and
"Total" included) on a phone, a laptop and the projector.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine.record import replay
from game.engine.views import view as engine_view
from tests import servers
from tests.browser_pages import join
from tests.test_browser import (
    FIRST_MESSAGE_DRAWN,
    MESSAGES,
    PLAN,
    TILES,
    ConsoleWatch,
    screenshot,
)
from tests.test_browser_projector import OPEN, SEND

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
        self.page.goto("/static/game/ui.js")
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
    return engine_view(replay(record).state)


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


# The widest breakdown there is: every category used, six players with long names.
WIDE_ROWS = [
    {"play": 87, "road": 12, "city": 24, "monastery": 9, "field": 15, "table": 0} for _ in range(6)
]
WIDE_PLAYERS = [
    {"seat": n, "name": f"{name}", "score": 147}
    for n, name in enumerate(["Annabelle", "Bartholomew", "Cleopatra", "Dan", "Eve", "Finn"])
]

BREAKDOWN_AT = """([rows, players]) => import("/static/game/ui.js").then(({ breakdownHtml }) => {
    // The end screen's breakdown, with every column: the page's own markup and style.
    const wrap = document.querySelector(".breakdown-wrap");
    const swatch = () => '<span class="sw">A</span>';
    wrap.outerHTML = breakdownHtml(rows, players, swatch);
})"""

COLUMNS_SEEN = """() => {
    // Each header cell: whether it shows, once the card's own scroll brings it into view,
    // within the card and the screen, and not under the fixed name column.
    const wrap = document.querySelector(".breakdown-wrap");
    const card = wrap.parentElement.getBoundingClientRect();
    const heads = [...wrap.querySelectorAll("thead th")];
    const seen = {};
    for (const th of heads.slice(1)) {
        th.scrollIntoView({ block: "nearest", inline: "nearest" });
        const r = th.getBoundingClientRect();
        const name = heads[0].getBoundingClientRect();
        seen[th.textContent] = r.left >= Math.max(card.left, name.right) - 1
            && r.right <= Math.min(card.right, innerWidth) + 1 && r.width > 0;
    }
    return {
        seen,
        scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
        sizes: [wrap.scrollWidth, wrap.clientWidth],
        page: document.documentElement.scrollWidth <= innerWidth,
    };
}"""

EXPECTED_COLUMNS = ["During play", "Roads", "Cities", "Monasteries", "Fields", "Total"]


def test_the_final_breakdown_shows_every_column_on_every_screen(
    server: str, browser: Browser
) -> None:
    """The game over of a whole game; then the widest breakdown in its place on a phone, a
    laptop and the projector: every column can be read, none is cut off."""
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
    expect(table.locator("thead th")).to_have_text(
        ["", "During play", "Roads", "Monasteries", "Total"]
    )
    expect(table.locator("tbody th .pj-rank-place")).to_have_text(["1", "2"])
    expect(table.locator("tbody th")).to_contain_text(["Bob", "Ann"])
    expect(table.locator("tbody td:last-child")).to_have_text(["13", "9"])
    screenshot(projector, "projector-final-breakdown.png")

    pages = [(ann, None), (bob, None), (projector, (1920, 1080)), (projector, (1024, 768))]
    for page, size in pages:
        if size:
            page.set_viewport_size({"width": size[0], "height": size[1]})
        expect(page.locator(".breakdown-wrap")).to_be_visible()
        page.evaluate(BREAKDOWN_AT, [WIDE_ROWS, WIDE_PLAYERS])
        expect(page.locator(".breakdown-wrap thead th")).to_have_text(["", *EXPECTED_COLUMNS])
        found = page.evaluate(COLUMNS_SEEN)
        width = page.viewport_size["width"] if page.viewport_size else 0
        screenshot(page, f"breakdown-{width}.png")
        assert found["seen"] == dict.fromkeys(EXPECTED_COLUMNS, True), (width, found)
        assert found["page"], width
        if page is projector:
            # The projector's breakdown fits without scrolling, at 16:9 and 4:3.
            assert not found["scrolls"], (size, found)
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
