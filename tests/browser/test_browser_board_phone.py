"""The board on phones, in Chromium: every place a decision points at is on screen and under
none of the board's own controls.

Ann and Bob play tests/engine/test_messages_score_and_return.py's board "Ann's road" (c2-hig) over
websockets of their own browsers, as their pages would, Ann on a 390×844 phone and Bob on a
360×740 one, both touch screens. Ann draws message 8 with three of her followers to choose from:
the three numbered marks must lie inside the visible board on both phones, clear of the status
bar, the zoom and centre buttons, the tile and message counters and the dock below. Then Bob
places the last tile: every legal cell must be so too, each big enough to tap (36 CSS px).

On a second table eleven tiles lie in a row, and the 24 places of the next tile span more than a
phone shows at that size: the board shows those around the last tile, says how many more there
are, and its note and centre button bring every one of them into sight in turn. Whatever moves
the view (the first fit, the note, the centre button, the zoom buttons, a drag) the note counts
exactly the places not wholly in sight, there and late in a game of random moves with legal cells
all round the board.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from game.engine.autoplay import random_command
from game.engine.record import export
from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot, status_bar
from tests.browser.test_browser_projector_board import Link, play
from tests.browser_pages import create_table, join
from tests.engine.test_messages import SPARE
from tests.engine.test_messages_score_and_return import MESSAGE_8, anns_road
from tests.scenario import Game

pytestmark = pytest.mark.services

TILES = ["V", "V", "V", "F", "V", "V", "G", "B", "E", SPARE]
PHONES = {"Ann": (390, 844), "Bob": (360, 740)}
TAP_PX = 36

MEASURE = """(selector) => {
    const box = (element) => {
        const r = element.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const shown = (element) => {
        const r = element.getBoundingClientRect();
        return r.width > 1 && r.height > 1 && getComputedStyle(element).visibility !== "hidden";
    };
    const controls = [
        "#status-bar", ".board-tools", ".board-info", "#absent-offer > *", ".board-more", "#dock",
    ].flatMap((s) => [...document.querySelectorAll(s)]).filter(shown);
    const wrap = box(document.querySelector(".board-wrap"));
    return {
        board: {
            left: Math.max(wrap.left, 0),
            top: Math.max(wrap.top, 0),
            right: Math.min(wrap.right, innerWidth),
            bottom: Math.min(wrap.bottom, innerHeight),
        },
        controls: controls.map((c) => ({ name: c.id || c.className, ...box(c) })),
        places: [...document.querySelectorAll(selector)].map(box),
    };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("board-phone")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGE_8) as url:
        yield url


def phone(browser: Browser, server: str, who: str) -> BrowserContext:
    width, height = PHONES[who]
    return browser.new_context(
        base_url=server,
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
    )


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def hidden_places(page: Page, selector: str) -> list[str]:
    """What is wrong with each place matched by `selector`: off the visible board, or under a
    control (named). Empty when every place can be seen and tapped."""
    measured: dict[str, Any] = page.evaluate(MEASURE, selector)
    board = measured["board"]
    assert measured["places"], f"no {selector} on the board"
    problems = []
    for i, place in enumerate(measured["places"]):
        inside = (
            place["left"] >= board["left"] - 0.5
            and place["top"] >= board["top"] - 0.5
            and place["right"] <= board["right"] + 0.5
            and place["bottom"] <= board["bottom"] + 0.5
        )
        if not inside:
            problems.append(f"place {i} {place} outside the board {board}")
        for control in measured["controls"]:
            if overlaps(place, control):
                problems.append(f"place {i} {place} under {control['name']} {control}")
    return problems


def expect_all_in_sight(page: Page, selector: str) -> None:
    """Wait (a few seconds at most) for the page to settle with every place in sight."""
    problems = hidden_places(page, selector)
    for _ in range(20):
        if not problems:
            return
        page.wait_for_timeout(250)
        problems = hidden_places(page, selector)
    assert problems == []


def test_every_target_and_legal_cell_is_on_a_phone_screen(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    contexts = {who: phone(browser, server, who) for who in PHONES}
    ann = contexts["Ann"].new_page()
    bob = contexts["Bob"].new_page()
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()

    g = anns_road("c2-hig")
    pending = g.pending
    assert pending is not None and pending["type"] == "resolve_message"
    targets = [c for c in pending["choices"] if c["choice"] == "action"]
    assert len(targets) == 3
    play([Link(ann, code), Link(bob, code)], [dict(action) for action in g.state.log])

    # Message 8: three numbered marks, one per follower of Ann's, on both phones.
    marks = "#board .layer-spots g.mark"
    for page in (ann, bob):
        expect(page.locator(marks)).to_have_count(3)
        expect(page.locator(f"{marks} text")).to_have_text(["1", "2", "3"])
        expect_all_in_sight(page, marks)
    screenshot(ann, "table-phone-message-targets.png")

    # Ann takes 2 points on her meeple; Bob places the spare tile: every legal cell is in sight
    # and big enough to tap.
    g.resolve("points").figure("meeple")
    pending = g.pending
    assert pending is not None and pending["type"] == "place_tile" and pending["seat"] == 1
    ann.locator('#dock button[data-act="message"]', has_text="Take 2 points").click()
    ann.locator('#dock button[data-act="figure"][data-figure="meeple"]').click()
    expect(status_bar(bob)).to_contain_text("Your turn")
    cells = "#board .layer-cells rect.cell"
    expect(bob.locator(cells)).to_have_count(len(pending["placements"]))
    expect(bob.locator(".board-more")).to_be_hidden()
    expect_all_in_sight(bob, cells)
    widths = bob.evaluate(
        "(s) => [...document.querySelectorAll(s)].map((c) => c.getBoundingClientRect().width)",
        cells,
    )
    # A cell is drawn 90 units wide in a tile of 100.
    assert min(widths) >= TAP_PX * 0.9 - 0.5, widths
    screenshot(bob, "table-phone-legal-cells.png")
    for context in contexts.values():
        context.close()
    assert not watch.errors, watch.errors


ROW_TILES = ["U"] * 8 + ["D"] * 3 + ["E", "V"]
"""Eleven tiles in a row east of the start tile (roads end to end), then an E for Bob: its 24
legal places span 12 columns, more than a 390 px phone shows at 36 px a tile."""


@pytest.fixture(scope="module")
def row_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("board-phone-row")
    with servers.sqlite_daphne(folder, tiles=ROW_TILES, messages=MESSAGE_8) as url:
        yield url


def clear_cells(page: Page) -> set[int]:
    """The legal cells (by index) wholly on the board and under no control."""
    measured: dict[str, Any] = page.evaluate(MEASURE, "#board .layer-cells rect.cell")
    board = measured["board"]
    return {
        i
        for i, place in enumerate(measured["places"])
        if place["left"] >= board["left"] - 0.5
        and place["top"] >= board["top"] - 0.5
        and place["right"] <= board["right"] + 0.5
        and place["bottom"] <= board["bottom"] + 0.5
        and not any(overlaps(place, control) for control in measured["controls"])
    }


def test_places_too_far_apart_come_a_screenful_at_a_time(row_server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann_context = phone(browser, row_server, "Ann")
    bob_context = browser.new_context(
        base_url=row_server, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    ann = ann_context.new_page()
    bob = bob_context.new_page()
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()

    g = Game("c2-hig", tiles=ROW_TILES, messages=MESSAGE_8)
    for x, tile in enumerate(ROW_TILES[:11], start=1):
        g.place(x, 0, 90 if tile == "U" else 0).skip()
    pending = g.pending
    assert pending is not None and pending["seat"] == 1 and pending["tile"] == "E"
    total = len(pending["placements"])
    assert total == 24
    play([Link(ann, code), Link(bob, code)], [dict(action) for action in g.state.log])

    expect(status_bar(bob)).to_contain_text("Your turn")
    cells = bob.locator("#board .layer-cells rect.cell")
    expect(cells).to_have_count(total)
    # The screenful around the last tile, and a note that says how many more there are.
    note = bob.locator(".board-more")
    expect(note).to_have_text(re.compile(r"^\d+ more places off-screen: show$"))
    hidden = int(note.inner_text().split()[0])
    assert 0 < hidden < total
    seen = clear_cells(bob)
    assert len(seen) >= total - hidden
    widths = bob.evaluate(
        "(s) => [...document.querySelectorAll(s)].map((c) => c.getBoundingClientRect().width)",
        "#board .layer-cells rect.cell",
    )
    assert min(widths) >= TAP_PX * 0.9 - 0.5, widths
    screenshot(bob, "table-phone-more-places.png")
    # The note, then the centre button, show the next screenfuls: every place comes into sight.
    for press in range(6):
        if len(seen) == total:
            break
        before = clear_cells(bob)
        if press % 2:
            bob.locator('.board-tools [data-act="centre"]').tap()
        else:
            note.tap()
        for _ in range(20):
            now = clear_cells(bob)
            if now != before:
                break
            bob.wait_for_timeout(100)
        seen |= now
    assert len(seen) == total, f"{total - len(seen)} places never in sight"
    for context in (ann_context, bob_context):
        context.close()
    assert not watch.errors, watch.errors


def note_count(page: Page) -> int:
    """The number the off-screen note gives, 0 when the note is hidden."""
    note = page.locator(".board-more")
    if not note.is_visible():
        return 0
    return int(note.inner_text().split()[0])


def expect_true_count(page: Page, total: int, after: str) -> set[int]:
    """Wait (a few seconds at most) until the note counts exactly the legal cells not wholly in
    sight (off the visible board or partly under a control), and return those in sight."""
    for _ in range(30):
        seen = clear_cells(page)
        if note_count(page) == total - len(seen):
            return seen
        page.wait_for_timeout(100)
    raise AssertionError(
        f"after {after}: the note says {note_count(page)} off-screen, "
        f"but {total - len(seen)} of {total} are not in sight"
    )


def test_the_note_counts_the_places_out_of_sight_whenever_the_view_moves(
    row_server: str, browser: Browser
) -> None:
    """After the first fit, the note's "show", the centre button, each zoom button and a drag,
    the note counts exactly the places not wholly in sight, and every place it counts as in
    sight lies clear of the controls. The centre button keeps the screenful around the last tile
    in the clear area, yet shows as many of the other places as it can."""
    watch = ConsoleWatch()
    contexts = [phone(browser, row_server, "Ann"), phone(browser, row_server, "Ann")]
    ann, bob = (context.new_page() for context in contexts)
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()
    g = Game("c2-hig", tiles=ROW_TILES, messages=MESSAGE_8)
    for x, tile in enumerate(ROW_TILES[:11], start=1):
        g.place(x, 0, 90 if tile == "U" else 0).skip()
    pending = g.pending
    assert pending is not None
    total = len(pending["placements"])
    play([Link(ann, code), Link(bob, code)], [dict(action) for action in g.state.log])
    expect(status_bar(bob)).to_contain_text("Your turn")
    expect(bob.locator("#board .layer-cells rect.cell")).to_have_count(total)

    # The first fit shows the screenful around the last tile at a size to tap, with the note.
    expect(bob.locator(".board-more")).to_be_visible()
    seen = expect_true_count(bob, total, "the first fit")
    assert 0 < len(seen) < total
    bob.locator(".board-more").tap()
    expect_true_count(bob, total, "the note's show")
    bob.locator('.board-tools [data-act="centre"]').tap()
    seen = expect_true_count(bob, total, "the centre button")
    # The clear area is used on both sides: the screenful is not pushed to one edge with
    # places left out of sight beyond the other.
    assert len(seen) >= 14, f"only {len(seen)} of {total} places in sight after centring"
    screenshot(bob, "table-phone-centred-count.png")
    bob.locator('.board-tools [data-act="zoom-out"]').tap()
    zoomed_out = expect_true_count(bob, total, "zooming out")
    assert len(zoomed_out) > len(seen)
    bob.locator('.board-tools [data-act="zoom-in"]').tap()
    bob.locator('.board-tools [data-act="zoom-in"]').tap()
    expect_true_count(bob, total, "zooming in")
    box = bob.locator("#board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    bob.mouse.move(x, y)
    bob.mouse.down()
    bob.mouse.move(x - 120, y - 40, steps=6)
    bob.mouse.up()
    expect_true_count(bob, total, "a drag")
    for context in contexts:
        context.close()
    assert not watch.errors, watch.errors


def late_game() -> tuple[list[str], list[int], Game]:
    """A c2-hig game of random legal moves (fixed seeds) up to Bob's tile at turn 40 or later
    with at least 30 legal cells, scattered all round a board of some 40 tiles: the bag, the
    message stack and the game."""
    bag = export(Game("c2-hig", tiles=None, messages=None, seed=7).state)
    tiles, messages = list(bag["tiles"]), list(bag["messages"])
    g = Game("c2-hig", tiles=tiles, messages=messages)
    rng = random.Random(3)
    while True:
        pending = g.pending
        assert pending is not None, "the game ended first"
        if (
            pending["type"] == "place_tile"
            and pending["seat"] == 1
            and g.state.turn > 40
            and len(pending["placements"]) >= 30
        ):
            return tiles, messages, g
        seat, command = random_command(g.state, rng)
        g.send(command, seat=seat)


LATE_TILES, LATE_MESSAGES, LATE_GAME = late_game()


@pytest.fixture(scope="module")
def late_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("board-phone-late")
    with servers.sqlite_daphne(folder, tiles=LATE_TILES, messages=LATE_MESSAGES) as url:
        yield url


def test_a_late_game_on_a_phone_counts_what_is_out_of_sight(
    late_server: str, browser: Browser
) -> None:
    """Late in a game, with legal cells all round the board, the first fit, the centre button,
    the note and the zoom buttons each leave the note counting exactly the cells out of sight."""
    watch = ConsoleWatch()
    contexts = [phone(browser, late_server, "Ann"), phone(browser, late_server, "Ann")]
    ann, bob = (context.new_page() for context in contexts)
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()
    pending = LATE_GAME.pending
    assert pending is not None
    total = len(pending["placements"])
    play([Link(ann, code), Link(bob, code)], [dict(action) for action in LATE_GAME.state.log])
    expect(status_bar(bob)).to_contain_text("Your turn")
    expect(bob.locator("#board .layer-cells rect.cell")).to_have_count(total)
    expect(bob.locator(".board-more")).to_be_visible()
    expect_true_count(bob, total, "the first fit")
    bob.locator('.board-tools [data-act="centre"]').tap()
    expect_true_count(bob, total, "the centre button")
    screenshot(bob, "table-phone-late-centred.png")
    bob.locator(".board-more").tap()
    expect_true_count(bob, total, "the note's show")
    bob.locator('.board-tools [data-act="zoom-in"]').tap()
    expect_true_count(bob, total, "zooming in")
    bob.locator('.board-tools [data-act="zoom-out"]').tap()
    bob.locator('.board-tools [data-act="zoom-out"]').tap()
    expect_true_count(bob, total, "zooming out")
    for context in contexts:
        context.close()
    assert not watch.errors, watch.errors
