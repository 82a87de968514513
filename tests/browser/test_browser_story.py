"""The evening's story in real browsers (Debian's Chromium against a real Daphne): the score
chart, the points per category, the messages, and the PNG and CSV downloads, on the host's
console, a phone and the projector.

Screenshots go to tests/artifacts/screenshots/ (git-ignored).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from game.services.stories import CSV_COLUMNS
from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot

pytestmark = pytest.mark.services

PLAYERS = 3
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str, str]]:
    """A server with a finished tabletop game, one still being played and a board game being
    played: their codes."""
    database = tmp_path_factory.mktemp("story") / "db.sqlite3"
    env = servers.project_env(DATABASE_URL=f"sqlite:///{database}")
    servers.migrate(env)
    finished = servers.run_script(env, "tests.story_table_script", "finish")["code"]
    playing = servers.run_script(env, "tests.story_table_script")["code"]
    board = servers.run_script(env, "tests.story_table_script", "board")["code"]
    with servers.daphne_server(env) as url:
        yield url, finished, playing, board


def lines(page: Page, scope: str) -> list[tuple[str, str]]:
    """The chart's data lines: (seat, line) of each."""
    return page.eval_on_selector_all(
        f"{scope} svg path[data-line]", "ps => ps.map(p => [p.dataset.seat, p.dataset.line])"
    )


def expect_chart(page: Page, scope: str, players: int = PLAYERS) -> None:
    expect(page.locator(f"{scope} svg")).to_be_visible()
    drawn = sorted(tuple(pair) for pair in lines(page, scope))
    wanted = sorted(
        (str(seat), line) for seat in range(players) for line in ("total", "meeple", "messenger")
    )
    assert drawn == wanted
    expect(page.locator(f"{scope} .story-totals tbody tr")).to_have_count(players)


def test_the_story_on_the_console_with_its_downloads(
    server: tuple[str, str, str, str], browser: Browser, tmp_path: Path
) -> None:
    base, finished, _, _ = server
    watch = ConsoleWatch()
    laptop = browser.new_context(
        base_url=base, viewport={"width": 1440, "height": 900}, accept_downloads=True
    )
    page = laptop.new_page()
    watch.watch(page, "laptop")
    page.goto(f"/t/{finished}")
    # The game is over: the story opens by itself.
    expect(page.locator("details#story")).to_have_attribute("open", "")
    expect_chart(page, "#story")
    totals = page.locator("#story .story-totals tbody tr").first
    expect(totals).to_contain_text("Ann")
    # Chosen: the points instead of the action, and the 2 points the server counted for it.
    drawn = page.locator("#story .story-messages tbody tr").first.locator("td")
    expect(drawn.nth(3)).to_have_text("Points")
    expect(drawn.nth(4)).to_have_text("2")
    page.locator("#story").scroll_into_view_if_needed()
    screenshot(page, "story-console.png")

    with page.expect_download() as png:
        page.locator('#story [data-story="png"]').click()
    assert png.value.suggested_filename == "results.png"
    saved = tmp_path / "results.png"
    png.value.save_as(saved)
    data = saved.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000

    with page.expect_download() as sheet:
        page.locator("#story a[download]", has_text="CSV").click()
    saved = tmp_path / "results.csv"
    sheet.value.save_as(saved)
    header, *cells = csv.reader(io.StringIO(saved.read_text()))
    assert len(header) == len(CSV_COLUMNS) and header[0] == "Section"
    rows = [dict(zip(CSV_COLUMNS, row, strict=True)) for row in cells]
    results = [row for row in rows if row["section"] == "Result"]
    assert [row["rank"] for row in results] == ["1", "2", "3"]
    assert {row["name"] for row in results} == {"Ann", "Bob", "Cy"}
    assert watch.errors == []
    laptop.close()


# A story table on the page: its scrolling frame, scrolled to its end, and where each column
# and the first (the player's name) then lie.
TABLE_REACH = """table => {
    const frame = table.parentElement;
    const x = (element) => {
        const r = element.getBoundingClientRect();
        return [r.left, r.right];
    };
    const row = table.tBodies[0].rows[0];
    const columns = [];
    for (const cell of row.cells) {
        cell.scrollIntoView({ inline: "nearest", block: "nearest" });
        columns.push(x(cell));
    }
    return {
        overflow: getComputedStyle(frame).overflowX,
        frame: x(frame),
        columns: columns.slice(1),
        name: x(row.cells[0]),
        named: [table.tHead.rows[0].cells[0].textContent],
    };
}"""


