"""The online table page (board mode) in Chromium shows the server's words and points places out
on the board: names that look like markup stay text everywhere; a message's choices are the
server's labels with numbered marks on the board; the figure prompt under c2-zmg's alone rule
promises no message for a blocked landing (the server's note says why); no dock text names a
place by coordinates, and a log line that names a place (from the start tile, in words) points it
out when focused.

Two players play tests/records/build_records.py's c2-zmg alone-rule game over websockets of their
own browsers, as their pages would; their pages, one on a phone, must show what the server's view
says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine.commands import parse_command
from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot
from tests.browser.test_browser_projector_board import Link, play
from tests.browser_pages import create_table, english_view, join
from tests.scenario import Game

pytestmark = pytest.mark.services

EVIL = "<svg/onload=alert()>"
"""A name that is markup (20 characters, the longest a name may be): it must show as text."""
QUOTES = "Bo\"b's <i>&amp;"
"""A name with both quotes, a tag and a character reference."""

TILES = ["F", "G", "E", "E", "F", "E", "L", "E", "W", "N", "W", "E"]
MESSAGES = [8, 5, 1, 2, 3, 4, 6, 7]
COORDINATES = re.compile(r"\(-?\d+, -?\d+\)")

# Anything the names could have made: an element with an event handler (the <svg onload>), an
# <i> that is not a follower in the supply; and every alert() call.
INJECTED = """() => [
    ...document.querySelectorAll("[onload], [onerror], [onclick]"),
    ...[...document.querySelectorAll("i")].filter((el) => !el.closest(".supply")),
].map((el) => el.outerHTML).concat(window.alerted || [])"""
CATCH_ALERTS = "window.alerted = []; window.alert = (text) => window.alerted.push(String(text));"


def alone_rule_game() -> Game:
    """c2-zmg (alone_rule on, trigger on_landing): tests/records/build_records.py's game. Ann's
    meeple ends on 10 at T3; at T12 Bob scores 6 for a city with his meeple on 4: it would land
    on 10, where Ann's meeple stands."""
    g = Game("c2-zmg", tiles=TILES, messages=MESSAGES, players=(EVIL, QUOTES))
    g.place(0, -1, 90).follower("city", "N")
    g.place(0, -2, 90).skip()
    g.place(0, -3, 180).follower("field", "NL").figure("meeple")
    g.resolve("action", x=0, y=-3, feature="field", at="NL", score=False)
    g.place(-1, -1, 270).skip()
    g.place(1, -1, 90).follower("city", "N")
    g.place(-2, -1, 90).follower("city", "E").figure("meeple")
    g.place(1, 0, 0).follower("road", "W")
    g.place(0, -4, 0).follower("city", "N")
    g.place(-1, 0, 0).skip().figure("messenger")
    g.place(0, -5, 180).skip()
    g.place(-2, 0, 0).follower("road", "E").figure("messenger")
    g.resolve("action").figure("messenger")
    g.place(1, -5, 270).skip()
    return g


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("table-words")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGES) as url:
        yield url


def caught_up(page: Page, links: list[Link]) -> None:
    """Wait until `page` shows the state the sockets last saw."""
    version = links[0].page.evaluate("window.testLink.version")
    page.wait_for_function(
        "v => Number(document.querySelector('[data-code]').dataset.version) >= v", arg=version
    )


def no_coordinates(page: Page) -> None:
    text = "\n".join(page.locator(where).inner_text() for where in ("#dock", "#status-bar", "#log"))
    assert not COORDINATES.search(text), text


def shows_as_text(page: Page, name: str, where: str) -> None:
    expect(page.locator(where)).to_contain_text(name)
    assert page.evaluate(INJECTED) == [], where


