"""A player whose page goes away during a board game, in Chromium against a real Daphne.

* While the seat to move has no connection, every other page (players, the host, a spectator)
  says in how many seconds a computer can be offered for it, counted down from the server's
  ``offer_in``; the host's page offers "Let the computer play now" right there, above the board.
* The player comes back on a phone while the computer plays for them: "The computer is playing
  for you" and "Take back" are on the first screen, not below the board.

A seat counts as absent after ten minutes here (MESSENGERS_ABSENT_AFTER_SECONDS), so that the
countdown is still running whatever the machine's speed; the assertions wait for what the pages
show, never for a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests import servers
from tests.browser_pages import create_table, join
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services

ABSENT_AFTER = 600
COUNTDOWN = re.compile(
    r"Bob\u2069?\s+has no connection\. A computer can be offered for them in (\d+) seconds\."
)

BELOW_STATUS = """() => {
    const bar = document.querySelector("#status-bar").getBoundingClientRect();
    const notice = document.querySelector("#absent-offer > *").getBoundingClientRect();
    return bar.height > 0 && notice.top >= bar.bottom;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("browser-away") / "db.sqlite3"
    env = servers.project_env(
        DATABASE_URL=f"sqlite:///{database}",
        MESSENGERS_COMPUTER_PAUSE_MS="200",
        MESSENGERS_ABSENT_AFTER_SECONDS=str(ABSENT_AFTER),
    )
    servers.migrate(env)
    with servers.daphne_server(env) as url:
        yield url


def person(
    browser: Browser, server: str, errors: list[str], who: str, *, phone: bool = False
) -> BrowserContext:
    size = {"width": 390, "height": 664} if phone else {"width": 1280, "height": 900}
    context = browser.new_context(base_url=server, viewport=size, has_touch=phone, is_mobile=phone)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    context.on(
        "page",
        lambda page: page.on("pageerror", lambda error: errors.append(f"{who}: {error}")),
    )
    return context


def test_every_page_counts_down_to_the_offer_and_the_host_hands_over_at_once(
    browser: Browser, server: str
) -> None:
    errors: list[str] = []
    ann = person(browser, server, errors, "Ann").new_page()
    code = create_table(ann, "Ann", seats=3)
    bob_context = person(browser, server, errors, "Bob", phone=True)
    bob = bob_context.new_page()
    join(bob, code, "Bob", "Orange")
    cy = person(browser, server, errors, "Cy").new_page()
    join(cy, code, "Cy", "Green")
    ann.get_by_role("button", name="\u2068Bob\u2069 starts").click()
    expect(bob.locator("#lobby-seats .seat-name").first).to_have_text("Bob (you)")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob).to_have_title(re.compile(r"^● "))
    watcher = person(browser, server, errors, "Dee").new_page()
    watcher.goto(f"/t/{code}")
    expect(watcher.locator("#table-page")).to_have_attribute("data-status", "playing")
    bob.close()  # Bob's phone is gone while it is his turn

    for page in (ann, cy, watcher):
        notice = page.locator("#absent-offer .absent-wait")
        expect(notice).to_contain_text(COUNTDOWN)
        match = COUNTDOWN.search(notice.inner_text())
        assert match and 0 < int(match[1]) <= ABSENT_AFTER, notice.inner_text()
    # Only the host may hand the seat over before the offer opens.
    expect(cy.locator("#absent-offer button")).to_have_count(0)
    expect(watcher.locator("#absent-offer button")).to_have_count(0)
    now = ann.locator("#absent-offer").get_by_role("button", name="Let the computer play now")
    now.click()
    expect(ann.locator("#log")).to_contain_text(re.compile(r"Bob \(computer\)\u2069? places tile"))
    expect(cy.locator("#absent-offer .absent-wait")).to_have_count(0)

    assert errors == []


def test_the_returning_player_on_a_phone_sees_the_computer_plays_for_them_at_the_top(
    browser: Browser, server: str
) -> None:
    errors: list[str] = []
    ann = person(browser, server, errors, "Ann").new_page()
    code = create_table(ann, "Ann", seats=2)
    bob_context = person(browser, server, errors, "Bob", phone=True)
    bob = bob_context.new_page()
    join(bob, code, "Bob", "Orange")
    ann.locator('#start-box button[data-act="start"]').click()
    expect(bob.locator("#table-page")).to_have_attribute("data-status", "playing")
    bob.close()
    tools = ann.locator("#players li", has_text="Bob").locator(".p-seat-tools")
    tools.get_by_role("button", name=re.compile(r"^Let the computer play for .?Bob")).click()
    give_back = tools.get_by_role("button", name=re.compile(r"^Give back to .?Bob"))
    expect(give_back).to_have_count(1)

    # Bob comes back on his phone: the first screen says who plays his seat and gives it back.
    bob = bob_context.new_page()
    bob.goto(f"/t/{code}")
    back = bob.get_by_role("button", name="Take back")
    expect(back).to_have_count(1)
    expect(back).to_be_in_viewport(ratio=1)
    notice = bob.locator("#absent-offer .stand-in-notice")
    expect(notice).to_contain_text("The computer is playing for you.")
    # Below the status line (two lines on this phone), not over it.
    bob.wait_for_function(BELOW_STATUS)
    back.click()
    expect(notice).to_have_count(0)
    expect(give_back).to_have_count(0)
    assert errors == []
