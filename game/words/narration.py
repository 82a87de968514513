"""The game log in words, and the final scoring broken down by category.

The engine's events are made for programs; players want to read what happened ("Ann scores 6
points for the city (2 tiles north of the start tile); the meeple lands on 10 (dark space)").
Each event becomes a line object (``Line``): the event's type (``kind``), its text in the active
language, the seat it is about and the board square it points at, so a page never parses the
text. A line names its square in words a player can find on the board (game/words/places.py),
never by coordinates; the square itself rides beside the text (``at``).

Each line is worked out from one event alone, never from its neighbours. The protocol sends the
whole log on connect (``history.lines``) and then the lines of each batch of new events
(``update.lines``); because no line depends on another event, narrating a game piece by piece
gives exactly the lines of narrating it whole, wherever the batches happen to split it.

Every sentence is one message of the catalogue, with named placeholders; a sentence with variants
(a feature kind, a figure, a dark space) has one message per variant, so each language words it
whole. Every name in a line sits between the Unicode isolates FSI (U+2068) and PDI (U+2069):
pages show the lines as text, and the isolates keep a name's direction from spilling into its
neighbours.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypedDict

from django.utils.translation import gettext, ngettext, pgettext

from game.engine.messengers import SCOREBOARD_SPACES, MessageAction
from game.engine.presets import Options
from game.words.isolates import isolate
from game.words.messages import feature_name, figure_name, message_text, role_name
from game.words.places import square_values

Event = Mapping[str, Any]


class Line(TypedDict):
    """One line of the log: ``kind`` is the type of the event it words, ``seat`` the seat it is
    about (None: no one's), ``at`` the board square [x, y] it points at (None: none),
    ``feature`` the kind of the feature there it speaks of (None: none or a tile) and
    ``location`` where on that tile the feature lies, as the engine names it ("E", "NL"; None:
    not known), so that a page can light the whole feature."""

    kind: str
    text: str
    seat: int | None
    at: list[int] | None
    feature: str | None
    location: str | None


FEATURE_KINDS: Final = ("road", "city", "monastery", "field")

BREAKDOWN_KEYS: Final = ("play", "road", "city", "monastery", "field", "table")
"""The columns of ``final_breakdown``, in display order: points scored during play, then the
final scoring per feature kind, then final points entered at the table (a tabletop game's final
points carry no category, since the app does not see the physical board)."""

_ACTIONS: Final = frozenset(action.value for action in MessageAction)
_SMALLEST: Final[dict[str, str]] = {
    "smallest_road": "road",
    "smallest_city": "city",
    "smallest_monastery": "monastery",
}


def narrate(
    events: Sequence[Event], names: Sequence[str], options: Options | None = None
) -> list[Line]:
    """The log lines for ``events``, oldest first, in the active language; ``names`` gives each
    seat's name by index; ``options``, the table's, word the messages as the edition does.

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
        marked[seat] = pgettext("a seat a computer plays", "%(name)s (computer)") % {
            "name": marked[seat]
        }
    return marked


def narrate_event(
    event: Event, names: Sequence[str], options: Options | None = None
) -> Line | None:
    """The line for one event, or None for an event type this module does not know."""
    text = event_text(event, names, options)
    if text is None:
        return None
    seat = event.get("seat")
    if seat is None and isinstance(event.get("action"), Mapping):
        seat = event["action"].get("seat")  # a lapsed entry: the seat that made it
    return {
        "kind": str(event["type"]),
        "text": text,
        "seat": seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
        "at": square(event),
        **feature_of(event),
    }


def event_text(event: Event, names: Sequence[str], options: Options | None = None) -> str | None:
    """The words of one event, or None for an event type this module does not know."""
    kind = event.get("type")
    if kind == "message_drawn":
        return _message_drawn(event, names, options)
    if kind == "message_resolved":
        return _message_resolved(event, names, options)
    narrator = _NARRATORS.get(kind if isinstance(kind, str) else "")
    return None if narrator is None else narrator(event, names)


def undisclosed_draw(seat: int, names: Sequence[str]) -> Line:
    """The line of a message drawn whose number stays hidden (a correction's preview must not
    show the stack): "Ann draws the next message of the stack", which says that it is not
    named, rather than leaving the reader to wonder which."""
    return {
        "kind": "message_drawn",
        "text": gettext("%(name)s draws the next message of the stack")
        % {"name": _name(names, seat)},
        "seat": seat,
        "at": None,
        "feature": None,
        "location": None,
    }


def square(event: Event) -> list[int] | None:
    """The board square an event points at: a placed tile's, else the scored or completed
    feature's (``where``), a returned follower's, a message's feature; None for none."""
    for place in (event, event.get("where"), event.get("follower"), event.get("feature")):
        if isinstance(place, Mapping):
            x, y = place.get("x"), place.get("y")
            if isinstance(x, int) and isinstance(y, int):
                return [x, y]
    return None


class FeaturePlace(TypedDict):
    feature: str | None
    location: str | None


def feature_of(event: Event) -> FeaturePlace:
    """The feature an event concerns, at the square ``square`` gives: its kind (``road``,
    ``city``, ``monastery``, ``field``) and where on the tile it lies; None for both when the
    event concerns no feature (a tile placed, a turn, a message drawn)."""
    for place in (event, event.get("where"), event.get("follower"), event.get("feature")):
        if isinstance(place, Mapping):
            x, y = place.get("x"), place.get("y")
            if isinstance(x, int) and isinstance(y, int):
                kind = place.get("feature")
                if kind not in FEATURE_KINDS:
                    break
                at = place.get("at")
                return {"feature": kind, "location": at if isinstance(at, str) else None}
    return {"feature": None, "location": None}


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
    return gettext("Turn %(turn)s: %(name)s") % {
        "turn": event["turn"],
        "name": _name(names, event["seat"]),
    }


def _tile_drawn(event: Event, names: Sequence[str]) -> str:
    left = event.get("tiles_left")
    values = {"name": _name(names, event["seat"]), "tile": event["tile"], "count": left}
    if left is None:
        return gettext("%(name)s draws tile %(tile)s") % values
    if left == 0:
        return gettext("%(name)s draws tile %(tile)s (the last one)") % values
    return (
        ngettext(
            "%(name)s draws tile %(tile)s (%(count)s left)",
            "%(name)s draws tile %(tile)s (%(count)s left)",
            left,
        )
        % values
    )


def _tile_discarded(event: Event, names: Sequence[str]) -> str:
    return gettext("Tile %(tile)s fits nowhere and is discarded") % {"tile": event["tile"]}


def _tile_placed(event: Event, names: Sequence[str]) -> str:
    return gettext("%(name)s places tile %(tile)s (%(where)s)") % {
        "name": _name(names, event["seat"]),
        "tile": event["tile"],
        **square_values(event["x"], event["y"]),
    }


def _follower_placed(event: Event, names: Sequence[str]) -> str:
    feature = event["feature"]
    values = {"name": _name(names, event["seat"]), "at": place_words(event.get("at"))}
    if feature == "road":
        if values["at"]:
            return gettext("%(name)s places a highwayman on the road (%(at)s)") % values
        return gettext("%(name)s places a highwayman on the road") % values
    if feature == "city":
        if values["at"]:
            return gettext("%(name)s places a knight on the city (%(at)s)") % values
        return gettext("%(name)s places a knight on the city") % values
    if feature == "monastery":
        return gettext("%(name)s places a monk on the monastery") % values
    if feature == "field":
        if values["at"]:
            return gettext("%(name)s places a farmer on the field (%(at)s)") % values
        return gettext("%(name)s places a farmer on the field") % values
    return gettext("%(name)s places a follower") % values


def _feature_completed(event: Event, names: Sequence[str]) -> str:
    worth = points_words(event["points"])
    where = event.get("where") or {}
    feature = event["feature"]
    if "x" not in where or "y" not in where:
        if feature == "monastery":
            return gettext("A monastery is completed: %(points)s") % {"points": worth}
        if feature == "road":
            return gettext("A road is completed: %(points)s") % {"points": worth}
        return gettext("A city is completed: %(points)s") % {"points": worth}
    values = {
        **square_values(where["x"], where["y"]),
        "points": worth,
        "tiles": _tiles(event["tiles"]),
    }
    if feature == "monastery":
        return gettext("The monastery (%(where)s) is completed: %(points)s") % values
    if feature == "road":
        return gettext("The road (%(where)s) is completed: %(tiles)s, %(points)s") % values
    return gettext("The city (%(where)s) is completed: %(tiles)s, %(points)s") % values


def _points_scored(event: Event, names: Sequence[str]) -> str:
    """Who scores how many points for what, then where the figure lands (with the lap past
    50): two clauses, each a sentence of the catalogue."""
    scoring = _scoring(event, _name(names, event["seat"]))
    # Translators: who scores what, then where their figure lands: "Ann scores 6 points for the
    # city (2 tiles north of the start tile); the meeple lands on 10 (dark space)".
    line = gettext("%(scoring)s; %(landing)s") % {"scoring": scoring, "landing": _landing(event)}
    if event.get("reason") == "final":
        return gettext("Final scoring: %(line)s") % {"line": line}
    return line


def _scoring(event: Event, name: str) -> str:
    """ "Ann scores 6 points for the city (2 tiles north of the start tile)", for each reason its
    own sentence."""
    reason = event.get("reason")
    where = event.get("where")
    values: dict[str, Any] = {"name": name, "points": points_words(event["points"])}
    if isinstance(where, Mapping) and "x" in where and "y" in where:
        values |= square_values(where["x"], where["y"])
    at = "x" in values
    if reason in FEATURE_KINDS or reason in ("final", "tabletop"):
        kind = reason if reason in FEATURE_KINDS else event.get("category")
        if kind in FEATURE_KINDS:
            if at:
                return _SCORES_AT[kind]() % values
            return _SCORES_FOR[kind]() % values
        return gettext("%(name)s scores %(points)s at the table") % values
    if reason == "message":
        action = event.get("action", "")
        if event.get("choice") == "points":
            return gettext("%(name)s scores %(points)s for the message") % values
        if action in _SMALLEST and at:
            return _SCORES_SMALLEST[_SMALLEST[action]]() % values
        kind = (where or {}).get("feature") if isinstance(where, Mapping) else None
        if at and kind in FEATURE_KINDS:
            return _SCORES_MESSAGE_AT[kind]() % values
        values["action"] = _action_text(action)
        return gettext("%(name)s scores %(points)s for the message (%(action)s)") % values
    if reason:
        values["reason"] = str(reason).replace("_", " ")
        return gettext("%(name)s scores %(points)s (%(reason)s)") % values
    return gettext("%(name)s scores %(points)s") % values


_SCORES_AT: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext("%(name)s scores %(points)s for the road (%(where)s)"),
    "city": lambda: gettext("%(name)s scores %(points)s for the city (%(where)s)"),
    "monastery": lambda: gettext("%(name)s scores %(points)s for the monastery (%(where)s)"),
    "field": lambda: gettext("%(name)s scores %(points)s for the field (%(where)s)"),
}
_SCORES_FOR: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext("%(name)s scores %(points)s for a road"),
    "city": lambda: gettext("%(name)s scores %(points)s for a city"),
    "monastery": lambda: gettext("%(name)s scores %(points)s for a monastery"),
    "field": lambda: gettext("%(name)s scores %(points)s for a field"),
}
_SCORES_SMALLEST: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext("%(name)s scores %(points)s for their smallest road (%(where)s)"),
    "city": lambda: gettext("%(name)s scores %(points)s for their smallest city (%(where)s)"),
    "monastery": lambda: gettext(
        "%(name)s scores %(points)s for their smallest monastery (%(where)s)"
    ),
}
_SCORES_MESSAGE_AT: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext("%(name)s scores %(points)s for the road (%(where)s, message)"),
    "city": lambda: gettext("%(name)s scores %(points)s for the city (%(where)s, message)"),
    "monastery": lambda: gettext(
        "%(name)s scores %(points)s for the monastery (%(where)s, message)"
    ),
    "field": lambda: gettext("%(name)s scores %(points)s for the field (%(where)s, message)"),
}


