"""Every page read in the pseudo-language (tests/i18n/pseudo.py), in Chromium against a real
Daphne with DEBUG off: any word a person can read that did not come from a catalogue shows as
English outside the markers, and fails its page's test with the list of such texts.

What is read: every text node of an element that is rendered (an <option> when its <select>
is), the aria-label, aria-description, title, placeholder and alt of rendered elements, the value
of rendered buttons, an SVG's <title> and <desc>, and the document's title. Closed <details> are
opened first: their content is read when opened.

Names (the players', the computer players', each language's own in the switcher), table codes,
web addresses, numbers, punctuation and symbols need no catalogue; nor does a tile's letter (A to
X, the rules' names of the tiles) inside a translated sentence ("⟦draws tile ⟧F"), while a letter
standing alone is reported (a colour's letter on a figure is the English colour's initial); nor
does what a page marks as never translated: commands and file names in <code> or <samp>, and
anything inside an element with translate="no" (HTML's own mark for it, which also keeps
browsers' page translators away).

The pages: home; the lobby of a new table; an online table started with a computer player, one
30 moves in, and the same on a phone; a game night's console while playing and when finished;
the projector of both kinds; the story page; a seat's link without its token and with a wrong
one; and the error pages: 404, 403 (a form posted without its CSRF cookie) and 503 (a server
whose database is away).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.i18n.pseudo import OPEN, unmarked
from tests.i18n.pseudo_codes import PSEUDO_LANGUAGE

pytestmark = pytest.mark.services

PLAYERS = ("Ann", "Bob", "Cy")
"""The players' names of tests/i18n/pseudo_tables_script.py."""

REPORT = servers.ROOT / "tests" / "artifacts" / "pseudo-language.json"
"""Every page's untranslated texts, written by each test for whoever marks them (git-ignored)."""

READ = """() => {
    const found = [];
    const shown = (element) => element.checkVisibility({ visibilityProperty: true });
    const where = (element) => {
        const id = element.id ? `#${element.id}` : "";
        const cls = typeof element.className === "string" && element.className
            ? `.${element.className.trim().split(/\\s+/).join(".")}` : "";
        return `${element.tagName.toLowerCase()}${id}${cls}`;
    };
    const add = (element, kind, text) => {
        const clean = (text || "").replace(/\\s+/g, " ").trim();
        const place = kind === "text" ? where(element) : `${where(element)}[${kind}]`;
        if (clean) found.push([place, clean]);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest("script, style, template, noscript, code, samp")) continue;
        if (parent.closest("[translate=no]")) continue;
        const svgWords = parent.closest("svg title, svg desc");
        const option = parent.closest("option, optgroup");
        const select = option && option.closest("select, datalist");
        if (svgWords ? !shown(svgWords.closest("svg")) : select ? !shown(select) : !shown(parent))
            continue;
        add(parent, "text", node.data);
    }
    const attributes = ["aria-label", "aria-description", "aria-roledescription", "title",
        "placeholder", "alt"];
    for (const element of document.body.querySelectorAll("*")) {
        if (!shown(element) || element.closest("[translate=no]")) continue;
        for (const name of attributes)
            if (element.hasAttribute(name)) add(element, name, element.getAttribute(name));
        if (element.matches("input[type=submit], input[type=button], input[type=reset]"))
            add(element, "value", element.value);
    }
    add(document.documentElement, "document.title", document.title);
    return { language: document.documentElement.lang, texts: found };
}"""

OPEN_DETAILS = (
    """() => { for (const box of document.querySelectorAll("details")) box.open = true; }"""
)


@dataclass(frozen=True)
class Site:
    url: str
    tables: dict[str, dict[str, str]]
    allowed: frozenset[str]


