"""Message 8 on the projector, in Chromium: its card says how the edition reads it (which
follower may be chosen and when it scores), under the tile's words, at 16:9 and at 4:3."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests import servers
from tests.browser.test_browser import screenshot
from tests.browser.test_browser_projector import Host
from tests.browser_pages import create_table

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("projector-message-8")
    with servers.sqlite_daphne(folder, messages=[8, 1, 2, 3, 4, 5, 6, 7]) as url:
        yield url


def test_message_8_shows_the_editions_reading(server: str, browser: Browser) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    code = create_table(page, "Ann", seats=2, tabletop=True)
    host = Host(page, code, ["Ann", "Bob"])
    host.frame({"type": "add_player", "name": "Bob", "colour": "green"}, "snapshot")
    host.frame({"type": "start"}, "snapshot")
    tv = browser.new_context(base_url=server, viewport={"width": 1920, "height": 1080})
    projector = tv.new_page()
    projector.goto(f"/t/{code}/projector")
    expect(projector.locator("main")).to_have_attribute("data-status", "playing")
    host.frame(
        {"type": "command", "command": {"type": "score", "points": 5, "figure": "meeple"}},
        "update",
    )
    host.frame({"type": "command", "command": {"type": "end_turn"}}, "update")
    card = projector.locator("#pj-overlay .pj-card")
    expect(card.locator(".pj-card-text")).to_have_text("Score a follower and return it")
    # The 2nd edition (Hans im Glück): any follower, scoring only with the majority.
    expect(card.locator(".pj-card-detail")).to_have_text("Any follower; scores with the majority")
    for width, height in ((1920, 1080), (1024, 768)):
        projector.set_viewport_size({"width": width, "height": height})
        projector.wait_for_function(f"innerWidth === {width}")
        expect(card.locator(".pj-card-detail")).to_be_in_viewport(ratio=1)
        screenshot(projector, f"projector-message-8-{width}x{height}.png")
    context.close()
    tv.close()
