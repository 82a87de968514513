"""A whole game in real browsers: Debian's Chromium driven by Playwright against a real Daphne.

Ann creates a table on a desktop, Bob joins from a phone-sized touch screen, and a projector
page follows on a big screen. They play a short game from fixed stacks (the test-only settings
MESSENGERS_FIXED_TILES / MESSENGERS_FIXED_MESSAGES) through the user interface only: clicks and
taps on the highlighted cells of the SVG board, the rotate key and button, the follower, figure
and message buttons. After every decision all three pages must show what the engine says the
game looks like at that point (`game.engine.record.replay` of the same decisions): whose turn it
is, the scores, the board, the counts. On the way, Bob's page is reloaded while a message waits
to be resolved, and the server is stopped and started again on the same port: the open pages
must come back by themselves and the game must go on. The record downloaded at the end must
replay to the same result.

Screenshots for the documentation go to tests/artifacts/screenshots/ (git-ignored).

The tests are sync functions on purpose: Playwright's sync API refuses to run inside a running
asyncio loop, and pytest-asyncio runs in auto mode in this project.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Locator,
    Page,
    expect,
)

from game.engine.record import replay
from tests import servers
from tests.browser_pages import english_view
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services

TIMEOUT_MS = BROWSER_TIMEOUT_MS

RECONNECT_TIMEOUT_MS = 60_000
"""How long pages may take to reconnect after the restart: they retry with a back-off that
doubles from 1 s (connection.js), so their first attempt after the server is back may come
several seconds after it."""

SCREENSHOTS = servers.ROOT / "tests" / "artifacts" / "screenshots"
"""Where the run leaves its screenshots (git-ignored; some are copied into docs/ by hand)."""

NAMES = ["Ann", "Bob"]
ANN, BOB = 0, 1

TILES = ["W", "E", "W", "U", "X", "U", "U", "U", "V", "A"]
"""The land tiles after the start tile, in draw order: ten turns, then the game ends."""

MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]
"""The message stack, top first: Ann draws 1 (smallest road), Bob draws 2 (smallest city)."""


def _act(seat: int, kind: str, **keys: Any) -> dict[str, Any]:
    """A record action: who decides, what, and the command's keys."""
    return {"seat": seat, "type": kind, **keys}


# Every decision of the game, as record actions. With the start tile D at (0, 0) (city north,
# road west-east):
#   T1 Ann W at (1, 0), highwayman on the road to the start tile.
#   T2 Bob E at (0, -1) closes the start city with a knight: 4 on his meeple.
#   T3 Ann W at (-1, 0) closes the road (-1, 0)-(1, 0): 3 on her meeple; highwayman on (-1, 0) S.
#   T4 Bob U at (1, 1), highwayman on the road going south from (1, 0).
#   T5 Ann X at (2, 0) closes the road (1, 0)-(2, 0): 2 on her meeple, 3 -> 5, a dark space:
#      message 1 "Score your smallest road": 1 point for her 1-tile road, on the messenger.
#   T6-T9 Bob extends his road south, Ann hers; no scoring. (Each turns a straight road tile
#      half round, which looks the same, so that both turn a tile in the interface.)
#   T10 Bob A at (1, 4) closes his road of 5 tiles: 5 on the messenger, 0 -> 5, dark: message 2
#      "Score your smallest city" (he has none): he takes 2 points on the meeple, 4 -> 6.
#   The tiles are used up: Ann merges 6 on her messenger, Bob 11 on his meeple; final scoring
#   gives Ann 3 for her road and Bob 2 for his monastery: Bob 13, Ann 9.
PLAN: list[dict[str, Any]] = [
    _act(ANN, "place_tile", x=1, y=0, rotation=0),
    _act(ANN, "place_follower", feature="road", at="W"),
    _act(BOB, "place_tile", x=0, y=-1, rotation=180),
    _act(BOB, "place_follower", feature="city", at="S"),
    _act(BOB, "choose_figure", figure="meeple"),
    _act(ANN, "place_tile", x=-1, y=0, rotation=0),
    _act(ANN, "place_follower", feature="road", at="S"),
    _act(ANN, "choose_figure", figure="meeple"),
    _act(BOB, "place_tile", x=1, y=1, rotation=0),
    _act(BOB, "place_follower", feature="road", at="N"),
    _act(ANN, "place_tile", x=2, y=0, rotation=0),
    _act(ANN, "place_follower", feature="road", at="W"),
    _act(ANN, "choose_figure", figure="meeple"),
    _act(ANN, "resolve_message", choice="action"),
    _act(ANN, "choose_figure", figure="messenger"),
    _act(BOB, "place_tile", x=1, y=2, rotation=0),
    _act(BOB, "skip_follower"),
    _act(ANN, "place_tile", x=-1, y=1, rotation=180),
    _act(ANN, "skip_follower"),
    _act(BOB, "place_tile", x=1, y=3, rotation=180),
    _act(BOB, "skip_follower"),
    _act(ANN, "place_tile", x=-1, y=2, rotation=90),
    _act(ANN, "skip_follower"),
    _act(BOB, "place_tile", x=1, y=4, rotation=180),
    _act(BOB, "place_follower", feature="monastery"),
    _act(BOB, "choose_figure", figure="messenger"),
    _act(BOB, "resolve_message", choice="points"),
    _act(BOB, "choose_figure", figure="meeple"),
    _act(ANN, "choose_figure", figure="messenger"),
    _act(BOB, "choose_figure", figure="meeple"),
]

