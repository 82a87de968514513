"""Shared scorings and corrections on the tabletop console, in Chromium against a real Daphne: a
shared scoring is one entry with a figure per player (from the host's laptop and from a phone
whose seat shares it), and the host corrects earlier entries through the page: a past 66 becomes
6 after the preview shown, a deletion's preview names the message resolution that no longer
applies, a figure is adjusted by -3. The phone never sees the correction controls. After every
step the pages show the scores the engine gives for the same decisions (docs/protocol.md,
"Tabletop entries" and "Corrections")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine.record import replay
from tests import servers
from tests.browser.test_browser import ConsoleWatch, screenshot
from tests.browser_pages import create_table, join

pytestmark = pytest.mark.services

NAMES = ["Ann", "Bob"]
MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("corrections")
    with servers.sqlite_daphne(folder, messages=MESSAGES) as url:
        yield url


class Engine:
    """The same decisions applied by the engine: what every page must show."""

    def __init__(self, preset: str = "c2-hig") -> None:
        self.preset = preset
        self.actions: list[dict[str, Any]] = []

    def add(self, seat: int, kind: str, **keys: Any) -> dict[str, Any]:
        self.actions.append({"seat": seat, "type": kind, **keys})
        return self.view()

    def view(self) -> dict[str, Any]:
        from game.engine.views import view

        record = {
            "format": "carcassonne-messengers/1",
            "mode": "tabletop",
            "players": NAMES,
            "preset": self.preset,
            "messages": MESSAGES,
            "actions": self.actions,
        }
        return view(replay(record).state)


def shows(pages: list[Page], view: dict[str, Any]) -> None:
    """Every page holds the engine's version and shows its totals and figures."""
    scores = [str(p["score"]) for p in view["players"]]

    def figure(name: str, points: int, space: int) -> str:
        return f"{name} {points} point{'' if points == 1 else 's'} (space {space})"

    figures = [
        f"{figure('Meeple', p['meeple'], p['meeple_space'])} · "
        f"{figure('Messenger', p['messenger'], p['messenger_space'])}"
        for p in view["players"]
    ]
    for page in pages:
        expect(page.locator("#table-page")).to_have_attribute("data-version", str(view["version"]))
        expect(page.locator("#players .p-score")).to_have_text(scores)
        expect(page.locator("#players .p-sub")).to_have_text(figures)


