"""The end of a game and the turns in real browsers: "Play again" and turn alerts.

Debian's Chromium, driven by Playwright, against a real Daphne. The games are two tiles long
(MESSENGERS_FIXED_TILES): Ann places one, Bob the other, and the game is over.

* Rematch: at the end, Bob presses "Play again"; Ann's page, Bob's phone and the projector land
  on the new table by themselves, both players seated there without joining again, and Bob
  starts this time. The finished game's record stays downloadable, and its page, visited later,
  leads to the next game.
* Alerts: the browser's Notification, `navigator.vibrate`, the Web Audio API and
  `document.hidden` are replaced by an init script that counts their use (a headless browser
  has no speakers, no vibration motor and no notification centre). An alert comes when the
  game starts waiting for the player, none when a page is reloaded on the player's turn;
  the sound switch is remembered, and the notification permission is asked only from a click.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests import servers
from tests.browser.test_browser import (
    ConsoleWatch,
    cell_on_board,
    dock_button,
    status_bar,
    wholly_visible,
)
from tests.browser_pages import create_table, join

pytestmark = pytest.mark.services

TILES = ["W", "E"]
MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]

STUBS = """
(() => {
  const seen = { events: [], notifications: [], vibrations: 0, tones: 0, asked: 0 };
  window.__alerts = seen;
  window.addEventListener("messengers:alert", (e) => seen.events.push(e.detail.kind));
  const granted = () => localStorage.getItem("test.permission") || "default";
  class FakeNotification {
    constructor(title) { seen.notifications.push(title); }
    close() {}
    static get permission() { return granted(); }
    static async requestPermission() {
      seen.asked += 1;
      localStorage.setItem("test.permission", "granted");
      return "granted";
    }
  }
  window.Notification = FakeNotification;
  const vibrate = () => { seen.vibrations += 1; return true; };
  Object.defineProperty(navigator, "vibrate", { value: vibrate });
  class FakeAudio {
    constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
    resume() { return Promise.resolve(); }
    createOscillator() {
      return { type: "", frequency: { setValueAtTime() {} }, connect: (x) => x,
               start() { seen.tones += 1; }, stop() {} };
    }
    createGain() {
      const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain, connect: (x) => x };
    }
  }
  window.AudioContext = FakeAudio;
  const hidden = { get: () => Boolean(window.__hidden), configurable: true };
  Object.defineProperty(document, "hidden", hidden);
})();
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("social")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGES) as url:
        yield url


def context(browser: Browser, server: str, *, phone: bool = False) -> BrowserContext:
    if phone:
        made = browser.new_context(
            base_url=server,
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
        )
    else:
        made = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900})
    made.add_init_script(STUBS)
    return made


def take_turn(page: Page, x: int, y: int) -> None:
    """Place the drawn tile on (x, y) as the page first turns it, and place no follower."""
    expect(status_bar(page)).to_contain_text("Your turn")
    cell = cell_on_board(page, x, y)
    if not wholly_visible(page, cell):
        page.locator('.board-tools [data-act="centre"]').click()
    cell.click()
    dock_button(page, "place").click()
    dock_button(page, "skip").click()


def seen(page: Page) -> dict[str, Any]:
    """What the stubs counted on `page` since it was loaded."""
    counted: dict[str, Any] = page.evaluate("() => window.__alerts")
    return counted


