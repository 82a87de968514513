"""The game's words in German and Czech (game/words/, locale/): log lines with each language's
plurals, the view's notes and labels, and an update worded once per language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from game.engine.messengers import MessageAction
from game.engine.presets import resolve_options
from game.services.commands import submit_command
from game.web.forms import house_rules
from game.words.decisions import figure_note, for_what
from game.words.messages import message_rule, message_text, preset_name
from game.words.narration import narrate
from tests.engine.test_messages import stack
from tests.racing_entries import ANN, tabletop_night
from tests.scenario import Game

NAMES = ["Ann", "Bob"]


@pytest.fixture(autouse=True)
def _language_restored() -> Iterator[None]:
    """A request through the test client leaves its language active in this thread (as
    LocaleMiddleware does): the next test reads the language it found."""
    before = translation.get_language()
    yield
    translation.activate(before)


ISOLATES = str.maketrans("", "", "\u2068\u2069")


def texts(events: list[dict[str, Any]], language: str, names: list[str] = NAMES) -> list[str]:
    with translation.override(language):
        return [line["text"].translate(ISOLATES) for line in narrate(events, names)]


def scored(points: int) -> dict[str, Any]:
    return {
        "type": "points",
        "seat": 0,
        "points": points,
        "figure": "meeple",
        "total": 10 + points,
        "reason": "city",
        "where": {"x": 0, "y": -2, "feature": "city"},
    }


def test_points_in_german_have_the_plural_of_their_count() -> None:
    assert texts([scored(1), scored(2)], "de") == [
        "Ann erhält 1 Punkt für die Stadt (2 Karten nördlich der Startkarte); der Gefolgsmann"
        " landet auf 11",
        "Ann erhält 2 Punkte für die Stadt (2 Karten nördlich der Startkarte); der Gefolgsmann"
        " landet auf 12",
    ]


def test_points_in_czech_have_the_three_forms_of_whole_numbers() -> None:
    assert texts([scored(1), scored(2), scored(5)], "cs") == [
        "Ann získává 1 bod za město (2 kartičky na sever od startovní kartičky); družiník"
        " přistává na poli 11",
        "Ann získává 2 body za město (2 kartičky na sever od startovní kartičky); družiník"
        " přistává na poli 12",
        "Ann získává 5 bodů za město (2 kartičky na sever od startovní kartičky); družiník"
        " přistává na poli 15",
    ]


def test_a_turn_a_tile_and_a_message_in_german_and_czech() -> None:
    events = [
        {"type": "turn_started", "seat": 1, "turn": 3},
        {"type": "tile_drawn", "seat": 1, "tile": "E", "tiles_left": 3},
        {"type": "tile_placed", "seat": 1, "tile": "E", "x": 1, "y": 0, "rotation": 0},
        {"type": "message_drawn", "seat": 1, "message": 2, "action": "smallest_city"},
        {"type": "game_over", "scores": [41, 50]},
    ]
    assert texts(events, "de") == [
        "Zug 3: Bob",
        "Bob zieht Karte E (noch 3)",
        "Bob legt Karte E (1 Karte östlich der Startkarte)",
        "Bob zieht Depesche 2: Werte deine kleinste Stadt",
        "Endstand: 1. Bob 50, 2. Ann 41",
    ]
    assert texts(events, "cs") == [
        "Tah 3: Bob",
        "Bob táhne kartičku E (zbývají 3)",
        "Bob pokládá kartičku E (1 kartička na východ od startovní kartičky)",
        "Bob táhne dopis 2: Vyhodnoť své nejmenší město",
        "Konečné pořadí: 1. Bob 50, 2. Ann 41",
    ]


def test_a_line_says_its_kind_seat_and_square_in_every_language() -> None:
    placed = {"type": "tile_placed", "seat": 1, "tile": "E", "x": 1, "y": 0, "rotation": 0}
    for language in ("en", "de", "cs"):
        with translation.override(language):
            (line,) = narrate([placed], NAMES)
        assert (line["kind"], line["seat"], line["at"]) == ("tile_placed", 1, [1, 0])
    with translation.override("cs"):
        (ending,) = narrate([{"type": "game_ending", "turn": 9}], NAMES)
    assert ending == {
        "kind": "game_ending",
        "text": "Hra končí: závěrečné vyhodnocení",
        "seat": None,
        "at": None,
        "feature": None,
        "location": None,
    }


def test_a_follower_says_where_on_its_tile_in_words() -> None:
    farmer = {"type": "follower_placed", "seat": 0, "x": 0, "y": -2, "feature": "field", "at": "SL"}
    knight = {"type": "follower_placed", "seat": 1, "x": 1, "y": 0, "feature": "city", "at": "N"}
    assert texts([farmer, knight], "en") == [
        "Ann places a farmer on the field (south edge, east half)",
        "Bob places a knight on the city (north edge)",
    ]
    assert texts([farmer, knight], "de") == [
        "Ann setzt einen Bauern auf die Wiese (Südseite, östliche Hälfte)",
        "Bob setzt einen Ritter in die Stadt (Nordseite)",
    ]
    assert texts([farmer, knight], "cs") == [
        "Ann staví rolníka na louku (jižní strana, východní polovina)",
        "Bob staví rytíře do města (severní strana)",
    ]


def test_a_line_about_a_feature_names_its_kind_and_place_on_the_tile() -> None:
    where = {"x": 2, "y": 0, "feature": "road", "at": "W"}
    events = [
        {"type": "follower_placed", "seat": 0, "x": -1, "y": 0, "feature": "road", "at": "E"},
        {"type": "feature_completed", "feature": "road", "tiles": 4, "points": 4, "where": where},
        {
            **scored(4),
            "reason": "road",
            "where": where,
        },
        {"type": "follower_returned", "seat": 0, "x": -1, "y": 0, "feature": "road", "at": "E"},
        {"type": "follower_placed", "seat": 0, "x": 0, "y": 1, "feature": "monastery"},
        {"type": "tile_placed", "seat": 1, "tile": "E", "x": 1, "y": 0, "rotation": 0},
    ]
    lines = narrate(events, NAMES)
    assert [(line["at"], line["feature"], line["location"]) for line in lines] == [
        ([-1, 0], "road", "E"),
        ([2, 0], "road", "W"),
        ([2, 0], "road", "W"),
        ([-1, 0], "road", "E"),
        ([0, 1], "monastery", None),
        ([1, 0], None, None),
    ]


def test_the_views_words_in_german() -> None:
    """A revealed message's text, its choices' labels, a figure's note and a prompt's purpose."""
    g = Game("c3", mode="tabletop", messages=stack("c3", "extra_tile"))
    g.score(0, 5, "meeple").end_turn()
    with translation.override("de"):
        waiting = g.pending
        assert waiting is not None
        assert waiting["text"] == "Spiele einen zusätzlichen Zug"
        assert [choice["label"] for choice in waiting["choices"]] == [
            "Nimm 2 Punkte",
            "Spiele einen zusätzlichen Zug",
        ]
        option = {
            "draws_message": False,
            "maybe": False,
            "dark": True,
            "why_not": "not_active",
            "blocker": None,
        }
        note = figure_note(option, NAMES, 0)  # type: ignore[arg-type]
        assert note == "dunkel, aber in diesem Zug zieht nur \u2068Ann\u2069 Depeschen"
        assert for_what({"reason": "city"}) == "für eine Stadt"
        assert preset_name("c3") == "3. Ausgabe (2021, Big Box 7) und 3.1 (2025, Big Box 8)"
        assert message_rule(resolve_options("c3")).startswith("Eine Figur, die die Wertung")
    with translation.override("cs"):
        assert g.pending is not None
        assert g.pending["choices"][0]["label"] == "Vezmi si 2 body"


@pytest.mark.django_db
def test_an_update_is_worded_once_per_language() -> None:
    night = tabletop_night()
    applied = submit_command(
        night["code"], ANN, 0, "a1", {"type": "score", "points": 5, "figure": "meeple"}
    )
    message = applied.message()
    assert set(message) == {"type", "texts", "finished"}
    assert set(message["texts"]) == {code for code, _ in settings.LANGUAGES}
    frames = {language: json.loads(text) for language, text in message["texts"].items()}
    # The same facts for every language: only the words differ.
    assert frames["en"]["events"] == frames["de"]["events"] == frames["cs"]["events"]
    assert frames["en"]["view"]["players"] == frames["cs"]["view"]["players"]
    assert frames["en"]["view"]["preset_name"].startswith("2nd edition")
    assert frames["de"]["view"]["preset_name"].startswith("2. Ausgabe")
    assert frames["cs"]["view"]["preset_name"].startswith("2. vydání")
    assert frames["de"]["lines"][0]["text"] == (
        "\u2068Ann\u2069 erhält 5 Punkte am Tisch; der Gefolgsmann landet auf 5 (dunkles Feld)"
    )
    assert frames["cs"]["lines"][0]["text"] == (
        "\u2068Ann\u2069 získává 5 bodů u stolu; družiník přistává na poli 5 (tmavé pole)"
    )
    kinds = [[line["kind"] for line in frame["lines"]] for frame in frames.values()]
    assert kinds[0] == kinds[1] == kinds[2]
    assert {line["seat"] for line in frames["de"]["lines"]} == {ANN}
    with translation.override("cs"):
        assert json.loads(applied.text())["lines"] == frames["cs"]["lines"]
    assert applied.text("xx") == message["texts"][settings.LANGUAGE_CODE]


def test_house_rules_in_german_and_czech() -> None:
    with translation.override("de"):
        assert house_rules("c2-zmg", {"alone_rule": False}) == ["Allein auf dem dunklen Feld: Aus"]
    with translation.override("cs"):
        assert house_rules("c3", {"chain": True}) == ["Řetězení dopisů: Ano"]


@pytest.mark.django_db
def test_the_storys_message_names_are_in_the_readers_language() -> None:
    code = tabletop_night()["code"]
    submit_command(code, ANN, 0, "a1", {"type": "score", "points": 5, "figure": "meeple"})
    submit_command(code, ANN, 1, "a2", {"type": "end_turn"})
    english = Client().get(f"/t/{code}/story.json").json()["messages"]
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/t/{code}/story.json").json()["messages"]
    browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    browser.cookies["django_language"] = "cs"  # the switcher's choice over the browser's
    czech = browser.get(f"/t/{code}/story.json").json()
    assert [message["action"] for message in german] == [m["action"] for m in english]
    assert len(english) == 1
    action = MessageAction(english[0]["action"])
    options = resolve_options("c2-hig")
    for language, name in (("de", german[0]["name"]), ("cs", czech["messages"][0]["name"])):
        with translation.override(language):
            assert name == message_text(options, action) != english[0]["name"]