def test_server_words_marks_and_names_as_text(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann_context = browser.new_context(base_url=server, viewport={"width": 390, "height": 844})
    ann_context.add_init_script(CATCH_ALERTS)
    ann = ann_context.new_page()
    watch.watch(ann, "Ann")
    code = create_table(ann, EVIL, preset="c2-zmg")
    bob_context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 768})
    bob_context.add_init_script(CATCH_ALERTS)
    bob = bob_context.new_page()
    watch.watch(bob, "Bob")
    join(bob, code, QUOTES, "Orange")
    # The lobby: both names as text on both pages.
    for page in (ann, bob):
        shows_as_text(page, EVIL, "#lobby-seats")
        shows_as_text(page, QUOTES, "#lobby-seats")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob.locator("#game")).to_be_visible()
    for page in (ann, bob):
        shows_as_text(page, EVIL, "#players")
        shows_as_text(page, QUOTES, "#players")

    game = alone_rule_game()
    actions: list[dict[str, Any]] = [dict(action) for action in game.state.log]
    links = [Link(ann, code), Link(bob, code)]

    # Ann's message 8 (T3): the server's labels, each target's number on its button and on the
    # board; the page sends the chosen choice's command as the server wrote it.
    at_message = 7
    play(links, actions[:at_message])
    for page in (ann, bob):
        caught_up(page, links)
    pending = english_view(alone_rule_game_upto(game, at_message).state, 0)["pending"]
    assert pending["type"] == "resolve_message"
    labels = [c["label"] for c in pending["choices"]] + [
        c["skip"]["label"] for c in pending["choices"] if c.get("skip")
    ]
    marks = sorted({str(c["mark"]) for c in pending["choices"] if c.get("mark")})
    assert marks, "message 8 points at a follower on the board"
    buttons = ann.locator('#dock button[data-act="message"]')
    expect(buttons).to_have_count(len(labels))
    for label in labels:
        expect(ann.locator("#dock .choices")).to_contain_text(label)
    expect(ann.locator("#dock .choices .num")).to_have_count(
        sum(1 + bool(c.get("skip")) for c in pending["choices"] if c.get("mark"))
    )
    for page in (ann, bob):
        expect(page.locator("#board g.mark text")).to_have_text(marks)
        no_coordinates(page)
    shows_as_text(bob, EVIL, "#dock")
    shows_as_text(bob, EVIL, "#status-bar")
    screenshot(ann, "table-message-marks.png")
    skip = next(c["skip"] for c in pending["choices"] if c.get("skip"))
    assert skip["command"] == {
        key: value for key, value in actions[at_message].items() if key != "seat"
    }
    before = links[0].page.evaluate("window.testLink.version")
    ann.locator('#dock button[data-act="message"]', has_text=skip["label"]).click()
    for link in links:
        link.wait_for(before + 1)
    # Everyone is told, in the server's words, with the name as text.
    expect(bob.locator("#toasts")).to_contain_text(EVIL)
    assert bob.evaluate(INJECTED) == []
    shows_as_text(bob, EVIL, "#log")

    # T12: Bob's meeple would land on 10, where Ann's meeple stands: no message promised, the
    # server's note instead (rules/messengers.md §3 alone_rule).
    done = at_message + 1
    play(links, actions[done:])
    for page in (ann, bob):
        caught_up(page, links)
    pending = english_view(game.state, 1)["pending"]
    assert pending["type"] == "choose_figure"
    meeple = next(o for o in pending["options"] if o["figure"] == "meeple")
    assert (meeple["to"], meeple["dark"], meeple["draws_message"], meeple["why_not"]) == (
        10,
        True,
        False,
        "alone_rule",
    )
    button = bob.locator('#dock button[data-act="figure"][data-figure="meeple"]')
    expect(button).to_contain_text(meeple["note"])
    expect(button).not_to_have_class(re.compile(r"\bdraws\b"))
    expect(bob.locator("#dock")).to_contain_text(pending["for_what"])
    for page in (ann, bob):
        no_coordinates(page)
    shows_as_text(ann, QUOTES, "#dock")
    screenshot(bob, "table-alone-rule.png")

    # A log line names its tile from the start tile, not by coordinates; focused, it points the
    # tile out on the board.
    line = bob.locator(
        "#log .log-place", has_text=re.compile(r"places tile F \(1 tile north of the start tile\)")
    )
    expect(line).to_have_count(1)
    expect(bob.locator("#board .layer-cells rect.hover")).to_have_count(0)
    line.focus()
    expect(bob.locator("#board .layer-cells rect.hover")).to_have_attribute("y", str(-100 + 5))
    line.blur()
    expect(bob.locator("#board .layer-cells rect.hover")).to_have_count(0)
    # On the phone, below the board: a tap on the line brings the board up with the tile shown.
    tapped = ann.locator(
        "#log .log-place", has_text=re.compile(r"places tile F \(1 tile north of the start tile\)")
    )
    tapped.scroll_into_view_if_needed()
    expect(ann.locator("#board")).not_to_be_in_viewport()
    tapped.click()
    expect(ann.locator("#board .layer-cells rect.hover")).to_have_attribute("y", str(-100 + 5))
    expect(ann.locator("#board")).to_be_in_viewport()
    for page in (ann, bob):
        assert page.evaluate(INJECTED) == []
    for context in (ann_context, bob_context):
        context.close()
    assert not watch.errors, watch.errors


def alone_rule_game_upto(game: Game, count: int) -> Game:
    """`game`'s first `count` actions, played again (the state the pages show then)."""
    again = Game("c2-zmg", tiles=TILES, messages=MESSAGES, players=(EVIL, QUOTES))
    for action in game.state.log[:count]:
        command = {key: value for key, value in action.items() if key != "seat"}
        again.send(parse_command(command), seat=action["seat"])
    return again
