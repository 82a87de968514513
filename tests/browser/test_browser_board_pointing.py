"""A place pointed out on the table page's board stands out across all its tiles, in Chromium.

Ann puts a meeple on a road and closes it four tiles long (a junction, the start tile, a straight
road, a junction); the server scores it and her log says so, naming the road by one tile. The
figure prompt's "where" (a feature) lights every tile of the road, not a faint ring on one of
them, and so does a log line about the road (its `at`, `feature` and `location`): hovering that
line on a laptop, or tapping it on a phone, lights the whole road, not only the tile it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot
from tests.browser.test_browser_projector_board import Link, play
from tests.browser_pages import create_table, join
from tests.scenario import Game

pytestmark = pytest.mark.services

TILES = ["W", "U", "W", "E", "E"]
MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]
ROAD = {(-1, 0), (0, 0), (1, 0), (2, 0)}
"""The tiles of Ann's road: junction, start tile, straight road, junction."""
WHOLE = "#board .layer-marks g.whole"
POINTED = "#board .layer-cells rect.cell.hover"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("board-pointing")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGES) as url:
        yield url


def road_game() -> Game:
    """Ann's meeple on a road closed by two junctions (rules/base-game.md: a road is complete when
    both ends are closed), scored for 4 points; Bob to place."""
    g = Game("c2-hig", tiles=TILES, messages=MESSAGES)
    g.place(-1, 0, 0).follower("road", "E")
    g.place(1, 0, 90).skip()
    g.place(2, 0, 0).skip()
    return g


def lit_tiles(page: Page) -> set[tuple[int, int]]:
    """The tiles (board coordinates) with a lit road segment over them."""
    moves: list[str] = page.evaluate(
        "(s) => [...document.querySelectorAll(s)]"
        ".filter((g) => g.querySelector('.whole-road'))"
        ".map((g) => g.getAttribute('transform'))",
        WHOLE,
    )
    tiles = set()
    for move in moves:
        found = re.match(r"translate\((-?\d+) (-?\d+)\)", move)
        assert found, move
        tiles.add((int(found[1]) // 100, int(found[2]) // 100))
    return tiles


def pointed_tiles(page: Page) -> set[tuple[int, int]]:
    """The tiles (board coordinates) lit as pointed out."""
    corners: list[list[float]] = page.evaluate(
        "(s) => [...document.querySelectorAll(s)]"
        ".map((r) => [r.x.baseVal.value, r.y.baseVal.value])",
        POINTED,
    )
    return {(int(x // 100), int(y // 100)) for x, y in corners}


def line_stop(page: Page, index: int) -> int:
    """The tabindex of log line `index`'s stop (its pointing button, else the line)."""
    return int(
        page.evaluate(
            """(i) => {
                const li = [...document.querySelectorAll('#log li')].at(i);
                return (li.querySelector('.log-place') || li).tabIndex;
            }""",
            index,
        )
    )


def test_a_pointed_out_road_is_lit_on_every_tile(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    laptop = browser.new_context(base_url=server, viewport={"width": 1366, "height": 768})
    phone = browser.new_context(
        base_url=server, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    ann, bob = laptop.new_page(), phone.new_page()
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()
    g = road_game()
    pending = g.pending
    assert pending is not None and pending["type"] == "choose_figure"
    assert pending["where"]["feature"] == "road"
    links = [Link(ann, code), Link(bob, code)]
    play(links, [dict(action) for action in g.state.log])

    # The figure prompt points at the road it scores for: the whole road is lit.
    expect(ann.locator(WHOLE)).to_have_count(len(ROAD))
    assert lit_tiles(ann) == ROAD
    g.figure("meeple")
    play(links, [dict(g.state.log[-1])])
    expect(ann.locator(WHOLE)).to_have_count(0)

    # A log line naming the road, hovered on the laptop: every tile of the road is lit.
    line = ann.locator("#log .log-place", has_text=re.compile(r"the road \([^)]*start tile\)"))
    expect(line.first).to_be_visible()
    line.first.hover()
    expect(ann.locator(WHOLE)).to_have_count(len(ROAD))
    assert lit_tiles(ann) == ROAD
    screenshot(ann, "table-log-points-road.png")
    ann.mouse.move(5, 5)
    expect(ann.locator(WHOLE)).to_have_count(0)

    # A line about a tile alone (no feature) lights that tile.
    placed = ann.locator(
        "#log .log-place",
        has_text=re.compile(r"places tile \w+ \(2 tiles east of the start tile\)"),
    )
    placed.first.hover()
    expect(ann.locator(POINTED)).to_have_count(1)
    assert pointed_tiles(ann) == {(2, 0)}
    ann.mouse.move(5, 5)
    expect(ann.locator(POINTED)).to_have_count(0)

    # With the keyboard: the log is one Tab stop, its newest line; the arrow keys, Home and End
    # move between the lines, and the line reached points out its place as hovering does.
    stops = ann.locator("#log [tabindex='0']")
    expect(stops).to_have_count(1)
    assert line_stop(ann, -1) == 0
    stops.first.focus()
    lines = ann.locator("#log li").all_text_contents()
    road = next(i for i, text in enumerate(lines) if re.search(r"the road \([^)]*start tile", text))
    plain = next(i for i, text in enumerate(lines) if "Turn" in text)
    ann.keyboard.press("Home")
    assert line_stop(ann, 0) == 0
    for _ in range(road):
        ann.keyboard.press("ArrowDown")
    ann.wait_for_function(
        "(i) => document.activeElement?.closest('#log li') === "
        "document.querySelectorAll('#log li')[i]",
        arg=road,
    )
    expect(ann.locator(WHOLE)).to_have_count(len(ROAD))
    assert lit_tiles(ann) == ROAD
    expect(stops).to_have_count(1)
    assert line_stop(ann, road) == 0
    # A line without a place points at nothing.
    for _ in range(road - plain):
        ann.keyboard.press("ArrowUp")
    ann.wait_for_function(
        "(i) => document.activeElement?.closest('#log li') === "
        "document.querySelectorAll('#log li')[i]",
        arg=plain,
    )
    expect(ann.locator(WHOLE)).to_have_count(0)
    ann.keyboard.press("End")
    ann.wait_for_function(
        "() => document.activeElement?.closest('#log li')"
        " === document.querySelector('#log li:last-child')"
    )
    expect(stops).to_have_count(1)

    # Tapped on the phone: the same, the board brought up with the road in sight.
    tapped = bob.locator("#log .log-place", has_text=re.compile(r"the road \([^)]*start tile\)"))
    tapped.first.scroll_into_view_if_needed()
    tapped.first.tap()
    expect(bob.locator(WHOLE)).to_have_count(len(ROAD))
    assert lit_tiles(bob) == ROAD
    expect(bob.locator("#board")).to_be_in_viewport()
    screenshot(bob, "table-phone-log-points-road.png")
    for context in (laptop, phone):
        context.close()
    assert not watch.errors, watch.errors
