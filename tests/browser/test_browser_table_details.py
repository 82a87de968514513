"""Details of the online table page (board mode) in Chromium: message 8 with nothing to score
offers its follower once; the figure fixed for the rest of the turn (c3, ``figure_choice =
per_turn``) is named on its player's page, on the other players' pages and on the projector;
the tiles left in the bag are listed by kind.

Ann and Bob play tests/engine/test_messages_score_and_return.py's corner-field opening at a c3 table
over websockets of their own browsers, as their pages would; Ann's page, on a phone, must show
what the server's view says.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot
from tests.browser.test_browser_projector_board import Link, play
from tests.browser_pages import create_table, english_view, join
from tests.engine.test_messages import SPARE, close_column
from tests.scenario import Game

pytestmark = pytest.mark.services

TILES = ["O", "F", "G", "B", "E", SPARE]
MESSAGES = [8, 1, 2, 3, 4, 5, 6, 7]


def corner_field_game() -> Game:
    """c3: Ann's farmer in O's inner corner field (touching no city); Ann closes the column for
    10 on her meeple, which fixes the meeple for the rest of her turn, and draws message 8."""
    g = Game("c3", tiles=TILES, messages=MESSAGES)
    g.place(1, 0, 90).follower("field", "SR")
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(0, 1, 0).skip()
    return close_column(g, "meeple")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("table-details")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGES) as url:
        yield url


def test_message_8_fixed_figure_and_tiles_left(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann_context = browser.new_context(base_url=server, viewport={"width": 390, "height": 844})
    ann = ann_context.new_page()
    watch.watch(ann, "Ann")
    code = create_table(ann, "Ann", preset="c3")
    bob_context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 768})
    bob = bob_context.new_page()
    watch.watch(bob, "Bob")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#game")).to_be_visible()

    g = corner_field_game()
    view = english_view(g.state, 0)
    assert view["pending"]["type"] == "resolve_message"
    assert view["players"][0]["turn_figure"] == "meeple"
    links = [Link(ann, code), Link(bob, code)]
    play(links, [dict(action) for action in g.state.log])

    # Message 8: 2 points, or the farmer returned for nothing, offered once (scoring 0 points
    # and not scoring are the same move).
    choices = ann.locator("#dock .choices li")
    expect(choices).to_have_count(2)
    returned = view["pending"]["choices"][1]
    assert "skip" not in returned
    expect(choices.nth(1)).to_contain_text(returned["label"])
    expect(ann.locator("#dock")).not_to_contain_text("without scoring")
    # The meeple took this turn's 10 points: it takes the rest of them too, and the page says so.
    expect(ann.locator("#dock .fixed-figure")).to_have_text(
        "Your points go on the meeple for the rest of this turn."
    )
    expect(bob.locator("#dock .fixed-figure")).to_have_count(0)
    # Everyone sees it: Bob's player list and the projector's tag Ann's row, and no one else's.
    expect(bob.locator("#players li").first.locator(".fixed-tag")).to_have_text("meeple this turn")
    expect(bob.locator("#players .fixed-tag")).to_have_count(1)
    tv_context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 720})
    tv = tv_context.new_page()
    watch.watch(tv, "projector")
    tv.goto(f"/t/{code}/projector")
    expect(tv.locator(".sb-player").first.locator(".sb-fixed")).to_have_text("meeple this turn")
    expect(tv.locator(".sb-player .sb-fixed")).to_have_count(1)
    expect(tv.locator(".sb-player .sb-fixed")).to_be_visible()
    # Within Ann's card, clear of her total.
    inside = tv.locator(".sb-player").first.evaluate(
        """(card) => {
            const box = (el) => el.getBoundingClientRect();
            const [tag, total] = [".sb-fixed", ".sb-total"].map((q) => card.querySelector(q));
            const [c, t, s] = [card, tag, total].map(box);
            const apart = t.right <= s.left || t.top >= s.bottom || t.bottom <= s.top;
            const ok = t.left >= c.left && t.right <= c.right && t.bottom <= c.bottom && apart;
            return ok || JSON.stringify([c, t, s]);
        }"""
    )
    assert inside is True, inside
    screenshot(tv, "projector-fixed-figure.png")

    # The tiles left, kind by kind, as the server counts them (the one spare tile, U).
    card = bob.locator("#tiles-card")
    card.locator("summary").click()
    kinds = view["tiles_left_by_kind"]
    assert sum(kinds.values()) == view["tiles_left"] == 1
    expect(card.locator("li")).to_have_count(len(kinds))
    expect(card.locator("li:not(.gone)")).to_have_count(1)
    expect(card.locator(f'li[data-tile="{SPARE}"]')).to_contain_text("× 1")
    screenshot(ann, "table-message-8-fixed-figure.png")
    card.scroll_into_view_if_needed()
    screenshot(bob, "table-tiles-left.png")

    ann.locator("#dock .choices li").nth(1).locator("button").click()
    expect(ann.locator("#dock .fixed-figure")).to_have_count(0)
    expect(bob.locator("#players .fixed-tag")).to_have_count(0)
    expect(tv.locator(".sb-player .sb-fixed")).to_have_count(0)
    for context in (ann_context, bob_context, tv_context):
        context.close()
    assert not watch.errors, watch.errors
