"""The tabletop console's keyboard, in Chromium against a real Daphne: Enter on a drawn message
takes its action, as docs/players.md says, and no choice holds the focus by default; a key the
page cannot do now is said, and the keys typed after it wait for the person rather than go to
another player; every question comes up in view, answers to the keyboard and closes with Escape;
the players card says each figure's points first and its space second."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser.test_browser_console_server_words import panel, score, tabletop_console

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("console-keys")
    with servers.sqlite_daphne(folder, messages=[4, 1, 2, 3, 5, 6, 7, 8]) as url:
        yield url


def test_enter_on_an_extra_turn_takes_the_extra_turn(server: str, browser: Browser) -> None:
    """C3's message 4 (an extra turn) drawn by Ann: focus is on no choice, and Enter plays the
    extra turn (docs/players.md: Enter takes the message's action), not the 2 points."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c3")
    watch.watch(host, "host")
    score(host, "Ann", 5, "messenger")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    host.locator("#cs-points").focus()
    host.keyboard.press("t")
    expect(panel(host).locator(".msg-num")).to_have_text("4")
    points = panel(host).locator('button[data-act="message"][data-choice="points"]')
    expect(points).to_be_visible()
    expect(points).not_to_be_focused()
    expect(panel(host)).to_be_focused()
    host.keyboard.press("Enter")
    expect(host.locator("#turn")).to_contain_text("Turn 2")
    expect(host.locator("#turn")).to_contain_text("Ann's turn")
    ann = frames.view()["players"][0]
    assert ann["score"] == 5, ann
    assert not watch.errors, watch.errors


def test_the_players_card_and_figure_buttons_say_points_then_space(
    server: str, browser: Browser
) -> None:
    """55 points for Ann's messenger take it once round the track of 50: its button says the
    points before and after, then the space it lands on; the players card says each figure's
    points, then its space, both as the server says."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c2-hig")
    watch.watch(host, "host")
    host.locator("#cs-points").focus()
    host.keyboard.type("55")
    messenger = panel(host).locator('button[data-act="score"][data-figure="messenger"]')
    expect(messenger.locator("span").first).to_have_text("0 → 55 (space 5, +1 lap)")
    host.keyboard.press("e")
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    ann = frames.view()["players"][0]
    assert (ann["messenger"], ann["messenger_space"]) == (55, 5), ann
    expect(host.locator("#players li").first.locator(".p-sub")).to_have_text(
        "Meeple 0 points (space 0) · Messenger 55 points (space 5)"
    )
    assert not watch.errors, watch.errors
