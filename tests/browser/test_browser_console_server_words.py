"""The tabletop console renders what the server decides, in Chromium against a real Daphne: a
player's name is text wherever it shows, never markup; the figure buttons' landing and message
note are the server's entry preview (the alone rule of c2-zmg included, rules/messengers.md §3
alone_rule); the undo bar's words are the server's `undo_text`; and C3's message 4 says "Play an
extra turn" on the card and its button, as the server says (rules/messengers.md §3 extra_tile)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser_pages import create_table

pytestmark = pytest.mark.services

SCRIPT_NAME = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server-words")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    with servers.sqlite_daphne(folder, messages=[4, 1, 2, 3, 5, 6, 7, 8]) as url:
        yield url


class Frames:
    """Every frame the page's socket sends and receives, decoded: what the server said, to
    compare the page with."""

    def __init__(self, page: Page) -> None:
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        page.on("websocket", self._watch)

    def _watch(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.received.append(json.loads(payload)))
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def view(self) -> dict[str, Any]:
        """The latest view the server sent."""
        views = [
            f["view"] for f in self.received if f["type"] in ("snapshot", "update") and f["view"]
        ]
        return max(views, key=lambda v: v["version"])

    def table(self) -> dict[str, Any]:
        return [f for f in self.received if f["type"] == "snapshot"][-1]["table"]

    def preview(self, command: dict[str, Any]) -> dict[str, Any]:
        """The server's latest answer to the entry preview of `command`."""
        answers = [
            f
            for f in self.received
            if f["type"] == "preview" and "figures" in f and f["command"] == command
        ]
        assert answers, f"no preview answered {command}"
        return answers[-1]

    def previews_asked(self, command: dict[str, Any]) -> int:
        return sum(f["type"] == "preview" and f.get("command") == command for f in self.sent)