def test_the_story_fits_a_phone_and_follows_the_game(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    base, _, playing, _ = server
    watch = ConsoleWatch()
    phone = browser.new_context(
        base_url=base,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = phone.new_page()
    watch.watch(page, "phone")
    page.goto(f"/t/{playing}")
    expect(page.locator("#conn")).to_have_text("Live")
    story = page.locator("details#story")
    expect(story).not_to_have_attribute("open", "")
    story.locator("summary").tap()
    expect_chart(page, "#story")
    box = page.locator("#story svg").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    font = page.eval_on_selector(
        "#story svg",
        "s => parseFloat(s.getAttribute('font-size')) * s.getBoundingClientRect()"
        ".width / s.viewBox.baseVal.width",
    )
    assert font >= 10, "the chart's text is readable on a phone"
    # Each table scrolls sideways inside its card, its name column kept in view: scrolled to
    # its end, every column can be read on the phone, the player's name beside it.
    for table in ("story-totals", "story-messages"):
        reach = page.eval_on_selector(f"#story .{table}", TABLE_REACH)
        assert reach["overflow"] in ("auto", "scroll"), reach
        assert reach["frame"][0] >= 0 and reach["frame"][1] <= 390, reach
        for left, right in reach["columns"]:
            assert left >= reach["frame"][0] - 0.5 and right <= reach["frame"][1] + 0.5, reach
        assert reach["name"][0] >= reach["frame"][0] - 0.5, reach
        assert reach["name"][1] <= reach["columns"][-1][0] + 0.5, reach
        assert reach["named"] == ["Player"], reach
    page.locator("#story").scroll_into_view_if_needed()
    screenshot(page, "story-phone.png")
    assert watch.errors == []
    phone.close()


def test_the_projector_shows_the_story_on_demand(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    base, _, playing, _ = server
    watch = ConsoleWatch()
    tv = browser.new_context(base_url=base, viewport={"width": 1920, "height": 1080})
    page = tv.new_page()
    watch.watch(page, "projector")
    page.goto(f"/t/{playing}/projector")
    button = page.locator("#pj-story-button")
    expect(button).to_be_visible()
    expect(page.locator("#pj-story")).to_be_hidden()
    button.click()
    expect_chart(page, "#pj-story")
    screenshot(page, "story-projector.png")
    button.click()
    expect(page.locator("#pj-story")).to_be_hidden()
    assert watch.errors == []
    tv.close()


def test_an_online_table_links_its_story_page_which_follows_the_game(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    base, _, _, board = server
    watch = ConsoleWatch()
    laptop = browser.new_context(base_url=base, viewport={"width": 1280, "height": 800})
    page = laptop.new_page()
    watch.watch(page, "laptop")
    page.goto(f"/t/{board}")
    expect(page.locator("#conn")).to_have_text("Live")
    with laptop.expect_page() as opened:
        page.locator(".story-card a", has_text="Story of the game").click()
    story = opened.value
    watch.watch(story, "story page")
    expect(story.locator("#conn")).to_have_text("Live")
    expect_chart(story, "#story", players=2)
    expect(story.locator("#story svg text", has_text=re.compile("^Turn$"))).to_have_count(1)
    screenshot(story, "story-page.png")
    assert watch.errors == []
    laptop.close()


def test_the_projector_shows_the_story_by_itself_after_the_game(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    """After the ranking has been on screen a while (about ten seconds), the story follows."""
    base, finished, _, _ = server
    watch = ConsoleWatch()
    tv = browser.new_context(base_url=base, viewport={"width": 1024, "height": 768})
    page = tv.new_page()
    watch.watch(page, "projector")
    page.goto(f"/t/{finished}/projector")
    expect(page.locator("main")).to_have_attribute("data-status", "finished")
    expect_chart(page, "#pj-story")
    expect(page.locator("#pj-story-button")).to_have_text("Back to the table")
    cell = page.eval_on_selector(
        "#pj-story .story-totals td", "td => parseFloat(getComputedStyle(td).fontSize)"
    )
    chart_text = page.eval_on_selector(
        "#pj-story svg",
        "s => parseFloat(s.getAttribute('font-size')) * s.getBoundingClientRect()"
        ".width / s.viewBox.baseVal.width",
    )
    assert cell >= 14 and chart_text >= 14, "readable on a 4:3 projector"
    assert page.evaluate("document.querySelector('#pj-story').scrollWidth") <= 1024
    screenshot(page, "story-projector-4x3.png")
    assert watch.errors == []
    tv.close()


BUTTON_COVERS = """() => {
    // What of the story (a cell of its tables, the chart) the button leading back overlaps.
    const button = document.querySelector("#pj-story-button").getBoundingClientRect();
    const parts = document.querySelectorAll("#pj-story :is(th, td, svg, h3)");
    return [...parts].filter((part) => {
        const r = part.getBoundingClientRect();
        return r.left < button.right && r.right > button.left
            && r.top < button.bottom && r.bottom > button.top;
    }).map((part) => part.textContent.slice(0, 40));
}"""


def test_the_button_back_to_the_table_covers_nothing_of_the_story(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    """On the projector at 16:9 and 4:3, "Back to the table" stands clear of the chart, the
    headings and every cell of the story's tables."""
    base, _, playing, _ = server
    tv = browser.new_context(base_url=base, viewport={"width": 1920, "height": 1080})
    page = tv.new_page()
    page.goto(f"/t/{playing}/projector")
    page.locator("#pj-story-button").click()
    expect_chart(page, "#pj-story")
    button = page.locator("#pj-story-button")
    expect(button).to_have_text("Back to the table")
    for width, height in ((1920, 1080), (1280, 720), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"innerWidth === {width}")
        expect(button).to_be_visible()
        assert page.evaluate(BUTTON_COVERS) == [], (width, height)
    tv.close()


AXIS_CLASHES = """async ([big, counts]) => {
    // The story of a game of n turns (its JSON given by the route below, n its code) drawn into
    // a box of the page; each pair of turn numbers under the chart that overlap.
    const { showStory } = await import("/static/game/common/story.js");
    const clashes = [];
    for (const n of counts) {
        const box = document.createElement("div");
        box.style.width = "720px";
        document.body.append(box);
        await showStory(box, String(n), { big });
        const plot = box.querySelector("svg");
        const marks = [...plot.querySelectorAll('text[text-anchor="middle"]')]
            .filter((t) => !t.getAttribute("font-weight") && !t.getAttribute("transform"))
            .map((t) => [t.textContent, t.getBBox()]);
        const row = marks.filter(([w]) => w !== "Turn");
        for (let i = 1; i < row.length; i++) {
            const [a, ra] = row[i - 1];
            const [b, rb] = row[i];
            if (ra.x + ra.width > rb.x - 2) clashes.push([n, a, b, ra.x + ra.width, rb.x]);
        }
        box.remove();
    }
    return clashes;
}"""


def long_story(turns: int) -> dict[str, object]:
    """A story of two players over `turns` turns and the end."""
    rows = [
        {
            "turn": turn,
            "phase": "play",
            "players": [{"total": turn, "meeple": turn, "messenger": 0}] * 2,
        }
        for turn in range(turns + 1)
    ]
    rows.append({"turn": turns, "phase": "final", "players": rows[-1]["players"]})
    return {
        "code": str(turns),
        "players": ["Ann", "Bob"],
        "colours": ["blue", "orange"],
        "categories": ["road", "city"],
        "totals": [{"road": 1, "city": 2}] * 2,
        "messages": [],
        "history": rows,
        "ranking": [],
    }


def test_the_turns_under_the_chart_never_run_into_the_end(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    """Whatever the number of turns, the last turn numbered under the chart and "End" stand
    apart (the chart is also the PNG's picture), on a laptop and on the projector."""
    base, _, playing, _ = server
    laptop = browser.new_context(base_url=base, viewport={"width": 1280, "height": 800})
    page = laptop.new_page()

    def answer(route: Route) -> None:
        code = route.request.url.rsplit("/", 2)[1]
        if code.isdigit():
            route.fulfill(json=long_story(int(code)))
        else:
            route.fallback()

    page.route("**/t/*/story.json", answer)
    page.goto(f"/t/{playing}/story")
    expect(page.locator("#story svg")).to_be_visible()
    counts = list(range(8, 90))
    assert page.evaluate(AXIS_CLASHES, [False, counts]) == []
    assert page.evaluate(AXIS_CLASHES, [True, counts]) == []
    laptop.close()


NAME_CONTRAST = """(scope) => {
    // The WCAG contrast ratio of each player's name in the story's tables against the colour
    // it is drawn on (the first opaque background of it or a box around it).
    const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
        const c = [r, g, b].map((v) => {
            const s = v / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const ground = (el) => {
        for (; el; el = el.parentElement) {
            const c = rgb(getComputedStyle(el).backgroundColor);
            if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
        }
        return [255, 255, 255];
    };
    return [...document.querySelectorAll(`${scope} .story-table bdi`)].map((name) => {
        const [a, b] = [lum(rgb(getComputedStyle(name).color)), lum(ground(name))];
        return [name.textContent, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
    });
}"""


def assert_names_readable(page: Page, scope: str) -> None:
    expect(page.locator(f"{scope} .story-table bdi").first).to_be_visible()
    found = page.evaluate(NAME_CONTRAST, scope)
    assert found, scope
    for name, ratio in found:
        assert ratio >= 4.5, (scope, name, ratio)


def test_the_names_in_the_story_stand_out_from_their_ground(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    """The players' names in the story's tables can be read (a contrast of 4.5 at least) on the
    projector, on the table page and on the story's own page."""
    base, finished, _, board = server
    tv = browser.new_context(base_url=base, viewport={"width": 1280, "height": 720})
    page = tv.new_page()
    page.goto(f"/t/{finished}/projector")
    expect_chart(page, "#pj-story")
    assert_names_readable(page, "#pj-story")
    # An online game's projector (with the board's style), its story opened by hand.
    page.goto(f"/t/{board}/projector")
    page.locator("#pj-story-button").click()
    expect_chart(page, "#pj-story", players=2)
    assert_names_readable(page, "#pj-story")
    tv.close()
    laptop = browser.new_context(base_url=base, viewport={"width": 1280, "height": 800})
    page = laptop.new_page()
    page.goto(f"/t/{finished}")
    expect(page.locator("details#story")).to_have_attribute("open", "")
    expect_chart(page, "#story")
    assert_names_readable(page, "#story")
    page.goto(f"/t/{board}/story")
    expect_chart(page, "#story", players=2)
    assert_names_readable(page, "#story")
    laptop.close()


# The projector's story, measured against the screen: each share of its height.
STORY_SIZES = """() => {
    const box = document.querySelector("#pj-story");
    const share = (el) => parseFloat(getComputedStyle(el).fontSize) / window.innerHeight;
    const svg = box.querySelector("svg");
    const scale = svg.getBoundingClientRect().height / svg.viewBox.baseVal.height;
    const legend = [...svg.querySelectorAll("text")]
        .filter((t) => t.textContent.includes("(meeple"));
    const cells = [...box.querySelectorAll(".story-table td, .story-table th")];
    return {
        winner: share(box.querySelector(".story-winner")),
        cells: Math.min(...cells.map(share)),
        chart: (parseFloat(svg.getAttribute("font-size")) * scale) / window.innerHeight,
        legend: legend.map((t) => t.textContent),
    };
}"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768)])
def test_the_projector_ends_on_a_story_read_across_the_room(
    server: tuple[str, str, str, str], browser: Browser, size: tuple[int, int]
) -> None:
    """Nobody touches a TV: after the game the story comes by itself, the winner large above the
    chart, the legend by rank, and every word at least 2.2% of the screen's height."""
    base, finished, _, _ = server
    watch = ConsoleWatch()
    width, height = size
    tv = browser.new_context(base_url=base, viewport={"width": width, "height": height})
    page = tv.new_page()
    watch.watch(page, "projector")
    page.goto(f"/t/{finished}/projector")
    story = page.locator("#pj-story")
    expect(story).to_be_visible(timeout=60_000)
    expect_chart(page, "#pj-story")
    winner = story.locator(".story-winner")
    expect(winner).to_have_text(re.compile(r"(wins with|share the win with) \d+ points?$"))
    sizes = page.evaluate(STORY_SIZES)
    screenshot(page, f"story-projector-end-{width}x{height}.png")
    assert sizes["winner"] >= 0.05, sizes
    assert sizes["cells"] >= 0.022, sizes
    assert sizes["chart"] >= 0.022, sizes
    places = [int(line.split(".", 1)[0]) for line in sizes["legend"]]
    assert len(places) == PLAYERS and places == sorted(places), sizes
    assert watch.errors == []
    tv.close()


def test_the_points_by_category_name_their_sums_and_leave_out_empty_columns(
    server: tuple[str, str, str, str], browser: Browser
) -> None:
    """The finished game's story: no field was scored during play (Ann's field is in the final
    scoring), so that column is left out; Cy's 3 without a category are "Other points in play",
    a name no column of the end panel shares."""
    base, finished, _, _ = server
    watch = ConsoleWatch()
    context = browser.new_context(base_url=base, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    watch.watch(page, "laptop")
    page.goto(f"/t/{finished}")
    heads = page.locator("#story .story-totals thead th")
    other = "Other points in play"
    expect(heads).to_have_text(
        ["Player", "Road", "City", "Monastery", other, "Messages", "Final", "Total"]
    )
    cy = page.locator("#story .story-totals tbody tr", has_text="Cy").locator("td")
    expect(cy.nth(4)).to_have_text("3")
    panel = page.locator(".breakdown thead abbr")
    expect(panel.first).to_have_attribute("title", "All points during play")
    assert "Other points in play" not in panel.evaluate_all("els => els.map(e => e.title)")
    assert watch.errors == []
    context.close()
