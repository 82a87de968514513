"""The projector in Chromium: reveals that follow the table, and a page readable across a room.

The commands come from the host's own browser over a websocket of its own (the protocol of
docs/protocol.md), so that each state reaches the projector through the server exactly as a
console's would. After every update the test waits for the projector to show that version, and
reads the overlay in the same task: what it finds is what the page showed as soon as the update
arrived, with no timed queue in between.

Sizes are measured at 1920 x 1080, 1280 x 720 and 1024 x 768 (4:3) against these minimums, in
per cent of the viewport's height (2.2% is 24 px at 1080 rows, 17 px at 768):

* names, both figures' counts, the TURN badge and a figure's lap mark: 2.2%;
* the players' totals: 4%; the revealed message's text: 4%;
* a figure on the track (its drawn height): 2%; in a crowd of more than four on one space, which
  stands inside that space's square, 1%.

Nothing may overflow the viewport, and at 4:3 the page fills the screen (no 16:9 box).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine.record import replay
from game.engine.views import view as engine_view
from game.live.page_protocol import PAGE_PROTOCOL
from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot
from tests.browser_pages import create_table

pytestmark = pytest.mark.services

MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]
SIZES = [(1920, 1080), (1280, 720), (1024, 768)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("projector")
    with servers.sqlite_daphne(folder, messages=MESSAGES) as url:
        yield url


# A websocket of the host's page, beside the page's own: frames are sent and answers awaited. It
# names the frames it reads as the pages do (a browser naming none is told to reload).
OPEN = """code => new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${location.host}/ws/t/${code}?protocol=PAGE_PROTOCOL`);
    const link = { socket, version: null, frames: [] };
    window.testLink = link;
    socket.onmessage = (event) => {
        const frame = JSON.parse(event.data);
        link.frames.push(frame);
        if ((frame.type === "snapshot" || frame.type === "update") && frame.version != null)
            link.version = frame.version;
    };
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error("no websocket"));
})""".replace("PAGE_PROTOCOL", str(PAGE_PROTOCOL))

SEND = """([frame, answer]) => new Promise((resolve, reject) => {
    const link = window.testLink;
    const start = link.frames.length;
    const id = `t${start}-${Math.random().toString(36).slice(2, 10)}`;
    if (frame.type === "command") Object.assign(frame, { id, version: link.version });
    link.socket.send(JSON.stringify(frame));
    const look = () => {
        for (const got of link.frames.slice(start)) {
            if (got.type === "error" && (got.id == null || got.id === id))
                return reject(new Error(`${got.code}: ${got.message}`));
            if (got.type === answer && (answer !== "update" || got.id === id))
                return resolve(got.version ?? null);
        }
        setTimeout(look, 10);
    };
    look();
})"""

# The projector's overlay, read as soon as the page shows `version`.
OVERLAY_AT = """version => {
    const main = document.querySelector("main.pj");
    if (main.dataset.version !== String(version)) return null;
    const overlay = document.getElementById("pj-overlay");
    return {
        hidden: overlay.hidden,
        key: overlay.dataset.key || "",
        // The server's lines keep a name between direction isolates (U+2068, U+2069).
        text: overlay.hidden ? "" : overlay.innerText.replace(/[\u2068\u2069]/g, "")
            .replace(/\\s+/g, " ").trim(),
        status: main.dataset.status,
        ranking: document.querySelectorAll(".pj-ranking li, .pj-breakdown tbody tr").length,
        turn: document.querySelector(".pj-status .pj-turn")?.innerText ?? "",
        turnMarks: [...document.querySelectorAll(".sb-players .sb-marker")]
            .filter((mark) => mark.textContent === "turn").length,
    };
}"""


class Host:
    """The host's browser page, sending frames as its console would."""

    def __init__(self, page: Page, code: str, players: list[str]) -> None:
        # A page of the host's browser that never reloads (the table page does when the game
        # starts), on the same origin: the websocket carries the host's session cookie.
        self.page = page.context.new_page()
        self.page.goto("/static/game/common/ui.js")
        self.code = code
        self.players = players
        self.actions: list[dict[str, Any]] = []
        self.page.evaluate(OPEN, code)

    def frame(self, frame: dict[str, Any], answer: str) -> Any:
        return self.page.evaluate(SEND, [frame, answer])

    def command(self, seat: int, kind: str, **keys: Any) -> dict[str, Any]:
        """Send a command for `seat`, wait for its update; return the engine's view after it."""
        command = {"type": kind, **keys}
        self.frame({"type": "command", "command": command, "seat": seat}, "update")
        self.actions.append({"seat": seat, **command})
        record = {
            "format": "carcassonne-messengers/1",
            "mode": "tabletop",
            "players": self.players,
            "preset": "c2-hig",
            "messages": MESSAGES,
            "actions": self.actions,
        }
        return engine_view(replay(record).state)


def tabletop_game(browser: Browser, server: str, names: list[str], colours: list[str]) -> Host:
    """A started tabletop game of `names`, created by the first, the others added by the host."""
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    code = create_table(page, names[0], seats=len(names), colour=colours[0].title(), tabletop=True)
    host = Host(page, code, names)
    for name, colour in zip(names[1:], colours[1:], strict=True):
        host.frame({"type": "add_player", "name": name, "colour": colour}, "snapshot")
    host.frame({"type": "start"}, "snapshot")
    return host


def overlay_at(projector: Page, version: int) -> dict[str, Any]:
    handle = projector.wait_for_function(OVERLAY_AT, arg=version)
    return handle.json_value()


def test_reveals_follow_the_state_of_the_table(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    host = tabletop_game(browser, server, ["Ann", "Bob"], ["red", "black"])
    code = host.code
    tv = browser.new_context(base_url=server, viewport={"width": 1920, "height": 1080})
    projector = tv.new_page()
    watch.watch(projector, "projector")
    projector.goto(f"/t/{code}/projector")
    expect(projector.locator("main.pj")).to_have_attribute("data-status", "playing")
    # Red is a colour of its own, with its letter, on the projector's players and figures.
    ann = projector.locator(".sb-player", has_text="Ann")
    expect(ann.locator(".sb-swatch")).to_have_text("R")
    expect(ann.locator(".sb-swatch")).to_have_attribute("aria-label", "Red")
    expect(ann.locator(".sb-swatch")).to_have_css("background-color", "rgb(213, 94, 0)")

    # Ann's messenger ends her turn on 5, a dark space: message 1 is revealed at once.
    view = host.command(0, "score", points=5, figure="messenger")
    assert overlay_at(projector, view["version"])["hidden"]
    view = host.command(0, "end_turn")
    assert view["revealed"]["message"] == 1
    shown = overlay_at(projector, view["version"])
    assert shown["key"] == "reveal:0:1" and not shown["hidden"]
    assert "Ann draws a message" in shown["text"] and "Score your smallest road" in shown["text"]
    screenshot(projector, "projector-reveal.png")

    # Resolved: the reveal gives way to a short note of the outcome, at once.
    view = host.command(0, "resolve_message", choice="action", points=5)
    assert view["revealed"] is None
    shown = overlay_at(projector, view["version"])
    assert shown["key"] == "outcome:0:1", shown
    assert "Ann takes the action: 5 points" in shown["text"]

    # The action's points take her messenger to 10: message 2 is drawn in a chain, and replaces
    # the note in the same update (rule: a figure ending on a dark space draws; the chain option
    # of the 2nd edition).
    view = host.command(0, "choose_figure", figure="messenger")
    assert view["revealed"]["message"] == 2
    shown = overlay_at(projector, view["version"])
    assert shown["key"] == "reveal:0:2" and "Score your smallest city" in shown["text"]

    # The host takes the figure back: the draw is undone and disappears with the same update.
    view = host.command(0, "undo")
    assert view["revealed"] is None
    shown = overlay_at(projector, view["version"])
    assert shown["hidden"] and shown["key"] == "", shown

    view = host.command(0, "choose_figure", figure="messenger")
    assert overlay_at(projector, view["version"])["key"] == "reveal:0:2"
    view = host.command(0, "resolve_message", choice="points")
    shown = overlay_at(projector, view["version"])
    assert shown["key"] == "outcome:0:2"
    assert "Ann takes the 2 points instead of the action" in shown["text"], shown
    # The next entry is newer state: the note is dropped, not played out.
    view = host.command(0, "choose_figure", figure="meeple")
    assert overlay_at(projector, view["version"])["hidden"]

    # The end of the game: nothing covers the figure merge and the final scoring, and no winner
    # is named before the host finishes the game.
    view = host.command(0, "end_game")
    for step in (
        lambda: view,
        lambda: host.command(0, "choose_figure", figure="meeple"),
        lambda: host.command(1, "choose_figure", figure="meeple"),
        lambda: host.command(0, "score", points=3, category="city"),
    ):
        current = step()
        shown = overlay_at(projector, current["version"])
        assert shown["hidden"] and shown["status"] == "playing" and shown["ranking"] == 0, shown
        assert not current["finished"]
        # Nobody's turn in the final phase: no "Bob's turn", no turn mark on the track.
        assert shown["turn"] == "Final scoring" and shown["turnMarks"] == 0, shown
    expect(projector.locator(".pj-turn")).to_contain_text("Final scoring")
    view = host.command(0, "finish")
    assert view["finished"]
    shown = overlay_at(projector, view["version"])
    assert shown["key"] == "over" and "Ann wins with 15 points" in shown["text"], shown
    assert shown["status"] == "finished" and shown["ranking"] == 2
    # Under the winners' note, the ranking shows where the points came from.
    breakdown = projector.locator(".pj-breakdown table.breakdown")
    expect(breakdown.locator("thead th")).to_have_text(["", "Play", "Cities", "Total"])
    title = "All points during play"
    expect(breakdown.locator("thead abbr").first).to_have_attribute("title", title)
    expect(breakdown.locator("tbody td:last-child")).to_have_text(["15", "0"])
    assert not watch.errors, watch.errors


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


MEASURE = """() => {
    const px = (element) => parseFloat(getComputedStyle(element).fontSize);
    const all = (selector) => [...document.querySelectorAll(selector)];
    const box = (element) => {
        const r = element.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height };
    };
    const stage = document.getElementById("pj-stage").getBoundingClientRect();
    return {
        width: innerWidth,
        height: innerHeight,
        scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
        stage: [stage.width, stage.height],
        names: all(".sb-players .sb-name-text").map(px),
        counts: all(".sb-players .sb-split-item").map(px),
        totals: all(".sb-players .sb-total").map(px),
        badge: all(".sb-players .sb-marker").map(px),
        reveal: all("#pj-overlay .pj-card-text").map(px),
        figures: all(".sb-fig .sb-body").map((e) => box(e).height),
        bodies: all(".sb-fig .sb-body").map(box),
        laps: all(".sb-lap").filter((e) => getComputedStyle(e).display !== "none").map(box),
        lapTexts: all(".sb-lap").filter((e) => getComputedStyle(e).display !== "none")
            .map((e) => e.textContent),
        // The lap mark's number as drawn: the height of its glyphs' box on the screen.
        lapNumbers: all(".sb-lap").filter((e) => getComputedStyle(e).display !== "none")
            .map((e) => e.querySelector("text").getBoundingClientRect().height),
        boxes: all(".pj-head, .sb-board, .sb-player, .pj-join, .pj-card").map(box),
        players: all(".sb-player").map(box),
    };
}"""


@pytest.fixture(scope="module")
def six_players(server: str, browser: Browser) -> Iterator[str]:
    """A game of six, every colour but one in play: Ann far ahead (a lap done), Bob's message
    waiting to be decided, the other four still at 0 with both figures."""
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]
    colours = ["red", "black", "orange", "blue", "yellow", "green"]
    host = tabletop_game(browser, server, names, colours)
    host.command(0, "score", points=54, figure="meeple")
    host.command(0, "score", points=3, figure="messenger")
    host.command(0, "end_turn")
    host.command(1, "score", points=5, figure="messenger")
    view = host.command(1, "end_turn")
    assert view["revealed"]["message"] == 1
    yield host.code
    host.page.context.close()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_projector_reads_across_a_room(
    browser: Browser, server: str, six_players: str, width: int, height: int
) -> None:
    tv = browser.new_context(base_url=server, viewport={"width": width, "height": height})
    projector = tv.new_page()
    projector.goto(f"/t/{six_players}/projector")
    expect(projector.locator("#pj-overlay .pj-card-text")).to_have_text("Score your smallest road")
    expect(projector.locator(".sb-player")).to_have_count(6)
    measured = projector.evaluate(MEASURE)
    screenshot(projector, f"projector-{width}x{height}-reveal.png")
    projector.evaluate("() => { document.getElementById('pj-overlay').hidden = true; }")
    screenshot(projector, f"projector-{width}x{height}.png")
    vh = height / 100
    assert measured["names"] and min(measured["names"]) >= 2.2 * vh, measured["names"]
    assert len(measured["counts"]) == 12 and min(measured["counts"]) >= 2.2 * vh
    assert len(measured["badge"]) == 1 and measured["badge"][0] >= 2.2 * vh, measured["badge"]
    assert min(measured["totals"]) >= 4 * vh, measured["totals"]
    assert measured["reveal"] and measured["reveal"][0] >= 4 * vh, measured["reveal"]
    # Ann's two figures and Bob's messenger stand apart (2%); the nine at 0 are a crowd inside
    # its square (1%, see the test below).
    assert len(measured["figures"]) == 12 and min(measured["figures"]) >= 1 * vh
    assert sum(figure >= 2 * vh for figure in measured["figures"]) == 3, measured["figures"]

    # Nothing overflows, and the stage fills the screen at every shape (no letterbox at 4:3).
    assert measured["scroll"] == [width, height]
    assert measured["stage"] == [width, height]
    for box in measured["boxes"]:
        assert box["left"] >= -0.5 and box["top"] >= -0.5, box
        assert box["right"] <= width + 0.5 and box["bottom"] <= height + 0.5, box
    assert max(p["right"] for p in measured["players"]) >= 0.95 * width

    # Space 0 holds nine figures, none on another; Ann's meeple wears one clear lap mark.
    for a, b in itertools.combinations(measured["bodies"], 2):
        assert not _overlaps(a, b), (a, b)
    assert measured["lapTexts"] == ["50"]
    # Its number reads across the room: as tall as the names' type (2.2%) at least.
    assert measured["lapNumbers"][0] >= 2.2 * vh, measured["lapNumbers"]
    tv.close()


FIGURE_CONTRAST = """() => {
    // The light ring around each figure: its colour, and how wide it shows beyond the dark one.
    const fig = document.querySelector(".sb-fig");
    const halo = getComputedStyle(fig.querySelector(".sb-halo"));
    const outline = getComputedStyle(fig.querySelector(".sb-outline"));
    return {
        halo: halo.stroke,
        ring: (parseFloat(halo.strokeWidth) - parseFloat(outline.strokeWidth)) / 2,
        outline: outline.stroke,
    };
}"""


def test_figures_keep_a_light_ring_on_dark_spaces(
    browser: Browser, server: str, six_players: str
) -> None:
    """A black figure on a dark space stays visible: every figure has a light ring outside its
    dark outline, wide enough to see (in the figure's 100-unit box)."""
    tv = browser.new_context(base_url=server, viewport={"width": 1280, "height": 720})
    projector = tv.new_page()
    projector.goto(f"/t/{six_players}/projector")
    expect(projector.locator(".sb-fig")).to_have_count(12)
    ring = projector.evaluate(FIGURE_CONTRAST)
    assert ring["halo"] == "rgb(255, 255, 255)" and ring["outline"] == "rgb(17, 17, 17)"
    assert ring["ring"] >= 8, ring
    # Bob (black) has his messenger on 5, a dark space.
    bob = projector.locator(".sb-fig-messenger", has=projector.locator("title", has_text="Bob"))
    expect(bob.locator(".sb-letter")).to_have_text("K")
    tv.close()


def test_red_is_offered_beside_orange(server: str, browser: Browser) -> None:
    """Red can be chosen on the home page and when joining, with its letter R."""
    context = browser.new_context(base_url=server)
    page = context.new_page()
    page.goto("/")
    red = page.locator("label.swatch", has_text="Red")
    expect(red.locator(".chip")).to_have_text("R")
    expect(page.locator("label.swatch", has_text="Orange").locator(".chip")).to_have_text("O")
    code = create_table(page, "Ann", colour="Red")
    guest = browser.new_context(base_url=server).new_page()
    guest.goto(f"/t/{code}")
    form = guest.locator("#join-form")
    # Red is taken by Ann: the guest may not pick it; orange is free.
    expect(form.locator('input[name="colour"][value="red"]')).to_be_disabled()
    expect(form.locator("label.colour-opt", has_text=re.compile("Orange"))).to_be_visible()
    context.close()


FAKE_WAKE_LOCK = """(() => {
    // A stand-in for the Screen Wake Lock API that counts requests; the test releases the lock
    // as a browser does when the page is hidden.
    window.wakeRequests = 0;
    const lock = {
        request: async (type) => {
            window.wakeRequests += 1;
            const sentinel = new EventTarget();
            sentinel.type = type;
            window.wakeSentinel = sentinel;
            return sentinel;
        },
    };
    Object.defineProperty(Navigator.prototype, "wakeLock", { get: () => lock, configurable: true });
})()"""

NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock"


def test_full_screen_and_a_screen_kept_awake(server: str, browser: Browser) -> None:
    """The projector asks to keep the screen on, again after the browser released the lock when
    the page was hidden; without the API a quiet note says the screen may sleep."""
    host = browser.new_context(base_url=server).new_page()
    code = create_table(host, "Ann")
    tv = browser.new_context(base_url=server, viewport={"width": 1280, "height": 720})
    tv.add_init_script(FAKE_WAKE_LOCK)
    projector = tv.new_page()
    projector.goto(f"/t/{code}/projector")
    wake = projector.locator("#pj-wake")
    expect(wake).to_have_attribute("data-state", "on")
    expect(wake).to_be_hidden()
    assert projector.evaluate("window.wakeRequests") == 1
    # Hidden: the browser releases the lock. Visible again: the page asks for it again.
    projector.evaluate(
        """() => {
            window.wakeSentinel.dispatchEvent(new Event("release"));
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    projector.wait_for_function("window.wakeRequests === 2")
    expect(wake).to_have_attribute("data-state", "on")

    button = projector.locator("#pj-fullscreen")
    expect(button).to_have_text("Full screen")
    button.click()
    expect(button).to_have_text("Leave full screen")
    button.click()
    expect(button).to_have_text("Full screen")

    plain = browser.new_context(base_url=server, viewport={"width": 1024, "height": 768})
    plain.add_init_script(NO_WAKE_LOCK)
    other = plain.new_page()
    other.goto(f"/t/{code}/projector")
    note = other.locator("#pj-wake")
    expect(note).to_have_attribute("data-state", "unavailable")
    expect(note).to_have_text("The screen may sleep: turn off the display's sleep")
    # The lobby at 4:3: the join code stands large inside the track, within the screen.
    qr = other.locator(".pj-qr-slot .pj-qr")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box and box["height"] >= 0.25 * 768 and box["y"] + box["height"] <= 768
    assert other.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    ) == [1024, 768]
    screenshot(other, "projector-lobby-1024x768.png")
    for context in (host.context, tv, plain):
        context.close()


HOLD_SOCKETS = """(() => {
    // The page's websockets, kept to be closed by the test; while `holdSockets` is set, a new
    // one goes to a port where nothing listens, so the page stays reconnecting.
    const Real = window.WebSocket;
    window.openSockets = [];
    window.holdSockets = false;
    window.WebSocket = class extends Real {
        constructor(url, ...rest) {
            super(window.holdSockets ? "ws://127.0.0.1:9/" : url, ...rest);
            window.openSockets.push(this);
        }
    };
})()"""


def test_presence_is_unknown_while_the_projector_reconnects(
    server: str, browser: Browser, six_players: str
) -> None:
    """The presence dots are the projector's last news of the players: while its own connection
    is down they say nothing (grey, "unknown"), and come back with the next snapshot."""
    tv = browser.new_context(base_url=server, viewport={"width": 1280, "height": 720})
    tv.add_init_script(HOLD_SOCKETS)
    projector = tv.new_page()
    projector.goto(f"/t/{six_players}/projector")
    main = projector.locator("main.pj")
    on = projector.locator(".sb-players .sb-conn.is-on")
    # The host's own socket holds Ann's seat: her dot is green.
    expect(main).to_have_attribute("data-link", "live")
    expect(on).to_have_count(1)
    projector.evaluate(
        "() => { window.holdSockets = true; window.openSockets.forEach((s) => s.close()); }"
    )
    expect(projector.locator("#pj-conn")).to_have_attribute("data-state", "reconnecting")
    expect(main).to_have_attribute("data-link", "lost")
    expect(on).to_have_count(0)
    dots = projector.locator(".sb-players .sb-conn")
    expect(dots).to_have_count(6)
    for index in range(6):
        expect(dots.nth(index)).to_have_attribute("title", "unknown while reconnecting")
    assert dots.first.evaluate("dot => getComputedStyle(dot).borderStyle") == "dashed"
    projector.evaluate("() => { window.holdSockets = false; }")
    expect(projector.locator("#pj-conn")).to_have_attribute("data-state", "open", timeout=30_000)
    expect(main).to_have_attribute("data-link", "live")
    expect(on).to_have_count(1)


CROWD_AT_ZERO = """() => {
    const box = (element) => {
        const r = element.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const spaces = [...document.querySelectorAll(".sb-space")].map(box);
    const numbers = [...document.querySelectorAll(".sb-num")].map(box);
    const button = document.getElementById("pj-story-button");
    // Every other visible element that draws something: leaves, outside the button, but for
    // the backdrop of the track and of its loop, on which the button stands.
    const leaves = [...document.body.querySelectorAll("*")].filter((element) =>
        !element.childElementCount && !button.contains(element)
        && !element.matches(".sb-frame, .sb-inner")
        && !["SCRIPT", "STYLE", "TEMPLATE", "title"].includes(element.tagName)
        && getComputedStyle(element).visibility !== "hidden"
        && element.getClientRects().length);
    return {
        corner: spaces[0],
        others: numbers.slice(1),
        figures: [...document.querySelectorAll(".sb-fig .sb-body")].map(box),
        button: button.hidden ? null : box(button),
        leaves: leaves.map((leaf) => ({ ...box(leaf), what: leaf.outerHTML.slice(0, 80) })),
    };
}"""


@pytest.fixture(scope="module")
def six_at_zero(server: str, browser: Browser) -> Iterator[str]:
    """A game of six just started: twelve figures on space 0."""
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]
    colours = ["red", "black", "orange", "blue", "yellow", "green"]
    host = tabletop_game(browser, server, names, colours)
    yield host.code
    host.page.context.close()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_twelve_figures_on_space_0_stay_in_its_corner_and_the_story_button_covers_nothing(
    browser: Browser, server: str, six_at_zero: str, width: int, height: int
) -> None:
    """Six players at 0: every figure stands inside the corner square of space 0, on no other
    space's number and on no other figure, still readable (2% of the height); the "Story"
    button's box meets no other visible element (the "Follow on your phone" card included)."""
    tv = browser.new_context(base_url=server, viewport={"width": width, "height": height})
    projector = tv.new_page()
    projector.goto(f"/t/{six_at_zero}/projector")
    expect(projector.locator(".sb-fig")).to_have_count(12)
    expect(projector.locator("#pj-story-button")).to_be_visible()
    projector.wait_for_timeout(600)  # the figures' slide (a CSS transition) has ended
    measured = projector.evaluate(CROWD_AT_ZERO)
    screenshot(projector, f"projector-{width}x{height}-six-at-0.png")
    corner = measured["corner"]
    for figure in measured["figures"]:
        assert figure["left"] >= corner["left"] - 0.5 and figure["right"] <= corner["right"] + 0.5
        assert figure["top"] >= corner["top"] - 0.5 and figure["bottom"] <= corner["bottom"] + 0.5
        assert figure["bottom"] - figure["top"] >= 0.01 * height, figure
        for number in measured["others"]:
            assert not _overlaps(figure, number), (figure, number)
    for a, b in itertools.combinations(measured["figures"], 2):
        assert not _overlaps(a, b), (a, b)
    button = measured["button"]
    assert button is not None
    touching = [leaf["what"] for leaf in measured["leaves"] if _overlaps(button, leaf)]
    assert not touching, touching
    tv.close()


HEADLINE = """() => {
    // The lobby's headline: its words whole (none cut off with an ellipsis or hidden) and within
    // the screen.
    const line = document.querySelector(".pj-centre--lobby .pj-turn > span:last-child");
    const r = line.getBoundingClientRect();
    return {
        text: line.textContent,
        cut: getComputedStyle(line).overflow !== "visible"
            && (line.scrollWidth > line.clientWidth + 1
                || line.scrollHeight > line.clientHeight + 1),
        inside: r.left >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
    };
}"""


@pytest.mark.parametrize("locale", ["en-GB", "de-DE", "cs-CZ"])
def test_the_lobby_headline_is_whole_on_every_screen(
    server: str, browser: Browser, locale: str
) -> None:
    """Every seat taken, the projector's lobby says so in full at 16:9, 720p and 4:3, in each
    language."""
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    code = create_table(page, "Ann", seats=2, tabletop=True)
    Host(page, code, ["Ann", "Bob"]).frame(
        {"type": "add_player", "name": "Bob", "colour": "green"}, "snapshot"
    )
    tv = browser.new_context(
        base_url=server, locale=locale, viewport={"width": 1920, "height": 1080}
    )
    projector = tv.new_page()
    projector.goto(f"/t/{code}/projector")
    headline = projector.locator(".pj-centre--lobby .pj-turn")
    expect(headline).not_to_have_text("Scan to join")
    expect(projector.locator(".pj-centre--lobby .pj-sub").first).to_contain_text("2")
    for width, height in SIZES:
        projector.set_viewport_size({"width": width, "height": height})
        projector.wait_for_function(f"innerWidth === {width} && innerHeight === {height}")
        found = projector.evaluate(HEADLINE)
        screenshot(projector, f"projector-lobby-full-{locale}-{width}x{height}.png")
        assert not found["cut"] and found["inside"], (locale, width, height, found)
    context.close()
    tv.close()