@pytest.fixture(scope="module")
def pseudo_env(pseudo_locale: Path) -> dict[str, str]:
    """A server's environment with DEBUG off (the error pages people see), offering the
    pseudo-language (tests/i18n/pseudo_settings.py)."""
    return servers.production_env(
        DJANGO_SETTINGS_MODULE="tests.i18n.pseudo_settings",
        MESSENGERS_PSEUDO_LOCALE=str(pseudo_locale),
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, pseudo_env: dict[str, str]) -> Iterator[Site]:
    from game.services.seating import COMPUTER_NAMES
    from messengers.settings import LANGUAGES

    REPORT.unlink(missing_ok=True)
    database = tmp_path_factory.mktemp("pseudo-pages") / "db.sqlite3"
    env = {**pseudo_env, "DATABASE_URL": f"sqlite:///{database}"}
    servers.migrate(env)
    tables = servers.run_script(env, "tests.i18n.pseudo_tables_script")
    allowed = frozenset(
        {
            *PLAYERS,
            *COMPUTER_NAMES,
            *(table["code"] for table in tables.values()),
            *(name for _, name in LANGUAGES),
        }
    )
    with servers.daphne_server(env) as url:
        yield Site(url, tables, allowed)


@pytest.fixture(scope="module")
def away_url(tmp_path_factory: pytest.TempPathFactory, pseudo_env: dict[str, str]) -> Iterator[str]:
    """A server whose database cannot be opened: every page that needs it answers 503."""
    folder = tmp_path_factory.mktemp("pseudo-away")
    env = {**pseudo_env, "DATABASE_URL": f"sqlite:///{folder / 'no-such-folder' / 'db.sqlite3'}"}
    with servers.daphne_server(env) as url:
        yield url


def reader(browser: Browser, base: str, **context: Any) -> Page:
    """A browser whose language cookie chose the pseudo-language (as the switcher would)."""
    people = browser.new_context(base_url=base, locale="en-GB", **context)
    people.add_cookies([{"name": "django_language", "value": PSEUDO_LANGUAGE, "url": base}])
    return people.new_page()


