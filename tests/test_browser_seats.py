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
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests import servers
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("browser-seats") / "db.sqlite3"
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


def create(page: Page, name: str, seats: int) -> str:
    page.goto("/")
    page.locator("label.card", has_text="2nd edition (2017, Big Box 6)").click()
    page.locator(".segmented label", has_text=re.compile(rf"^\s*{seats}\s*$")).click()
    page.locator("#name").fill(name)
    page.locator("label.swatch", has_text="Blue").click()
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    expect(page.locator("#conn")).to_have_text("Live")
    return page.url.rsplit("/", 1)[1]


def join(page: Page, code: str, name: str, colour: str) -> None:
    page.goto(f"/t/{code}")
    form = page.locator("#join-form")
    form.locator('input[name="name"]').fill(name)
    form.locator("label.colour-opt", has_text=colour).click()
    form.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#conn")).to_have_text("Live")


def lobby_names(page: Page) -> list[str]:
    return [
        re.split(r" \(you\)| host", text)[0]
        for text in page.locator("#lobby-seats .seat-name").all_inner_texts()
    ]


def test_the_host_arranges_the_lobby_and_every_page_follows(browser: Browser, server: str) -> None:
    errors: list[str] = []
    ann = person(browser, server, errors, "Ann").new_page()
    code = create(ann, "Ann", 3)
    bob = person(browser, server, errors, "Bob").new_page()
    join(bob, code, "Bob", "Orange")
    cy = person(browser, server, errors, "Cy").new_page()
    join(cy, code, "Cy", "Green")
    expect(bob.locator("#lobby-seats .seat-name")).to_have_count(3)

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
    create(ann, "Ann", 2)
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
    code = create(ann, "Ann", 2)
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
    expect(bob.locator(".stand-in")).to_contain_text("The computer is playing for you.")
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
