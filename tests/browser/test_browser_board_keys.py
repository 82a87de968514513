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


# Where the focus is, in short: "board", "dock:<act>" for a button of the panel under the board,
# "log" for a line of the log, "body" when it fell to the page, else the element's tag.
FOCUS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "body";
  if (a.id === "board") return "board";
  const b = a.closest("#dock button");
  if (b) return "dock:" + b.dataset.act;
  return a.closest("#log") ? "log" : a.tagName;
}"""

# The page's stops of the Tab key: what Tab reaches, in the order it does.
TAB_STOPS = """() => [...document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [tabindex]')].filter(
  (el) => el.tabIndex >= 0 && !el.disabled && !el.closest("[hidden], [inert]")
    && el.getClientRects().length).length"""

DOCK_KINDS = {"rotate-hand": "tile", "skip": "follower", "figure": "figure", "message": "message"}


def decision_of(page: Page) -> str | None:
    """The kind of this seat's decision the panel offers, or None when it is not theirs."""
    if not page.locator("#dock.mine").count():
        return None
    for act, kind in DOCK_KINDS.items():
        if page.locator(f'#dock button[data-act="{act}"]').count():
            return kind
    return None


def expected_focus(page: Page) -> str:
    """Where the focus belongs now: the board for a tile, for a follower with spots and while
    another seat decides; the panel's button for a figure or a message."""
    kind = decision_of(page)
    if kind in ("figure", "message"):
        return f"dock:{kind}"
    if kind == "follower" and not page.locator('#dock button[data-act="spot"]').count():
        return "dock:skip"
    return "board"


def test_the_focus_follows_each_decision_and_the_log_is_one_tab_stop(
    server: str, browser: Browser
) -> None:
    """A whole game played with the keyboard: after each decision the focus is where the next
    one is made (never on the page's body), and the page has as many Tab stops at the last turn
    as at the first however long the log has grown."""
    watch = ConsoleWatch()
    contexts = [
        browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
        for _ in range(2)
    ]
    ann, bob = (context.new_page() for context in contexts)
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(status_bar(ann)).to_contain_text("Your turn: place tile V")

    played = {"Ann": 0, "Bob": 0}
    stops: list[int] = []
    log_lengths: list[int] = []
    followers = {"Ann": 0, "Bob": 0}
    decisions = 0
    pages = {"Ann": ann, "Bob": bob}
    while not ann.locator('[data-status="finished"]').count():
        turn = [(name, page) for name, page in pages.items() if decision_of(page)]
        if not turn:
            # Nobody's decision: the game is over (its table's status follows its last view).
            expect(ann.locator("[data-code]")).to_have_attribute("data-status", "finished")
            break
        assert len(turn) == 1, turn
        ((name, page),) = turn
        kind = decision_of(page)
        version = page.locator("[data-code]").get_attribute("data-version")
        if kind == "tile":
            if played[name]:
                # Every turn after the first starts with the focus on the board: no Tab.
                assert page.evaluate(FOCUS) == "board"
            else:
                tab_to_board(page)
            if name == "Ann":
                stops.append(page.evaluate(TAB_STOPS))
                log_lengths.append(page.locator("#log li").count())
                expect(page.locator("#log [tabindex='0']")).to_have_count(1)
            page.keyboard.press("Enter")
            expect(dock_button(page, "place")).to_be_visible()
            page.keyboard.press("Enter")
            played[name] += 1
        elif kind == "follower" and page.evaluate(FOCUS) == "board" and not followers[name]:
            # A follower on the board: Enter picks the first spot, Enter places it.
            page.keyboard.press("Enter")
            expect(dock_button(page, "follower")).to_be_visible()
            page.keyboard.press("Enter")
            followers[name] += 1
        elif kind == "follower":
            # No follower: Tab from the board to the panel's button.
            for _ in range(20):
                if page.evaluate(FOCUS) == "dock:skip":
                    break
                page.keyboard.press("Tab")
            assert page.evaluate(FOCUS) == "dock:skip"
            page.keyboard.press("Enter")
        else:
            assert page.evaluate(FOCUS).startswith("dock:")
            page.keyboard.press("Enter")
        expect(page.locator("[data-code]")).not_to_have_attribute("data-version", version or "")
        now = page.locator("[data-code]").get_attribute("data-version") or ""
        for other in pages.values():
            expect(other.locator("[data-code]")).to_have_attribute("data-version", now)
        if page.locator('[data-status="finished"]').count():
            # The end: the focus is on the panel that offers what comes next.
            page.wait_for_function(f"() => ({FOCUS})().startsWith('dock:')", timeout=5000)
            break
        page.wait_for_function(
            f"(want) => ({FOCUS})() === want", arg=expected_focus(page), timeout=5000
        )
        decisions += 1
        assert decisions < 60, "the game never ended"
    assert played["Ann"] >= 3 and played["Bob"] >= 2
    # From the second turn on (the first seated view loads the alert settings, two more stops),
    # the page's stops stay as many while the log grows.
    assert log_lengths[-1] > log_lengths[1] + 5
    assert stops[-1] == stops[1], (stops, log_lengths)
    for context in contexts:
        context.close()
    assert not watch.errors, watch.errors


def test_no_follower_is_one_tab_or_one_key_from_the_board(server: str, browser: Browser) -> None:
    """The most common decision of a turn, "No follower", is the first Tab stop after the board
    (the zoom buttons come before the board), and X makes it from the board."""
    watch = ConsoleWatch()
    ann = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800}).new_page()
    bob = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800}).new_page()
    watch.watch(ann, "Ann")
    watch.watch(bob, "Bob")
    code = create_table(ann, "Ann")
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(status_bar(ann)).to_contain_text("Your turn: place tile V")
    expect(ann.locator("#board-keys")).to_contain_text("X places no follower")

    tab_to_board(ann)
    ann.keyboard.press("Enter")
    expect(dock_button(ann, "place")).to_be_visible()
    ann.keyboard.press("Enter")
    expect(status_bar(ann)).to_have_text("Place a follower, or not")
    expect(ann.locator('#dock button[data-act="spot"]').first).to_be_visible()
    expect(ann.locator("#board")).to_be_focused()
    # Words right for a mouse, the keyboard and a finger alike.
    expect(ann.locator("#dock .hint").first).to_have_text(
        "Choose a spot on the tile just placed or here (7 in supply):"
    )
    skip = dock_button(ann, "skip")
    tabs = 0
    while tabs < 2 and not ann.evaluate("() => document.activeElement?.dataset?.act === 'skip'"):
        ann.keyboard.press("Tab")
        tabs += 1
    expect(skip).to_be_focused()
    expect(skip).to_have_attribute("aria-keyshortcuts", "X")

    # Back on the board, X is "No follower": the turn passes to Bob with no follower placed.
    ann.locator("#board").focus()
    ann.keyboard.press("x")
    expect(status_bar(ann)).to_contain_text("Bob is placing tile V")
    expect(ann.locator("#board .layer-followers > g")).to_have_count(0)
    assert watch.errors == []