def _shared_scoring(event: Event, names: Sequence[str]) -> str:
    """A shared scoring's line, before each seat's own: "Ann and Hana share 4 points for a city"."""
    return _share_words(_names(names, event["seats"]), event)


def _share_words(who: str, event: Event) -> str:
    values = {"names": who, "points": points_words(event["points"])}
    category = event.get("category")
    if category == "road":
        return gettext("%(names)s share %(points)s for a road") % values
    if category == "city":
        return gettext("%(names)s share %(points)s for a city") % values
    if category == "monastery":
        return gettext("%(names)s share %(points)s for a monastery") % values
    if category == "field":
        return gettext("%(names)s share %(points)s for a field") % values
    return gettext("%(names)s share %(points)s") % values


def _names(names: Sequence[str], seats: Sequence[int]) -> str:
    """Seats' names as a list in words: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    named = [_name(names, seat) for seat in seats]
    if len(named) < 2:
        return "".join(named)
    return gettext("%(names)s and %(last)s") % {
        # Translators: the separator of a list of names, as in "Ann, Bob and Cy".
        "names": pgettext("list separator", ", ").join(named[:-1]),
        "last": named[-1],
    }


def _follower_returned(event: Event, names: Sequence[str]) -> str:
    values: dict[str, Any] = {"name": _name(names, event["seat"])}
    feature = event["feature"]
    if "x" in event and "y" in event and feature in _RETURNS_FROM:
        return _RETURNS_FROM[feature]() % (values | square_values(event["x"], event["y"]))
    return gettext("%(name)s's %(role)s returns") % (values | {"role": role_name(feature)})


_RETURNS_FROM: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext("%(name)s's highwayman returns from the road (%(where)s)"),
    "city": lambda: gettext("%(name)s's knight returns from the city (%(where)s)"),
    "monastery": lambda: gettext("%(name)s's monk returns from the monastery (%(where)s)"),
    "field": lambda: gettext("%(name)s's farmer returns from the field (%(where)s)"),
}


def _message_drawn(event: Event, names: Sequence[str], options: Options | None = None) -> str:
    return gettext("%(name)s draws message %(message)s: %(text)s") % {
        "name": _name(names, event["seat"]),
        "message": event["message"],
        "text": _action_text(event["action"], options),
    }


def _message_resolved(event: Event, names: Sequence[str], options: Options | None = None) -> str:
    values: dict[str, Any] = {"name": _name(names, event["seat"])}
    points = event.get("points", 0)
    values["points"] = points_words(points)
    if event.get("choice") == "points":
        return gettext("%(name)s takes the %(points)s instead of the action") % values
    action = event.get("action")
    if action == "extra_tile":
        if options is not None and message_text(options, MessageAction.EXTRA_TILE) != (
            message_text(None, MessageAction.EXTRA_TILE)
        ):
            return gettext("%(name)s takes the action: play an extra turn") % values
        return gettext("%(name)s takes the action: one more tile") % values
    follower = event.get("follower")
    if isinstance(follower, Mapping) and follower:
        kind = follower.get("feature", "")
        at = "x" in follower and "y" in follower
        if at and kind in FEATURE_KINDS:
            values |= square_values(follower["x"], follower["y"])
            if points:
                return _RETURNED_SCORED[kind]() % values
            return _RETURNED_UNSCORED[kind]() % values
        values["role"] = role_name(kind)
        if points:
            return gettext("%(name)s takes the action: %(points)s, and the %(role)s returns") % (
                values
            )
        return gettext("%(name)s takes the action: the %(role)s returns without scoring") % (values)
    feature = event.get("feature")
    if isinstance(feature, Mapping) and feature:
        kind = feature.get("feature", "")
        if "x" in feature and "y" in feature and kind in FEATURE_KINDS:
            values |= square_values(feature["x"], feature["y"])
            return _ACTION_FOR[kind]() % values
        return gettext("%(name)s takes the action: %(points)s") % values
    if points:
        return gettext("%(name)s takes the action: %(points)s") % values
    return gettext("%(name)s takes the action: no points") % values


_RETURNED_SCORED: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext(
        "%(name)s takes the action: %(points)s for the road (%(where)s), and the highwayman returns"
    ),
    "city": lambda: gettext(
        "%(name)s takes the action: %(points)s for the city (%(where)s), and the knight returns"
    ),
    "monastery": lambda: gettext(
        "%(name)s takes the action: %(points)s for the monastery (%(where)s), and the monk returns"
    ),
    "field": lambda: gettext(
        "%(name)s takes the action: %(points)s for the field (%(where)s), and the farmer returns"
    ),
}
_RETURNED_UNSCORED: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext(
        "%(name)s takes the action: the highwayman on the road (%(where)s) returns without scoring"
    ),
    "city": lambda: gettext(
        "%(name)s takes the action: the knight on the city (%(where)s) returns without scoring"
    ),
    "monastery": lambda: gettext(
        "%(name)s takes the action: the monk on the monastery (%(where)s) returns without scoring"
    ),
    "field": lambda: gettext(
        "%(name)s takes the action: the farmer on the field (%(where)s) returns without scoring"
    ),
}
_ACTION_FOR: Final[dict[str, Callable[[], str]]] = {
    "road": lambda: gettext("%(name)s takes the action: %(points)s for the road (%(where)s)"),
    "city": lambda: gettext("%(name)s takes the action: %(points)s for the city (%(where)s)"),
    "monastery": lambda: gettext(
        "%(name)s takes the action: %(points)s for the monastery (%(where)s)"
    ),
    "field": lambda: gettext("%(name)s takes the action: %(points)s for the field (%(where)s)"),
}


def _message_capped(event: Event, names: Sequence[str]) -> str:
    return ngettext(
        "%(name)s earns another message but may draw only %(count)s per turn",
        "%(name)s earns another message but may draw only %(count)s per turn",
        event["cap"],
    ) % {"name": _name(names, event["seat"]), "count": event["cap"]}


def _extra_turn(event: Event, names: Sequence[str]) -> str:
    return gettext("%(name)s plays an extra turn") % {"name": _name(names, event["seat"])}


def _game_ending(event: Event, names: Sequence[str]) -> str:
    # No turn number: at a tabletop game ``turn`` counts the turn that was begun and not played.
    return gettext("The game ends: final scoring")


def _figures_merged(event: Event, names: Sequence[str]) -> str:
    values = {"name": _name(names, event["seat"]), "points": points_words(event["points"])}
    if event["figure"] == "messenger":
        return gettext("%(name)s's figures merge: %(points)s on the messenger") % values
    return gettext("%(name)s's figures merge: %(points)s on the meeple") % values


def _game_over(event: Event, names: Sequence[str]) -> str:
    """The ranking, ties sharing a place ("1. Ann 50, 1. Bob 50, 3. Cy 41")."""
    scores: list[int] = list(event["scores"])
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    ranked = []
    for seat in order:
        place = 1 + sum(1 for other in scores if other > scores[seat])
        ranked.append(
            # Translators: one player's place in the final ranking: "1. Ann 50".
            gettext("%(place)s. %(name)s %(score)s")
            % {"place": place, "name": _name(names, seat), "score": scores[seat]}
        )
    return gettext("Final ranking: %(ranking)s") % {
        "ranking": pgettext("list separator", ", ").join(ranked)
    }


def _undone(event: Event, names: Sequence[str]) -> str:
    """Which entry a correction at a tabletop game took back, in the words of the entry."""
    return gettext("Undone by %(name)s: %(entry)s") % {
        "name": _name(names, event["seat"]),
        "entry": entry_words(event["action"], names),
    }


def entry_words(action: Event, names: Sequence[str], *, turn: int | None = None) -> str:
    """An entry of a tabletop game's log in words ("Ann scores 4 points for a city"), a clause
    that follows a colon. ``turn``: for an entry the host added, the turn it was added to."""
    kind = action["type"]
    if kind == "score":
        return _entry_score(action, names)
    if kind == "score_shared":
        seats = [share["seat"] for share in action["shares"]]
        return _share_words(_names(names, seats), action)
    whose = {"name": _name(names, action.get("seat", -1))}
    if kind == "end_turn":
        return gettext("%(name)s ends the turn") % whose
    if kind == "resolve_message":
        counted = action.get("points")
        if action["choice"] == "points":
            return gettext("%(name)s takes the 2 points") % whose
        if counted is not None:
            return gettext("%(name)s takes the action (%(points)s)") % (
                whose | {"points": points_words(counted)}
            )
        return gettext("%(name)s takes the action") % whose
    if kind == "choose_figure":
        if action["figure"] == "messenger":
            return gettext("%(name)s chooses the messenger") % whose
        return gettext("%(name)s chooses the meeple") % whose
    if kind == "end_game":
        return gettext("the game ends")
    if kind == "finish":
        return gettext("the final scoring is complete")
    if kind == "adjust":
        values = whose | {"points": f"{action['points']:+d}"}
        if action["figure"] == "messenger":
            return gettext("%(name)s's messenger is adjusted by %(points)s") % values
        return gettext("%(name)s's meeple is adjusted by %(points)s") % values
    if kind == "correct":
        replacement = action.get("replacement")
        if replacement is None:
            return gettext("the host's deletion of an entry")
        if action.get("insert"):
            added = {"entry": _scoring_words(replacement, names), "turn": turn}
            if turn is None:
                return gettext("the host's added entry: %(entry)s") % added
            return gettext("the host's added entry: %(entry)s, forgotten in turn %(turn)s") % added
        return gettext("the host's correction to %(entry)s") % {
            "entry": _scoring_words(replacement, names)
        }
    return str(kind).replace("_", " ")


def _entry_score(action: Event, names: Sequence[str]) -> str:
    """A ``score`` entry: who, how many points, for which feature kind, with which figure."""
    values = {"name": _name(names, action["seat"]), "points": points_words(action["points"])}
    category = action.get("category")
    figure = action.get("figure")
    scored = (
        _SCORES_FOR[category]() % values
        if category in _SCORES_FOR
        else gettext("%(name)s scores %(points)s") % values
    )
    if figure == "messenger":
        return gettext("%(scoring)s with the messenger") % {"scoring": scored}
    if figure == "meeple":
        return gettext("%(scoring)s with the meeple") % {"scoring": scored}
    return scored


def _adjusted(event: Event, names: Sequence[str]) -> str:
    """A signed correction of one figure ("Ann's meeple: -5 (adjustment); lands on 16")."""
    values = {"name": _name(names, event["seat"]), "points": f"{event['points']:+d}"}
    if event["figure"] == "messenger":
        adjusted = gettext("%(name)s's messenger: %(points)s (adjustment)") % values
    else:
        adjusted = gettext("%(name)s's meeple: %(points)s (adjustment)") % values
    return gettext("%(scoring)s; %(landing)s") % {"scoring": adjusted, "landing": _landing(event)}


def _corrected(event: Event, names: Sequence[str]) -> str:
    """The correction of an entry with points: "Host corrects Ann's 66 points (city, meeple)
    to 6", or "... to Bob's 6 points (city)" when more than the points changed; "Host deletes
    ..." for a deletion. The lines of the entries it made lapse follow (``lapsed``)."""
    replacement = event.get("replacement")
    if event.get("inserted") and replacement is not None:
        return gettext("Host adds %(entry)s, forgotten in turn %(turn)s") % {
            "entry": _scoring_words(replacement, names),
            "turn": event.get("turn"),
        }
    was = _scoring_words(event["action"], names)
    if replacement is None:
        return gettext("Host deletes %(entry)s") % {"entry": was}
    changed = {
        key
        for key in set(event["action"]) | set(replacement)
        if event["action"].get(key) != replacement.get(key)
    }
    if changed != {"points"}:
        return gettext("Host corrects %(entry)s to %(new)s") % {
            "entry": was,
            "new": _scoring_words(replacement, names),
        }
    points = replacement["points"]
    new = f"{points:+d}" if replacement["type"] == "adjust" else str(points)
    return gettext("Host corrects %(entry)s to %(new)s") % {"entry": was, "new": new}