def seated(page: Page, site: Site, table: str) -> None:
    """Take Ann's seat at `table` through her personal link, and wait for the live table."""
    code = site.tables[table]["code"]
    page.goto(f"/t/{code}/rejoin#{site.tables[table]['token']}")
    page.wait_for_url(re.compile(rf"/t/{code}$"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")


def playing(page: Page) -> None:
    expect(page.locator("#table-page")).to_have_attribute("data-version", re.compile(r"^\d+$"))


# --- The pages, each brought to the state that is read ---------------------------------------


def home(page: Page, site: Site) -> None:
    page.goto("/")
    expect(page.locator("form.create")).to_be_visible()


def lobby(page: Page, site: Site) -> None:
    seated(page, site, "lobby")
    expect(page.locator("#lobby-seats li").first).to_be_visible()


def board_with_a_computer(page: Page, site: Site) -> None:
    seated(page, site, "computer")
    playing(page)


def board_played(page: Page, site: Site) -> None:
    seated(page, site, "board")
    playing(page)
    expect(page.locator("#log li").first).to_be_visible()


def console_playing(page: Page, site: Site) -> None:
    seated(page, site, "tabletop")
    playing(page)
    page.evaluate(OPEN_DETAILS)
    expect(page.locator("#story .story-totals")).to_be_visible()


def console_finished(page: Page, site: Site) -> None:
    seated(page, site, "finished")
    playing(page)
    expect(page.locator("#story .story-totals")).to_be_visible()


def projector(table: str) -> Callable[[Page, Site], None]:
    def visit(page: Page, site: Site) -> None:
        page.goto(f"/t/{site.tables[table]['code']}/projector")
        expect(page.locator("#pj-conn")).to_have_attribute("data-state", "open")
        expect(page.locator("main.pj")).to_have_attribute("data-version", re.compile(r"^\d+$"))

    return visit


def story(page: Page, site: Site) -> None:
    page.goto(f"/t/{site.tables['finished']['code']}/story")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    expect(page.locator("#story .story-totals")).to_be_visible()


def link_without_token(page: Page, site: Site) -> None:
    # The page's module says what is missing before the load event, which goto waits for.
    page.goto(f"/t/{site.tables['lobby']['code']}/rejoin")
    expect(page.locator("#rejoin-status")).to_be_visible()


def link_with_wrong_token(page: Page, site: Site) -> None:
    # The page posts the token it was given; the answer is the page again, saying why.
    page.goto(f"/t/{site.tables['lobby']['code']}/rejoin#not-the-token")
    expect(page.locator(".form-error")).to_be_visible()


def not_found(page: Page, site: Site) -> None:
    answer = page.goto("/t/zzzzzzzz")
    assert answer is not None and answer.status == 404


def csrf_refused(page: Page, site: Site) -> None:
    page.goto("/")
    expect(page.locator("form.create")).to_be_visible()
    page.context.clear_cookies(name="csrftoken")
    with page.expect_navigation() as navigation:
        page.evaluate("() => document.querySelector('form.create').submit()")
    answer = navigation.value
    assert answer is not None and answer.status == 403


PAGES: dict[str, Callable[[Page, Site], None]] = {
    "home": home,
    "lobby": lobby,
    "board with a computer player": board_with_a_computer,
    "board 30 moves in": board_played,
    "console while playing": console_playing,
    "console when finished": console_finished,
    "projector of a game night": projector("tabletop"),
    "projector of an online table": projector("board"),
    "story": story,
    "seat link without its token": link_without_token,
    "seat link with a wrong token": link_with_wrong_token,
    "404": not_found,
    "403 CSRF": csrf_refused,
}

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def offending(read: dict[str, Any], allowed: frozenset[str]) -> list[str]:
    """The texts of `read` that hold words no catalogue said, each once, with where they are."""
    from game.engine.tiles import CATALOGUE

    in_sentences = allowed | frozenset(CATALOGUE)
    found: dict[str, str] = {}
    for where, text in read["texts"]:
        names = in_sentences if OPEN in text else allowed
        if unmarked(text, names) and text not in found:
            found[text] = where
    return [f"{where}: {text}" for text, where in found.items()]


def report(name: str, texts: list[str]) -> None:
    """Keep the page's list in REPORT (one run's pages together)."""
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    try:
        known = json.loads(REPORT.read_text())
    except (OSError, ValueError):
        known = {}
    known[name] = texts
    REPORT.write_text(json.dumps(known, indent=1, ensure_ascii=False) + "\n")


def check(page: Page, name: str, allowed: frozenset[str]) -> None:
    page.evaluate(OPEN_DETAILS)
    read = page.evaluate(READ)
    texts = offending(read, allowed)
    report(name, texts)
    assert read["texts"], f"{name}: nothing to read"
    assert not texts, f"{name}: {len(texts)} texts came from no catalogue:\n" + "\n".join(texts)


@pytest.mark.parametrize("name", list(PAGES))
def test_every_word_comes_from_a_catalogue(browser: Browser, site: Site, name: str) -> None:
    page = reader(browser, site.url)
    try:
        PAGES[name](page, site)
        check(page, name, site.allowed)
    finally:
        page.context.close()


def test_the_table_on_a_phone(browser: Browser, site: Site) -> None:
    page = reader(browser, site.url, **PHONE)
    try:
        board_played(page, site)
        check(page, "board on a phone", site.allowed)
    finally:
        page.context.close()


def test_the_unavailable_page(browser: Browser, site: Site, away_url: str) -> None:
    page = reader(browser, away_url)
    try:
        answer = page.goto("/t/zzzzzzzz")
        assert answer is not None and answer.status == 503
        check(page, "503", site.allowed)
    finally:
        page.context.close()


def test_the_pages_are_read_in_the_pseudo_language(browser: Browser, site: Site) -> None:
    """The language cookie chose it: the page says so, and its catalogue's words show wrapped
    (so that an empty list above means every word came from a catalogue, not that none did)."""
    page = reader(browser, site.url)
    try:
        home(page, site)
        read = page.evaluate(READ)
        assert read["language"] == PSEUDO_LANGUAGE
        assert any(OPEN in text for _, text in read["texts"])
    finally:
        page.context.close()
