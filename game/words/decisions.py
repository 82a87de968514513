"""The words of the decisions the engine offers: what a figure's move would do, what a prompt is
for, what each way of resolving a message is called, why an action is not possible, and the view
with all of these filled in (``word_view``).

The engine gives the facts (a figure option's ``why_not`` code and ``blocker``, a prompt's
reason and category, a choice's points, an unavailability's code); the functions here add the
fields a page shows as they are (``note``, ``for_what``, ``label``, ``text``, ``undo_text``,
``preset_name``) in the active language. The texts never depend on who is looking (one view
serves every seat of a language) and never name a place by coordinates (the page points the
place out on the board). A player's name sits between the Unicode isolates FSI and PDI, as in the
log lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from game.engine.events import FigureOption
from game.engine.messengers import MessageAction
from game.engine.presets import Options
from game.words.isolates import isolate
from game.words.messages import message_detail, message_text, preset_name
from game.words.narration import entry_words, points_words

_A = MessageAction


def figure_note(option: FigureOption, names: Sequence[str], active: int) -> str:
    """What a figure's move would do about messages, in a few words ("" when nothing).

    ``names``: each seat's name; ``active``: the seat whose turn it is.
    """
    if option["draws_message"]:
        if option["maybe"]:
            return gettext("dark: draws a message if it still stands there when the scoring ends")
        if not option["dark"]:
            return gettext("draws a message: scored first, these points stop on a dark space")
        return gettext("dark: draws a message")
    why = option["why_not"]
    if why is None:
        return ""
    if why == "alone_rule":
        blocker = option.get("blocker")
        if blocker is None:
            return gettext("dark, but another player's figure stands there: no message")
        values = {"name": _name(names, blocker["seat"])}
        if blocker["figure"] == "messenger":
            return gettext("dark, but %(name)s's messenger stands there: no message") % values
        return gettext("dark, but %(name)s's meeple stands there: no message") % values
    if why == "not_active":
        return gettext("dark, but only %(name)s draws messages this turn") % {
            "name": _name(names, active)
        }
    if why == "cap":
        return gettext("dark, but no more messages this turn")
    if why == "chain_off":
        return gettext("dark, but points from a message draw no message in this edition")
    if why == "already_earned":
        return gettext("dark, but this scoring already draws its one message")
    return gettext("dark, but the final scoring draws no message")


def word_options(options: Sequence[FigureOption], names: Sequence[str], active: int) -> None:
    """Fill in each figure option's ``note``."""
    for option in options:
        option["note"] = figure_note(option, names, active)


def for_what(prompt: Mapping[str, Any]) -> str:
    """What a ``choose_figure`` prompt's points are for: "for a road", "from a message", "in
    the final scoring" (the page points out ``where`` on the board)."""
    if prompt.get("final"):
        return gettext("in the final scoring: all your points on one figure")
    reason = prompt.get("reason")
    category = prompt.get("category")
    if reason == "final":
        if category in _FOR_A:
            return _FINAL_FOR_A[category]()
        return gettext("in the final scoring")
    if reason == "message":
        action = prompt.get("action")
        if action == _A.SMALLEST_ROAD.value:
            return gettext("from a message: your smallest road")
        if action == _A.SMALLEST_CITY.value:
            return gettext("from a message: your smallest city")
        if action == _A.SMALLEST_MONASTERY.value:
            return gettext("from a message: your smallest monastery")
        return gettext("from a message")
    if reason == "tabletop":  # points counted at the table: the entry's category, if any
        return _FOR_A[category]() if category in _FOR_A else ""
    if reason in _FOR_A:
        return _FOR_A[reason]()
    return ""


_FOR_A = {
    "road": lambda: gettext("for a road"),
    "city": lambda: gettext("for a city"),
    "monastery": lambda: gettext("for a monastery"),
    "field": lambda: gettext("for a field"),
}
_FINAL_FOR_A = {
    "road": lambda: gettext("in the final scoring, for a road"),
    "city": lambda: gettext("in the final scoring, for a city"),
    "monastery": lambda: gettext("in the final scoring, for a monastery"),
    "field": lambda: gettext("in the final scoring, for a field"),
}


def points_label(points: int) -> str:
    return ngettext("Take %(count)s point", "Take %(count)s points", points) % {"count": points}