def scoring_words(action: Event, names: Sequence[str]) -> str:
    """An entry with points in words, for a list of the entries the host may correct."""
    return _scoring_words(action, names)


def _scoring_words(action: Event, names: Sequence[str]) -> str:
    """An entry with points, as the object of a correction: "Ann's 66 points (city, meeple)"."""
    kind = action.get("type")
    points = action.get("points", 0)
    details = _details(action)
    if kind == "score_shared":
        seats = [share.get("seat") for share in action.get("shares", ())]
        values = {
            "points": points_words(points),
            "names": _names(names, [seat for seat in seats if isinstance(seat, int)]),
            "details": details,
        }
        if details:
            return gettext("the shared %(points)s of %(names)s (%(details)s)") % values
        return gettext("the shared %(points)s of %(names)s") % values
    values = {"name": _name(names, action["seat"]), "points": points_words(points)}
    if kind == "adjust":
        values["points"] = f"{points:+d}"
        if action.get("figure") == "messenger":
            return gettext("%(name)s's adjustment of %(points)s on the messenger") % values
        return gettext("%(name)s's adjustment of %(points)s on the meeple") % values
    if kind == "resolve_message":
        if action.get("figure"):
            values["figure"] = figure_name(action["figure"])
            return gettext("%(name)s's message action (%(points)s, %(figure)s)") % values
        return gettext("%(name)s's message action (%(points)s)") % values
    if details:
        return gettext("%(name)s's %(points)s (%(details)s)") % (values | {"details": details})
    return gettext("%(name)s's %(points)s") % values


