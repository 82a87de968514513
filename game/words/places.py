"""A square of the board in words a player can find on the board: where it lies from the start
tile, which every board has at (0, 0), north up ("2 tiles north and 1 tile east of the start
tile"). The log, the toasts and the refusals name places so instead of by coordinates, which
mean nothing to a person looking at the board. Each phrase is whole and stands in parentheses or
after a noun, so that no language has to decline it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from django.utils.translation import gettext, ngettext

_STEPS: Final[dict[str, Callable[[int], str]]] = {
    "north": lambda n: ngettext("%(count)s tile north", "%(count)s tiles north", n),
    "east": lambda n: ngettext("%(count)s tile east", "%(count)s tiles east", n),
    "south": lambda n: ngettext("%(count)s tile south", "%(count)s tiles south", n),
    "west": lambda n: ngettext("%(count)s tile west", "%(count)s tiles west", n),
}


def _step(direction: str, count: int) -> str:
    return _STEPS[direction](count) % {"count": count}


def square_words(x: int, y: int) -> str:
    """The square (x, y) in words, from the start tile: "on the start tile", "1 tile north of
    the start tile", "2 tiles south and 3 tiles west of the start tile" (y grows southwards)."""
    along = _step("south" if y > 0 else "north", abs(y)) if y else ""
    across = _step("east" if x > 0 else "west", abs(x)) if x else ""
    if along and across:
        # Translators: a place on the board, named from the start tile: "2 tiles north and 1 tile
        # east of the start tile". It stands in parentheses after a noun ("the city (…)").
        return gettext("%(along)s and %(across)s of the start tile") % {
            "along": along,
            "across": across,
        }
    if along or across:
        # Translators: a place on the board, named from the start tile: "2 tiles north of the
        # start tile". It stands in parentheses after a noun ("the city (…)").
        return gettext("%(way)s of the start tile") % {"way": along or across}
    # Translators: a place on the board: the start tile itself, in parentheses after a noun.
    return gettext("on the start tile")


def square_values(x: object, y: object) -> dict[str, object]:
    """``x``, ``y`` and ``where`` (``square_words``) for a sentence naming a square."""
    values: dict[str, object] = {"x": x, "y": y}
    if isinstance(x, int) and isinstance(y, int):
        values["where"] = square_words(x, y)
    else:
        values["where"] = f"{x}, {y}"
    return values
