"""The seats' colours as a style sheet, so that no page needs a style attribute to colour a seat.

The Content-Security-Policy (messengers/settings.py) refuses inline styles, style attributes
included. Every swatch, figure and row that shows a seat's colour names it with a class instead
(``colour-blue``), and this style sheet gives each class two custom properties: ``--seat``, the
colour, and ``--seat-ink``, the black or white that reads on it (as ``textInk`` in shared.js).
The pages' own style sheets paint with them. ``manage.py colour_css`` writes it to
static/css/colours.css from the one list of colours, ``game.services.lobby.COLOURS``; a test checks
that the file written is the one this module gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

from game.services.lobby import COLOURS, Colour

STYLESHEET_PATH: Final = Path(__file__).resolve().parents[2] / "static" / "css" / "colours.css"

DARK_INK: Final = "#111"
LIGHT_INK: Final = "#fff"
LUMINANCE_FOR_DARK_INK: Final = 0.3
"""Above this relative luminance, dark text reads better than white (``textInk``, shared.js)."""


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``."""

    def linear(byte: int) -> float:
        channel = byte / 255
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def text_ink(hex_colour: str) -> str:
    """Black or white, whichever reads better on ``hex_colour``."""
    if relative_luminance(hex_colour) > LUMINANCE_FOR_DARK_INK:
        return DARK_INK
    return LIGHT_INK


def stylesheet(colours: Iterable[Colour] = COLOURS) -> str:
    """The style sheet: one class per colour."""
    lines = [
        "/* The seats' colours, one class each: written by `manage.py colour_css` from",
        "   game/services/lobby.py's COLOURS (game/web/colour_css.py says why); do not edit. */",
        "",
    ]
    lines += [
        f".colour-{colour.id} {{ --seat: {colour.hex}; --seat-ink: {text_ink(colour.hex)}; }}"
        for colour in colours
    ]
    return "\n".join(lines) + "\n"
