"""The game log in words, and the final scoring broken down by category.

The engine's events are made for programs; players want to read what happened ("Ann scores 6 for
the city at (0, -2) with the meeple; lands on 10 (dark space)"). This is presentation, so it lives
outside ``game.engine``, which it only reads from.

Each line is worked out from one event alone, never from its neighbours. The protocol sends the
whole log on connect (``history.lines``) and then the lines of each batch of new events
(``update.lines``); because no line depends on another event, narrating a game piece by piece
gives exactly the lines of narrating it whole, wherever the batches happen to split it.

Every name in a line sits between the Unicode isolates FSI (U+2068) and PDI (U+2069): pages show
the lines as text, and the isolates keep a name's direction from spilling into its neighbours.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from game.engine.messengers import MESSAGE_TEXT, SCOREBOARD_SPACES, MessageAction, message_text
from game.engine.presets import Options
from game.engine.state import GameState
from game.engine.views import view
from game.engine.wording import FOLLOWER_ROLES, isolate
from game.store.jsontext import dumps

Event = Mapping[str, Any]

FEATURE_KINDS: Final = ("road", "city", "monastery", "field")

BREAKDOWN_KEYS: Final = ("play", "road", "city", "monastery", "field", "table")
"""The columns of ``final_breakdown``, in display order: points scored during play, then the
final scoring per feature kind, then final points entered at the table (a tabletop game's final
points carry no category, since the app does not see the physical board)."""

_ACTION_TEXT: Final[dict[str, str]] = {action.value: text for action, text in MESSAGE_TEXT.items()}
_ACTIONS: Final = frozenset(_ACTION_TEXT)
_SMALLEST: Final[dict[str, str]] = {
    "smallest_road": "road",
    "smallest_city": "city",
    "smallest_monastery": "monastery",
}


def narrate(
    events: Sequence[Event], names: Sequence[str], options: Options | None = None
) -> list[str]:
    """The log lines for ``events``, oldest first; ``names`` gives each seat's name by index;
    ``options``, the table's, word the messages as the edition does (``message_text``).

    Every event type the engine emits gives exactly one line. An event of a type this module does
    not know gives no line rather than an error, so a newer engine never breaks the log.

    A ``played_by`` event (a computer's entry begins with one) gives no line of its own: the
    rest of the call names that seat "Bob (computer)", so the log says who played. Callers
    narrate such entries one call each (``saving.save_applied``, game/live/snapshots.py).
    """
    lines = []
    for event in events:
        if event.get("type") == PLAYED_BY:
            names = played_by_names(names, event["seat"])
            continue
        line = narrate_event(event, names, options)
        if line is not None:
            lines.append(line)
    return lines


PLAYED_BY: Final = "played_by"


def played_by_names(names: Sequence[str], seat: int) -> list[str]:
    """``names`` with the seat marked as played by a computer."""
    marked = list(names)
    if 0 <= seat < len(marked):
        marked[seat] = f"{marked[seat]} (computer)"
    return marked


def narrate_event(event: Event, names: Sequence[str], options: Options | None = None) -> str | None:
    """The line for one event, or None for an event type this module does not know."""
    kind = event.get("type")
    if kind == "message_drawn":
        return _message_drawn(event, names, options)
    if kind == "message_resolved":
        return _message_resolved(event, names, options)
    narrator = _NARRATORS.get(event.get("type", ""))
    return None if narrator is None else narrator(event, names)


def final_breakdown(events: Sequence[Event], player_count: int) -> list[dict[str, int]]:
    """Per seat, the points scored during play and those of the final scoring by category.

    The result page shows where each player's score came from. Every ``points`` event counts
    once: ``reason: "final"`` goes under its ``category`` (``table`` when it has none, as at a
    tabletop game), anything else under ``play``. So each seat's values add up to its score in
    the ``game_over`` event. Every key of ``BREAKDOWN_KEYS`` is present; a category the engine
    adds later gets its own key rather than being lost.
    """
    rows: list[dict[str, int]] = [dict.fromkeys(BREAKDOWN_KEYS, 0) for _ in range(player_count)]
    for event in events:
        if event.get("type") not in ("points", "adjusted"):
            continue
        seat = event["seat"]
        if not 0 <= seat < player_count:
            raise ValueError(f"points for seat {seat} in a game of {player_count} players")
        final = event.get("reason") == "final"
        key = (event.get("category") or "table") if final else "play"
        row = rows[seat]
        row[key] = row.get(key, 0) + event["points"]
    return rows


# One narrator per event type ------------------------------------------------------------------


def _turn_started(event: Event, names: Sequence[str]) -> str:
    return f"Turn {event['turn']}: {_name(names, event['seat'])}"


def _tile_drawn(event: Event, names: Sequence[str]) -> str:
    left = event.get("tiles_left")
    count = "" if left is None else (" (the last one)" if left == 0 else f" ({left} left)")
    return f"{_name(names, event['seat'])} draws tile {event['tile']}{count}"


def _tile_discarded(event: Event, names: Sequence[str]) -> str:
    return f"Tile {event['tile']} fits nowhere and is discarded"


def _tile_placed(event: Event, names: Sequence[str]) -> str:
    name = _name(names, event["seat"])
    return f"{name} places tile {event['tile']} at ({event['x']}, {event['y']})"


def _follower_placed(event: Event, names: Sequence[str]) -> str:
    feature = event["feature"]
    at = f" ({event['at']})" if event.get("at") else ""
    return f"{_name(names, event['seat'])} places a {_role(feature)} on the {feature}{at}"


def _feature_completed(event: Event, names: Sequence[str]) -> str:
    place = _place(event.get("where"), event["feature"])
    worth = _points(event["points"])
    if event["feature"] == "monastery":
        return f"{_capitalise(place)} is completed: {worth}"
    return f"{_capitalise(place)} is completed: {event['tiles']} tiles, {worth}"


def _points_scored(event: Event, names: Sequence[str]) -> str:
    """The reason in words, the figure that moves and where it lands (with the lap past 50)."""
    name = _name(names, event["seat"])
    line = f"{name} scores {event['points']}{_reason(event)} with the {event['figure']}"
    line += f"; {_landing(event)}"
    return f"Final scoring: {line}" if event.get("reason") == "final" else line


def _shared_scoring(event: Event, names: Sequence[str]) -> str:
    """A shared scoring's line, before each seat's own: "Ann and Hana share 4 points for a city"."""
    return f"{_names(names, event['seats'])} share {_shared_what(event)}"


def _shared_what(event: Mapping[str, Any]) -> str:
    what = _points(event["points"])
    if event.get("category"):
        what += f" for a {event['category']}"
    return what


def _names(names: Sequence[str], seats: Sequence[int]) -> str:
    """Seats' names as a list in words: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    named = [_name(names, seat) for seat in seats]
    if len(named) < 2:
        return "".join(named)
    return f"{', '.join(named[:-1])} and {named[-1]}"


def _follower_returned(event: Event, names: Sequence[str]) -> str:
    feature = event["feature"]
    place = _place(event, feature)
    return f"{_name(names, event['seat'])}'s {_role(feature)} returns from {place}"


def _message_drawn(event: Event, names: Sequence[str], options: Options | None = None) -> str:
    text = _action_text(event["action"], options)
    return f"{_name(names, event['seat'])} draws message {event['message']}: {text}"


def _message_resolved(event: Event, names: Sequence[str], options: Options | None = None) -> str:
    name = _name(names, event["seat"])
    points = event.get("points", 0)
    if event.get("choice") == "points":
        return f"{name} takes the {_points(points)} instead of the action"
    action = event.get("action")
    if action == "extra_tile":
        outcome = _lower_first(_action_text(action, options)).removeprefix("place ")
    elif event.get("follower"):
        follower = event["follower"]
        role = _role(follower["feature"])
        place = _place(follower, follower["feature"])
        if points:
            outcome = f"{_points(points)} for {place}, and the {role} returns"
        else:
            outcome = f"the {role} on {place} returns without scoring"
    elif event.get("feature"):
        outcome = f"{_points(points)} for {_place(event['feature'], 'feature')}"
    else:
        outcome = _points(points) if points else "no points"
    return f"{name} takes the action: {outcome}"


def _message_capped(event: Event, names: Sequence[str]) -> str:
    name = _name(names, event["seat"])
    return f"{name} earns another message but may draw only {event['cap']} per turn"


def _extra_turn(event: Event, names: Sequence[str]) -> str:
    return f"{_name(names, event['seat'])} plays an extra turn"


def _game_ending(event: Event, names: Sequence[str]) -> str:
    # No turn number: at a tabletop game ``turn`` counts the turn that was begun and not played.
    return "The game ends: final scoring"


def _figures_merged(event: Event, names: Sequence[str]) -> str:
    name = _name(names, event["seat"])
    return f"{name}'s figures merge: {_points(event['points'])} on the {event['figure']}"


def _game_over(event: Event, names: Sequence[str]) -> str:
    """The ranking, ties sharing a place ("1. Ann 50, 1. Bob 50, 3. Cy 41")."""
    scores: list[int] = list(event["scores"])
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    ranked = []
    for seat in order:
        place = 1 + sum(1 for other in scores if other > scores[seat])
        ranked.append(f"{place}. {_name(names, seat)} {scores[seat]}")
    return f"Final ranking: {', '.join(ranked)}"


def _undone(event: Event, names: Sequence[str]) -> str:
    """Which entry a correction at a tabletop game took back, in the words of the entry."""
    return f"Undone by {_name(names, event['seat'])}: {entry_words(event['action'], names)}"


def entry_words(action: Event, names: Sequence[str]) -> str:
    """An entry of a tabletop game's log in words ("Ann scores 4 for a city")."""
    whose = _name(names, action["seat"])
    kind = action["type"]
    if kind == "score":
        what = f"{whose} scores {action['points']}"
        if action.get("category"):
            what += f" for a {action['category']}"
        if action.get("figure"):
            what += f" with the {action['figure']}"
    elif kind == "score_shared":
        seats = [share["seat"] for share in action["shares"]]
        what = f"{_names(names, seats)} share {_shared_what(action)}"
    elif kind == "end_turn":
        what = f"{whose} ends the turn"
    elif kind == "resolve_message":
        choice = "takes the 2 points" if action["choice"] == "points" else "takes the action"
        counted = f" ({_points(action['points'])})" if action.get("points") is not None else ""
        what = f"{whose} {choice}{counted}"
    elif kind == "choose_figure":
        what = f"{whose} chooses the {action['figure']}"
    elif kind == "end_game":
        what = "the game ends"
    elif kind == "finish":
        what = "the final scoring is complete"
    elif kind == "adjust":
        what = f"{whose}'s {action['figure']} is adjusted by {action['points']:+d}"
    elif kind == "correct":
        replacement = action.get("replacement")
        what = (
            "the host's deletion of an entry"
            if replacement is None
            else f"the host's correction to {_scoring_words(replacement, names)}"
        )
    else:
        what = kind.replace("_", " ")
    return what


def _adjusted(event: Event, names: Sequence[str]) -> str:
    """A signed correction of one figure ("Ann's meeple: -5 (adjustment); lands on 16")."""
    name = _name(names, event["seat"])
    return f"{name}'s {event['figure']}: {event['points']:+d} (adjustment); {_landing(event)}"


def _corrected(event: Event, names: Sequence[str]) -> str:
    """The correction of an entry with points: "Host corrects Ann's 66 points (city, meeple)
    to 6", or "... to Bob's 6 points (city)" when more than the points changed; "Host deletes
    ..." for a deletion. The lines of the entries it made lapse follow (``lapsed``)."""
    was = _scoring_words(event["action"], names)
    replacement = event.get("replacement")
    if replacement is None:
        return f"Host deletes {was}"
    changed = {
        key
        for key in set(event["action"]) | set(replacement)
        if event["action"].get(key) != replacement.get(key)
    }
    if changed != {"points"}:
        return f"Host corrects {was} to {_scoring_words(replacement, names)}"
    points = replacement["points"]
    return (
        f"Host corrects {was} to {points:+d}"
        if replacement["type"] == "adjust"
        else (f"Host corrects {was} to {points}")
    )


def scoring_words(action: Event, names: Sequence[str]) -> str:
    """An entry with points in words, for a list of the entries the host may correct."""
    return _scoring_words(action, names)


def _scoring_words(action: Event, names: Sequence[str]) -> str:
    """An entry with points, as the object of a correction: "Ann's 66 points (city, meeple)"."""
    kind = action.get("type")
    points = action.get("points", 0)
    details = [action[key] for key in ("category", "figure") if action.get(key)]
    if kind == "score_shared":
        seats = [share.get("seat") for share in action.get("shares", ())]
        who = ", ".join(_name(names, seat) for seat in seats if isinstance(seat, int))
        return f"the shared {_points(points)} of {who}" + (
            f" ({', '.join(details)})" if details else ""
        )
    whose = _name(names, action["seat"])
    if kind == "adjust":
        return f"{whose}'s adjustment of {points:+d} on the {action.get('figure')}"
    if kind == "resolve_message":
        return f"{whose}'s message action ({_points(points)})"
    return f"{whose}'s {_points(points)}" + (f" ({', '.join(details)})" if details else "")


def _lapsed(event: Event, names: Sequence[str]) -> str:
    """An entry a correction skipped: "No longer applies: Bob's message 3 (smallest city, 4
    points)"."""
    action = event["action"]
    if action.get("type") == "resolve_message" and event.get("message") is not None:
        whose = _name(names, action["seat"])
        if action.get("choice") == "points":
            how = _points(2)
        else:
            kind = event.get("message_action", "")
            how = f"smallest {_SMALLEST[kind]}" if kind in _SMALLEST else kind.replace("_", " ")
            if action.get("points") is not None:
                how += f", {_points(action['points'])}"
        return f"No longer applies: {whose}'s message {event['message']} ({how})"
    return f"No longer applies: {entry_words(action, names)}"


def _undrawn(event: Event, names: Sequence[str]) -> str:
    """The message a correction took back while it waited to be decided: "No longer drawn: Ann's
    message 8 (score and return a follower) goes back on top of the stack"."""
    whose = _name(names, event["seat"])
    what = _ACTION_TEXT.get(event["action"], str(event["action"])).lower()
    return f"No longer drawn: {whose}'s message {event['message']} ({what}) goes back on top"


_NARRATORS: Final[dict[str, Callable[[Event, Sequence[str]], str]]] = {
    "turn_started": _turn_started,
    "tile_drawn": _tile_drawn,
    "tile_discarded": _tile_discarded,
    "tile_placed": _tile_placed,
    "follower_placed": _follower_placed,
    "feature_completed": _feature_completed,
    "points": _points_scored,
    "shared_scoring": _shared_scoring,
    "follower_returned": _follower_returned,
    "message_drawn": _message_drawn,
    "message_resolved": _message_resolved,
    "message_capped": _message_capped,
    "extra_turn": _extra_turn,
    "game_ending": _game_ending,
    "figures_merged": _figures_merged,
    "game_over": _game_over,
    "undone": _undone,
    "adjusted": _adjusted,
    "corrected": _corrected,
    "lapsed": _lapsed,
    "undrawn": _undrawn,
}

NARRATED_EVENTS: Final = frozenset(_NARRATORS)
"""The event types that give a line; any other type gives none."""


# Pieces of sentences -------------------------------------------------------------------------


def _name(names: Sequence[str], seat: int) -> str:
    """The seat's name, isolated (FSI ... PDI) so that a name written right to left, or one
    saved before names were checked, cannot reorder the words of the line around it; a seat
    beyond ``names`` is called by its number, counted from 1."""
    return isolate(names[seat]) if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _role(feature: str) -> str:
    return FOLLOWER_ROLES.get(feature, "follower")


def _points(points: int) -> str:
    return "1 point" if points == 1 else f"{points} points"


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _place(where: Mapping[str, Any] | None, kind: str) -> str:
    """A feature as records name it (x, y, feature): "the city at (1, 0)"."""
    if not where:
        return f"a {kind}"
    feature = where.get("feature", kind)
    if "x" not in where or "y" not in where:
        return f"a {feature}"
    return f"the {feature} at ({where['x']}, {where['y']})"


def _action_text(action: str, options: Options | None = None) -> str:
    """The message's words in the table's edition (the engine's ``message_text``), or as
    printed on the first editions' tiles without the options, or the action's name."""
    if options is not None and action in _ACTIONS:
        return message_text(options, MessageAction(action))
    return _ACTION_TEXT.get(action, action.replace("_", " "))


def _reason(event: Event) -> str:
    """Why the points were scored, as " for ..." (or " at the table"), to follow the points."""
    reason = event.get("reason")
    where = event.get("where")
    if reason in FEATURE_KINDS:
        return f" for {_place(where, reason)}"
    if reason == "final":
        category = event.get("category")
        return f" for {_place(where, category)}" if category else " at the table"
    if reason == "tabletop":
        category = event.get("category")
        return f" for {_place(where, category)}" if category else " at the table"
    if reason == "message":
        if event.get("choice") == "points":
            return " for the message"
        action = event.get("action", "")
        place = _place(where, _SMALLEST.get(action, "feature"))
        if action in _SMALLEST and place.startswith("the "):
            return f" for their smallest {place.removeprefix('the ')}"
        if where:
            return f" for {place} (message)"
        return f" for the message ({_lower_first(_action_text(action))})"
    return f" ({reason})" if reason else ""


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _landing(event: Event) -> str:
    """Where the figure now stands: "lands on 25 (dark space)", "lands on 2, lap 2 (52 in all)"."""
    total = event["total"]
    space = event.get("space", total % SCOREBOARD_SPACES)
    landing = f"lands on {space}"
    if event.get("dark"):
        landing += " (dark space)"
    lap = total // SCOREBOARD_SPACES + 1
    if lap > 1:
        landing += f", lap {lap} ({total} in all)"
    return landing


def public_view_json(state: GameState) -> str:
    """The view every seat and spectator shares, serialised once for all of them. It has no
    ``you``: a page learns its seat from its snapshot's ``table.you``."""
    shared = view(state, None)
    del shared["you"]
    if "undoable" in shared:
        undoable = shared["undoable"]
        names = [player.name for player in state.players]
        shared["undo_text"] = None if undoable is None else entry_words(undoable, names)
    return dumps(shared)
