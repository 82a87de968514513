"""The words of the decisions the engine offers: what a figure's move would do, what a prompt is
for, what each way of resolving a message is called, and when a message comes in an edition.

Pages show these texts as they are, so a rule and the words that explain it change together,
in Python. The texts never depend on who is looking (one update serves every seat) and never
name a place by coordinates (the page points the place out on the board). A player's name sits
between the Unicode isolates FSI and PDI, as in the log lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .events import FigureOption, Unavailability
from .messengers import MessageAction
from .presets import Options, Trigger

_A = MessageAction

FOLLOWER_ROLES: Final[dict[str, str]] = {
    "road": "highwayman",
    "city": "knight",
    "monastery": "monk",
    "field": "farmer",
}
"""What a follower is called after the feature it stands on."""


def isolate(name: str) -> str:
    """``name`` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, for plain text lines:
    whatever direction the name runs in, it cannot reorder the words around it."""
    return f"\u2068{name}\u2069"


def figure_note(option: FigureOption, active_name: str, blocker: tuple[str, str] | None) -> str:
    """What a figure's move would do about messages, in a few words ("" when nothing).

    ``active_name``: the player whose turn it is; ``blocker``: (name, figure) of the other
    player's figure that the alone rule stops the landing on.
    """
    if option["draws_message"]:
        if option["maybe"]:
            return "dark: draws a message if it still stands there when the scoring ends"
        if not option["dark"]:
            return "draws a message: scored first, these points stop on a dark space"
        return "dark: draws a message"
    why = option["why_not"]
    if why is None:
        return ""
    if why == "alone_rule":
        if blocker is None:
            return "dark, but another player's figure stands there: no message"
        name, figure = blocker
        return f"dark, but {isolate(name)}'s {figure} stands there: no message"
    if why == "not_active":
        return f"dark, but only {isolate(active_name)} draws messages this turn"
    return _WHY_NOT_NOTES[why]


_WHY_NOT_NOTES: Final = {
    "cap": "dark, but no more messages this turn",
    "chain_off": "dark, but points from a message draw no message in this edition",
    "already_earned": "dark, but this scoring already draws its one message",
    "final": "dark, but the final scoring draws no message",
}


def for_what(prompt: Mapping[str, Any]) -> str:
    """What a ``choose_figure`` prompt's points are for: "for a road", "from a message", "in
    the final scoring" (the page points out ``where`` on the board)."""
    if prompt.get("final"):
        return "in the final scoring: all your points on one figure"
    reason = prompt.get("reason")
    if reason == "final":
        category = prompt.get("category")
        return f"in the final scoring, for a {category}" if category else "in the final scoring"
    if reason == "message":
        action = prompt.get("action")
        if action in _SMALLEST_KIND:
            return f"from a message: your smallest {_SMALLEST_KIND[action]}"
        return "from a message"
    if reason == "tabletop":  # points counted at the table: the entry's category, if any
        category = prompt.get("category")
        return f"for a {category}" if category else ""
    if reason:
        return f"for a {reason}"
    return ""


_SMALLEST_KIND: Final = {
    _A.SMALLEST_ROAD.value: "road",
    _A.SMALLEST_CITY.value: "city",
    _A.SMALLEST_MONASTERY.value: "monastery",
}


def points_label(points: int) -> str:
    return f"Take {points} points"


def action_label(text: str, action: MessageAction, points: int | None) -> str:
    """A message's action as a button says it: the action's words and what it gives now."""
    if points is None:
        return f"{text}: points counted at the table"
    if action is _A.EXTRA_TILE:
        return text
    return f"{text}: {_points(points)}"


def return_label(points: int, role: str) -> str:
    """Message 8 for one follower: score and return it, or return it for nothing."""
    if points:
        return f"Score {_points(points)} and return the {role}"
    return f"Return the {role} (0 points)"


def skip_label(role: str) -> str:
    return f"Return the {role} without scoring"


_UNAVAILABLE: Final[dict[MessageAction, tuple[Unavailability, str]]] = {
    _A.SMALLEST_ROAD: ("no_follower_on_road", "has no follower on a road"),
    _A.SMALLEST_CITY: ("no_follower_in_city", "has no follower in a city"),
    _A.SMALLEST_MONASTERY: ("no_follower_in_monastery", "has no follower in a monastery"),
    _A.COATS_OF_ARMS: ("no_coat_of_arms", "has no knight in a city with a coat of arms"),
    _A.KNIGHTS: ("no_knight", "has no knight"),
    _A.FARMERS: ("no_farmer", "has no farmer"),
    _A.SCORE_AND_RETURN: ("no_follower", "has no follower this message may return"),
}


def unavailable(action: MessageAction, name: str) -> tuple[Unavailability, str]:
    """Why ``action`` is not offered to the player called ``name``: a code and its words."""
    if action is _A.EXTRA_TILE:
        return "no_tiles_left", "no land tiles are left"
    code, words = _UNAVAILABLE[action]
    return code, f"{isolate(name)} {words}"


def message_rule(options: Options) -> str:
    """When a figure draws a message in this edition, in a sentence or two."""
    if options.trigger is Trigger.END_OF_ROUND:
        rule = "A figure that ends the turn's scoring on a dark space draws a message"
    else:
        rule = "A figure that lands on a dark space draws a message"
    rule += "; only the player whose turn it is draws."
    extra = []
    if options.alone_rule:
        extra.append("not where another player's figure already stands")
    if options.messages_per_round == 1:
        extra.append("one message per scoring")
    else:
        extra.append(f"at most {options.messages_per_round} messages per scoring")
    if options.messages_per_turn is not None:
        extra.append(f"at most {options.messages_per_turn} per turn")
    if not options.chain:
        extra.append("points from a message draw none")
    return f"{rule} {'; '.join(extra).capitalize()}."


def _points(points: int) -> str:
    return "1 point" if points == 1 else f"{points} points"