def test_play_again_takes_every_page_to_the_next_game(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann = context(browser, server).new_page()
    bob = context(browser, server, phone=True).new_page()
    projector = context(browser, server).new_page()
    for page, who in ((ann, "Ann"), (bob, "Bob"), (projector, "projector")):
        watch.watch(page, who)
    code = create_table(ann, "Ann", preset="c1-zmg")
    projector.goto(f"/t/{code}/projector")
    join(bob, code, "Bob", "Orange")
    expect(bob.locator("#lobby-seats li")).to_have_count(2)
    ann.locator('#start-box button[data-act="start"]').click()
    take_turn(ann, 1, 0)
    take_turn(bob, 0, -1)

    for page in (ann, bob):
        expect(status_bar(page)).to_have_text("Game over")
    expect(projector.locator("main.pj")).to_have_attribute("data-status", "finished")
    # A spectator watching the end has no "Play again" to press, but follows the players.
    spectator = context(browser, server).new_page()
    watch.watch(spectator, "spectator")
    spectator.goto(f"/t/{code}")
    expect(status_bar(spectator)).to_have_text("Game over")
    expect(dock_button(spectator, "rematch")).to_have_count(0)
    again = dock_button(bob, "rematch")
    expect(again).to_have_text("Play again")
    again.tap()

    # Every page moves by itself; the players are seated without joining again.
    new_code = re.compile(r"/t/([a-z0-9]+)$")
    bob.wait_for_url(lambda url: (m := new_code.search(url)) is not None and m[1] != code)
    ann.wait_for_url(lambda url: (m := new_code.search(url)) is not None and m[1] != code)
    new = bob.url.rsplit("/", 1)[1]
    assert ann.url.endswith(f"/t/{new}")
    projector.wait_for_url(re.compile(rf"/t/{new}/projector$"))
    expect(ann.locator(".tp-me")).to_contain_text("Ann")
    expect(bob.locator(".tp-me")).to_contain_text("Bob")
    # The start player moved on: Bob places the first tile of the new game.
    expect(status_bar(bob)).to_have_text("Your turn: place tile W")
    expect(status_bar(ann)).to_have_text("Bob is placing tile W")
    expect(projector.locator("main.pj")).to_have_attribute("data-status", "playing")
    spectator.wait_for_url(re.compile(rf"/t/{new}$"))
    expect(spectator.locator(".tp-me")).to_have_text("Watching")
    expect(ann.locator("#players .p-name")).to_contain_text(["Bob", "Ann (you)"])

    # The finished game's record stays downloadable, linked from the new table.
    previous = ann.locator(".previous-game a", has_text="its record")
    expect(previous).to_have_attribute("href", f"/t/{code}/record.json")
    record = ann.request.get(f"/t/{code}/record.json")
    assert record.status == 200
    assert record.json()["players"] == ["Ann", "Bob"]
    assert len(record.json()["actions"]) == 4

    # The old table, visited later, leads to the next game, seated.
    ann.goto(f"/t/{code}")
    expect(status_bar(ann)).to_have_text("Game over")
    expect(dock_button(ann, "rematch")).to_have_text("Next game →")
    dock_button(ann, "rematch").click()
    ann.wait_for_url(re.compile(rf"/t/{new}$"))
    expect(ann.locator(".tp-me")).to_contain_text("Ann")
    expect(status_bar(ann)).to_have_text("Bob is placing tile W")
    # A spectator of the old table is offered the way to watch the next one.
    watcher = context(browser, server).new_page()
    watch.watch(watcher, "watcher")
    watcher.goto(f"/t/{code}")
    expect(dock_button(watcher, "rematch")).to_have_text("Next game →")
    dock_button(watcher, "rematch").click()
    watcher.wait_for_url(re.compile(rf"/t/{new}$"))
    expect(watcher.locator(".tp-me")).to_have_text("Watching")
    assert watch.errors == []


def test_turn_alerts_ring_once_per_decision(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann = context(browser, server).new_page()
    bob = context(browser, server).new_page()
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann", preset="c2-hig")
    join(bob, code, "Bob", "Orange")
    expect(bob.locator("#lobby-seats li")).to_have_count(2)

    # Bob switches the sound off and asks for notifications: the permission is asked now,
    # from his click, and never on loading a page.
    assert seen(bob)["asked"] == 0
    bob.locator("#alerts > summary").click()
    bob.locator('#alerts [name="alert-sound"]').uncheck()
    bob.locator('#alerts [name="alert-notify"]').check()
    expect(bob.locator('#alerts [name="alert-notify"]')).to_be_checked()
    assert seen(bob)["asked"] == 1
    bob.reload()
    expect(bob.locator("#conn")).to_have_text("Live")
    expect(bob.locator('#alerts [name="alert-sound"]')).not_to_be_checked()
    expect(bob.locator('#alerts [name="alert-notify"]')).to_be_checked()
    assert seen(bob)["asked"] == 0

    # The game starts: Ann's turn. Her sound is on, and her tab is visible: no notification.
    ann.locator('#start-box button[data-act="start"]').click()
    expect(status_bar(ann)).to_contain_text("Your turn")
    ann.wait_for_function("() => window.__alerts.events.length === 1")
    assert seen(ann)["events"] == ["turn"]
    assert seen(ann)["tones"] > 0 and seen(ann)["vibrations"] == 1
    assert seen(ann)["notifications"] == []
    assert seen(bob)["events"] == []

    # Bob's tab is hidden when his turn comes: a notification, a vibration, no sound.
    bob.evaluate("() => { window.__hidden = true; }")
    ann.locator('#board .layer-cells rect.cell[x="105"][y="5"]').click()
    dock_button(ann, "place").click()
    expect(status_bar(ann)).to_contain_text("Place a follower")
    assert seen(bob)["events"] == []  # still Ann's turn
    dock_button(ann, "skip").click()
    bob.wait_for_function("() => window.__alerts.events.length === 1")
    assert seen(bob)["events"] == ["turn"]
    assert seen(bob)["notifications"] == ["Your turn"]
    assert seen(bob)["vibrations"] == 1 and seen(bob)["tones"] == 0
    assert seen(ann)["events"] == ["turn"]

    # Coming back to the page on his turn (a reload, a reconnect) does not ring again.
    bob.reload()
    expect(status_bar(bob)).to_contain_text("Your turn")
    assert seen(bob)["events"] == []
    take_turn(bob, 0, -1)

    # The tiles are used up: Ann chooses which figure carries her total.
    ann.wait_for_function("() => window.__alerts.events.length === 2")
    assert seen(ann)["events"] == ["turn", "figure"]
    expect(status_bar(ann)).to_have_text("Choose which figure carries your total")
    assert seen(bob)["events"] == []
    assert watch.errors == []


def test_play_again_at_a_tabletop_game(server: str, browser: Browser) -> None:
    """The scoreboard consoles and the projector of a game at the table follow to the rematch;
    Bob starts this time, and Ann keeps the host's console."""
    watch = ConsoleWatch()
    ann = context(browser, server).new_page()
    bob = context(browser, server, phone=True).new_page()
    projector = context(browser, server).new_page()
    for page, who in ((ann, "Ann"), (bob, "Bob"), (projector, "projector")):
        watch.watch(page, who)
    code = create_table(ann, "Ann", preset="c1-zmg", tabletop=True)
    projector.goto(f"/t/{code}/projector")
    join(bob, code, "Bob", "Orange")
    expect(bob.locator("#lobby-seats li")).to_have_count(2)
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator(".tp-me")).to_contain_text("Host console")
    ann.locator('#panel button[data-act="end-game"]').click()
    ann.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    ann.locator('#panel button[data-act="finish"]').click()
    ann.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(bob.locator("#panel h2")).to_have_text("Game over")
    expect(ann.locator('#panel button[data-act="rematch"]')).to_have_text("Play again")
    bob.locator('#panel button[data-act="rematch"]').tap()

    bob.wait_for_url(lambda url: re.search(r"/t/[a-z0-9]+$", url) is not None and code not in url)
    new = bob.url.rsplit("/", 1)[1]
    ann.wait_for_url(re.compile(rf"/t/{new}$"))
    projector.wait_for_url(re.compile(rf"/t/{new}/projector$"))
    expect(ann.locator(".tp-me")).to_contain_text("Host console · Ann")
    expect(bob.locator(".tp-me")).to_contain_text("Bob")
    expect(bob.locator(".tp-me")).not_to_contain_text("Host console")
    expect(bob.locator('#panel button[data-act="end-turn"]')).to_be_visible()
    expect(projector.locator("main.pj")).to_have_attribute("data-status", "playing")
    assert ann.request.get(f"/t/{code}/record.json").status == 200
    assert watch.errors == []