def _details(action: Event) -> str:
    """An entry's category and figure in words, "city, meeple"."""
    details = []
    if action.get("category"):
        details.append(feature_name(action["category"]))
    if action.get("figure"):
        details.append(figure_name(action["figure"]))
    return pgettext("list separator", ", ").join(details)


def _lapsed(event: Event, names: Sequence[str]) -> str:
    """An entry a correction skipped: "No longer applies: Bob's message 3 (smallest city, 4
    points)"."""
    action = event["action"]
    if action.get("type") == "resolve_message" and event.get("message") is not None:
        values: dict[str, Any] = {
            "name": _name(names, action["seat"]),
            "message": event["message"],
        }
        if action.get("choice") == "points":
            values["how"] = points_words(2)
        else:
            kind = event.get("message_action", "")
            values["how"] = _action_text(kind)
            if action.get("points") is not None:
                values["how"] = gettext("%(action)s, %(points)s") % {
                    "action": values["how"],
                    "points": points_words(action["points"]),
                }
        return gettext("No longer applies: %(name)s's message %(message)s (%(how)s)") % values
    return gettext("No longer applies: %(entry)s") % {"entry": entry_words(action, names)}


def _undrawn(event: Event, names: Sequence[str]) -> str:
    """The message a correction took back while it waited to be decided: "No longer drawn: Ann's
    message 8 (score a follower and return it) goes back on top"."""
    return gettext(
        "No longer drawn: %(name)s's message %(message)s (%(text)s) goes back on top"
    ) % {
        "name": _name(names, event["seat"]),
        "message": event["message"],
        "text": _action_text(event["action"]),
    }


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
    "message_drawn": lambda event, names: _message_drawn(event, names),
    "message_resolved": lambda event, names: _message_resolved(event, names),
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
    if 0 <= seat < len(names):
        return isolate(names[seat])
    # Translators: a seat at the table that has no name, counted from 1.
    return gettext("Seat %(number)s") % {"number": seat + 1}


