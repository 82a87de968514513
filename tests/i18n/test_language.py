"""Who reads which language (docs/languages.md): the language cookie the switcher sets, else the
browser's Accept-Language, else English; for a page, its JavaScript catalogue and a table's
websocket alike (game/live/language.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import polib
import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.utils import translation

from game.live.language import language_of
from tests.i18n.catalogues import po_path

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def scope(cookie: str | None = None, header: bytes | None = None) -> dict[str, Any]:
    """A websocket's scope as Channels gives it to the consumer: cookies parsed, headers raw."""
    found: dict[str, Any] = {"type": "websocket", "cookies": {}, "headers": []}
    if cookie is not None:
        found["cookies"][COOKIE] = cookie
    if header is not None:
        found["headers"] = [(b"host", b"127.0.0.1"), (b"accept-language", header)]
    return found


# --- A websocket's language ------------------------------------------------------------------


def test_the_cookie_beats_the_browser() -> None:
    assert language_of(scope("cs", b"de-DE,de;q=0.9,en;q=0.8")) == "cs"
    assert language_of(scope("de", b"cs")) == "de"
    assert language_of(scope("en", b"cs")) == "en"


def test_an_unknown_cookie_leaves_it_to_the_browser() -> None:
    assert language_of(scope("fr", b"de")) == "de"
    assert language_of(scope("", b"cs")) == "cs"


def test_the_browser_s_preferences_by_their_q_values() -> None:
    assert language_of(scope(header=b"de;q=0.5, cs;q=0.9, en;q=0.1")) == "cs"
    assert language_of(scope(header=b"fr, de;q=0.3, en;q=0.2")) == "de"
    assert language_of(scope(header=b"fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7")) == "en"


def test_a_regional_variant_is_its_language() -> None:
    assert language_of(scope(header=b"de-AT")) == "de"
    assert language_of(scope(header=b"cs-CZ,cs;q=0.9")) == "cs"
    assert language_of(scope("de-CH")) == "de"


def test_unsupported_languages_read_english() -> None:
    assert language_of(scope(header=b"fr, ja;q=0.9, *;q=0.5")) == "en"
    assert language_of(scope(header=b"*")) == "en"
    assert language_of(scope()) == "en"
    assert language_of({}) == "en"


@pytest.mark.parametrize(
    ("cookie", "header"),
    [
        ("../../etc/passwd", None),
        ("x" * 5000, None),
        ("de\x00", None),
        ("*", None),
        (None, b"\xff\xfe\x00;;;q=abc,,,"),
        (None, b"de;q=not-a-number"),
        (None, b";q=1"),
        (None, b"x" * 100_000),
        (None, b","),
        (None, b""),
    ],
)
def test_garbage_reads_english(cookie: str | None, header: bytes | None) -> None:
    assert language_of(scope(cookie, header)) == "en"


def test_a_long_header_is_read_from_its_start() -> None:
    padding = b", ".join(b"fr;q=0.1" for _ in range(200))
    assert language_of(scope(header=b"cs, " + padding)) == "cs"


@pytest.mark.parametrize(
    ("cookie", "header"),
    [
        ("cs", "de"),
        ("de", None),
        ("fr", "cs;q=0.4, de;q=0.8"),
        (None, "de-AT,en;q=0.5"),
        (None, "fr, cs;q=0.1"),
        (None, "ja"),
        (None, None),
        ("de-CH", "cs"),
    ],
)
def test_the_websocket_reads_what_its_page_reads(cookie: str | None, header: str | None) -> None:
    """The page's language is Django's (LocaleMiddleware); its websocket's must be the same."""
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE=header or "")
    if cookie is not None:
        request.COOKIES[COOKIE] = cookie
    page = translation.get_language_from_request(request)
    assert language_of(scope(cookie, header.encode() if header else None)) == page


# --- Pages -----------------------------------------------------------------------------------


def page_language(html: str) -> str:
    match = re.search(r'<html lang="([^"]*)"', html)
    assert match, "the page names no language"
    return match.group(1)


