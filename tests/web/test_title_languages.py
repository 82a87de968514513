"""The product's title reads as grammatical German and Czech wherever a page shows it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    translation.deactivate()


def test_the_german_title_declines_the_expansion() -> None:
    page = Client().get("/", headers={"accept-language": "de"}).content.decode()
    assert "<h1>Carcassonne mit den Depeschen</h1>" in page
    assert "· Carcassonne mit den Depeschen</title>" in page
    assert "Die Regeln der Depeschen unterscheiden sich" in page
    assert "mit Die Depeschen" not in page
    assert "von Die Depeschen" not in page


def test_the_german_title_in_the_script_catalogue() -> None:
    catalogue = Client().get("/jsi18n/", headers={"accept-language": "de"}).content.decode()
    assert "Tisch %(code)s \\u00b7 Carcassonne mit den Depeschen" in catalogue or (
        "Tisch %(code)s · Carcassonne mit den Depeschen" in catalogue
    )
    assert "mit Die Depeschen" not in catalogue


def test_the_czech_title_names_the_expansion_in_apposition() -> None:
    page = Client().get("/", headers={"accept-language": "cs"}).content.decode()
    assert "<h1>Carcassonne s rozšířením Dopisy</h1>" in page
