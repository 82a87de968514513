"""Seats in real browsers (Debian's Chromium through Playwright, against a real Daphne).

* The host reorders, renames and removes players and hands the host role on in the lobby, and
  the other pages follow live.
* A person plays a two-seat game against a computer player added from the lobby.
* A player's page goes away while it is their turn; the other page offers to let the computer
  play for them, the computer plays, and the player comes back and takes the seat back.

Computers pause briefly (MESSENGERS_COMPUTER_PAUSE_MS) and a seat counts as absent after two
seconds here (MESSENGERS_ABSENT_AFTER_SECONDS), so that the test runs quickly; the assertions
wait for what the pages show, never for a time.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests import servers
from tests.browser_pages import create_table, join
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services


DATABASE: list[Path] = []
"""The server's SQLite file, for the one check a page cannot show (the host's setting)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("browser-seats") / "db.sqlite3"
    DATABASE[:] = [database]
    env = servers.project_env(
        DATABASE_URL=f"sqlite:///{database}",
        MESSENGERS_COMPUTER_PAUSE_MS="200",
        MESSENGERS_ABSENT_AFTER_MIN_SECONDS="1",
        MESSENGERS_ABSENT_AFTER_SECONDS="2",
    )
    servers.migrate(env)
    with servers.daphne_server(env) as url:
        yield url


def person(browser: Browser, server: str, errors: list[str], who: str) -> BrowserContext:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    context.on(
        "page",
        lambda page: page.on("pageerror", lambda error: errors.append(f"{who}: {error}")),
    )
    return context


def lobby_names(page: Page) -> list[str]:
    return [
        re.split(r" \(you\)| host", text)[0]
        for text in page.locator("#lobby-seats .seat-name").all_inner_texts()
    ]