def points_words(points: int) -> str:
    """A number of points with its noun: "1 point", "6 points" (each language's plural)."""
    # Translators: points on the score track; also inserted into other sentences after a verb
    # ("scores %(points)s") or a colon.
    return ngettext("%(count)s point", "%(count)s points", abs(points)) % {"count": points}


_PLACES: Final[dict[str, Callable[[], str]]] = {
    "N": lambda: pgettext("a place on a tile", "north edge"),
    "E": lambda: pgettext("a place on a tile", "east edge"),
    "S": lambda: pgettext("a place on a tile", "south edge"),
    "W": lambda: pgettext("a place on a tile", "west edge"),
    "NL": lambda: pgettext("a place on a tile", "north edge, west half"),
    "NR": lambda: pgettext("a place on a tile", "north edge, east half"),
    "EL": lambda: pgettext("a place on a tile", "east edge, north half"),
    "ER": lambda: pgettext("a place on a tile", "east edge, south half"),
    "SL": lambda: pgettext("a place on a tile", "south edge, east half"),
    "SR": lambda: pgettext("a place on a tile", "south edge, west half"),
    "WL": lambda: pgettext("a place on a tile", "west edge, south half"),
    "WR": lambda: pgettext("a place on a tile", "west edge, north half"),
}
"""The engine's names of a tile's edges and half-edges (on the board, north up), in words. Of an
edge's two halves, ``L`` is the one met first going clockwise round the tile: ``NL`` is the
north edge's west half, ``SL`` the south edge's east half."""