FIRST_MESSAGE_DRAWN = 13
"""Decisions made when Ann's first message is revealed (her figure lands on 5)."""
FIRST_MESSAGE_RESOLVED = 14
"""Decisions made once she has taken its action (before she places its point)."""
RESTART_AT = 15
"""Decisions made when the server restarts: Bob is about to place the tile of turn 6."""
SECOND_MESSAGE_DRAWN = 26
"""Decisions made when Bob's message is revealed (his messenger lands on 5)."""
ANN_PLACING_SCREENSHOT = 10
"""Decisions made when Ann's desktop is photographed trying her tile on the board."""

FINAL_SCORES = {"Ann": 9, "Bob": 13}

# Words the pages use (table.js, projector.js), mirrored here so that the test states them.
CORNER = {"NL": "north-west", "NR": "north-east", "EL": "north-east", "ER": "south-east"}
CORNER |= {"SL": "south-east", "SR": "south-west", "WL": "south-west", "WR": "north-west"}
SIDE = {"N": "north", "E": "east", "S": "south", "W": "west"}


def points(n: int) -> str:
    """As the table page counts points (`pts` in table.js)."""
    return "1 point" if n == 1 else f"{n} points"


def projector_points(n: int) -> str:
    """As the projector counts points (`points` in projector.js)."""
    return "no points" if n == 0 else points(n)


def spot_label(spot: dict[str, Any]) -> str:
    """The name of a follower spot on its button (`spotLabel` in table.js)."""
    if spot["feature"] == "monastery":
        return "Monastery"
    at = spot.get("at")
    where = (CORNER[at] if len(at) > 1 else SIDE[at]) if at else ""
    kind = spot["feature"].capitalize()
    return f"{kind} ({where})" if where else kind


def table_status(pending: dict[str, Any] | None, viewer: int, finished: bool) -> str:
    """The status bar over the board of `viewer`'s table page (`waitingText` in table.js)."""
    if finished or pending is None:
        return "Game over"
    who = NAMES[pending["seat"]]
    own = pending["seat"] == viewer
    kind = pending["type"]
    if kind == "place_tile":
        tile = pending["tile"]
        return f"Your turn: place tile {tile}" if own else f"{who} is placing tile {tile}"
    if kind == "place_follower":
        return "Place a follower, or not" if own else f"{who} may place a follower"
    if kind == "choose_figure" and pending.get("final"):
        if own:
            return "Choose which figure carries your total"
        return f"Waiting for {who} to choose which figure carries the total"
    if kind == "choose_figure":
        if own:
            return f"Choose a figure for {points(pending['points'])}"
        return f"Waiting for {who} to choose a figure"
    if kind == "resolve_message":
        n = pending["message"]
        return f"Resolve message {n}" if own else f"Waiting for {who} to resolve message {n}"
    raise AssertionError(f"no wording for {kind}")