@pytest.mark.parametrize("language", ["de", "cs"])
def test_the_home_page_follows_accept_language(language: str) -> None:
    answer = Client().get("/", HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    html = answer.content.decode()
    assert page_language(html) == language
    assert answer["Content-Language"] == language
    # Caches must keep one page per language.
    assert "Accept-Language" in answer["Vary"]
    # The switcher shows the language chosen.
    assert f'<option value="{language}" lang="{language}" selected>' in html
    # Its words are the language's (the switcher's label, as the catalogue says it).
    with translation.override(language):
        assert f"<label>{translation.gettext('Language')} <select" in html


def test_english_without_a_preference() -> None:
    html = Client().get("/").content.decode()
    assert page_language(html) == "en"
    assert '<option value="en" lang="en" selected>' in html


def test_the_switcher_sets_the_cookie_and_the_next_page_follows() -> None:
    """The switcher's form (templates/_language.html) posts to Django's set_language with the
    CSRF token, comes back to the same page, and every page after it reads that language, even
    with a browser asking for another."""
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="de")
    html = client.get("/").content.decode()
    form = re.search(
        r'<form class="language" action="([^"]+)" method="post">(.*?)</form>', html, re.S
    )
    assert form, "no language switcher on the page"
    action, fields = form.groups()
    assert action == "/i18n/setlang/"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', fields)
    assert token
    next_page = re.search(r'name="next" value="([^"]+)"', fields)
    assert next_page and next_page.group(1) == "/"
    options = re.findall(r'<option value="([^"]+)"', fields)
    assert options == [code for code, _ in settings.LANGUAGES]

    answer = client.post(
        action, {"language": "cs", "next": next_page.group(1), "csrfmiddlewaretoken": token[1]}
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/"
    cookie = client.cookies[COOKIE]
    assert cookie.value == "cs"
    assert int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE >= 60 * 60 * 24 * 365
    assert cookie["samesite"] == "Lax"
    html = client.get("/").content.decode()
    assert page_language(html) == "cs"
    assert '<option value="cs" lang="cs" selected>' in html


def test_a_language_the_site_has_not_reads_english() -> None:
    """Django's set_language takes any language it has words for (its own catalogues have
    French), but neither the pages nor the websocket offer it: they read English."""
    client = Client()
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert page_language(client.get("/").content.decode()) == "en"
    assert language_of(scope(client.cookies[COOKIE].value)) == "en"


def catalogue(script: str) -> dict[str, Any]:
    match = re.search(r"const newcatalog = (\{.*?\n  \});", script, re.DOTALL)
    assert match, "no catalogue in the script"
    found: dict[str, Any] = json.loads(match.group(1))
    return found


@pytest.mark.parametrize(
    ("language", "plural", "january"),
    [
        ("de", "const v = (n != 1);", "Januar"),
        ("cs", "const v = (n == 1 && n % 1 == 0) ? 0 : (n >= 2 && n <= 4", "leden"),
    ],
)
def test_the_javascript_catalogue_speaks_the_page_s_language(
    language: str, plural: str, january: str
) -> None:
    """/jsi18n/ (loaded by every page, with its language in the query so that a browser keeps one
    per language) answers JavaScript in the reader's language: its plural rule, its words
    (Django's own month names among them), and each of our translated strings."""
    client = Client()
    client.cookies[COOKIE] = language
    answer = client.get(f"/jsi18n/?l={language}")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    script = answer.content.decode()
    assert plural in script
    words = catalogue(script)
    assert words["January"] == january
    # The page asks for its own language's catalogue.
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/").content.decode()
    assert f"/jsi18n/?l={language}&amp;" in page
    for entry in polib.pofile(str(po_path(language, "djangojs"))).translated_entries():
        name = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural:
            assert words[name] == [form for _, form in sorted(entry.msgstr_plural.items())]
        else:
            assert words[name] == entry.msgstr


def test_the_javascript_catalogue_in_english() -> None:
    """English is the source: nothing to translate, English's plural rule."""
    script = Client(HTTP_ACCEPT_LANGUAGE="en").get("/jsi18n/?l=en").content.decode()
    assert "const newcatalog" not in script
    assert "django.pluralidx = function(count) { return (count == 1) ? 0 : 1; };" in script