def test_shared_scorings_and_the_hosts_corrections(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    host = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900}).new_page()
    watch.watch(host, "host")
    code = create_table(host, "Ann", seats=2, tabletop=True)
    bob = browser.new_context(
        base_url=server, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    ).new_page()
    watch.watch(bob, "Bob")
    join(bob, code, "Bob", "Orange")
    host.locator('#start-box button[data-act="start"]').click()
    pages = [host, bob]
    for page in pages:
        expect(page.locator(".cs-panel")).to_be_visible()
    engine = Engine()
    panel = host.locator("#panel")
    phone = bob.locator("#panel")
    fix = host.locator("#fix")

    # A city shared by Ann and Bob, 4 each: Ann's on her meeple, Bob's on his messenger, one
    # entry (one new version), counted once for each.
    panel.locator('button[data-act="multi"]').click()
    panel.locator('button[data-act="seat"]', has_text="Bob").click()
    panel.locator('button[data-act="points"][data-n="4"]').click()
    panel.locator('button[data-act="category"][data-cat="city"]').click()
    panel.locator('button[data-act="share-figure"][data-seat="0"][data-figure="meeple"]').click()
    messenger = panel.locator(
        'button[data-act="share-figure"][data-seat="1"][data-figure="messenger"]'
    )
    expect(messenger).to_contain_text("0 → 4")
    messenger.click()
    score = panel.locator('button[data-act="score"]')
    expect(score).to_have_text("Score 4 points each for Ann and Bob")
    screenshot(host, "console-shared.png")
    score.click()
    shares = [{"seat": 0, "figure": "meeple"}, {"seat": 1, "figure": "messenger"}]
    view = engine.add(0, "score_shared", points=4, category="city", shares=shares)
    assert view["version"] == 1
    shows(pages, view)
    assert [(p["meeple"], p["messenger"]) for p in view["players"]] == [(4, 0), (0, 4)]

    # Bob's phone enters a road he shares with Ann: his own seat stays in it, Ann is added.
    expect(phone.locator('button[data-act="seat"]')).to_have_count(1)
    phone.locator('button[data-act="multi"]').tap()
    phone.locator('button[data-act="seat"]', has_text="Ann").tap()
    phone.locator('button[data-act="seat"]', has_text="Bob").tap()  # his own: stays chosen
    expect(phone.locator('button[data-act="seat"][aria-pressed="true"]')).to_have_count(2)
    phone.locator('button[data-act="points"][data-n="2"]').tap()
    phone.locator('button[data-act="share-figure"][data-seat="1"][data-figure="messenger"]').tap()
    # Ann chooses her own figure: the phone offers none for her share.
    expect(phone.locator('button[data-act="share-figure"][data-seat="0"]')).to_have_count(0)
    expect(phone.locator(".cs-share").last).to_contain_text("chooses their own figure")
    phone.locator('button[data-act="score"]').tap()
    shares = [{"seat": 1, "figure": "messenger"}, {"seat": 0}]
    engine.add(1, "score_shared", points=2, shares=shares)
    host.locator('#panel button[data-act="figure"][data-figure="meeple"]').click()
    view = engine.add(0, "choose_figure", figure="meeple")
    shows(pages, view)

    # A typo: 66 for Ann's city (confirmed), then Bob's 3 on his meeple.
    panel.locator("#cs-points").fill("66")
    panel.locator('button[data-act="category"][data-cat="city"]').click()
    panel.locator('button[data-act="score"][data-figure="meeple"]').click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    typo = len(engine.actions)
    engine.add(0, "score", points=66, figure="meeple", category="city")
    phone.locator('button[data-act="points"][data-n="3"]').tap()
    phone.locator('button[data-act="score"][data-figure="meeple"]').tap()
    view = engine.add(1, "score", points=3, figure="meeple")
    shows(pages, view)

    # The phone has no correction controls.
    expect(bob.locator('[data-act="fix-open"]')).to_have_count(0)
    expect(bob.locator("#fix")).to_be_empty()

    # The host corrects the 66 to 6: the list of entries, the form, the preview, then confirm.
    host.locator('#undo button[data-act="fix-open"]').click()
    # The newest entry first, focused: the keyboard goes on from there.
    expect(fix.locator('button[data-act="fix-pick"]').first).to_be_focused()
    entry = fix.locator(f'button[data-act="fix-pick"][data-entry="{typo}"]')
    expect(entry).to_contain_text("66 points (city, meeple)")
    expect(fix.locator('button[data-act="fix-pick"]')).to_have_count(4)
    entry.click()
    points = fix.locator('input[name="points"]')
    expect(points).to_be_focused()
    expect(points).to_have_value("66")
    points.fill("6")
    host.keyboard.press("Tab")
    fix.locator('button[data-act="fix-preview"]').click()
    expect(fix.locator(".fix-lines")).to_contain_text("66 points (city, meeple) to 6")
    expect(fix.locator(".fix-scores")).to_contain_text("72 → 12")
    expect(fix).to_contain_text("Every later entry still applies.")
    screenshot(host, "console-correction-preview.png")
    # Nothing has changed yet.
    shows(pages, view)
    fix.locator('button[data-act="fix-confirm"]').click()
    replacement = {"seat": 0, "type": "score", "points": 6, "figure": "meeple", "category": "city"}
    view = engine.add(0, "correct", entry=typo, replacement=replacement)
    shows(pages, view)
    expect(fix).to_be_empty()
    for page in pages:
        expect(page.locator("#log")).to_contain_text("66 points (city, meeple) to 6")
    assert view["players"][0]["meeple"] == 12

    # A signed adjustment: -3 on Ann's meeple, asked in words first; the keyboard works it.
    host.locator('#undo button[data-act="fix-open"]').click()
    fix.locator('select[name="adj-seat"]').select_option("0")
    fix.locator('select[name="adj-figure"]').select_option("meeple")
    fix.locator('input[name="adj-points"]').fill("-3")
    fix.locator('button[data-act="fix-adjust"]').click()
    expect(host.locator("#cs-confirm")).to_contain_text("−3 on Ann's meeple (12 → 9)?")
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    view = engine.add(0, "adjust", points=-3, figure="meeple")
    shows(pages, view)

    # Ann's 6 puts her meeple on 15, a dark space: ending her turn draws message 1, whose road
    # is counted at the table (4 points, on her messenger).
    panel.locator('button[data-act="points"][data-n="6"]').click()
    panel.locator('button[data-act="score"][data-figure="meeple"]').click()
    six = len(engine.actions)
    engine.add(0, "score", points=6, figure="meeple")
    panel.locator('button[data-act="end-turn"]').click()
    view = engine.add(0, "end_turn")
    assert view["revealed"]["message"] == 1
    expect(panel.locator(".msg-num")).to_have_text("1")
    panel.locator("#cs-points").fill("4")
    panel.locator('button[data-act="message"][data-choice="action"]').click()
    engine.add(0, "resolve_message", choice="action", points=4)
    panel.locator('button[data-act="figure"][data-figure="messenger"]').click()
    view = engine.add(0, "choose_figure", figure="messenger")
    shows(pages, view)

    # Deleting the 6: the preview says the message's resolution no longer applies; Escape
    # steps back without sending anything; confirmed, the scoreboard follows.
    host.locator('#undo button[data-act="fix-open"]').click()
    fix.locator(f'button[data-act="fix-pick"][data-entry="{six}"]').click()
    fix.locator('button[data-act="fix-delete"]').click()
    lapsed = fix.locator(".fix-lapsed")
    expect(lapsed).to_contain_text("No longer applies")
    expect(lapsed).to_contain_text("message 1")
    expect(fix.locator('button[data-act="fix-back"]')).to_be_focused()
    screenshot(host, "console-deletion-preview.png")
    # On a phone-sized screen the corrections fit its width.
    host.set_viewport_size({"width": 390, "height": 844})
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    fix.scroll_into_view_if_needed()
    screenshot(host, "console-correction-phone.png")
    host.set_viewport_size({"width": 1280, "height": 900})
    host.keyboard.press("Escape")
    expect(fix.locator('button[data-act="fix-delete"]')).to_be_visible()
    shows(pages, view)
    fix.locator('button[data-act="fix-delete"]').click()
    fix.locator('button[data-act="fix-confirm"]').click()
    view = engine.add(0, "correct", entry=six, replacement=None)
    shows(pages, view)
    assert (view["players"][0]["meeple"], view["players"][0]["messenger"]) == (9, 0)
    expect(host.locator("#log")).to_contain_text("No longer applies")
    expect(bob.locator("#log")).to_contain_text("No longer applies")
    assert not watch.errors, watch.errors


