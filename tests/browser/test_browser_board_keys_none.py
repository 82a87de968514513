"""The board's words for a keyboard user when there is nothing on the board to pick.

Late in a game Ann has no follower left; she places a tile with the keyboard alone, and the
follower step waits for "No follower". The board's live region then says so, in the words of the
panel under the board, and names the button to Tab to, instead of keeping the words of the tile
step (the last place it described).

The tile bag is fixed. The turns before are planned with the engine (tests/scenario.py) on the
same bag: Ann puts a follower on every tile she places until her seven are on the board, Bob places
none, and every turn's command goes over each player's own websocket (the projector tests' `Host`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch, status_bar
from tests.browser.test_browser_board_keys import tab_to_board
from tests.browser.test_browser_projector import Host
from tests.browser_pages import create_table, join
from tests.scenario import Game

pytestmark = pytest.mark.services

TILES = ["V"] * 9 + ["U"] * 8 + ["B"] * 2

SEEN = "version => version === null || window.testLink.version >= version"


def turns_until_ann_has_no_follower() -> list[tuple[int, dict[str, Any]]]:
    """The commands (seat, command) that bring the game to Ann's turn with her supply empty."""
    g = Game("c2-hig", tiles=TILES)
    turns: list[tuple[int, dict[str, Any]]] = []
    while True:
        p = g.pending
        assert p is not None and p["type"] in ("place_tile", "place_follower"), p
        if p["type"] == "place_tile" and p["seat"] == 0 and not g.player(0).followers:
            return turns
        seat = p["seat"]
        if p["type"] == "place_tile":
            c = p["placements"][0]
            turn = c["rotations"][0]
            command = {"type": "place_tile", "x": c["x"], "y": c["y"], "rotation": turn}
            g.place(c["x"], c["y"], c["rotations"][0])
        elif seat == 0 and p["spots"]:
            spot = p["spots"][0]
            command = {"type": "place_follower", "feature": spot["feature"], "at": spot.get("at")}
            g.follower(spot["feature"], spot.get("at"))
        else:
            command = {"type": "skip_follower"}
            g.skip()
        turns.append((seat, command))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("board-keys-none")
    with servers.sqlite_daphne(folder, tiles=TILES) as url:
        yield url


def test_no_follower_left_is_said_with_the_button_to_tab_to(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800}).new_page()
    bob = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800}).new_page()
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(status_bar(ann)).to_contain_text("Your turn")
    links = [Host(ann, code, ["Ann", "Bob"]), Host(bob, code, ["Ann", "Bob"])]
    version = None
    for seat, command in turns_until_ann_has_no_follower():
        # A command names the version its link has seen: the other player's last update must
        # have reached this link first, or the command is rightly refused as stale.
        links[seat].page.wait_for_function(SEEN, arg=version)
        version = links[seat].frame({"type": "command", "command": command}, "update")
    ann.reload()
    expect(status_bar(ann)).to_contain_text("Your turn")
    expect(ann.locator(".p-sub").first).to_be_visible()

    # The tile, placed with the keyboard: Enter picks the place, Enter places it.
    tab_to_board(ann)
    say = ann.locator(".board-say")
    expect(say).to_contain_text("fit your tile")
    ann.keyboard.press("Enter")
    expect(ann.locator('#dock button[data-act="place"]')).to_be_visible()
    ann.keyboard.press("Enter")

    expect(ann.locator("#dock .hint").first).to_have_text("You have no follower left in supply.")
    # The focus goes straight to the only decision left, the panel's button; back on the board,
    # the board says why and names that button.
    expect(ann.locator('#dock button[data-act="skip"]')).to_be_focused()
    ann.locator("#board").focus()
    expect(say).to_have_text(
        "Nothing to pick on the board. You have no follower left in supply. Tab to “No follower”."
    )
    assert watch.errors == []
