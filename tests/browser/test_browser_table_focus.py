"""The keyboard's focus on the table page after a press that redraws or reloads the page, in
Chromium against a real Daphne: it lands on the next thing to do, never on the page's body.

* In the lobby, Enter on "Add easy computer" fills the last seat; its button goes, and the focus
  goes to "Start game".
* A language chosen with the keyboard reloads the page in it, with the focus back on the
  language switcher.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser_pages import create_table

pytestmark = pytest.mark.services

LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with servers.sqlite_daphne(tmp_path_factory.mktemp("table-focus")) as url:
        yield url


def test_adding_the_last_computer_leaves_the_focus_on_start(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    lena = browser.new_context(base_url=server, viewport=LAPTOP).new_page()
    watch.watch(lena, "Lena")
    create_table(lena, "Lena", seats=2)
    add = lena.locator('#host-tools button[data-seat-act="add_computer"][data-level="easy"]')
    add.focus()
    lena.keyboard.press("Enter")
    expect(lena.locator("#lobby-seats li")).to_have_count(2)
    expect(add).to_have_count(0)
    expect(lena.locator('#start-box button[data-act="start"]')).to_be_focused()
    assert watch.errors == []


def test_a_language_chosen_by_keyboard_keeps_the_focus_on_the_switcher(
    server: str, browser: Browser
) -> None:
    watch = ConsoleWatch()
    lena = browser.new_context(base_url=server, viewport=LAPTOP).new_page()
    watch.watch(lena, "Lena")
    create_table(lena, "Lena", seats=2)
    switcher = lena.locator("#lobby select[data-language]")
    switcher.focus()
    lena.keyboard.press("ArrowDown")
    lena.keyboard.press("Enter")
    expect(lena.locator("#lobby h1")).not_to_have_text("Waiting for players")
    expect(lena.locator("#lobby select[data-language]")).to_be_focused()
    assert watch.errors == []


def test_a_name_being_typed_for_a_player_without_a_phone_survives_a_join(
    server: str, browser: Browser
) -> None:
    """The host types "Dirk" and picks a colour to add a player without a phone while a friend
    takes a seat by phone: the lobby is drawn again, and what the host typed stays."""
    from tests.browser.test_browser_three_languages import join_by_fields

    watch = ConsoleWatch()
    host = browser.new_context(base_url=server, viewport=LAPTOP).new_page()
    watch.watch(host, "host")
    code = create_table(host, "Ann", seats=4, tabletop=True)
    form = host.locator("#add-form")
    form.locator('input[name="name"]').fill("Dirk")
    form.locator('select[name="colour"]').select_option("green")
    phone = browser.new_context(
        base_url=server, viewport={"width": 390, "height": 664}, is_mobile=True, has_touch=True
    ).new_page()
    join_by_fields(phone, code, "Ben", "orange", touch=True)
    expect(host.locator("#lobby-seats .seat-name", has_text="Ben")).to_have_count(1)
    expect(form.locator('input[name="name"]')).to_have_value("Dirk")
    expect(form.locator('select[name="colour"]')).to_have_value("green")
    form.get_by_role("button", name="Add").click()
    expect(host.locator("#lobby-seats .seat-name", has_text="Dirk")).to_have_count(1)
    expect(form.locator('input[name="name"]')).to_have_value("")
    assert not watch.errors, watch.errors
    phone.context.close()
    host.context.close()
