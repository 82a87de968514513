"""The pages' refusals in the reader's language: the browser's Accept-Language, or the language
cookie the switcher sets (docs/languages.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation

from game.models import Table
from game.web.forms import house_rules

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A request leaves its language active in the test's thread: back to the default after."""
    yield
    translation.deactivate()


FORM = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Ann", "colour": "blue"}


def test_a_refused_create_form_reads_in_german() -> None:
    response = Client().post(
        "/tables",
        {**FORM, "seats": "9", "colour": "mauve", "opt_chain": "1"},
        headers={"accept-language": "de"},
    )
    assert response.status_code == 400
    assert response.context["errors"] == [
        "Die Hausregel chain muss eines von true, false sein, nicht '1'.",
        "Ein Tisch hat 2 bis 6 Plätze.",
        "Wähl bitte eine Farbe.",
    ]
    assert not Table.objects.exists()


def test_a_refused_name_reads_in_czech_from_the_cookie() -> None:
    client = Client(headers={"accept-language": "de"})
    client.cookies["django_language"] = "cs"
    response = client.post("/tables", {**FORM, "name": " "})
    assert response.status_code == 400
    assert response.context["errors"] == ["Zadej prosím své jméno."]


def test_english_stays_the_default() -> None:
    response = Client().post("/tables", {**FORM, "colour": "mauve"})
    assert response.context["errors"] == ["Please choose a colour."]


def test_the_house_rules_labels_follow_the_language() -> None:
    response = Client().get("/", headers={"accept-language": "cs"})
    labels = [str(field["label"]) for field in response.context["option_fields"]]
    assert labels[0] == "Kartičky dopisů"
    with translation.override("de"):
        assert house_rules("c3", {"messages_per_turn": None, "chain": True}) == [
            "Depeschen in Folge: Ja",
            "Depeschen pro Zug: Keine Obergrenze",
        ]


def test_bad_text_is_refused_in_the_readers_language() -> None:
    response = Client().get("/", {"q": "a\x00b"}, headers={"accept-language": "cs"})
    assert response.status_code == 400
    assert response.content.decode() == (
        "Text v adrese nebo ve formuláři nesmí obsahovat znaky NUL ani neplatné znaky."
    )


def test_colour_names_follow_the_language_and_their_letters_do_not() -> None:
    response = Client().get("/", headers={"accept-language": "de"})
    colours = {colour["id"]: colour for colour in response.context["colours"]}
    assert (colours["blue"]["label"], colours["blue"]["symbol"]) == ("Blau", "B")
    assert (colours["black"]["label"], colours["black"]["symbol"]) == ("Schwarz", "K")
    page = response.content.decode()
    assert "Blau" in page
    assert '<span class="chip" aria-hidden="true" translate="no">B</span>' in page
