"""Places on the board in words a player can find (game/words/places.py): the log and the
refusals name a square by where it lies from the start tile, never by coordinates, in English,
German and Czech, with each language's plurals."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from game.engine.errors import IllegalCommand
from game.words.narration import narrate
from game.words.refusals import engine_words

ISOLATES = str.maketrans("", "", "\u2068\u2069")
COORDINATES = re.compile(r"\(-?\d+, -?\d+\)")


def placed(x: int, y: int) -> dict[str, Any]:
    return {"type": "tile_placed", "seat": 0, "tile": "E", "x": x, "y": y, "rotation": 0}


def text(event: dict[str, Any], language: str) -> str:
    with translation.override(language):
        return narrate([event], ["Ann"])[0]["text"].translate(ISOLATES)


@pytest.mark.parametrize(
    ("x", "y", "language", "words"),
    [
        (0, -1, "en", "Ann places tile E (1 tile north of the start tile)"),
        (3, 0, "en", "Ann places tile E (3 tiles east of the start tile)"),
        (-1, 2, "en", "Ann places tile E (2 tiles south and 1 tile west of the start tile)"),
        (0, -1, "de", "Ann legt Karte E (1 Karte nördlich der Startkarte)"),
        (-2, 5, "de", "Ann legt Karte E (5 Karten südlich und 2 Karten westlich der Startkarte)"),
        (0, -1, "cs", "Ann pokládá kartičku E (1 kartička na sever od startovní kartičky)"),
        (3, 0, "cs", "Ann pokládá kartičku E (3 kartičky na východ od startovní kartičky)"),
        (
            -5,
            -2,
            "cs",
            "Ann pokládá kartičku E (2 kartičky na sever a 5 kartiček na západ"
            " od startovní kartičky)",
        ),
    ],
)
def test_a_placed_tile_is_named_from_the_start_tile(
    x: int, y: int, language: str, words: str
) -> None:
    assert text(placed(x, y), language) == words


def test_a_feature_on_the_start_tile_and_its_line_keeps_the_square() -> None:
    event = {
        "type": "follower_returned",
        "seat": 0,
        "feature": "road",
        "x": 0,
        "y": 0,
        "at": "W",
    }
    assert text(event, "en") == "Ann's highwayman returns from the road (on the start tile)"
    assert text(event, "de") == (
        "Der Wegelagerer von Ann kehrt von der Straße (auf der Startkarte) zurück"
    )
    assert text(event, "cs") == "Ann: lupič se vrací z cesty (na startovní kartičce)"
    with translation.override("en"):
        line = narrate([event], ["Ann"])[0]
    assert (line["at"], line["feature"], line["location"]) == ([0, 0], "road", "W")


def test_a_message_scoring_names_its_place_beside_the_message() -> None:
    event = {
        "type": "points",
        "seat": 0,
        "points": 4,
        "figure": "meeple",
        "total": 4,
        "reason": "message",
        "action": "score_follower",
        "where": {"x": 1, "y": 0, "feature": "city"},
    }
    assert text(event, "en").startswith(
        "Ann scores 4 points for the city (1 tile east of the start tile, message)"
    )


@pytest.mark.parametrize("language", ["en", "de", "cs"])
def test_no_line_or_refusal_prints_coordinates(language: str) -> None:
    refusals = [
        IllegalCommand("x", "no_tile", x=2, y=-1),
        IllegalCommand("x", "no_monastery", x=2, y=-1),
        IllegalCommand("x", "no_feature", x=2, y=-1, feature="city", at="N"),
        IllegalCommand("x", "not_open_cell", x=2, y=-1),
        IllegalCommand("x", "does_not_fit", x=2, y=-1, tile="E", rotation=90),
    ]
    with translation.override(language):
        words = [engine_words(error) for error in refusals]
    words.append(text(placed(2, -1), language))
    for sentence in words:
        assert not COORDINATES.search(sentence), sentence
        assert {"en": "start tile", "de": "Startkarte", "cs": "startovní"}[language] in sentence