def place_words(at: object) -> str:
    """Where on its tile a feature lies, in words ("north edge, west half"); "" for none, and a
    name this module does not know as it is."""
    if not isinstance(at, str) or not at:
        return ""
    words = _PLACES.get(at)
    return words() if words is not None else at


def _tiles(count: int) -> str:
    return ngettext("%(count)s tile", "%(count)s tiles", count) % {"count": count}


def _action_text(action: str, options: Options | None = None) -> str:
    """The message's words in the table's edition, or as printed on the first editions' tiles
    without the options, or the action's name."""
    if action in _ACTIONS:
        return message_text(options, MessageAction(action))
    return action.replace("_", " ")


def _landing(event: Event) -> str:
    """Where the figure now stands: "the meeple lands on 25 (dark space)", "the messenger lands
    on 2, lap 2 (52 in all)"; each variant its own sentence."""
    total = event["total"]
    values = {
        "space": event.get("space", total % SCOREBOARD_SPACES),
        "lap": total // SCOREBOARD_SPACES + 1,
        "total": total,
    }
    dark = bool(event.get("dark"))
    lapped = values["lap"] > 1
    if event.get("figure") == "messenger":
        if dark and lapped:
            text = gettext(
                "the messenger lands on %(space)s (dark space), lap %(lap)s (%(total)s in all)"
            )
        elif dark:
            text = gettext("the messenger lands on %(space)s (dark space)")
        elif lapped:
            text = gettext("the messenger lands on %(space)s, lap %(lap)s (%(total)s in all)")
        else:
            text = gettext("the messenger lands on %(space)s")
    elif dark and lapped:
        text = gettext("the meeple lands on %(space)s (dark space), lap %(lap)s (%(total)s in all)")
    elif dark:
        text = gettext("the meeple lands on %(space)s (dark space)")
    elif lapped:
        text = gettext("the meeple lands on %(space)s, lap %(lap)s (%(total)s in all)")
    else:
        text = gettext("the meeple lands on %(space)s")
    return text % values
