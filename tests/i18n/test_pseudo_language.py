"""The pseudo-language works as a language of the site would: Django takes its code from the
language cookie, the browser's Accept-Language and the switcher, and says every string of the
catalogues in it, on the pages and in the JavaScript catalogue (tests/i18n/pseudo.py). The
browser test (tests/i18n/test_pseudo_pages.py) reads every page in it."""

from __future__ import annotations

import json
import re

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.i18n.catalogues import po_path
from tests.i18n.pseudo import OPEN, SOURCE_LANGUAGE, wrapped
from tests.i18n.pseudo_codes import PSEUDO_LOCALE

pytestmark = pytest.mark.django_db

TITLE = "Carcassonne with The Messengers"


def test_django_takes_the_code(pseudo_language: str) -> None:
    assert translation.check_for_language(pseudo_language)
    assert translation.get_supported_language_variant(pseudo_language) == pseudo_language
    assert translation.get_language_info(pseudo_language)["bidi"] is False
    assert translation.to_locale(pseudo_language) == PSEUDO_LOCALE


def test_the_code_is_offered_only_while_the_tests_ask(pseudo_language: str) -> None:
    with translation.override(pseudo_language):
        assert translation.gettext(TITLE) == wrapped(TITLE)


def test_without_the_override_the_site_does_not_know_it() -> None:
    """A browser asking for it elsewhere gets English, as for any English variant."""
    assert "en-xa" not in dict(settings.LANGUAGES)
    assert translation.get_supported_language_variant("en-xa") == "en"
    html = Client().get("/", HTTP_ACCEPT_LANGUAGE="en-xa").content.decode()
    assert page_language(html) == "en"
    assert OPEN not in html


def test_every_msgid_of_the_server_is_said_in_it(pseudo_language: str) -> None:
    """Each msgid of the server's catalogue comes back wrapped, in the singular and the plural:
    gettext reads the compiled pseudo catalogue whole. (The pages' own catalogue is read below,
    through the JavaScript catalogue.)"""
    source = polib.pofile(str(po_path(SOURCE_LANGUAGE, "django")))
    with translation.override(pseudo_language):
        for entry in source:
            if not entry.msgid or entry.obsolete:
                continue
            context = entry.msgctxt
            if entry.msgid_plural:
                for number, english in ((1, entry.msgid), (2, entry.msgid_plural)):
                    said = (
                        translation.npgettext(context, entry.msgid, entry.msgid_plural, number)
                        if context
                        else translation.ngettext(entry.msgid, entry.msgid_plural, number)
                    )
                    assert said == wrapped(english)
            else:
                said = (
                    translation.pgettext(context, entry.msgid)
                    if context
                    else translation.gettext(entry.msgid)
                )
                assert said == wrapped(entry.msgid)


def page_language(html: str) -> str:
    match = re.search(r'<html lang="([^"]*)"', html)
    assert match, "the page names no language"
    return match.group(1)


def test_the_cookie_chooses_it(pseudo_language: str) -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = pseudo_language
    html = client.get("/").content.decode()
    assert page_language(html) == pseudo_language
    # The switcher's label, on every page (templates/_language.html).
    assert wrapped("Language") in html


def test_accept_language_chooses_it(pseudo_language: str) -> None:
    html = Client().get("/", HTTP_ACCEPT_LANGUAGE=f"{pseudo_language},de;q=0.5").content.decode()
    assert page_language(html) == pseudo_language


def test_the_switcher_offers_and_sets_it(pseudo_language: str) -> None:
    client = Client(enforce_csrf_checks=True)
    html = client.get("/").content.decode()
    assert f'<option value="{pseudo_language}" lang="{pseudo_language}">' in html
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    answer = client.post(
        "/i18n/setlang/",
        {"language": pseudo_language, "next": "/", "csrfmiddlewaretoken": token},
    )
    assert answer.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == pseudo_language
    assert page_language(client.get("/").content.decode()) == pseudo_language


def test_the_javascript_catalogue_says_it(pseudo_language: str) -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = pseudo_language
    answer = client.get(f"/jsi18n/?l={pseudo_language}")
    assert answer.status_code == 200
    script = answer.content.decode()
    assert "const v = (n != 1);" in script
    match = re.search(r"const newcatalog = (\{.*?\n  \});", script, re.DOTALL)
    assert match, script[:500]
    catalogue = json.loads(match.group(1))
    source = polib.pofile(str(po_path(SOURCE_LANGUAGE, "djangojs")))
    for entry in source:
        if entry.msgid and not entry.obsolete:
            # Django's catalogue keys a string with a context as "context\x04msgid".
            said = catalogue[f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid]
            if entry.msgid_plural:
                assert said == [wrapped(entry.msgid), wrapped(entry.msgid_plural)]
            else:
                assert said == wrapped(entry.msgid)