def test_a_shared_scoring_shows_the_figure_fixed_for_the_turn(
    server: str, browser: Browser
) -> None:
    """rules/messengers.md §3, figure_choice = per_turn (c3): once Ann's points of the turn went on
    her meeple, her share of a shared scoring shows the meeple fixed (the messenger is not offered)
    while Bob, not yet fixed, chooses his; the one entry fixes his figure for the turn too."""
    watch = ConsoleWatch()
    host = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900}).new_page()
    watch.watch(host, "host")
    code = create_table(host, "Ann", preset="c3", seats=2, tabletop=True)
    bob = browser.new_context(base_url=server).new_page()
    join(bob, code, "Bob", "Orange")
    host.locator('#start-box button[data-act="start"]').click()
    panel = host.locator("#panel")
    engine = Engine("c3")
    panel.locator('button[data-act="points"][data-n="3"]').click()
    panel.locator('button[data-act="score"][data-figure="meeple"]').click()
    view = engine.add(0, "score", points=3, figure="meeple")
    shows([host, bob], view)
    assert view["players"][0]["turn_figure"] == "meeple"
    panel.locator('button[data-act="multi"]').click()
    panel.locator('button[data-act="seat"]', has_text="Bob").click()
    panel.locator('button[data-act="points"][data-n="2"]').click()
    ann = panel.locator('.cs-share:has(button[data-seat="0"])')
    expect(ann).to_contain_text("fixed this turn")
    expect(ann.locator('button[data-figure="meeple"]')).to_have_attribute("aria-pressed", "true")
    expect(ann.locator('button[data-figure="messenger"]')).to_be_disabled()
    expect(panel.locator('.cs-share:has(button[data-seat="1"])')).to_contain_text("asked after")
    host.keyboard.press("e")  # every share free to move it: Bob's
    expect(ann.locator('button[data-figure="meeple"]')).to_have_attribute("aria-pressed", "true")
    panel.locator('button[data-act="score"]').click()
    shares = [{"seat": 0, "figure": "meeple"}, {"seat": 1, "figure": "messenger"}]
    view = engine.add(0, "score_shared", points=2, shares=shares)
    shows([host, bob], view)
    assert view["players"][1]["turn_figure"] == "messenger"
    assert not watch.errors, watch.errors