def action_label(text: str, action: str, points: int | None) -> str:
    """A message's action as a button says it: the action's words and what it gives now."""
    if points is None:
        return gettext("%(action)s: points counted at the table") % {"action": text}
    if action == _A.EXTRA_TILE.value:
        return text
    return gettext("%(action)s: %(points)s") % {"action": text, "points": points_words(points)}


def return_label(points: int, feature: str) -> str:
    """Message 8 for one follower: score and return it, or return it for nothing."""
    if points:
        values = {"points": points_words(points)}
        if feature == "road":
            return gettext("Score %(points)s and return the highwayman") % values
        if feature == "city":
            return gettext("Score %(points)s and return the knight") % values
        if feature == "monastery":
            return gettext("Score %(points)s and return the monk") % values
        return gettext("Score %(points)s and return the farmer") % values
    if feature == "road":
        return gettext("Return the highwayman (0 points)")
    if feature == "city":
        return gettext("Return the knight (0 points)")
    if feature == "monastery":
        return gettext("Return the monk (0 points)")
    return gettext("Return the farmer (0 points)")


def skip_label(feature: str) -> str:
    if feature == "road":
        return gettext("Return the highwayman without scoring")
    if feature == "city":
        return gettext("Return the knight without scoring")
    if feature == "monastery":
        return gettext("Return the monk without scoring")
    return gettext("Return the farmer without scoring")


def unavailable_text(reason: str, name: str) -> str:
    """Why a message's action is not offered to the player called ``name`` (isolated)."""
    values = {"name": name}
    if reason == "no_tiles_left":
        return gettext("no land tiles are left")
    if reason == "no_follower_on_road":
        return gettext("%(name)s has no follower on a road") % values
    if reason == "no_follower_in_city":
        return gettext("%(name)s has no follower in a city") % values
    if reason == "no_follower_in_monastery":
        return gettext("%(name)s has no follower in a monastery") % values
    if reason == "no_coat_of_arms":
        return gettext("%(name)s has no knight in a city with a coat of arms") % values
    if reason == "no_knight":
        return gettext("%(name)s has no knight") % values
    if reason == "no_farmer":
        return gettext("%(name)s has no farmer") % values
    return gettext("%(name)s has no follower this message may return") % values


def word_pending(
    prompt: dict[str, Any] | None, options: Options, names: Sequence[str], active: int
) -> None:
    """Fill in the words of a pending decision (``views.pending``), in place."""
    if prompt is None:
        return
    kind = prompt.get("type")
    if kind == "choose_figure":
        prompt["for_what"] = for_what(prompt)
        word_options(prompt["options"], names, active)
    elif kind == "resolve_message":
        action = MessageAction(prompt["action"])
        text = message_text(options, action)
        prompt["text"] = text
        for choice in prompt["choices"]:
            if choice["choice"] == "points":
                choice["label"] = points_label(choice["points"])
            elif "mark" in choice and "score_optional" in choice:
                choice["label"] = return_label(choice["points"], choice["feature"])
                if "skip" in choice:
                    choice["skip"]["label"] = skip_label(choice["feature"])
            elif choice.get("entered_at_table"):
                choice["label"] = gettext("Carry out the action: points counted at the table")
            else:
                choice["label"] = action_label(text, action.value, choice["points"])
        missing = prompt.get("unavailable")
        if missing is not None:
            seat = prompt["seat"] if prompt["seat"] is not None else active
            missing["text"] = unavailable_text(missing["reason"], _name(names, seat))


def word_view(shared: dict[str, Any], options: Options) -> dict[str, Any]:
    """Fill in the words of a view (``views.view``) in place, and return it: the edition's
    name, the revealed message's words, the pending decision's words and, at a tabletop game,
    the words of the entry an undo would take back (``undo_text``)."""
    names = [player["name"] for player in shared["players"]]
    shared["preset_name"] = preset_name(shared["preset"])
    revealed = shared.get("revealed")
    if revealed is not None:
        revealed["text"] = message_text(options, MessageAction(revealed["action"]))
        revealed["detail"] = message_detail(options, MessageAction(revealed["action"]))
    word_pending(shared.get("pending"), options, names, shared["active_seat"])
    if "undoable" in shared:
        undoable = shared["undoable"]
        shared["undo_text"] = (
            None
            if undoable is None
            else entry_words(undoable, names, turn=shared.get("undoable_turn"))
        )
    return shared


def _name(names: Sequence[str], seat: int) -> str:
    if 0 <= seat < len(names):
        return isolate(names[seat])
    return gettext("Seat %(number)s") % {"number": seat + 1}
