"""Game night at a real table, in real browsers: the host's scoreboard console, a player's phone
and the projector, through Debian's Chromium against a real Daphne.

Ann hosts a tabletop game (2nd edition, Hans im Glück) on a laptop: she adds Bob, who has no
phone, and Cy joins from hers. The host enters the points of a few turns for Ann and Bob, with
the keyboard (on Ann's usual figure) and with the number keys and figure buttons; Bob's messenger
lands on a dark space and his turn draws message 1 ("Score your smallest road"), revealed on the
projector; the host enters the points counted at the table. Cy enters her own points on her
phone, the host takes one back with Undo, Cy enters the right value and ends her turn. Then the
last tile is placed: figures merge, final points are entered per category (a field shared by Ann
and Cy entered once for both, one `score_shared`), and the console and the projector show the
ranking. After every step the pages must show the scores the engine gives for the same decisions.

Screenshots go to tests/artifacts/screenshots/ (git-ignored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from game.engine.presets import PRESETS
from game.engine.record import replay
from game.words.messages import message_rule
from game.words.narration import entry_words, narrate
from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot
from tests.browser_pages import english_view

pytestmark = pytest.mark.services

NAMES = ["Ann", "Bob", "Cy"]
MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]


NAMES_SPLIT_BY_FLEX = """() => [...document.querySelectorAll("bdi")]
    .map((name) => name.parentElement)
    .filter((parent) => /flex|grid/.test(getComputedStyle(parent).display))
    .filter((parent) =>
        [...parent.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
    .map((parent) => parent.textContent.trim())"""


def names_split_by_flex(page: Page) -> list[str]:
    """Texts where a name's <bdi> sits beside bare text in a flex or grid box: each becomes an
    item of its own, and the box's gap opens inside the sentence ("Ann 's turn")."""
    return page.evaluate(NAMES_SPLIT_BY_FLEX)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("tabletop")
    with servers.sqlite_daphne(folder, messages=MESSAGES) as url:
        yield url


class Scores:
    """The same decisions applied by the engine, to know what every page must show, and the
    server's English words for them (game.words)."""

    def __init__(self) -> None:
        self.actions: list[dict[str, Any]] = []
        self.events = 0
        self.said: list[str] = []
        """The log lines of the last decision's events, in English."""

    def add(self, seat: int, kind: str, **keys: Any) -> dict[str, Any]:
        self.actions.append({"seat": seat, "type": kind, **keys})
        return self.view()

    def undo(self, seat: int) -> dict[str, Any]:
        return self.add(seat, "undo")

    def view(self) -> dict[str, Any]:
        record = {
            "format": "carcassonne-messengers/1",
            "mode": "tabletop",
            "players": NAMES,
            "preset": "c2-hig",
            "messages": MESSAGES,
            "actions": self.actions,
        }
        game = replay(record)
        with translation.override("en"):
            lines = narrate(game.events[self.events :], NAMES, game.state.options)
        self.said = [line["text"] for line in lines]
        self.events = len(game.events)
        return english_view(game.state)


def expect_scores(pages: list[Page], view: dict[str, Any], projector: Page) -> None:
    """Every page shows the engine's version and totals."""
    scores = [str(p["score"]) for p in view["players"]]
    for page in pages:
        expect(page.locator("#table-page")).to_have_attribute("data-version", str(view["version"]))
        expect(page.locator("#players .p-score")).to_have_text(scores)
        expect(page.locator("#scoreboard .sb-total")).to_have_text(scores)
    expect(projector.locator("main.pj")).to_have_attribute("data-version", str(view["version"]))
    expect(projector.locator(".sb-players .sb-total")).to_have_text(scores)


def panel(page: Page) -> Any:
    return page.locator("#panel")


def enter(
    page: Page, player: str | None, points: int, category: str | None, figure: str | None
) -> None:
    """On a console: pick the player (host only), the points, what for, then the figure (none
    in the final scoring, where the figure carrying the total takes every point)."""
    if player is not None:
        panel(page).locator('button[data-act="seat"]', has_text=player).click()
    keys = panel(page).locator(f'button[data-act="points"][data-n="{points}"]')
    if keys.count():
        keys.click()
    else:
        panel(page).locator("#cs-points").fill(str(points))
    if category:
        panel(page).locator(f'button[data-act="category"][data-cat="{category}"]').click()
    chosen = f'[data-figure="{figure}"]' if figure else ""
    panel(page).locator(f'button[data-act="score"]{chosen}').click()


def test_a_host_runs_the_scoreboard_of_a_game_at_the_table(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    laptop = browser.new_context(base_url=server, viewport={"width": 1440, "height": 900})
    phone = browser.new_context(
        base_url=server,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    tv = browser.new_context(base_url=server, viewport={"width": 1920, "height": 1080})
    host = laptop.new_page()
    watch.watch(host, "host")

    # Ann creates a tabletop table for three and adds Bob, who has no phone.
    host.goto("/")
    host.locator("label.card", has_text="2nd edition (2017, Big Box 6)").click()
    host.locator("label.card", has_text="At the table").click()
    host.locator(".segmented label", has_text=re.compile(r"^\s*3\s*$")).click()
    host.locator("#name").fill("Ann")
    host.locator("label.swatch", has_text="Blue").click()
    host.get_by_role("button", name="Create the table").click()
    host.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    expect(host.locator("#conn")).to_have_text("Live")
    add = host.locator("#add-form")
    add.locator('input[name="name"]').fill("Bob")
    add.locator('select[name="colour"]').select_option("orange")
    add.get_by_role("button", name="Add").click()
    expect(host.locator("#lobby-seats .seat-name")).to_have_text(
        ["Ann (you) host", "Bob", "waiting…"]
    )

    projector = tv.new_page()
    watch.watch(projector, "projector")
    projector.goto(f"/t/{code}/projector")

    # Cy joins from her phone.
    cy = phone.new_page()
    watch.watch(cy, "Cy")
    cy.goto(f"/t/{code}")
    join = cy.locator("#join-form")
    join.locator('input[name="name"]').fill("Cy")
    join.locator("label.colour-opt", has_text="Green").tap()
    join.get_by_role("button", name="Take a seat").tap()
    expect(cy.locator("#lobby-seats li")).to_have_count(3)
    expect(host.locator("#add-form")).to_have_count(0)

    host.locator('#start-box button[data-act="start"]').click()
    # The table page turns into the scoreboard console for everyone seated.
    expect(host.locator(".cs-panel")).to_be_visible()
    expect(cy.locator(".cs-panel")).to_be_visible()
    expect(host.locator(".tp-me")).to_contain_text("Host console")
    expect(host.locator('.cs-panel button[data-act="end-turn"]')).to_be_visible()
    assert names_split_by_flex(host) == [] and names_split_by_flex(cy) == []
    expect(host.locator("#conn")).to_have_text("Live")
    expect(cy.locator("#conn")).to_have_text("Live")

    # Bob could take his seat on a phone after all: the host shows him his link as a QR code.
    bob_row = host.locator("#players li", has_text="Bob")
    bob_row.locator("details.rejoin summary").click()
    bob_qr = bob_row.locator("img.qr")
    expect(bob_qr).to_be_visible()
    host.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=bob_qr.element_handle()
    )
    screenshot(host, "console-phone-link.png")
    bob_link = bob_row.locator("details.rejoin input").input_value()
    bob_phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    bob = bob_phone.new_page()
    bob.goto(bob_link)
    expect(bob.locator("#players li.me")).to_contain_text("Bob")
    bob_phone.close()
    bob_row.locator("details.rejoin summary").click()

    engine = Scores()
    view = engine.view()
    pages = [host, cy]
    expect_scores(pages, view, projector)

    # Turn 1, Ann's tile: a road of 3 for Ann, and Bob's city of 5 closed with it.
    # Ann's points usually go on her meeple: then the keyboard alone enters them.
    expect(host.locator("#turn")).to_contain_text("Ann's turn")
    host.locator("#players .pref label", has_text="meeple").click()
    expect(panel(host)).to_contain_text("Enter scores on the meeple.")
    panel(host).locator('button[data-act="category"][data-cat="road"]').click()
    host.keyboard.type("3")
    expect(panel(host).locator("#cs-points")).to_have_value("3")
    expect(panel(host).locator('button[data-act="score"][data-figure="meeple"]')).to_contain_text(
        "0 → 3 (space 3)"
    )
    host.keyboard.press("Enter")
    view = engine.add(0, "score", points=3, figure="meeple", category="road")
    expect_scores(pages, view, projector)
    panel(host).locator('button[data-act="seat"]', has_text="Bob").click()
    panel(host).locator('button[data-act="points"][data-n="5"]').click()
    messenger = panel(host).locator('button[data-act="score"][data-figure="messenger"]')
    expect(messenger).to_contain_text("0 → 5 (space 5)")
    # The server's note and rule (only the player whose turn it is draws: rules/messengers.md §1).
    expect(messenger.locator(".dark-tag")).to_have_text(
        "dark, but only \u2068Ann\u2069 draws messages this turn"
    )
    expect(panel(host)).to_contain_text(message_rule(PRESETS["c2-hig"]))
    panel(host).locator('button[data-act="category"][data-cat="city"]').click()
    screenshot(host, "console-entry.png")
    panel(host).locator('button[data-act="score"][data-figure="meeple"]').click()
    view = engine.add(1, "score", points=5, figure="meeple", category="city")
    expect_scores(pages, view, projector)
    assert engine.said and all("\u2068Bob\u2069" in line for line in engine.said)
    for line in engine.said:
        expect(host.locator("#log")).to_contain_text(line)
    panel(host).locator('button[data-act="end-turn"]').click()
    view = engine.add(0, "end_turn")
    expect_scores(pages, view, projector)
    assert view["revealed"] is None

    # Turn 2, Bob's: his messenger lands on 5, a dark space; ending the turn draws message 1.
    expect(host.locator("#turn")).to_contain_text("Bob's turn")
    expect(cy.locator("#turn")).to_contain_text("Bob's turn")
    enter(host, None, 5, "city", "messenger")
    view = engine.add(1, "score", points=5, figure="messenger", category="city")
    expect_scores(pages, view, projector)
    panel(host).locator('button[data-act="end-turn"]').click()
    view = engine.add(1, "end_turn")
    assert view["revealed"]["message"] == 1
    overlay = projector.locator("#pj-overlay")
    expect(overlay.locator(".pj-card-number")).to_have_text("1")
    expect(overlay.locator(".pj-card-text")).to_have_text(view["revealed"]["text"])
    expect(overlay.locator(".pj-card-kicker")).to_have_text(re.compile(r"Bob\sdraws a message$"))
    screenshot(projector, "projector-tabletop-message.png")
    for page in pages:
        expect(panel(page).locator(".msg-num")).to_have_text("1")
        expect(panel(page).locator(".msg-text")).to_have_text(view["revealed"]["text"])
    expect(panel(cy)).to_contain_text("Waiting for Bob to choose.")
    # His smallest road is counted at the table: 4 points, on the meeple (5 -> 9).
    panel(host).locator("#cs-points").fill("4")
    action = panel(host).locator('button[data-act="message"][data-choice="action"]')
    expect(action).to_have_text("Score the action: 4 points")
    screenshot(host, "console-message.png")
    action.click()
    view = engine.add(1, "resolve_message", choice="action", points=4)
    expect(panel(host).locator('button[data-act="figure"]')).to_have_count(2)
    panel(host).locator('button[data-act="figure"][data-figure="meeple"]').click()
    view = engine.add(1, "choose_figure", figure="meeple")
    expect_scores(pages, view, projector)
    assert view["players"][1]["meeple"] == 9 and view["active_seat"] == 2

    # Turn 3, Cy's: she enters her own points on her phone; the host takes a slip back.
    expect(cy.locator("#turn")).to_contain_text("Cy's turn")
    expect(panel(cy).locator('button[data-act="seat"]')).to_have_count(1)
    panel(cy).locator('button[data-act="points"][data-n="2"]').tap()
    panel(cy).locator('button[data-act="score"][data-figure="messenger"]').tap()
    view = engine.add(2, "score", points=2, figure="messenger")
    expect_scores(pages, view, projector)
    # The entry in the server's words, on both pages.
    said = f"Last entry: {entry_words(view['undoable'], NAMES)}"
    expect(host.locator("#undo")).to_contain_text(said)
    expect(cy.locator("#undo")).to_contain_text(said)
    undone = view["undoable"]
    host.locator('#undo button[data-act="undo"]').click()
    view = engine.undo(0)
    expect_scores(pages, view, projector)
    assert engine.said == [f"Undone by \u2068Ann\u2069: {entry_words(undone, NAMES)}"]
    expect(cy.locator("#log")).to_contain_text(engine.said[0])
    panel(cy).locator("#cs-points").fill("6")
    panel(cy).locator('button[data-act="score"][data-figure="meeple"]').tap()
    view = engine.add(2, "score", points=6, figure="meeple")
    expect_scores(pages, view, projector)
    screenshot(cy, "console-phone.png")
    panel(cy).locator('button[data-act="end-turn"]').tap()
    view = engine.add(2, "end_turn")
    expect_scores(pages, view, projector)

    # The last tile is placed: each player chooses the figure that carries the total.
    # Ending the game is the host's, asked in the page; phones never offer it.
    expect(panel(cy).locator('button[data-act="end-game"]')).to_have_count(0)
    panel(host).locator('button[data-act="end-game"]').click()
    expect(host.locator("#cs-confirm")).to_contain_text("End the game now?")
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    view = engine.add(0, "end_game")
    # Ann's usual figure answers for her at once; the host answers for Bob and Cy.
    view = engine.add(0, "choose_figure", figure="meeple")
    for seat in (1, 2):
        expect(panel(host).locator("h2")).to_contain_text(f"{NAMES[seat]}: which figure carries")
        panel(host).locator('button[data-act="figure"][data-figure="meeple"]').click()
        view = engine.add(seat, "choose_figure", figure="meeple")
    expect(panel(host).locator("h2")).to_have_text("Final scoring")
    enter(host, "Ann", 6, "city", None)
    view = engine.add(0, "score", points=6, category="city")
    expect_scores(pages, view, projector)
    # Ann and Cy share a field: 4 points each, entered once.
    panel(host).locator('button[data-act="multi"]').click()
    panel(host).locator('button[data-act="seat"]', has_text="Cy").click()
    expect(panel(host).locator('button[data-act="seat"][aria-pressed="true"]')).to_have_count(2)
    panel(host).locator('button[data-act="points"][data-n="4"]').click()
    panel(host).locator('button[data-act="category"][data-cat="field"]').click()
    add = panel(host).locator('button[data-act="score"]')
    expect(add).to_have_text("Add 4 points for Ann and Cy")
    add.click()
    shares = [{"seat": 0}, {"seat": 2}]
    view = engine.add(0, "score_shared", points=4, category="field", shares=shares)
    expect_scores(pages, view, projector)
    expect(panel(cy).locator('button[data-act="finish"]')).to_have_count(0)
    panel(host).locator('button[data-act="finish"]').click()
    expect(host.locator("#cs-confirm")).to_contain_text("Finish: the results become final")
    # Nobody is told about winners before the host confirms.
    expect(projector.locator(".pj-ranking")).to_be_hidden()
    expect(panel(cy).locator(".ranking")).to_have_count(0)
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    view = engine.add(0, "finish")
    assert view["finished"]
    ranking = [f"{p['score']}" for p in sorted(view["players"], key=lambda p: -p["score"])]
    expect(panel(host).locator(".ranking b")).to_have_text(ranking)
    expect(panel(cy).locator(".ranking b")).to_have_text(ranking)
    expect(panel(host).locator(".breakdown")).to_contain_text("Cities")
    screenshot(host, "console-game-over.png")
    winner = max(view["players"], key=lambda p: p["score"])
    # The projector names the winner once the host finished the game; then the ranking alone.
    expect(overlay.locator(".pj-card--over")).to_contain_text(
        f"{winner['name']} wins with {winner['score']} points", timeout=40_000
    )
    expect(overlay).to_be_hidden(timeout=40_000)
    # The ranking with every category's points (the finished table's final_scoring).
    expect(projector.locator(".pj-breakdown .breakdown")).to_contain_text("Fields")
    screenshot(projector, "projector-tabletop-final.png")
    assert not watch.errors, watch.errors


class HeldSocket:
    """A phone's websocket routed through the test: what the server sends can be held back (the
    phone then acts on scores that have moved on) and the answer to its own command dropped
    with the connection (it never learns whether its entry counted)."""

    def __init__(self, page: Page) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.drop_answer = False
        self.dropped = 0
        self.page_side: Any = None
        page.route_web_socket(re.compile(r"/ws/t/"), self.route)

    def route(self, ws: Any) -> None:
        server = self.server = ws.connect_to_server()
        self.page_side = ws

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if self.drop_answer and frame["type"] == "update" and frame.get("id"):
                self.drop_answer = False
                self.dropped += 1
                ws.close()
                server.close()
            elif self.holding:
                self.held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)

    def wait_for_held(self, page: Page, kind: str, count: int = 1) -> None:
        """Until `count` held frames of type `kind` are there (e.g. the server answered)."""
        for _ in range(100):
            if sum(json.loads(message)["type"] == kind for message in self.held) >= count:
                return
            page.wait_for_timeout(100)
        raise AssertionError(f"no {kind} frame held: {self.held}")

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held = []


def seat_pressed(page: Page) -> Any:
    return panel(page).locator('button[data-act="seat"][aria-pressed="true"]')


def test_entry_at_the_speed_of_the_table(server: str, browser: Browser) -> None:
    """Entry at the speed of the table: the keyboard enters a turn (player, points, category,
    figure, end turn, undo) with focus kept where the next entry starts; 66 asks first; the figure
    buttons show a lap; a phone's refused entry stays on its screen with the reason; an entry
    whose answer was lost counts once; a double click or a repeated key ends one turn; only the
    host ends and finishes the game, after a confirmation."""
    from tests.browser_pages import create_table, join

    watch = ConsoleWatch()
    laptop = browser.new_context(base_url=server, viewport={"width": 1440, "height": 900})
    phone = {
        "is_mobile": True,
        "has_touch": True,
        "viewport": {"width": 390, "height": 844},
        "base_url": server,
    }
    host = laptop.new_page()
    watch.watch(host, "host")
    host_socket = HeldSocket(host)
    code = create_table(host, "Ann", seats=3, tabletop=True)
    bob = browser.new_context(**phone).new_page()
    watch.watch(bob, "Bob")
    join(bob, code, "Bob", "Orange")
    cy = browser.new_context(**phone).new_page()
    watch.watch(cy, "Cy")
    cy_socket = HeldSocket(cy)
    join(cy, code, "Cy", "Green")
    host.locator('#start-box button[data-act="start"]').click()
    pages = [host, bob, cy]
    for page in pages:
        expect(page.locator(".cs-panel")).to_be_visible()
    tv = browser.new_context(base_url=server).new_page()
    tv.goto(f"/t/{code}/projector")
    engine = Scores()

    # 1. The number pad offers 1 to 12.
    keys = panel(host).locator('button[data-act="points"]')
    expect(keys).to_have_text([str(n) for n in range(1, 13)])
    expect(panel(host).locator(".cs-legend")).to_contain_text("T end the turn")
    end_turn = panel(host).locator('button[data-act="end-turn"]')
    expect(end_turn).to_have_attribute("aria-keyshortcuts", "T")
    expect(end_turn).to_have_attribute("title", "End turn 1 (T)")

    # 4. From the keyboard: the arrow key chooses Bob, 66 for a city on the meeple...
    expect(seat_pressed(host)).to_contain_text("Ann")
    host.locator("body").press("ArrowDown")
    expect(seat_pressed(host)).to_contain_text("Bob")
    host.keyboard.type("66c")
    expect(panel(host).locator("#cs-points")).to_have_value("66")
    expect(panel(host).locator('button[data-cat="city"]')).to_have_attribute("aria-pressed", "true")
    expect(panel(host).locator('button[data-figure="meeple"] span')).to_have_text(
        "0 → 66 (space 16, +1 lap)"
    )
    host.keyboard.press("m")
    # 2. ...is implausible: asked first, and the draft is kept whatever the answer.
    expect(host.locator("#cs-confirm")).to_contain_text("Really 66 points for Bob?")
    expect(host.locator('#cs-confirm button[data-act="confirm-no"]')).to_be_focused()
    screenshot(host, "console-implausible.png")
    host.keyboard.press("Escape")
    expect(host.locator("#cs-confirm")).to_be_empty()
    expect(panel(host).locator("#cs-points")).to_have_value("66")
    expect(panel(host).locator("#cs-points")).to_be_focused()
    expect(seat_pressed(host)).to_contain_text("Bob")
    host.keyboard.press("Backspace")
    # Enter scores a complete entry although Bob has no usual figure: the server asks which.
    host.keyboard.press("Enter")
    engine.add(1, "score", points=6, category="city")
    expect(panel(host).locator("h2")).to_contain_text(
        "Bob scores 6 points for a city: which figure moves?"
    )
    host.keyboard.press("e")
    view = engine.add(1, "choose_figure", figure="messenger")
    expect_scores(pages, view, tv)
    # 5. The entry was for Bob: the form is back on Ann, focused for the next entry.
    expect(seat_pressed(host)).to_contain_text("Ann")
    expect(panel(host).locator("#cs-points")).to_be_focused()
    expect(panel(host).locator("#cs-points")).to_have_value("")

    # A plausible-looking 44 still asks; confirmed, it counts. 3. The next 8 shows the lap.
    host.keyboard.type("44m")
    expect(host.locator("#cs-confirm")).to_contain_text("Really 44 points for Ann?")
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    view = engine.add(0, "score", points=44, figure="meeple")
    expect_scores(pages, view, tv)
    expect(panel(host).locator("#cs-points")).to_be_focused()
    host.keyboard.type("8")
    meeple = panel(host).locator('button[data-act="score"][data-figure="meeple"]')
    expect(meeple).to_contain_text("44 → 52 (space 2, +1 lap)")
    expect(meeple).to_have_attribute("aria-keyshortcuts", "M")
    host.keyboard.press("m")
    view = engine.add(0, "score", points=8, figure="meeple")
    expect_scores(pages, view, tv)

    # 6. Cy's phone is behind (updates held back) when the host enters 3 for Ann: points for
    # different players do not conflict, so her 2 points count as well.
    cy_socket.holding = True
    host.keyboard.type("3e")
    view = engine.add(0, "score", points=3, figure="messenger")
    expect(host.locator("#table-page")).to_have_attribute("data-version", str(view["version"]))
    panel(cy).locator('button[data-act="points"][data-n="2"]').tap()
    panel(cy).locator('button[data-act="score"][data-figure="messenger"]').tap()
    cy_socket.wait_for_held(cy, "update", 2)
    cy_socket.release()
    view = engine.add(2, "score", points=2, figure="messenger")
    expect_scores(pages, view, tv)
    refused = cy.locator("#cs-refused")
    expect(refused).to_be_empty()
    # Behind again, while the host enters 3 for Cy herself: her own 2 would credit her a second
    # time, so they are refused, and stay on her screen with the server's account until she acts.
    cy_socket.holding = True
    panel(host).locator('button[data-act="seat"]', has_text="Cy").click()
    panel(host).locator('button[data-act="points"][data-n="3"]').click()
    panel(host).locator('button[data-act="score"][data-figure="meeple"]').click()
    view = engine.add(2, "score", points=3, figure="meeple")
    expect(host.locator("#table-page")).to_have_attribute("data-version", str(view["version"]))
    panel(cy).locator('button[data-act="points"][data-n="2"]').tap()
    panel(cy).locator('button[data-act="score"][data-figure="messenger"]').tap()
    cy_socket.wait_for_held(cy, "error")
    cy_socket.release()
    expect(refused).to_contain_text("Not counted: the entry is back in the form.")
    expect(refused).to_contain_text(
        "Meanwhile 3 points were entered for \u2068Cy\u2069; yours were not counted."
    )
    expect_scores(pages, view, tv)
    expect(panel(cy).locator('button[data-act="points"].on')).to_have_text("2")
    screenshot(cy, "console-refused.png")
    cy.wait_for_timeout(6000)  # longer than a toast lives: the refusal is still there
    expect(refused).to_contain_text("Not counted")
    refused.locator('button[data-act="again"]').tap()
    view = engine.add(2, "score", points=2, figure="messenger")
    expect_scores(pages, view, tv)
    expect(refused).to_be_empty()

    # An entry whose answer is lost with the connection is sent again under the same id after
    # the reconnection: answered `duplicate`, it counted, once, and nothing is shown as refused.
    cy_socket.drop_answer = True
    panel(cy).locator('button[data-act="points"][data-n="4"]').tap()
    panel(cy).locator('button[data-act="score"][data-figure="meeple"]').tap()
    view = engine.add(2, "score", points=4, figure="meeple")
    expect_scores(pages, view, tv)
    assert cy_socket.dropped == 1
    expect(cy.locator("#conn")).to_have_text("Live")
    expect(refused).to_be_empty()
    expect(panel(cy).locator("#cs-points")).to_have_value("")

    # A field shared by Ann and Cy is one entry: while the host's page is behind, Cy's phone
    # enters 1 for Cy; the host's shared entry credits Cy too, so it is refused whole, and the
    # form keeps it (both players, their figures, the points) with the server's account.
    host_socket.holding = True
    panel(cy).locator('button[data-act="points"][data-n="1"]').tap()
    panel(cy).locator('button[data-act="score"][data-figure="meeple"]').tap()
    view = engine.add(2, "score", points=1, figure="meeple")
    host_socket.wait_for_held(host, "update")
    panel(host).locator('button[data-act="multi"]').click()
    panel(host).locator('button[data-act="seat"]', has_text="Cy").click()
    panel(host).locator('button[data-act="points"][data-n="3"]').click()
    host.keyboard.press("e")  # every share on the messenger
    panel(host).locator('button[data-act="score"]').click()
    host_socket.wait_for_held(host, "error")
    host_socket.release()
    shared = host.locator("#cs-refused")
    expect(shared).to_contain_text("Not counted: the entry is back in the form.")
    expect(shared).to_contain_text(
        "Meanwhile 1 point was entered for \u2068Cy\u2069; yours were not counted."
    )
    expect_scores(pages, view, tv)
    expect(seat_pressed(host)).to_have_count(2)
    expect(panel(host).locator('button[data-act="points"].on')).to_have_text("3")
    expect(
        panel(host).locator('button[data-act="share-figure"][aria-pressed="true"]')
    ).to_have_count(2)
    shared.locator('button[data-act="again"]').click()
    shares = [{"seat": 0, "figure": "messenger"}, {"seat": 2, "figure": "messenger"}]
    view = engine.add(0, "score_shared", points=3, shares=shares)
    expect_scores(pages, view, tv)
    expect(shared).to_be_empty()
    expect(seat_pressed(host)).to_have_count(1)
    expect(seat_pressed(host)).to_contain_text("Ann")

    # 8. Phones never offer to end the game.
    expect(panel(cy).locator('button[data-act="end-game"]')).to_have_count(0)
    expect(panel(bob).locator('button[data-act="end-game"]')).to_have_count(0)

    # 7. A double click on "End Ann's turn" ends Ann's turn only.
    host.locator('#panel button[data-act="end-turn"]').dblclick()
    view = engine.add(0, "end_turn")
    expect_scores(pages, view, tv)
    expect(host.locator("#turn")).to_contain_text("Bob's turn")
    host.wait_for_timeout(1500)
    expect_scores(pages, view, tv)
    expect(panel(host).locator('button[data-act="end-turn"]')).to_have_attribute(
        "title", "End turn 2 (T)"
    )
    # T pressed twice ends one turn too (the second is refused, and said); U takes it back;
    # focus stays on the entry.
    expect(panel(host).locator("#cs-points")).to_be_focused()
    host.keyboard.press("t")
    host.keyboard.press("t")
    view = engine.add(1, "end_turn")
    expect_scores(pages, view, tv)
    host.wait_for_timeout(1500)
    expect_scores(pages, view, tv)
    expect(host.locator("#turn")).to_contain_text("Cy's turn")
    # The second T is refused and said; Escape puts the note away, back on the entry.
    expect(host.locator("#cs-refused")).to_contain_text("T did not end Cy's turn")
    host.keyboard.press("Escape")
    expect(host.locator("#cs-refused")).to_be_empty()
    expect(panel(host).locator("#cs-points")).to_be_focused()
    host.keyboard.press("u")
    view = engine.undo(0)
    expect_scores(pages, view, tv)
    expect(host.locator("#turn")).to_contain_text("Bob's turn")
    # (the turn's button is held a moment after it changes, against a double click)
    expect(panel(host).locator('button[data-act="end-turn"]')).to_be_enabled()
    host.keyboard.press("t")
    view = engine.add(1, "end_turn")
    expect_scores(pages, view, tv)

    # 8. Ending the game asks first; cancelled, nothing changes.
    panel(host).locator('button[data-act="end-game"]').click()
    expect(host.locator("#cs-confirm")).to_contain_text("End the game now?")
    host.locator('#cs-confirm button[data-act="confirm-no"]').click()
    expect(host.locator("#cs-confirm")).to_be_empty()
    panel(host).locator('button[data-act="end-game"]').click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    engine.add(0, "end_game")
    for seat in range(3):
        expect(panel(host).locator("h2")).to_contain_text(f"{NAMES[seat]}: which figure carries")
        host.keyboard.press("m")
        view = engine.add(seat, "choose_figure", figure="meeple")
    expect_scores(pages, view, tv)
    expect(panel(host).locator("h2")).to_have_text("Final scoring")
    # The final scoring sums whole categories: 24 for a field (all that 4 tiles can give) is
    # sent at once, 60 asks why it looks too many, and counts once confirmed...
    host.keyboard.type("24f")
    host.keyboard.press("Enter")
    view = engine.add(0, "score", points=24, category="field")
    expect_scores(pages, view, tv)
    host.keyboard.type("60f")
    host.keyboard.press("Enter")
    expect(host.locator("#cs-confirm")).to_contain_text(
        "Really 60 points for Ann? At most 4 tiles are on the table so far. Fields on them give"
        " at most 24 points (3 per completed city each field touches)."
    )
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    view = engine.add(0, "score", points=60, category="field")
    expect_scores(pages, view, tv)
    # ...and without a category, only more than three times the setting asks.
    host.keyboard.type("95")
    host.keyboard.press("Enter")
    expect(host.locator("#cs-confirm")).to_contain_text("Really 95 points for Ann?")
    host.keyboard.press("Escape")
    expect(panel(host).locator("#cs-points")).to_have_value("95")
    for page in (bob, cy):
        expect(panel(page).locator('button[data-act="finish"]')).to_have_count(0)
    panel(host).locator('button[data-act="finish"]').click()
    expect(host.locator("#cs-confirm")).to_contain_text("Finish: the results become final")
    expect(panel(cy).locator(".ranking")).to_have_count(0)
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    view = engine.add(0, "finish")
    expect(panel(cy).locator(".ranking")).to_be_visible()
    assert view["finished"]
    assert not watch.errors, watch.errors


class RefusingSocket(HeldSocket):
    """A held socket that can also answer the page's next command itself, with the refusal the
    server gives a command overtaken by the game (`stale`), instead of passing it on."""

    def __init__(self, page: Page) -> None:
        self.refuse_next = False
        super().__init__(page)

    def route(self, ws: Any) -> None:
        super().route(ws)

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if self.refuse_next and frame.get("type") == "command":
                self.refuse_next = False
                refusal = {"type": "error", "code": "stale", "id": frame.get("id")}
                answer = json.dumps(refusal | {"message": "The game moved on meanwhile."})
                if self.holding:
                    self.held.append(answer)
                else:
                    ws.send(answer)
            else:
                self.server.send(message)

        ws.on_message(from_page)


def four_at_a_c3_table(server: str, browser: Browser) -> tuple[Page, RefusingSocket]:
    """Ann's console (1366 x 768) at a 3rd edition table, with Cleo, Dan and Eve added by her."""
    host = browser.new_context(base_url=server, viewport={"width": 1366, "height": 768}).new_page()
    socket = RefusingSocket(host)
    from tests.browser_pages import create_table

    create_table(host, "Ann", preset="c3", seats=4, tabletop=True)
    for name, colour in [("Cleo", "orange"), ("Dan", "green"), ("Eve", "red")]:
        add = host.locator("#add-form")
        add.locator('input[name="name"]').fill(name)
        add.locator('select[name="colour"]').select_option(colour)
        add.get_by_role("button", name="Add").click()
        expect(host.locator("#lobby-seats .seat-name", has_text=name)).to_have_count(1)
    host.locator('#start-box button[data-act="start"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "0")
    expect(panel(host).locator('button[data-act="seat"]')).to_have_count(4)
    return host, socket


def test_keys_typed_while_an_entry_is_in_flight_count_as_typed(
    server: str, browser: Browser
) -> None:
    """Typing ahead: ↓ 4 M ↓ ↓ 3 M ↓ ↓ ↓ 2 M typed while the first entry is still unanswered
    gives what slow typing gives (Cleo 4, Dan 3, Eve 2), digits included; when the entry in
    flight is refused, the keys typed after it are dropped, and the page says so beside the
    draft it kept."""
    watch = ConsoleWatch()
    host, socket = four_at_a_c3_table(server, browser)
    watch.watch(host, "host")
    socket.holding = True
    for key in ["ArrowDown", "4", "m", "ArrowDown", "ArrowDown", "3", "m"]:
        host.keyboard.press(key)
    for key in ["ArrowDown", "ArrowDown", "ArrowDown", "2", "m"]:
        host.keyboard.press(key)
    socket.wait_for_held(host, "update")
    socket.release()
    expect(host.locator("#players .p-score")).to_have_text(["0", "4", "3", "2"])
    expect(host.locator("#players .p-sub")).to_have_text(
        [
            "Meeple 0 points (space 0) · Messenger 0 points (space 0)",
            "Meeple 4 points (space 4) · Messenger 0 points (space 0)",
            "Meeple 3 points (space 3) · Messenger 0 points (space 0)",
            "Meeple 2 points (space 2) · Messenger 0 points (space 0)",
        ]
    )

    # Refused: the entry comes back to the form, the keys typed after it are not applied.
    socket.refuse_next = True
    socket.holding = True
    for key in ["ArrowDown", "5", "m", "ArrowDown", "7", "m"]:
        host.keyboard.press(key)
    socket.wait_for_held(host, "error")
    socket.release()
    refused = host.locator("#cs-refused")
    expect(refused).to_contain_text("Not counted: the entry is back in the form.")
    expect(refused).to_contain_text("Keys typed after it were not applied: ArrowDown 7 m.")
    expect(host.locator("#panel #cs-points")).to_have_value("5")
    expect(host.locator("#players .p-score")).to_have_text(["0", "4", "3", "2"])
    assert not watch.errors, watch.errors


def test_a_shared_scoring_chooses_everyone_and_the_undo_bar_says_it_in_words(
    server: str, browser: Browser
) -> None:
    """The "Shared…" choice: the selected player starts in, marked, and can be taken out; the
    button names everyone who scores. The undo bar reads the server's line for the entry, not
    its type."""
    watch = ConsoleWatch()
    host, _ = four_at_a_c3_table(server, browser)
    watch.watch(host, "host")
    panel(host).locator('button[data-act="multi"]').click()
    ann = panel(host).locator('button[data-act="seat"]', has_text="Ann")
    expect(ann).to_have_attribute("aria-pressed", "true")
    expect(ann).to_contain_text("✓")
    ann.click()
    expect(ann).to_have_attribute("aria-pressed", "false")
    score = panel(host).locator('button[data-act="score"]')
    expect(score).to_have_text("Choose who scores")
    expect(score).to_be_disabled()
    for name in ("Cleo", "Dan"):
        panel(host).locator('button[data-act="seat"]', has_text=name).click()
    panel(host).locator('button[data-act="points"][data-n="4"]').click()
    host.keyboard.press("m")
    expect(score).to_have_text("Score 4 points each for Cleo and Dan")
    score.click()
    expect(host.locator("#players .p-score")).to_have_text(["0", "4", "4", "0"])
    # The server's first line for the entry (the shares' moves follow it in the log).
    said = "\u2068Cleo\u2069 and \u2068Dan\u2069 share 4 points"
    expect(host.locator("#log li", has_text=said)).to_have_count(1)
    expect(host.locator("#undo .hint")).to_have_text(f"Last entry: {said}")

    # An adjustment through the corrections: in words too.
    host.locator('#undo button[data-act="fix-open"]').click()
    expect(host.locator('#fix button[data-act="fix-pick"]')).to_have_count(1)
    host.locator('#fix [name="adj-seat"]').select_option(label="Dan")
    host.locator('#fix [name="adj-points"]').fill("-1")
    host.locator('#fix button[data-act="fix-adjust"]').click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(host.locator("#players .p-score")).to_have_text(["0", "4", "3", "0"])
    adjusted = {"type": "adjust", "seat": 2, "points": -1, "figure": "meeple"}
    said = entry_words(adjusted, ["Ann", "Cleo", "Dan", "Eve"])
    expect(host.locator("#undo .hint")).to_have_text(f"Last entry: {said}")

    # The end of a turn is told as such, not by the next turn's first line.
    host.keyboard.press("t")
    expect(host.locator("#undo .hint")).to_have_text("Last entry: \u2068Ann\u2069 ends the turn")
    assert not watch.errors, watch.errors


def test_points_beyond_what_the_tiles_on_the_table_can_give_are_asked_with_the_reason(
    server: str, browser: Browser
) -> None:
    """The console judges an entry with a category by what the tiles on the table can give
    (the server's `most_points`), not by one number: in turn 1 at most 2 tiles lie on the
    table, so 20 for a city asks, saying why; after the game ends there, 80 for a city in the
    final scoring asks as well (one number let anything up to 90 through), while 4 is sent at
    once."""
    watch = ConsoleWatch()
    host, _ = four_at_a_c3_table(server, browser)
    watch.watch(host, "host")
    confirm = host.locator("#cs-confirm")
    host.keyboard.type("20c")
    host.keyboard.press("m")
    expect(confirm).to_contain_text(
        "Really 20 points for Ann? At most 2 tiles are on the table so far. Completed cities"
        " on them give at most 8 points (2 per tile and 2 per coat of arms)."
    )
    host.keyboard.press("Escape")
    expect(confirm).to_be_empty()
    expect(host.locator("#players .p-score")).to_have_text(["0", "0", "0", "0"])

    panel(host).locator('button[data-act="end-game"]').click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(panel(host).locator("h2")).to_have_text("Final scoring")
    panel(host).locator("#cs-points").fill("80")
    panel(host).locator('button[data-act="category"][data-cat="city"]').click()
    panel(host).locator('button[data-act="score"]').click()
    expect(confirm).to_contain_text(
        "Really 80 points for Ann? At most 2 tiles are on the table so far. Unfinished cities"
        " on them give at most 4 points (1 per tile and 1 per coat of arms)."
    )
    host.locator('#cs-confirm button[data-act="confirm-no"]').click()
    expect(confirm).to_be_empty()
    panel(host).locator("#cs-points").fill("4")
    expect(panel(host).locator('button[data-cat="city"]')).to_have_attribute("aria-pressed", "true")
    panel(host).locator('button[data-act="score"]').click()
    expect(host.locator("#players .p-score")).to_have_text(["4", "0", "0", "0"])
    expect(confirm).to_be_empty()
    assert not watch.errors, watch.errors