def test_a_forgotten_entry_is_added_at_its_turn_and_draws_its_message(
    server: str, browser: Browser
) -> None:
    """Ann's 15 for a road was forgotten in turn 1, and Bob's turn 2 has ended: the host adds
    it "at turn 1" through the corrections, sees the preview (Ann's meeple 0 → 15, Bob's end of
    turn no longer applies), and once confirmed message 1, which the 15 (a dark space) draws
    at the end of turn 1, waits for Ann: an adjustment would have drawn none."""
    watch = ConsoleWatch()
    host = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900}).new_page()
    watch.watch(host, "host")
    create_table(host, "Ann", seats=2, tabletop=True)
    add = host.locator("#add-form")
    add.locator('input[name="name"]').fill("Bob")
    add.locator('select[name="colour"]').select_option("orange")
    add.get_by_role("button", name="Add").click()
    expect(host.locator("#lobby-seats .seat-name", has_text="Bob")).to_have_count(1)
    host.locator('#start-box button[data-act="start"]').click()
    engine = Engine()
    panel = host.locator("#panel")
    fix = host.locator("#fix")
    for seat in (0, 1):
        end = panel.locator('button[data-act="end-turn"]')
        expect(end).to_be_enabled()
        end.click()
        view = engine.add(seat, "end_turn")
        shows([host], view)

    host.locator('#undo button[data-act="fix-open"]').click()
    turn = fix.locator('select[name="add-turn"]')
    expect(turn.locator("option")).to_have_text(["Turn 2", "Turn 1"])
    turn.select_option(label="Turn 1")
    fix.locator('button[data-act="fix-add"]').click()
    expect(fix.locator(".fix-what")).to_have_text("A forgotten entry in turn 1")
    fix.locator('select[name="seat"]').select_option("0")
    fix.locator('input[name="points"]').fill("15")
    fix.locator('select[name="figure"]').select_option("meeple")
    fix.locator('select[name="category"]').select_option("road")
    expect(fix.locator('button[data-act="fix-delete"]')).to_have_count(0)
    # "Show what changes" by Enter: the focus goes to Cancel, so that a second Enter confirms
    # nothing; it steps back to the form, the game unchanged.
    show = fix.locator('button[data-act="fix-preview"]')
    show.focus()
    host.keyboard.press("Enter")
    expect(fix.locator(".fix-lines li")).to_have_count(2)
    expect(fix.locator('button[data-act="fix-back"]')).to_be_focused()
    expect(fix.locator('button[data-act="fix-confirm"]')).not_to_be_focused()
    host.keyboard.press("Enter")
    expect(show).to_be_visible()
    shows([host], view)
    show.click()
    lines = fix.locator(".fix-lines li")
    expect(lines).to_have_text(
        [
            "Host adds \u2068Ann\u2069's 15 points (road, meeple), forgotten in turn 1",
            "\u2068Ann\u2069 draws the next message of the stack",
        ]
    )
    expect(fix.locator(".fix-scores")).to_contain_text("0 → 15")
    expect(fix.locator(".fix-lapsed")).to_contain_text("No longer applies")
    shows([host], view)  # nothing has changed yet
    fix.locator('button[data-act="fix-confirm"]').click()
    forgotten = {"seat": 0, "type": "score", "points": 15, "figure": "meeple", "category": "road"}
    view = engine.add(0, "correct", entry=0, replacement=forgotten, insert=True)
    assert view["revealed"]["message"] == 1
    shows([host], view)
    expect(panel.locator(".msg-num")).to_have_text("1")
    expect(host.locator("#log")).to_contain_text("forgotten in turn 1")
    assert not watch.errors, watch.errors


