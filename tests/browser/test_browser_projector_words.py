"""The projector and the story say what the server says, and nothing a name could turn into markup.

* A player named like an HTML tag shows as that text on the projector (lobby, track legend,
  status, reveal, outcome, ranking and breakdown, story) and on the story page, and no element is
  made of it.
* A message is named in the edition's words: the 3rd edition's message 4 is an extra turn
  (rules/messengers.md, C3 extra_tile = extra_turn), the 2nd edition's one more tile
  (extra_tile = immediate); the outcome is the server's log line of the update that resolved it
  and the lines of what it scored, never a line that repeats the resolution.
* The track's dark spaces are the ones the server lists in `table.track`, whatever they are.

Every game here is played at the table (tabletop mode), its commands sent over the host's own
websocket (tests/browser/test_browser_projector.py's `Host`), with the message stack fixed to begin
with message 4.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot
from tests.browser.test_browser_projector import Host, overlay_at
from tests.browser.test_browser_projector_board import assert_breakdown_fits
from tests.browser_pages import create_table

pytestmark = pytest.mark.services

MESSAGES = [4, 1, 2, 3, 5, 6, 7, 8]
HOSTILE = "<img src onerror=x>"
"""A name that is markup if any page builds HTML from it without escaping (20 characters at most,
the names' limit)."""

NO_ELEMENT = "() => document.querySelectorAll('img, [onerror]').length"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("projector-words")
    with servers.sqlite_daphne(folder, messages=MESSAGES) as url:
        yield url


def seated(browser: Browser, server: str, names: list[str], preset: str) -> Host:
    """A tabletop table of `preset` with `names` seated (the first created it), not started."""
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    seats = len(names)
    code = create_table(page, names[0], preset=preset, seats=seats, colour="Red", tabletop=True)
    host = Host(page, code, names)
    for name, colour in zip(names[1:], ["black", "orange", "blue"], strict=False):
        host.frame({"type": "add_player", "name": name, "colour": colour}, "snapshot")
    return host


def send(host: Host, seat: int, kind: str, **keys: Any) -> int:
    """Send `kind` for `seat`; the version of the update it made."""
    command = {"type": kind, **keys}
    return int(host.frame({"type": "command", "command": command, "seat": seat}, "update"))


def projector(browser: Browser, server: str, code: str, watch: ConsoleWatch) -> Page:
    tv = browser.new_context(base_url=server, viewport={"width": 1920, "height": 1080})
    page = tv.new_page()
    watch.watch(page, "projector")
    page.goto(f"/t/{code}/projector")
    return page


def plain(text: str) -> str:
    """Text as read, without the direction isolates the server's lines keep around names."""
    return re.sub(r"\s+", " ", text.replace("\u2068", "").replace("\u2069", "")).strip()


def test_a_name_like_markup_shows_as_text_everywhere(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    host = seated(browser, server, [HOSTILE, "Bob"], "c2-hig")
    tv = projector(browser, server, host.code, watch)

    # The lobby names who starts the game; the track's legend lists the seats.
    expect(tv.locator(".pj-lobby-text")).to_contain_text(f"Waiting for {HOSTILE} to start the game")
    # Beside the join code and its warning (this address works on this computer only), the
    # lobby's words keep their room, with the edition's rule of when a message is drawn.
    expect(tv.locator(".pj-lobby-text")).to_be_visible()
    expect(tv.locator(".pj-qr-warning")).to_be_visible()
    expect(tv.locator(".pj-message-rule")).to_contain_text("dark space draws a message")
    expect(tv.locator(".sb-name-text").first).to_have_text(HOSTILE)
    assert tv.evaluate(NO_ELEMENT) == 0

    host.frame({"type": "start"}, "snapshot")
    expect(tv.locator("main.pj")).to_have_attribute("data-status", "playing")
    expect(tv.locator(".pj-status .pj-turn")).to_contain_text(f"{HOSTILE}\u2019s turn")
    expect(tv.locator(".sb-name-text").first).to_have_text(HOSTILE)

    # A message drawn (rules/messengers.md: a figure ending on a dark space draws), then resolved.
    send(host, 0, "score", points=5, figure="messenger")
    shown = overlay_at(tv, send(host, 0, "end_turn"))
    assert f"{HOSTILE} draws a message" in plain(shown["text"]), shown
    assert tv.evaluate(NO_ELEMENT) == 0
    shown = overlay_at(tv, send(host, 0, "resolve_message", choice="points"))
    assert f"{HOSTILE} takes the 2 points" in plain(shown["text"]), shown
    expect(tv.locator(".pj-log")).to_contain_text(HOSTILE)
    assert tv.evaluate(NO_ELEMENT) == 0

    # The end: the winners' note, the ranking with its breakdown, and the story.
    send(host, 0, "choose_figure", figure="meeple")
    send(host, 0, "end_game")
    send(host, 0, "choose_figure", figure="meeple")
    send(host, 1, "choose_figure", figure="meeple")
    shown = overlay_at(tv, send(host, 0, "finish"))
    assert f"{HOSTILE} wins with 7 points" in plain(shown["text"]), shown
    expect(tv.locator(".pj-breakdown tbody tr").first).to_contain_text(HOSTILE)
    assert tv.evaluate(NO_ELEMENT) == 0
    tv.locator("#pj-story-button").click()
    expect(tv.locator("#pj-story .story-totals tbody tr").first).to_contain_text(HOSTILE)
    expect(tv.locator("#pj-story svg text", has_text=HOSTILE)).to_have_count(1)
    expect(tv.locator("#pj-story .story-messages tbody tr")).to_contain_text(HOSTILE)
    assert tv.evaluate(NO_ELEMENT) == 0

    story = tv.context.new_page()
    watch.watch(story, "story page")
    story.goto(f"/t/{host.code}/story")
    expect(story.locator("#story .story-totals tbody tr").first).to_contain_text(HOSTILE)
    expect(story.locator("#story svg text", has_text=HOSTILE)).to_have_count(1)
    assert story.evaluate(NO_ELEMENT) == 0

    # The tabletop console on a laptop shows the final breakdown too: every column in its card.
    console = host.page
    console.set_viewport_size({"width": 1366, "height": 768})
    console.goto(f"/t/{host.code}")
    expect(console.locator(".breakdown-wrap tbody tr").first).to_contain_text(HOSTILE)
    # (The console's own images are the seats' QR codes.)
    foreign = "() => document.querySelectorAll('img:not(.qr), [onerror]').length"
    assert console.evaluate(foreign) == 0
    assert_breakdown_fits(console, "console-1366")
    assert not watch.errors, watch.errors
    tv.context.close()
    host.page.context.close()


def test_the_third_editions_message_4_is_an_extra_turn_in_the_servers_words(
    server: str, browser: Browser
) -> None:
    """rules/messengers.md, C3: message 4 gives an extra turn (extra_tile = extra_turn)."""
    watch = ConsoleWatch()
    host = seated(browser, server, ["Ann", "Bob"], "c3")
    host.frame({"type": "start"}, "snapshot")
    tv = projector(browser, server, host.code, watch)
    expect(tv.locator("main.pj")).to_have_attribute("data-status", "playing")

    send(host, 0, "score", points=5, figure="messenger")
    shown = overlay_at(tv, send(host, 0, "end_turn"))
    assert shown["key"] == "reveal:0:4", shown
    assert "Play an extra turn" in shown["text"] and "one more tile" not in shown["text"], shown
    expect(tv.locator(".pj-pending-text")).to_have_text("Play an extra turn")

    shown = overlay_at(tv, send(host, 0, "resolve_message", choice="action"))
    assert shown["key"] == "outcome:0:4", shown
    text = plain(shown["text"])
    # The resolution's own line, once: not again in the words of the extra turn it brings.
    assert "Play an extra turn" in text, shown
    assert text.count("Ann takes the action: play an extra turn") == 1, shown
    assert "Ann plays an extra turn" not in text, shown
    assert "one more tile" not in text, shown
    screenshot(tv, "projector-outcome-extra-turn.png")
    assert not watch.errors, watch.errors
    tv.context.close()
    host.page.context.close()


def test_the_second_editions_message_4_is_one_more_tile_in_the_servers_words(
    server: str, browser: Browser
) -> None:
    """rules/messengers.md, C2: message 4 places one more tile at once (extra_tile = immediate)."""
    watch = ConsoleWatch()
    host = seated(browser, server, ["Ann", "Bob"], "c2-hig")
    host.frame({"type": "start"}, "snapshot")
    tv = projector(browser, server, host.code, watch)
    expect(tv.locator("main.pj")).to_have_attribute("data-status", "playing")

    send(host, 0, "score", points=5, figure="messenger")
    shown = overlay_at(tv, send(host, 0, "end_turn"))
    assert shown["key"] == "reveal:0:4", shown
    assert "Place one more tile" in shown["text"] and "extra turn" not in shown["text"], shown

    shown = overlay_at(tv, send(host, 0, "resolve_message", choice="action"))
    text = plain(shown["text"])
    assert "Place one more tile" in text and "Ann takes the action: one more tile" in text, shown
    assert "extra turn" not in text, shown
    expect(tv.locator(".pj-status .pj-sub")).to_have_text("Ann places one more tile at the table")
    assert not watch.errors, watch.errors
    tv.context.close()
    host.page.context.close()


DARK_DRAWN = """() => [...document.querySelectorAll(".sb-space.sb-dark")]
    .map((space) => Number(space.dataset.space))"""


def test_the_track_marks_exactly_the_dark_spaces_the_server_lists(
    server: str, browser: Browser
) -> None:
    """The page draws `table.track` as it comes: the listed spaces dark, no other; and when the
    snapshot is rewritten on its way to the page to list other spaces, those are the dark ones."""
    watch = ConsoleWatch()
    host = seated(browser, server, ["Ann", "Bob"], "c2-hig")
    listed: list[Any] = []

    def rewrite(dark: list[int] | None) -> Callable[[WebSocketRoute], None]:
        def route(ws: WebSocketRoute) -> None:
            server_side = ws.connect_to_server()

            def from_server(message: str | bytes) -> None:
                frame = json.loads(message)
                if frame.get("type") == "snapshot":
                    listed.append(frame["table"].get("track"))
                    if dark is not None:
                        frame["table"]["track"] = {**frame["table"]["track"], "dark": dark}
                    message = json.dumps(frame)
                ws.send(message)

            server_side.on_message(from_server)

        return route

    tv = browser.new_context(base_url=server, viewport={"width": 1280, "height": 720})
    page = tv.new_page()
    watch.watch(page, "projector")
    page.route_web_socket(re.compile(r"/ws/t/"), rewrite(None))
    page.goto(f"/t/{host.code}/projector")
    expect(page.locator(".sb-space")).to_have_count(50)
    track = listed[0]
    assert track["spaces"] == 50 and track["dark"], track
    assert sorted(page.evaluate(DARK_DRAWN)) == sorted(track["dark"])

    other = tv.new_page()
    watch.watch(other, "projector with another track")
    other.route_web_socket(re.compile(r"/ws/t/"), rewrite([3, 17, 42]))
    other.goto(f"/t/{host.code}/projector")
    expect(other.locator(".sb-space.sb-dark")).to_have_count(3)
    assert sorted(other.evaluate(DARK_DRAWN)) == [3, 17, 42]
    assert not watch.errors, watch.errors
    tv.close()
    host.page.context.close()
