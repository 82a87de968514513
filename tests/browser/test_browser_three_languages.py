"""Game night in three languages, in Chromium: one table, each page in its reader's language.

Ann's browser speaks English (en-GB): she creates a tabletop table for three on her laptop. Bob's
phone speaks German (de-DE) and Cy's laptop Czech (cs-CZ); each joins from the table page, by the
form's fields rather than its words, and Cy's first name is refused in Czech. Ann starts the game
and enters a few points; Bob enters his own and ends his turn on his phone. Then every page shows
its own language: `<html lang>`, the server's words (headings), the scripts' (the connection's
state, whose turn it is, the buttons) and the game's log, each line as the server words it in
that language (game.words.narration on the engine's events for the same decisions). The German
and Czech lines are not the English ones.
"""

from __future__ import annotations

import gettext as pygettext
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, expect

from game.engine.record import Replay, replay
from game.services.lobby import LobbyError, clean_seat_name
from game.words.narration import narrate
from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser_pages import create_table
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = pytest.mark.services

NAMES = ["Ann", "Bob", "Cy"]
LANGUAGES = {"Ann": "en", "Bob": "de", "Cy": "cs"}
MESSAGES = [1, 2, 3, 4, 5, 6, 7, 8]
LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("three-languages")
    with servers.sqlite_daphne(folder, messages=MESSAGES) as url:
        yield url


def script_words(language: str, text: str, **values: str) -> str:
    """`text` as the pages' scripts word it in `language` (the djangojs catalogue that the
    server's JavaScript catalogue serves them), with `values` put in."""
    if language == "en":
        words = text
    else:
        catalogue = pygettext.translation("djangojs", LOCALE, languages=[language])
        words = catalogue.gettext(text)
    return words % values


def server_words(language: str, text: str) -> str:
    """`text` as the server's templates word it in `language`."""
    with translation.override(language):
        return translation.gettext(text)


class Game:
    """The decisions made at the table, applied by the engine, and their log in each language."""

    def __init__(self) -> None:
        self.actions: list[dict[str, Any]] = []

    def add(self, seat: int, kind: str, **keys: Any) -> None:
        self.actions.append({"seat": seat, "type": kind, **keys})

    def replay(self) -> Replay:
        return replay(
            {
                "format": "carcassonne-messengers/1",
                "mode": "tabletop",
                "players": NAMES,
                "preset": "c2-hig",
                "messages": MESSAGES,
                "actions": self.actions,
            }
        )

    def log(self, language: str) -> list[str]:
        """Every line of the game's log, oldest first, as the server words it in `language`."""
        game = self.replay()
        with translation.override(language):
            lines = narrate(game.events, NAMES, game.state.options)
        return [line["text"] for line in lines]

    def version(self) -> int:
        """The game's version after these decisions, which every page shows (`data-version`)."""
        return self.replay().state.version


def panel(page: Page) -> Any:
    return page.locator("#panel")


def person(browser: Browser, server: str, locale: str, **options: Any) -> BrowserContext:
    context = browser.new_context(base_url=server, locale=locale, **options)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    return context


def look_alike_refusal(name: str, seated: list[str], language: str) -> str:
    """What the server says, in `language`, to a person taking a seat as `name`, too like one
    of `seated`."""
    with translation.override(language), pytest.raises(LobbyError) as refused:
        clean_seat_name(name, seated)
    return str(refused.value)


BAD_REQUEST = re.compile(r"Cy: console error: Failed to load resource: .* status of 400 .*")


def join_by_fields(
    page: Page, code: str, name: str, colour: str, *, touch: bool, joined: bool = True
) -> None:
    """Take a seat at `code` through the form's fields and its submit button, whatever the
    page's language (`joined`: the seat is expected to be granted)."""
    page.goto(f"/t/{code}")
    form = page.locator("#join-form")
    form.locator('input[name="name"]').fill(name)
    swatch = form.locator(f'label.colour-opt:has(input[name="colour"][value="{colour}"])')
    submit = form.locator('button[type="submit"]')
    if touch:
        swatch.tap()
        submit.tap()
    else:
        swatch.click()
        submit.click()
    if joined:
        expect(page.locator("#lobby-seats li").filter(has_text=name)).to_have_count(1)
        expect(page.locator("#join-form")).to_have_count(0)