def test_enter_on_a_points_key_of_a_message_action_keeps_the_focus(
    server: str, browser: Browser
) -> None:
    """Message 1 drawn by Ann asks for points counted at the table: Enter on its points key 7
    chooses 7 and leaves the focus on that key (the form is drawn again), not on the page."""
    from tests.browser.test_browser_console_server_words import score, tabletop_console

    watch = ConsoleWatch()
    host, _ = tabletop_console(server, browser, "c2-hig")
    watch.watch(host, "host")
    panel = host.locator("#panel")
    score(host, "Ann", 5, "meeple")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    panel.locator('button[data-act="end-turn"]').click()
    expect(panel.locator(".msg-num")).to_have_text("1")
    seven = panel.locator('button[data-act="points"][data-n="7"]')
    seven.focus()
    host.keyboard.press("Enter")
    expect(panel.locator('button[data-act="message"][data-choice="action"]')).to_contain_text("7")
    expect(seven).to_be_focused()


def test_a_correction_to_a_players_entry_is_told_on_their_phone(
    server: str, browser: Browser
) -> None:
    """The host corrects Bob's 3 to 5: Bob's phone, in German, says so with the log's line; Ann's
    console (she made the correction) shows no such notice."""
    from django.utils import translation

    from game.words.narration import narrate
    from tests.browser.test_browser_three_languages import join_by_fields

    watch = ConsoleWatch()
    host = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900}).new_page()
    watch.watch(host, "host")
    code = create_table(host, "Ann", seats=2, tabletop=True)
    bob = browser.new_context(
        base_url=server,
        locale="de-DE",
        viewport={"width": 390, "height": 664},
        is_mobile=True,
        has_touch=True,
    ).new_page()
    watch.watch(bob, "Bob")
    join_by_fields(bob, code, "Bob", "orange", touch=True)
    host.locator('#start-box button[data-act="start"]').click()
    phone = bob.locator("#panel")
    expect(phone.locator('button[data-act="points"][data-n="3"]')).to_be_visible()
    phone.locator('button[data-act="points"][data-n="3"]').tap()
    phone.locator('button[data-act="score"][data-figure="meeple"]').tap()
    engine = Engine()
    view = engine.add(1, "score", points=3, figure="meeple")
    shows([host], view)

    fix = host.locator("#fix")
    host.locator('#undo button[data-act="fix-open"]').click()
    fix.locator('button[data-act="fix-pick"][data-entry="0"]').click()
    fix.locator('input[name="points"]').fill("5")
    fix.locator('button[data-act="fix-preview"]').click()
    fix.locator('button[data-act="fix-confirm"]').click()
    replacement = {"seat": 1, "type": "score", "points": 5, "figure": "meeple"}
    engine.add(0, "correct", entry=0, replacement=replacement)
    game = replay(
        {
            "format": "carcassonne-messengers/1",
            "mode": "tabletop",
            "players": NAMES,
            "preset": "c2-hig",
            "messages": MESSAGES,
            "actions": engine.actions,
        }
    )
    with translation.override("de"):
        line = next(
            line["text"]
            for line in narrate(game.events, NAMES, game.state.options)
            if line["kind"] == "corrected"
        )
    assert line.startswith("Der Gastgeber korrigiert ")
    told = f"Der Gastgeber hat deinen Eintrag korrigiert: {line}"
    expect(bob.locator("#toasts .toast")).to_have_text([told])
    expect(bob.locator("#log")).to_contain_text(line)
    expect(host.locator("#players .p-score")).to_have_text(["0", "5"])
    expect(host.locator("#toasts .toast")).to_have_count(0)
    assert not watch.errors, watch.errors
