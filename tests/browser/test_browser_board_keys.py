"""A tile and a follower placed with the keyboard alone, in Chromium, and the board's words for
a screen reader.

Ann (on a laptop, no mouse used) reaches the board with Tab; the arrow keys and N / P move
between the legal placements the server sent, each told in words through the board's live
region (where it lies from the last tile, what it touches, in how many rotations it fits);
Enter picks one, R turns the tile, Enter places it, and the server applies it. Then the follower
spots, the same way. Keys typed into a field of the page are not taken by the board.

The tile bag is fixed (tests/engine/test_messages_score_and_return.py's first tile, V, next to the
start tile D), so the test knows the three legal places: west (-1, 0), east (1, 0) and south
(0, 1) of D, whose west and east edges are roads and whose south edge is a field.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch, dock_button, screenshot, status_bar
from tests.browser_pages import create_table, join
from tests.engine.test_messages import SPARE
from tests.engine.test_messages_score_and_return import MESSAGE_8
from tests.scenario import Game

pytestmark = pytest.mark.services

TILES = ["V", "V", "V", "F", SPARE]
HOW = "3 places fit your tile. Arrow keys or N and P move, Enter picks. "
WEST = "Place 1 of 3, just west of the last tile: touches a road to the east; fits in 2 rotations"
EAST = "Place 2 of 3, just east of the last tile: touches a road to the west; fits in 2 rotations"
SOUTH = (
    "Place 3 of 3, just south of the last tile: touches a field to the north; fits in 2 rotations"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("board-keys")
    with servers.sqlite_daphne(folder, tiles=TILES, messages=MESSAGE_8) as url:
        yield url


def tab_to_board(page: Page) -> None:
    """Press Tab until the board has the focus, as a keyboard user reaches it."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.id === 'board'"):
            return
    raise AssertionError("Tab never reached the board")


def test_a_tile_and_a_follower_placed_with_the_keyboard(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    ann_context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    bob_context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    ann = ann_context.new_page()
    bob = bob_context.new_page()
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(status_bar(ann)).to_contain_text("Your turn: place tile V")

    g = Game("c2-hig", tiles=TILES, messages=MESSAGE_8)
    pending = g.pending
    assert pending is not None
    assert [(c["x"], c["y"], len(c["rotations"])) for c in pending["placements"]] == [
        (1, 0, 2),
        (0, 1, 2),
        (-1, 0, 2),
    ]
    board = ann.locator("#board")
    expect(board).to_have_attribute("aria-describedby", "board-keys")
    expect(ann.locator("#board-keys")).to_contain_text("Enter picks one")
    say = ann.locator(".board-say")

    # A field of the page keeps its keys: the arrow keys change the number in it, N types
    # nothing there and moves nothing on the board.
    seconds = ann.locator('#my-links input[name="seconds"]')
    seconds.focus()
    before = int(seconds.input_value())
    ann.keyboard.press("ArrowUp")
    ann.keyboard.press("n")
    ann.keyboard.press("ArrowLeft")
    expect(seconds).to_have_value(str(before + 1))
    expect(say).to_have_text("")
    expect(ann.locator("#board .layer-cursor .cursor")).to_have_count(0)
    expect(ann.locator("#board .layer-preview .preview")).to_have_count(0)

    # On the board: the places in words, the focus ring and the tile tried there as on hover.
    # The tile as first turned (0°) fits east and south, not west.
    tab_to_board(ann)
    expect(say).to_have_text(f"{HOW}{WEST}, not as turned now (R turns).")
    expect(ann.locator("#board .layer-cursor .cursor")).to_have_count(1)
    expect(ann.locator("#board .layer-preview .preview")).to_have_attribute(
        "transform", "translate(-100 0)"
    )
    ann.keyboard.press("ArrowRight")
    expect(say).to_have_text(f"{EAST}, as turned now.")
    expect(ann.locator("#board .layer-preview .preview")).to_have_attribute(
        "transform", "translate(100 0)"
    )
    ann.keyboard.press("ArrowDown")
    expect(say).to_have_text(f"{SOUTH}, as turned now.")
    screenshot(ann, "table-keyboard-placing.png")
    ann.keyboard.press("ArrowDown")
    expect(say).to_have_text("Nothing further south.")
    ann.keyboard.press("n")
    expect(say).to_have_text(f"{WEST}, not as turned now (R turns).")
    ann.keyboard.press("p")
    expect(say).to_have_text(f"{SOUTH}, as turned now.")

    # Enter picks the place, as a tap would; R turns the tile; Enter places it.
    ann.keyboard.press("Enter")
    expect(dock_button(ann, "place")).to_be_visible()
    hint = ann.locator("#dock .hand-text .hint")
    expect(hint).to_contain_text("turned 0°, on the highlighted place")
    ann.keyboard.press("r")
    expect(hint).to_contain_text("turned 270°, on the highlighted place")
    ann.keyboard.press("Enter")
    expect(status_bar(ann)).to_have_text("Place a follower, or not")
    g.place(0, 1, 270)
    expect(ann.locator("#board .layer-tiles > g")).to_have_count(2)
    expect(ann.locator("#board .layer-tiles > g").nth(1)).to_have_attribute(
        "transform", "translate(0 100)"
    )

    # The follower: the spots of the tile just placed, in words; Enter, Enter places one.
    pending = g.pending
    assert pending is not None and pending["type"] == "place_follower"
    spots = pending["spots"]
    expect(say).to_contain_text(f"{len(spots)} spots for a follower.")
    expect(say).to_contain_text(f"Spot 1 of {len(spots)}, on the last tile: ")
    ann.keyboard.press("Enter")
    expect(say).to_contain_text(", chosen.")
    expect(dock_button(ann, "follower")).to_be_visible()
    ann.keyboard.press("Enter")
    expect(status_bar(ann)).to_contain_text("Bob is placing tile V")
    follower = ann.locator("#board .layer-followers > g")
    expect(follower).to_have_count(1)
    placed = (follower.get_attribute("data-follower") or "").split(",")
    assert placed[:2] == ["0", "1"]
    assert {"feature": placed[2], "at": placed[3] or None} in [
        {"feature": s["feature"], "at": s.get("at")} for s in spots
    ]
    expect(status_bar(bob)).to_contain_text("Your turn: place tile V")
    for context in (ann_context, bob_context):
        context.close()
    assert not watch.errors, watch.errors