def test_each_page_of_one_table_speaks_its_readers_language(server: str, browser: Browser) -> None:
    watch = ConsoleWatch()
    laptop = person(browser, server, "en-GB", viewport={"width": 1440, "height": 900})
    phone = person(
        browser,
        server,
        "de-DE",
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    desk = person(browser, server, "cs-CZ", viewport={"width": 1280, "height": 800})
    ann, bob, cy = laptop.new_page(), phone.new_page(), desk.new_page()
    pages = {"Ann": ann, "Bob": bob, "Cy": cy}
    for name, page in pages.items():
        watch.watch(page, name)

    code = create_table(ann, "Ann", seats=3, tabletop=True)
    join_by_fields(bob, code, "Bob", "orange", touch=True)
    # Cy first types a name too like Bob's: the server refuses it, in Czech.
    refusal = {
        language: look_alike_refusal("bob", ["Ann", "Bob"], language)
        for language in LANGUAGES.values()
    }
    assert refusal["cs"] != refusal["en"]
    with cy.expect_console_message(lambda message: "status of 400" in message.text):
        join_by_fields(cy, code, "bob", "green", touch=False, joined=False)
    expect(cy.locator("html")).to_have_attribute("lang", "cs")
    expect(cy.locator("#join-form .form-error")).to_have_text(refusal["cs"])
    # The page's status (400) is logged as an error, the only one.
    assert len(watch.errors) == 1 and BAD_REQUEST.fullmatch(watch.errors[0]), watch.errors
    watch.errors.clear()
    join_by_fields(cy, code, "Cy", "green", touch=False)

    # The lobby, before the game: the server's heading and the scripts' connection state.
    for name, page in pages.items():
        language = LANGUAGES[name]
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#lobby h1")).to_have_text(
            server_words(language, "Waiting for players")
        )
        expect(page.locator("#conn")).to_have_text(script_words(language, "Live"))
    expect(cy.locator("#conn")).not_to_have_text("Live")
    expect(ann.locator("#lobby-seats li")).to_have_count(3)

    ann.locator('#start-box button[data-act="start"]').click()
    for page in pages.values():
        expect(page.locator(".cs-panel")).to_be_visible()

    # Turn 1, Ann's: the host enters a road of 3 for her and a city of 5 for Bob, on the meeple,
    # and ends her turn.
    game = Game()
    panel(ann).locator('button[data-act="seat"]', has_text="Ann").click()
    panel(ann).locator('button[data-act="points"][data-n="3"]').click()
    panel(ann).locator('button[data-act="category"][data-cat="road"]').click()
    panel(ann).locator('button[data-act="score"][data-figure="meeple"]').click()
    game.add(0, "score", points=3, figure="meeple", category="road")
    expect(ann.locator("#table-page")).to_have_attribute("data-version", str(game.version()))
    panel(ann).locator('button[data-act="seat"]', has_text="Bob").click()
    panel(ann).locator('button[data-act="points"][data-n="5"]').click()
    panel(ann).locator('button[data-act="category"][data-cat="city"]').click()
    panel(ann).locator('button[data-act="score"][data-figure="meeple"]').click()
    game.add(1, "score", points=5, figure="meeple", category="city")
    expect(ann.locator("#table-page")).to_have_attribute("data-version", str(game.version()))
    panel(ann).locator('button[data-act="end-turn"]').click()
    game.add(0, "end_turn")

    # Turn 2, Bob's: he enters 2 points on his German phone and ends his turn there.
    end_bob = script_words("de", "End %(name)s's turn", name="Bob")
    assert end_bob != "End Bob's turn"
    expect(panel(bob).locator('button[data-act="end-turn"]')).to_have_text(end_bob)
    panel(bob).locator('button[data-act="points"][data-n="2"]').tap()
    panel(bob).locator('button[data-act="score"][data-figure="meeple"]').tap()
    game.add(1, "score", points=2, figure="meeple")
    expect(bob.locator("#table-page")).to_have_attribute("data-version", str(game.version()))
    panel(bob).locator('button[data-act="end-turn"]').tap()
    game.add(1, "end_turn")

    scores = ["3", "7", "0"]
    logs = {language: game.log(language) for language in ("en", "de", "cs")}
    for language in ("de", "cs"):
        assert len(logs[language]) == len(logs["en"])
        assert all(a != b for a, b in zip(logs[language], logs["en"], strict=True)), logs
    for name, page in pages.items():
        language = LANGUAGES[name]
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#table-page")).to_have_attribute("data-version", str(game.version()))
        expect(page.locator("#players .p-score")).to_have_text(scores)
        expect(page.locator("#conn")).to_have_text(script_words(language, "Live"))
        expect(page.locator("#turn")).to_contain_text(
            script_words(language, "%(name)s's turn", name="Cy")
        )
        expect(page.locator(".log-card h2")).to_have_text(server_words(language, "Game log"))
        expect(page.locator("#log li")).to_have_text(logs[language])
    assert server_words("cs", "Game log") != "Game log" != server_words("de", "Game log")
    end_cy = script_words("cs", "End %(name)s's turn", name="Cy")
    assert end_cy != "End Cy's turn"
    expect(panel(cy).locator('button[data-act="end-turn"]')).to_have_text(end_cy)

    assert not watch.errors, watch.errors
    for context in (laptop, phone, desk):
        context.close()
