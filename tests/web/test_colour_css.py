"""The seats' colours reach the pages as classes of static/css/colours.css (game/web/colour_css.py),
since the Content-Security-Policy refuses style attributes: the file must be the one the colours
give, with a class per colour."""

from __future__ import annotations

import re

from game.services.lobby import COLOURS
from game.web.colour_css import STYLESHEET_PATH, stylesheet, text_ink


def test_the_stylesheet_is_written_from_the_colours() -> None:
    assert STYLESHEET_PATH.read_text() == stylesheet(), (
        "static/css/colours.css is not the one game/services/lobby.py's COLOURS give: "
        "run `manage.py colour_css`"
    )


def test_each_colour_has_its_class_with_its_colour_and_ink() -> None:
    rules = dict(re.findall(r"^\.colour-([a-z]+) \{ (.*) \}$", stylesheet(), re.MULTILINE))
    assert list(rules) == [colour.id for colour in COLOURS]
    for colour in COLOURS:
        assert rules[colour.id] == f"--seat: {colour.hex}; --seat-ink: {text_ink(colour.hex)};"


def test_the_ink_is_dark_on_light_colours_and_white_on_dark_ones() -> None:
    # As textInk in shared.js: yellow and orange take dark letters, blue and black white ones.
    assert [text_ink(hex_colour) for hex_colour in ("#f0e442", "#e69f00", "#ffffff")] == [
        "#111",
        "#111",
        "#111",
    ]
    assert [text_ink(hex_colour) for hex_colour in ("#0072b2", "#222222", "#000000")] == [
        "#fff",
        "#fff",
        "#fff",
    ]
