"""The seats' colours stay apart for the common forms of colour blindness.

Each pair of colours is compared in CIELAB (CIE76 distance) as seen with normal vision and as
simulated for protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009,
severity 1). Red (Okabe–Ito vermillion) must stay as far from orange as the palette's closest
pairs already are; the letters on every figure and swatch tell the rest apart.
"""

from __future__ import annotations

import itertools

import pytest

from game.services.lobby import COLOUR_IDS, COLOURS

MINIMUM = 15.0
"""The smallest distance allowed; the Okabe–Ito palette's closest pair (orange and yellow under
deuteranopia) is at 17."""

VISION = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(hex_colour: str) -> tuple[float, ...]:
    def channel(value: int) -> float:
        s = value / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return tuple(channel(int(hex_colour[i : i + 2], 16)) for i in (1, 3, 5))


def _lab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _seen(hex_colour: str, vision: str) -> tuple[float, float, float]:
    matrix = VISION[vision]
    rgb = _linear(hex_colour)
    simulated = tuple(min(1.0, max(0.0, sum(row[i] * rgb[i] for i in range(3)))) for row in matrix)
    return _lab(simulated)


def _distance(a: str, b: str, vision: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_seen(a, vision), _seen(b, vision), strict=True)) ** 0.5


def test_red_is_a_colour_with_its_own_letter() -> None:
    red = next(colour for colour in COLOURS if colour.id == "red")
    assert (red.hex, red.symbol, red.label) == ("#d55e00", "R", "Red")
    assert len({colour.symbol for colour in COLOURS}) == len(COLOURS)
    # Listed last: the colours of existing seats and a computer's first free colour are kept.
    assert COLOUR_IDS[:6] == ("blue", "orange", "green", "yellow", "pink", "black")


@pytest.mark.parametrize("vision", sorted(VISION))
def test_every_pair_of_colours_stays_apart(vision: str) -> None:
    for a, b in itertools.combinations(COLOURS, 2):
        distance = _distance(a.hex, b.hex, vision)
        assert distance >= MINIMUM, f"{a.label} and {b.label} under {vision}: {distance:.1f}"
