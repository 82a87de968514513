"""Languages in Chromium: a German browser gets the pages in German (the server's words and the
scripts' alike), `<html lang>` says so, and the switcher changes the language for this page and
every later one (the cookie), on the home page and on a table page, whose footer it is not in;
by pointer at once, by keyboard on Enter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("browser-languages") / "db.sqlite3"
    env = servers.project_env(DATABASE_URL=f"sqlite:///{database}")
    servers.migrate(env)
    with servers.daphne_server(env) as url:
        yield url


def choose_language(page: Page, code: str) -> None:
    """Pick `code` in the page's visible switcher: the page comes back in that language."""
    page.locator(".language select:visible").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)


def test_a_german_browser_reads_german_and_the_switcher_changes_it(
    server: str, browser: Browser
) -> None:
    watch = ConsoleWatch()
    context = browser.new_context(
        base_url=server, locale="de-DE", viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    page = context.new_page()
    watch.watch(page, "Ann")

    # The browser's language, with no choice made yet.
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("h1")).to_have_text("Carcassonne mit den Depeschen")
    expect(page.get_by_role("button", name="Tisch eröffnen")).to_be_visible()
    expect(page.locator(".language select")).to_have_value("de")
    # The switcher applies a choice by itself: its button is for pages without scripts.
    expect(page.locator("[data-language-apply]")).to_be_hidden()

    # Czech, by the switcher, and still Czech on the next page (the cookie, not the browser).
    choose_language(page, "cs")
    expect(page.locator("h1")).to_have_text("Carcassonne s rozšířením Dopisy")
    expect(page.locator(".language select")).to_have_value("cs")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    page.locator("#name").fill("Ann")
    page.get_by_role("button", name="Založit stůl").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    # The table page: the server's words and the scripts' (the connection's state) in Czech.
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#lobby h1")).to_have_text("Čeká se na hráče")
    expect(page.locator("#conn")).to_have_text("Připojeno")
    expect(page.get_by_role("button", name="Spustit hru")).to_be_visible()

    # Back to German from the table page's own switcher, which leaves the page where it was.
    table = page.url
    choose_language(page, "de")
    assert page.url == table
    expect(page.locator("#lobby h1")).to_have_text("Warten auf Spieler")
    expect(page.locator("#conn")).to_have_text("Verbunden")
    expect(page.get_by_role("button", name="Spiel starten")).to_be_visible()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("h1")).to_have_text("Carcassonne mit den Depeschen")

    # With the keyboard, an arrow key only moves through the languages; Enter applies the one
    # shown (the button shows again for it too).
    select = page.locator(".language select")
    select.focus()
    select.press("ArrowDown")
    expect(select).to_have_value("cs")
    expect(page.locator("[data-language-apply]")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    select.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("h1")).to_have_text("Carcassonne s rozšířením Dopisy")

    context.close()
    assert not watch.errors, watch.errors