def test_the_host_arranges_the_lobby_and_every_page_follows(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = person(browser, server, errors, "Ann").new_page()
    code = create_table(ann, "Ann", seats=3)
    bob = person(browser, server, errors, "Bob").new_page()
    join(bob, code, "Bob", "Orange")
    cy = person(browser, server, errors, "Cy").new_page()
    join(cy, code, "Cy", "Green")
    expect(bob.locator("#lobby-seats .seat-name")).to_have_count(3)
    # Every seat taken: the host is told to start when ready, not to wait for the others; each
    # row has the host's controls on a line of their own below the name, the host's row too.
    full = "Every seat is taken: start when you are ready."
    expect(ann.locator("#start-box .hint")).to_have_text(full)
    expect(ann.locator("#lobby-seats .seat-controls")).to_have_count(3)
    for row in ann.locator("#lobby-seats li").all():
        name = row.locator(".seat-name").bounding_box()
        controls = row.locator(".seat-controls").bounding_box()
        assert name and controls and controls["y"] >= name["y"] + name["height"], row.inner_text()

    ann.get_by_role("button", name="Move \u2068Cy\u2069 up").click()
    expect(bob.locator("#lobby-seats .seat-name")).to_have_text(["Ann host", "Cy", "Bob (you)"])
    ann.get_by_role("button", name="\u2068Bob\u2069 starts").click()
    expect(cy.locator("#lobby-seats .seat-name")).to_have_text(["Bob", "Ann host", "Cy (you)"])

    row = ann.locator('#lobby-seats li[data-seat-row="0"]')
    row.locator("details.rename summary").click()
    row.get_by_label("New name for \u2068Bob\u2069").fill("Bobby")
    row.get_by_role("button", name="Save").click()
    expect(bob.locator("#lobby-seats .seat-name").first).to_have_text("Bobby (you)")

    ann.get_by_role("button", name="Remove \u2068Cy\u2069").click()
    expect(cy.locator(".tp-me")).to_have_text("Watching")
    expect(bob.locator("#lobby-seats .seat-name")).to_have_text(
        ["Bobby (you)", "Ann host", "waiting…"]
    )
    joined = "2 players are in. Start when everyone has joined."
    expect(ann.locator("#start-box .hint")).to_have_text(joined)

    ann.get_by_role("button", name="Make \u2068Bobby\u2069 the host").click()
    expect(bob.locator('#start-box button[data-act="start"]')).to_be_enabled()
    expect(ann.locator('#start-box button[data-act="start"]')).to_have_count(0)
    expect(ann.locator("#lobby-seats .seat-name")).to_have_text(
        ["Bobby host", "Ann (you)", "waiting…"]
    )
    bob.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#table-page")).to_have_attribute("data-status", "playing")
    assert errors == []


FOLLOW_UPS = ", ".join(f'#dock button[data-act="{act}"]' for act in ("skip", "figure", "message"))
"""The decisions after a tile placement in the same turn."""


def take_my_turn(page: Page) -> None:
    """Make the decision the page waits for, the simplest way: the first highlighted cell,
    no follower, the first figure, 2 points for a message."""
    version = page.locator("#table-page").get_attribute("data-version")
    dock = page.locator("#dock")
    skip = dock.locator('button[data-act="skip"]')
    figure = dock.locator('button[data-act="figure"]')
    message = dock.locator('button[data-act="message"]', has_text="Take 2 points")
    if skip.count():
        skip.click()
    elif figure.count():
        figure.first.click()
    elif message.count():
        message.click()
    else:
        cell = page.locator("#board .layer-cells rect.cell").first
        expect(cell).to_have_count(1)
        page.locator('.board-tools [data-act="centre"]').click()
        cell.click()
        page.keyboard.press("Enter")
    expect(page.locator("#table-page")).not_to_have_attribute("data-version", version or "")


def test_a_person_plays_against_a_computer(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = person(browser, server, errors, "Ann").new_page()
    create_table(ann, "Ann", seats=2)
    ann.get_by_role("button", name="Add easy computer").click()
    expect(ann.locator("#lobby-seats .seat-name")).to_have_text(
        ["Ann (you) host", "Ada computer · easy"]
    )
    ann.locator('#start-box button[data-act="start"]').click()
    expect(ann.locator("#table-page")).to_have_attribute("data-status", "playing")
    log = ann.locator("#log")
    placed = 0
    while placed < 3:
        expect(ann).to_have_title(re.compile(r"^● "))  # Ann's turn again: the computer moved
        placing = ann.locator("#board .layer-cells rect.cell").count() > 0
        take_my_turn(ann)
        placed += placing
    expect(log).to_contain_text(re.compile(r"Ada \(computer\)\u2069? places tile"))
    expect(log).not_to_contain_text("Ann (computer)")
    assert errors == []


def test_an_absent_player_is_replaced_by_the_computer_and_takes_the_seat_back(
    browser: Browser, server: str
) -> None:
    errors: list[str] = []
    ann = person(browser, server, errors, "Ann").new_page()
    code = create_table(ann, "Ann", seats=2)
    bob_context = person(browser, server, errors, "Bob")
    bob = bob_context.new_page()
    join(bob, code, "Bob", "Orange")
    ann.get_by_role("button", name="\u2068Bob\u2069 starts").click()
    expect(bob.locator("#lobby-seats .seat-name")).to_have_text(["Bob (you)", "Ann host"])
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob).to_have_title(re.compile(r"^● "))
    bob.close()  # Bob's phone is gone while it is his turn

    offer = ann.locator("#absent-offer .absent-offer")
    expect(offer).to_contain_text("Bob has been away")
    offer.get_by_role("button", name="Let the computer play for Bob").click()
    expect(ann.locator("#log")).to_contain_text(re.compile(r"Bob \(computer\)\u2069? places tile"))
    expect(ann).to_have_title(re.compile(r"^● "))  # the computer finished Bob's turn
    expect(offer).to_have_count(0)

    bob = bob_context.new_page()
    bob.goto(f"/t/{code}")
    back = bob.get_by_role("button", name="Take back")
    expect(bob.locator("#absent-offer .stand-in-notice")).to_contain_text(
        "The computer is playing for you."
    )
    back.click()
    expect(back).to_have_count(0)
    expect(
        ann.locator(".p-seat-tools").get_by_role("button", name="Give back to Bob")
    ).to_have_count(0)
    # Ann plays; then it is Bob's own turn again, and nobody plays it for him.
    expect(ann).to_have_title(re.compile(r"^● "))
    take_my_turn(ann)
    while ann.locator(FOLLOW_UPS).count():
        take_my_turn(ann)
    expect(bob).to_have_title(re.compile(r"^● "))
    assert errors == []


def test_a_player_leaves_and_the_host_admits_someone_new(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = person(browser, server, errors, "Ann").new_page()
    code = create_table(ann, "Ann", seats=2)
    bob = person(browser, server, errors, "Bob").new_page()
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob.locator("#table-page")).to_have_attribute("data-status", "playing")

    # The host sets how long a player may be away before a computer is offered.
    setting = ann.locator("#my-links form.absent-after")
    setting.get_by_label("Seconds away before a computer is offered").fill("30")
    setting.get_by_role("button", name="Set").click()
    expect(setting.locator("input")).to_have_value("30")
    with sqlite3.connect(DATABASE[0]) as db:
        for _ in range(100):  # the frame is on its way; the page shows no more than it sent
            row = db.execute("select absent_after from game_table where code = ?", (code,))
            if row.fetchone()[0] == 30:
                break
            ann.wait_for_timeout(50)
        else:
            raise AssertionError("absent_after was not set")

    # Bob leaves: his page watches, his seat waits for someone new.
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.locator("#my-links details.leave summary").click()
    bob.get_by_role("button", name="Leave my seat").click()
    expect(bob.locator(".tp-me")).to_have_text("Watching")
    bob_row = ann.locator("#players li", has_text="Bob")
    admit = bob_row.locator("details.seat-link")
    expect(admit.locator("summary")).to_have_text("Admit someone")
    admit.locator("summary").click()
    first_link = admit.locator("input").input_value()
    admit.get_by_role("button", name="New link (the old one stops working)").click()
    expect(admit.locator("input")).not_to_have_value(first_link)
    link = admit.locator("input").input_value()

    # Dan opens the new link and plays Bob's seat; the old link opens nothing.
    dans = person(browser, server, errors, "Dan")
    old = dans.new_page()
    old.goto(first_link)
    expect(old.locator(".form-error")).to_contain_text("not valid")
    dan = dans.new_page()  # a new page: the links differ only in their fragments
    dan.goto(link)
    expect(dan.locator("#players li.me")).to_contain_text("Bob")
    expect(bob_row.locator("details.seat-link summary")).to_have_text("Seat link")
    assert errors == []


def test_a_tabletop_host_keeps_the_score_without_playing(browser: Browser, server: str) -> None:
    errors: list[str] = []
    host = person(browser, server, errors, "Ann").new_page()
    host.goto("/")
    host.locator("label.card", has_text="2nd edition (2017, Big Box 6)").click()
    host.locator("label.card", has_text="At the table").click()
    host.locator(".segmented label", has_text=re.compile(r"^\s*3\s*$")).click()
    host.locator("#name").fill("Ann")
    host.locator("label.swatch", has_text="Blue").click()
    host.get_by_role("button", name="Create the table").click()
    expect(host.locator("#conn")).to_have_text("Live")
    for name, colour in (("Bob", "orange"), ("Cy", "green")):
        add = host.locator("#add-form")
        add.locator('input[name="name"]').fill(name)
        add.locator('select[name="colour"]').select_option(colour)
        add.get_by_role("button", name="Add").click()
        expect(host.locator("#lobby-seats .seat-name", has_text=name)).to_have_count(1)
    host.get_by_role("button", name="Keep the score without playing").click()
    expect(host.locator("#lobby-seats .seat-name")).to_have_text(["Bob", "Cy", "waiting…"])
    expect(host.locator(".tp-me")).to_have_text("Host")
    host.locator('#start-box button[data-act="start"]').click()
    expect(host.locator(".cs-panel")).to_be_visible()
    expect(host.locator(".tp-me")).to_have_text("Host console")
    version = host.locator("#table-page").get_attribute("data-version")
    host.locator('.cs-panel button[data-act="end-turn"]').click()
    expect(host.locator("#table-page")).not_to_have_attribute("data-version", version or "")
    expect(host.locator("#players li.active")).to_contain_text("Cy")
    assert errors == []
