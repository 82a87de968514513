"""The tabletop console when its connection dies, in Chromium against a real Daphne: the page's
websocket runs through a route that can cut it as dead Wi-Fi does (nothing arrives any more,
not even the pong, and no new connection gets through) while the socket still looks open. The
page notices within seconds, says which entry waits, and lets the person send it again or
discard it; an entry the server had applied is never counted twice. The online table page
shares the detection. And the same points entered a moment apart on two devices are asked about
before they count twice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser_pages import create_table

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("connection")
    with servers.sqlite_daphne(folder, messages=[1, 2, 3, 4, 5, 6, 7, 8]) as url:
        yield url


class Wifi:
    """The page's websockets through a route: while `down`, nothing the server sends reaches
    the page and new connections fail; `lose_sent`: what the page sends is lost too (else the
    server still receives it, and only its answers are lost)."""

    def __init__(self, page: Page) -> None:
        self.down = False
        self.lose_sent = False
        page.route_web_socket("**/ws/t/**", self._route)

    def cut(self) -> None:
        self.down = True

    def _route(self, socket: WebSocketRoute) -> None:
        if self.down:
            socket.close(code=1011, reason="unreachable")
            return
        server = socket.connect_to_server()
        socket.on_message(lambda message: self._up(server, message))
        server.on_message(lambda message: None if self.down else socket.send(message))

    def _up(self, server: WebSocketRoute, message: str | bytes) -> None:
        if not (self.down and self.lose_sent):
            server.send(message)


def tabletop_console(server: str, browser: Browser, *, phone: bool = False) -> tuple[Page, Wifi]:
    """Ann's console at a started tabletop game with Bob added by her (on a laptop, or on a
    phone of 390×664 with its browser's toolbars)."""
    screen = (
        {"viewport": {"width": 390, "height": 664}, "is_mobile": True, "has_touch": True}
        if phone
        else {"viewport": {"width": 1440, "height": 900}}
    )
    host = browser.new_context(base_url=server, **screen).new_page()
    wifi = Wifi(host)
    create_table(host, "Ann", tabletop=True)
    add = host.locator("#add-form")
    add.locator('input[name="name"]').fill("Bob")
    add.locator('select[name="colour"]').select_option("orange")
    add.get_by_role("button", name="Add").click()
    expect(host.locator("#lobby-seats .seat-name", has_text="Bob")).to_have_count(1)
    host.locator('#start-box button[data-act="start"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "0")
    return host, wifi


def enter(page: Page, player: str, points: int, cut: Callable[[], None]) -> None:
    """Enter `points` for `player` on the meeple; `cut` runs just before it is sent."""
    panel = page.locator("#panel")
    panel.locator('button[data-act="seat"]', has_text=player).click()
    panel.locator(f'button[data-act="points"][data-n="{points}"]').click()
    send = panel.locator('button[data-act="score"][data-figure="meeple"]')
    expect(send).to_be_enabled()
    cut()
    send.click()


def totals(page: Page) -> Any:
    return page.locator("#scoreboard .sb-total")


WAITING = "Reconnecting: your 4 points for Ann are waiting."


def test_an_entry_whose_answer_is_lost_waits_and_counts_once(server: str, browser: Browser) -> None:
    """The connection dies right after the entry reached the server: the page does not stay
    "Live", it says the entry waits; back online, "Send again" sends it under its id and the
    server, which had applied it, does not count it again."""
    watch = ConsoleWatch(server_down=True)
    host, wifi = tabletop_console(server, browser)
    watch.watch(host, "host")
    enter(host, "Ann", 4, wifi.cut)
    expect(host.locator("#conn")).to_have_text("Reconnecting…")
    expect(host.locator("#cs-refused")).to_contain_text(WAITING)
    expect(host.locator('#panel button[data-act="end-turn"]')).to_be_disabled()
    wifi.down = False
    host.locator('#cs-refused button[data-act="wait-again"]').click()
    expect(host.locator("#conn")).to_have_text("Live")
    expect(host.locator("#cs-refused")).to_be_empty()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    expect(totals(host)).to_have_text(["4", "0"])
    expect(host.locator('#panel button[data-act="end-turn"]')).to_be_enabled()
    assert not watch.errors, watch.errors


def test_an_entry_that_never_left_can_be_discarded(server: str, browser: Browser) -> None:
    """The connection dies before the entry leaves: the page says it waits; "Discard" drops it,
    and back online nothing was counted."""
    watch = ConsoleWatch(server_down=True)
    host, wifi = tabletop_console(server, browser)
    watch.watch(host, "host")
    wifi.lose_sent = True
    enter(host, "Ann", 4, wifi.cut)
    expect(host.locator("#cs-refused")).to_contain_text(WAITING)
    host.locator('#cs-refused button[data-act="wait-drop"]').click()
    expect(host.locator("#cs-refused")).to_be_empty()
    wifi.down = False
    expect(host.locator("#conn")).to_have_text("Live", timeout=40_000)
    expect(host.locator("#table-page")).to_have_attribute("data-version", "0")
    expect(totals(host)).to_have_text(["0", "0"])
    assert not watch.errors, watch.errors


def test_an_entry_that_never_left_is_sent_once_back_online(server: str, browser: Browser) -> None:
    """The connection dies before the entry leaves: back online, it is sent and counted once."""
    watch = ConsoleWatch(server_down=True)
    host, wifi = tabletop_console(server, browser)
    watch.watch(host, "host")
    wifi.lose_sent = True
    enter(host, "Ann", 4, wifi.cut)
    expect(host.locator("#cs-refused")).to_contain_text(WAITING)
    wifi.down = False
    host.locator('#cs-refused button[data-act="wait-again"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    expect(totals(host)).to_have_text(["4", "0"])
    expect(host.locator("#cs-refused")).to_be_empty()
    assert not watch.errors, watch.errors


def test_on_a_phone_the_waiting_entry_comes_into_view(server: str, browser: Browser) -> None:
    """On a phone the person has scrolled down to the figure buttons when the connection dies:
    the note that their entry waits, with "Send again", comes into view, never above it."""
    watch = ConsoleWatch(server_down=True)
    host, wifi = tabletop_console(server, browser, phone=True)
    watch.watch(host, "host")
    wifi.lose_sent = True
    enter(host, "Ann", 4, wifi.cut)
    expect(host.locator("#cs-refused")).to_contain_text(WAITING)
    expect(host.locator('#cs-refused button[data-act="wait-again"]')).to_be_in_viewport(ratio=1)
    wifi.down = False
    host.locator('#cs-refused button[data-act="wait-again"]').tap()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    expect(totals(host)).to_have_text(["4", "0"])
    assert not watch.errors, watch.errors


def test_the_same_points_from_a_second_device_are_asked_about(
    server: str, browser: Browser
) -> None:
    """Ann's laptop enters 4 points for her; a moment later her second device (the same seat,
    another page) enters the same: the server asks first, in the page, and counts them only
    once confirmed."""
    watch = ConsoleWatch()
    laptop, _wifi = tabletop_console(server, browser)
    second = laptop.context.new_page()
    second.goto(laptop.url)
    expect(second.locator("#conn")).to_have_text("Live")
    watch.watch(laptop, "laptop")
    watch.watch(second, "second")
    enter(laptop, "Ann", 4, lambda: None)
    expect(second.locator("#table-page")).to_have_attribute("data-version", "1")
    enter(second, "Ann", 4, lambda: None)
    question = second.locator("#cs-confirm")
    expect(question).to_contain_text(
        "Another device entered the same a moment ago (4 points were entered for \u2068Ann\u2069):"
        " count it once more, or not?"
    )
    expect(second.locator("#table-page")).to_have_attribute("data-version", "1")
    question.get_by_role("button", name="Count it again").click()
    expect(second.locator("#table-page")).to_have_attribute("data-version", "2")
    expect(totals(second)).to_have_text(["8", "0"])
    expect(question).to_be_empty()
    assert not watch.errors, watch.errors


def test_the_online_table_page_stops_saying_live_when_its_connection_dies(
    server: str, browser: Browser
) -> None:
    """The table page of an online game shares the detection: silent after its next ping (15 s),
    it says "Reconnecting…" within seconds, and "Live" again once the network is back."""
    watch = ConsoleWatch(server_down=True)
    page = browser.new_context(base_url=server).new_page()
    wifi = Wifi(page)
    create_table(page, "Ann")
    watch.watch(page, "Ann")
    wifi.cut()
    expect(page.locator("#conn")).to_have_text("Reconnecting…", timeout=30_000)
    wifi.down = False
    expect(page.locator("#conn")).to_have_text("Live", timeout=40_000)
    assert not watch.errors, watch.errors