def projector_status(pending: dict[str, Any], active: int) -> str:
    """The smaller line under whose turn it is on the projector (`statusWords` there)."""
    who = NAMES[pending["seat"]]
    kind = pending["type"]
    if kind == "place_tile":
        return f"{NAMES[active]} is placing a tile"
    if kind == "place_follower":
        return f"{NAMES[active]} may place a follower"
    if kind == "choose_figure" and pending.get("final"):
        return f"Waiting for {who} to choose which figure carries the total"
    if kind == "choose_figure":
        points = projector_points(pending["points"])
        return f"Waiting for {who} to choose a figure for {points} {pending['for_what']}"
    if kind == "resolve_message":
        return f"Waiting for {who} to resolve message {pending['message']}"
    raise AssertionError(f"no wording for {kind}")


def expected_view(decisions: int) -> dict[str, Any]:
    """What the game looks like after the first `decisions` of the plan, says the engine."""
    return english_view(replay(_record(PLAN[:decisions])).state, None)


def _record(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A record of the plan's game with `actions`; the seed does not matter with fixed stacks."""
    return {
        "format": "carcassonne-messengers/1",
        "mode": "board",
        "players": NAMES,
        "preset": "c2-hig",
        "seed": 0,
        "tiles": TILES,
        "messages": MESSAGES,
        "actions": actions,
    }


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[servers.RestartableDaphne]:
    """Daphne on a fresh SQLite file with the fixed stacks; restartable on the same port.

    SQLite in a file (not in memory) so that the game survives the restart as it would in a
    real deployment's database.
    """
    database = tmp_path_factory.mktemp("browser") / "db.sqlite3"
    env = servers.project_env(
        DATABASE_URL=f"sqlite:///{database}",
        MESSENGERS_FIXED_TILES=",".join(TILES),
        MESSENGERS_FIXED_MESSAGES=",".join(str(m) for m in MESSAGES),
    )
    servers.migrate(env)
    with servers.restartable_daphne(env) as daphne:
        yield daphne


# --- the people at the table -------------------------------------------------------------------


@dataclass
class ConsoleWatch:
    """Every console error and uncaught exception of the pages, to fail the test on.

    While the server is down on purpose, the failed websocket connections that the pages log
    are expected and ignored; nothing else is.
    """

    server_down: bool = False
    errors: list[str] = field(default_factory=list)

    NETWORK = re.compile(r"WebSocket connection to .* failed|net::ERR_CONNECTION_REFUSED")

    def watch(self, page: Page, who: str) -> None:
        """Collect the errors of `page`, labelled with `who` uses it."""
        page.on("console", lambda message: self._console(who, message))
        page.on("pageerror", lambda error: self.errors.append(f"{who}: page error: {error}"))

    def _console(self, who: str, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if self.server_down and self.NETWORK.search(message.text):
            return
        self.errors.append(f"{who}: console error: {message.text}")


@dataclass
class Player:
    """A person with a seat: their page and how they use it (mouse and keys, or touch)."""

    seat: int
    page: Page
    touch: bool

    @property
    def name(self) -> str:
        """The name the player typed when taking the seat."""
        return NAMES[self.seat]

    def press(self, target: Locator) -> None:
        """Tap on a touch screen, click elsewhere."""
        if self.touch:
            target.tap()
        else:
            target.click()


def status_bar(page: Page) -> Locator:
    """The words of the status bar (after the swatch of the seat it waits for, if any)."""
    return page.locator("#status-bar > span:not(.sw)")


def dock_button(page: Page, act: str) -> Locator:
    """A button of the decision panel, by what it does (its data-act)."""
    return page.locator(f'#dock button[data-act="{act}"]')


def screenshot(page: Page, name: str) -> None:
    """Save a screenshot for the documentation, with animations finished so it is sharp."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / name, animations="disabled")


# --- playing through the user interface --------------------------------------------------------


def cell_on_board(page: Page, x: int, y: int) -> Locator:
    """The highlighted legal cell (x, y) of the board (a tile is 100 units, inset by 5)."""
    return page.locator(f'#board .layer-cells rect.cell[x="{x * 100 + 5}"][y="{y * 100 + 5}"]')


def wholly_visible(page: Page, target: Locator) -> bool:
    """Whether `target` lies inside the board's visible area, away from its tool buttons."""
    box = target.bounding_box()
    board = page.locator("#board").bounding_box()
    tools = page.locator(".board-tools").bounding_box()
    if box is None or board is None:
        return False
    inside = (
        box["x"] >= board["x"]
        and box["y"] >= board["y"]
        and box["x"] + box["width"] <= board["x"] + board["width"]
        and box["y"] + box["height"] <= board["y"] + board["height"]
    )
    if not inside or tools is None:
        return inside
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return not (
        tools["x"] <= centre[0] <= tools["x"] + tools["width"]
        and tools["y"] <= centre[1] <= tools["y"] + tools["height"]
    )


def place_tile(
    player: Player, action: dict[str, Any], pending: dict[str, Any], photo: str | None = None
) -> int:
    """Try the tile on its cell, turn it to the planned rotation, and place it.

    Ann uses the mouse, the R key and Enter; Bob taps the cell, "Rotate" and "Place here". If
    the cell is out of sight, the player first presses "Centre the board", as anyone would.
    `photo` names a screenshot taken while the tile waits on the board to be confirmed.
    Returns how often the tile was turned, so that the test can tell that turning was used.
    """
    page = player.page
    x, y, rotation = action["x"], action["y"], action["rotation"]
    cell = cell_on_board(page, x, y)
    expect(cell).to_have_count(1)
    if not wholly_visible(page, cell):
        player.press(page.locator('.board-tools [data-act="centre"]'))
    player.press(cell)
    hint = page.locator("#dock .hand-text .hint")
    # The tile tried is shown on its cell, and the text asks about "here", not coordinates.
    tried = page.locator(
        f'#board .layer-preview g.tentative[transform="translate({x * 100} {y * 100})"]'
    )
    expect(tried).to_have_count(1)
    expect(hint).to_contain_text("on the highlighted place. Place it here?")
    assert not re.search(r"\(-?\d+, -?\d+\)", hint.inner_text())
    rotations = next(c["rotations"] for c in pending["placements"] if (c["x"], c["y"]) == (x, y))
    shown = int(re.search(r"turned (\d+)°", hint.inner_text()).group(1))
    assert shown in rotations, f"the page offers rotation {shown} of {rotations}"
    index = rotations.index(shown)
    turns = 0
    while shown != rotation:
        turns += 1
        index = (index + 1) % len(rotations)
        shown = rotations[index]
        if player.touch:
            player.press(dock_button(page, "rotate"))
        else:
            page.keyboard.press("r")
        expect(hint).to_contain_text(f"turned {shown}°")
    if photo:
        screenshot(page, photo)
    if player.touch:
        player.press(dock_button(page, "place"))
    else:
        page.keyboard.press("Enter")
    return turns


def place_follower(player: Player, action: dict[str, Any], pending: dict[str, Any]) -> None:
    """Choose the spot (on the board for touch, by its button otherwise), then confirm."""
    page = player.page
    wanted = {k: v for k, v in action.items() if k in ("feature", "at")}
    spots = [{k: v for k, v in s.items() if k in ("feature", "at")} for s in pending["spots"]]
    index = spots.index(wanted)
    label = spot_label(wanted)
    if player.touch:
        spot = page.locator(f'#board .layer-spots g.spot[data-spot="{index}"]')
        if not wholly_visible(page, spot):
            player.press(page.locator('.board-tools [data-act="centre"]'))
        player.press(spot)
    else:
        player.press(page.locator('#dock button[data-act="spot"]', has_text=label))
    confirm = dock_button(page, "follower")
    expect(confirm).to_have_text(f"Place on {label.lower()}")
    player.press(confirm)


def choose_figure(player: Player, action: dict[str, Any], pending: dict[str, Any]) -> None:
    """Press the figure the plan names, after checking the spaces its button promises."""
    option = next(o for o in pending["options"] if o["figure"] == action["figure"])
    button = player.page.locator(
        f'#dock button[data-act="figure"][data-figure="{option["figure"]}"]'
    )
    expect(button).to_contain_text(f"{option['from']} → {option['to']}")
    player.press(button)


def resolve_message(player: Player, action: dict[str, Any], pending: dict[str, Any]) -> None:
    """Press the message choice the plan names, by the server's words on its button (and the
    number of its place on the board, where it points at one)."""
    choice = next(c for c in pending["choices"] if c["choice"] == action["choice"])
    label = choice["label"]
    button = player.page.locator('#dock button[data-act="message"]', has_text=label)
    expect(button).to_have_text(f"{choice['mark']} {label}" if choice.get("mark") else label)
    player.press(button)


def skip_follower(player: Player, action: dict[str, Any], pending: dict[str, Any]) -> None:
    """Decline to place a follower on the tile just placed."""
    player.press(dock_button(player.page, "skip"))


# How a player makes each decision other than placing a tile (which the test calls itself, to
# count the turns and take a screenshot on the way).
PERFORM = {
    "place_follower": place_follower,
    "skip_follower": skip_follower,
    "choose_figure": choose_figure,
    "resolve_message": resolve_message,
}


# --- what every page must show ----------------------------------------------------------------


def expect_version(page: Page, version: int) -> None:
    """Wait until the page shows state `version` (the data-version of its root element, which
    table.js and projector.js set): then the update has arrived and been drawn."""
    expect(page.locator("#table-page, main.pj")).to_have_attribute("data-version", str(version))


def expect_table_page(player: Player, view: dict[str, Any]) -> None:
    """The table page of `player` agrees with the engine's view."""
    page = player.page
    expect_version(page, view["version"])
    expect(status_bar(page)).to_have_text(
        table_status(view["pending"], player.seat, view["finished"])
    )
    scores = [str(p["score"]) for p in view["players"]]
    expect(page.locator("#players .p-score")).to_have_text(scores)
    expect(page.locator("#scoreboard .sb-total")).to_have_text(scores)
    expect(page.locator("#board .layer-tiles > g")).to_have_count(len(view["board"]["tiles"]))
    expect(page.locator("#board .layer-followers > g")).to_have_count(
        len(view["board"]["followers"])
    )
    expect(page.locator("#tiles-left")).to_have_text(str(view["tiles_left"]))
    expect(page.locator("#messages-left")).to_have_text(str(view["messages_left"]))


def expect_projector(page: Page, view: dict[str, Any]) -> None:
    """The projector agrees with the engine's view."""
    expect_version(page, view["version"])
    scores = [str(p["score"]) for p in view["players"]]
    expect(page.locator(".sb-players .sb-total")).to_have_text(scores)
    if view["finished"]:
        return
    active = view["active_seat"]
    # In the final phase (the figures merge) nobody has a turn: the page says so.
    final = bool(view["pending"].get("final"))
    expect(page.locator(".pj-status .pj-turn")).to_have_text(
        "Final scoring" if final else re.compile(rf"{NAMES[active]}\u2019s turn$")
    )
    expect(page.locator(".sb-players .sb-marker", has_text="turn")).to_have_count(0 if final else 1)
    expect(page.locator(".pj-status .pj-sub")).to_have_text(
        projector_status(view["pending"], active)
    )
    counts = page.locator(".pj-counts dd")
    expect(counts).to_have_text(
        [str(view["tiles_left"]), str(view["messages_left"]), str(view["turn"])]
    )


@dataclass
class Table:
    """The three pages of the game and the server they talk to."""

    server: servers.RestartableDaphne
    ann: Player
    bob: Player
    projector: Page
    console: ConsoleWatch

    @property
    def players(self) -> list[Player]:
        """The players in seat order, so that a seat number picks its player."""
        return [self.ann, self.bob]

    def expect_all(self, view: dict[str, Any]) -> None:
        """Both table pages and the projector agree with the engine's `view`."""
        for player in self.players:
            expect_table_page(player, view)
        expect_projector(self.projector, view)

    def expect_live(self, timeout: int = TIMEOUT_MS) -> None:
        """Every page says its connection is live."""
        for player in self.players:
            expect(player.page.locator("#conn")).to_have_text("Live", timeout=timeout)
        expect(self.projector.locator("#pj-conn")).to_have_attribute(
            "data-state", "open", timeout=timeout
        )


# --- the scenario ------------------------------------------------------------------------------


def open_table(browser: Browser, server: servers.RestartableDaphne, console: ConsoleWatch) -> Table:
    """Ann creates the table, the projector opens, Bob joins, Ann starts the game."""
    base = server.url
    desktop = browser.new_context(base_url=base, viewport={"width": 1440, "height": 900})
    phone = browser.new_context(
        base_url=base,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    big_screen = browser.new_context(base_url=base, viewport={"width": 1920, "height": 1080})
    for context in (desktop, phone, big_screen):
        context.set_default_timeout(TIMEOUT_MS)
    ann_page = desktop.new_page()
    console.watch(ann_page, "Ann")

    # Ann creates the table: edition, 2 seats, her name and colour.
    ann_page.goto("/")
    ann_page.locator("label.card", has_text="2nd edition (2017, Big Box 6)").click()
    ann_page.locator(".segmented label", has_text=re.compile(r"^\s*2\s*$")).click()
    ann_page.locator("#name").fill("Ann")
    ann_page.locator("label.swatch", has_text="Blue").click()
    expect(ann_page.locator('input[name="preset"][value="c2-hig"]')).to_be_checked()
    expect(ann_page.locator('input[name="seats"][value="2"]')).to_be_checked()
    expect(ann_page.locator('input[name="colour"][value="blue"]')).to_be_checked()
    ann_page.get_by_role("button", name="Create the table").click()
    ann_page.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    code = ann_page.url.rsplit("/", 1)[1]
    expect(ann_page.locator("#conn")).to_have_text("Live")
    expect(ann_page.locator("#lobby-seats li")).to_have_count(2)
    expect(ann_page.locator('#start-box button[data-act="start"]')).to_be_disabled()

    projector = big_screen.new_page()
    console.watch(projector, "projector")
    projector.goto(f"/t/{code}/projector")
    expect(projector.locator(".pj-centre--lobby .pj-sub").first).to_have_text("1 of 2 seats taken")

    # Bob opens the link on his phone and takes the other seat in another colour.
    bob_page = phone.new_page()
    console.watch(bob_page, "Bob")
    bob_page.goto(f"/t/{code}")
    join = bob_page.locator("#join-form")
    expect(join.locator('input[name="colour"][value="blue"]')).to_be_disabled()
    join.locator('input[name="name"]').fill("Bob")
    join.locator("label.colour-opt", has_text="Orange").tap()
    expect(join.locator('input[name="colour"][value="orange"]')).to_be_checked()
    join.get_by_role("button", name="Take a seat").tap()
    expect(bob_page.locator("#conn")).to_have_text("Live")
    expect(bob_page.locator("#lobby-seats .seat-name")).to_have_text(["Ann host", "Bob (you)"])
    expect(ann_page.locator("#lobby-seats .seat-name")).to_have_text(["Ann (you) host", "Bob"])
    expect(projector.locator(".pj-centre--lobby .pj-sub").first).to_have_text("2 of 2 seats taken")
    # Bob's personal link, also as a QR code to open his seat on another device.
    rejoin = bob_page.locator("#lobby-links details.rejoin")
    rejoin.locator("summary").tap()
    qr = rejoin.locator("img.qr")
    expect(qr).to_be_visible()
    bob_page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=qr.element_handle()
    )
    rejoin.locator("summary").tap()

    start = ann_page.locator('#start-box button[data-act="start"]')
    expect(start).to_be_enabled()
    start.click()
    table = Table(
        server,
        Player(ANN, ann_page, touch=False),
        Player(BOB, bob_page, touch=True),
        projector,
        console,
    )
    return table


def expect_reveal_card(projector: Page, view: dict[str, Any]) -> None:
    """The projector's big card for a message just drawn: number, words and who drew it.

    It stays while the message is being decided (projector.js follows `view.revealed`).
    """
    revealed = view["revealed"]
    overlay = projector.locator("#pj-overlay")
    expect(overlay.locator(".pj-card-number")).to_have_text(str(revealed["message"]))
    expect(overlay.locator(".pj-card-text")).to_have_text(revealed["text"])
    expect(overlay.locator(".pj-card-kicker")).to_have_text(
        re.compile(rf"{NAMES[revealed['seat']]}\sdraws a message$")
    )
    expect(overlay).to_be_visible()


def expect_message_revealed(table: Table, view: dict[str, Any], drawer: Player) -> None:
    """Everyone sees the revealed message, its number and words, before it is resolved."""
    revealed = view["revealed"]
    number, text = str(revealed["message"]), revealed["text"]
    card = table.projector.locator(".pj-pending-message")
    expect(card.locator(".pj-seal")).to_have_text(number)
    expect(card.locator(".pj-pending-text")).to_have_text(text)
    for player in table.players:
        dock = player.page.locator("#dock")
        expect(dock.locator(".message-card .msg-num")).to_have_text(number)
        expect(dock.locator(".message-card .msg-text")).to_have_text(text)
        own = player is drawer
        expect(dock.locator(".msg-who")).to_contain_text(
            "You drew a message" if own else f"{drawer.name} drew a message"
        )
        buttons = dock.locator('button[data-act="message"]')
        expect(buttons).to_have_count(len(view["pending"]["choices"]) if own else 0)
        expect(player.page.locator("#log li").last).to_have_text(
            f"\u2068{drawer.name}\u2069 draws message {number}: {text}"
        )


def restart_server(table: Table, view: dict[str, Any]) -> None:
    """Stop the server mid-game and start it again on the same port with the same database.

    The pages must notice, keep showing the game, reconnect by themselves and show the same
    state as before.
    """
    table.console.server_down = True
    table.server.stop()
    for player in table.players:
        expect(player.page.locator("#conn")).to_have_text("Reconnecting…")
    expect(table.projector.locator("#pj-conn")).not_to_have_attribute("data-state", "open")
    # Nothing is lost on screen while the server is away.
    for player in table.players:
        expect(status_bar(player.page)).to_have_text(
            table_status(view["pending"], player.seat, False)
        )
    table.server.start()
    table.expect_live(timeout=RECONNECT_TIMEOUT_MS)
    table.console.server_down = False
    table.expect_all(view)


def test_two_players_and_a_projector_play_a_game(
    browser: Browser, server: servers.RestartableDaphne
) -> None:
    """Create, join, play to the end with a reload and a server restart; all pages agree."""
    console = ConsoleWatch()
    table = open_table(browser, server, console)
    table.expect_all(expected_view(0))
    turned = {ANN: 0, BOB: 0}

    for index, action in enumerate(PLAN):
        view = expected_view(index)
        player = table.players[action["seat"]]
        assert view["pending"]["seat"] == player.seat, (index, view["pending"])
        if action["type"] == "place_tile":
            photo = "table-desktop-placing.png" if index == ANN_PLACING_SCREENSHOT else None
            turned[player.seat] += place_tile(player, action, view["pending"], photo)
        else:
            PERFORM[action["type"]](player, action, view["pending"])
        done = index + 1
        view = expected_view(done)

        if done == FIRST_MESSAGE_DRAWN:
            expect_reveal_card(table.projector, view)
            screenshot(table.projector, "projector-message.png")
            table.expect_all(view)
            expect_message_revealed(table, view, table.ann)
            screenshot(table.bob.page, "table-phone-message.png")
            screenshot(table.ann.page, "table-desktop-message.png")
            # Bob reloads his page while Ann decides: the message is still there.
            table.bob.page.reload()
            expect(table.bob.page.locator("#conn")).to_have_text("Live")
            expect_table_page(table.bob, view)
            expect_message_revealed(table, view, table.ann)
        elif done == FIRST_MESSAGE_RESOLVED:
            table.expect_all(view)
            # The log's lines isolate names between FSI and PDI (docs/protocol.md, "Names").
            outcome = (
                "\u2068Ann\u2069 takes the action: 1 point for the road"
                " (1 tile west of the start tile)"
            )
            for player in table.players:
                expect(player.page.locator("#log li").last).to_have_text(outcome)
            expect(table.projector.locator(".pj-log li").last).to_have_text(outcome)
            # A short note of the outcome (the log's own line) replaces the card at once, until
            # newer state arrives.
            expect(table.projector.locator("#pj-overlay .pj-card--outcome")).to_contain_text(
                outcome, timeout=2 * TIMEOUT_MS
            )
        elif done == RESTART_AT:
            table.expect_all(view)
            restart_server(table, view)
        elif done == SECOND_MESSAGE_DRAWN:
            expect_reveal_card(table.projector, view)
            table.expect_all(view)
            expect_message_revealed(table, view, table.bob)
            screenshot(table.bob.page, "table-phone-own-message.png")
        else:
            table.expect_all(view)

    assert view["finished"]
    assert turned[ANN] and turned[BOB], f"the plan never made a player turn a tile: {turned}"
    ranking = sorted(FINAL_SCORES.items(), key=lambda item: -item[1])
    names = [name for name, _ in ranking]
    scores = [str(score) for _, score in ranking]
    for player in table.players:
        dock = player.page.locator("#dock")
        expect(dock.locator("h3").first).to_have_text("Game over")
        expect(dock.locator(".ranking .rank")).to_have_text(["1.", "2."])
        expect(dock.locator(".ranking .seat-name")).to_have_text(names)
        expect(dock.locator(".ranking b")).to_have_text(scores)
    projector = table.projector
    expect(projector.locator("main")).to_have_attribute("data-status", "finished")
    # The ranking, with the points of every category (the finished table's final_scoring).
    ranked = projector.locator(".pj-breakdown tbody")
    expect(ranked.locator("th .pj-rank-place")).to_have_text(["1", "2"])
    expect(ranked.locator("th")).to_contain_text(names)
    expect(ranked.locator("td:last-child")).to_have_text(scores)
    screenshot(table.ann.page, "table-desktop-game-over.png")
    screenshot(table.bob.page, "table-phone-game-over.png")

    # The record can be downloaded now and replays to the same game.
    link = table.ann.page.locator("#dock a[download]")
    expect(link).to_have_text("Download record")
    with table.ann.page.expect_download() as download:
        link.click()
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["tiles"] == TILES and record["messages"] == MESSAGES
    assert record["players"] == NAMES and record["preset"] == "c2-hig"
    assert record["actions"] == PLAN
    final = replay(record).state
    assert final.finished
    assert {p.name: p.score for p in final.players} == FINAL_SCORES

    # The projector announces the winner once the game is finished, then shows the ranking alone.
    overlay = projector.locator("#pj-overlay")
    expect(overlay.locator(".pj-card--over")).to_contain_text(
        "Bob wins with 13 points", timeout=3 * TIMEOUT_MS
    )
    screenshot(projector, "projector-game-over-card.png")
    expect(overlay).to_be_hidden(timeout=3 * TIMEOUT_MS)
    screenshot(projector, "projector-game-over.png")

    assert not console.errors, "\n".join(console.errors)
    for page in (table.ann.page, table.bob.page, projector):
        page.context.close()