def tabletop_console(
    server: str, browser: Browser, preset: str, rename: Path | None = None
) -> tuple[Page, Frames]:
    """Ann's console on a laptop at a tabletop table of `preset`, with Bob added by her (no
    phone of his own), the game started. `rename`: the database in which Ann's seat is renamed
    `SCRIPT_NAME` before the start (longer than the join form takes, as an old table's could be)."""
    host = browser.new_context(base_url=server, viewport={"width": 1440, "height": 900}).new_page()
    frames = Frames(host)
    create_table(host, "Ann", preset=preset, tabletop=True)
    add = host.locator("#add-form")
    add.locator('input[name="name"]').fill("Bob")
    add.locator('select[name="colour"]').select_option("orange")
    add.get_by_role("button", name="Add").click()
    expect(host.locator("#lobby-seats .seat-name", has_text="Bob")).to_have_count(1)
    if rename:
        with sqlite3.connect(rename) as db:
            db.execute("UPDATE game_seat SET name = ? WHERE name = 'Ann'", (SCRIPT_NAME,))
        host.reload()
        expect(host.locator("#conn")).to_have_text("Live")
    host.locator('#start-box button[data-act="start"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "0")
    return host, frames


def panel(page: Page) -> Any:
    return page.locator("#panel")


def score(page: Page, player: str, points: int, figure: str) -> None:
    panel(page).locator('button[data-act="seat"]', has_text=player).click()
    panel(page).locator(f'button[data-act="points"][data-n="{points}"]').click()
    panel(page).locator(f'button[data-act="score"][data-figure="{figure}"]').click()


def test_a_name_that_looks_like_markup_is_shown_as_text(
    server: str, folder: Path, browser: Browser
) -> None:
    """A player named like an image tag with a script shows as those characters in the entry
    form, the undo bar, the players list and the log; no element is made of it, no script
    runs."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c2-hig", folder / "db.sqlite3")
    watch.watch(host, "host")
    dialogs: list[str] = []
    host.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    score(host, SCRIPT_NAME, 3, "meeple")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    expect(host.locator("#undo .hint")).to_have_text(f"Last entry: {frames.view()['undo_text']}")
    for where in ("#panel", "#undo", "#players", "#log"):
        expect(host.locator(where)).to_contain_text(SCRIPT_NAME)
        # The only images: the phone-link QR codes of the players list.
        expect(host.locator(f"{where} img:not(.qr)")).to_have_count(0)
    expect(panel(host).locator('button[data-act="seat"]').first).to_contain_text(SCRIPT_NAME)
    assert dialogs == []
    assert not watch.errors, watch.errors


def test_the_figure_buttons_say_what_the_server_previews_under_the_alone_rule(
    server: str, browser: Browser
) -> None:
    """c2-zmg (rules/messengers.md §3 alone_rule): Bob's messenger stands on 5, a dark space; Ann,
    whose turn it is, enters 5 points: her meeple would land beside it, and the button says the
    server's note (no message), not a promise. The page asks once for that draft."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c2-zmg")
    watch.watch(host, "host")
    score(host, "Bob", 5, "messenger")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    panel(host).locator('button[data-act="seat"]', has_text="Ann").click()
    panel(host).locator('button[data-act="points"][data-n="5"]').click()
    meeple = panel(host).locator('button[data-act="score"][data-figure="meeple"]')
    expect(meeple.locator(".dark-tag")).not_to_have_count(0)
    command = {"type": "score", "seat": 0, "points": 5}
    answer = frames.preview(command)
    assert answer["version"] == 1
    landing = next(f for f in answer["figures"] if f["seat"] == 0 and f["figure"] == "meeple")
    assert (landing["to"], landing["dark"], landing["draws_message"]) == (5, True, False)
    assert landing["why_not"] == "alone_rule"
    expect(meeple.locator("span")).to_have_text("0 → 5 (space 5)")
    expect(meeple.locator(".dark-tag")).to_have_text(landing["note"])
    expect(meeple).not_to_contain_text("draws a message")
    hint = frames.table()["message_rule"]
    assert hint
    expect(panel(host).locator(".cs-fig .hint")).to_contain_text(hint)
    # Drawn again (another key, then back): the answer is kept, not asked for again.
    panel(host).locator('button[data-act="category"][data-cat="city"]').click()
    expect(meeple.locator(".dark-tag")).to_have_text(landing["note"])
    assert frames.previews_asked(command) == 1
    assert not watch.errors, watch.errors


def test_the_undo_bar_says_the_servers_words(server: str, browser: Browser) -> None:
    """After a score, a shared score and an end of turn, the undo bar reads the server's
    `undo_text` for the entry an undo would take back."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c2-hig")
    watch.watch(host, "host")
    said = []
    score(host, "Ann", 3, "meeple")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    said.append(frames.view()["undo_text"])
    expect(host.locator("#undo .hint")).to_have_text(f"Last entry: {said[-1]}")
    panel(host).locator('button[data-act="multi"]').click()
    panel(host).locator('button[data-act="seat"]', has_text="Bob").click()
    panel(host).locator('button[data-act="points"][data-n="4"]').click()
    host.keyboard.press("m")
    panel(host).locator('button[data-act="score"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "2")
    said.append(frames.view()["undo_text"])
    expect(host.locator("#undo .hint")).to_have_text(f"Last entry: {said[-1]}")
    host.keyboard.press("t")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "3")
    said.append(frames.view()["undo_text"])
    expect(host.locator("#undo .hint")).to_have_text(f"Last entry: {said[-1]}")
    assert len(set(said)) == 3 and all(said), said
    assert not watch.errors, watch.errors


def test_c3_message_4_says_play_an_extra_turn(server: str, browser: Browser) -> None:
    """C3 (rules/messengers.md §3 extra_tile = extra_turn): message 4's card and its button say the
    server's "Play an extra turn", never "Place one more tile"."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c3")
    watch.watch(host, "host")
    score(host, "Ann", 5, "messenger")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    host.keyboard.press("t")
    expect(panel(host).locator(".msg-num")).to_have_text("4")
    pending = frames.view()["pending"]
    assert pending["text"] == "Play an extra turn"
    assert frames.table()["message_names"]["4"] == "Play an extra turn"
    action = next(c for c in pending["choices"] if c["choice"] == "action")
    expect(panel(host).locator(".msg-text")).to_have_text("Play an extra turn")
    expect(panel(host).locator('button[data-act="message"][data-choice="action"]')).to_have_text(
        action["label"]
    )
    assert action["label"] == "Play an extra turn"
    expect(panel(host)).not_to_contain_text("one more tile")
    panel(host).locator('button[data-act="message"][data-choice="action"]').click()
    expect(host.locator("#turn")).to_contain_text("Turn 2")
    expect(host.locator("#turn")).to_contain_text("Ann's extra turn")
    assert not watch.errors, watch.errors


def test_the_undo_bar_waits_for_the_figure_before_it_says_last_entry(
    server: str, browser: Browser
) -> None:
    """While the server asks which figure moves for an entry, the track has not moved: the bar
    says the entry is not on the track yet (with Undo to take it back); once the figure is
    chosen it is the last entry."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c2-hig")
    watch.watch(host, "host")
    panel(host).locator('button[data-act="seat"]', has_text="Bob").click()
    panel(host).locator('button[data-act="points"][data-n="3"]').click()
    panel(host).locator('button[data-act="category"][data-cat="road"]').click()
    # A clicked button keeps the focus (Enter would press it again): Enter in the points field
    # sends the entry.
    host.locator("#cs-points").focus()
    host.keyboard.press("Enter")
    expect(panel(host).locator("h2")).to_contain_text("which figure moves?")
    said = frames.view()["undo_text"]
    expect(host.locator("#undo .hint")).to_have_text(
        f"Not on the track until the figure is chosen: {said}"
    )
    expect(host.locator('#undo button[data-act="undo"]')).to_be_visible()
    panel(host).locator('button[data-act="figure"][data-figure="messenger"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "2")
    expect(host.locator("#undo .hint")).to_have_text(f"Last entry: {frames.view()['undo_text']}")
    assert not watch.errors, watch.errors
