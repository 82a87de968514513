"""Refusals in the reader's language: why the engine would not take a command or a record.

An engine error names its reason as a ``code`` with ``params`` (game/engine/errors.py); each code
has one wording here, a function of its parameters that says the whole sentence through the
translation catalogues. ``engine_words`` words an error in the language active now (a page's, or
a websocket's, which its handlers and their threads inherit). The English message the engine
keeps beside the code is for logs, records and the command line; a person reads these words.

The words that tell what happened meanwhile (``meanwhile_words``) and why an ``end_turn`` came
too late (``turn_over_words``) live here too: the services find the facts, these say them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game.engine.errors import EngineError
from game.words.places import square_values

Params = Mapping[str, Any]


NAMES: Final = frozenset({"name", "sender"})
"""The parameters that hold a player's name."""


def engine_words(error: EngineError, shown: Callable[[str], str] | None = None) -> str:
    """``error`` in the active language: one sentence (or two) a player reads. ``shown``: how a
    player's name is written into it (the services isolate names, docs/protocol.md)."""
    wording = WORDINGS.get(error.code)
    if wording is None:  # a code without words is a bug (tests/services/test_refusal_words.py)
        return str(error)
    params = error.params
    if shown is not None:
        params = {
            key: shown(value) if key in NAMES and isinstance(value, str) else value
            for key, value in params.items()
        }
        reason = params.get("reason")
        if isinstance(reason, EngineError):
            params["reason"] = engine_words(reason, shown)
    if "x" in params and "y" in params:
        params = {**params, **square_values(params["x"], params["y"])}
    return wording(params)


def _quoted(keys: Sequence[object]) -> str:
    return ", ".join(f"'{key}'" for key in keys)


def _listed(values: Sequence[object]) -> str:
    return ", ".join(str(value) for value in values)


def _number(seat: object) -> object:
    """A seat as people count them, from 1 (the engine counts from 0)."""
    return seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else seat


def _reason(params: Params) -> str:
    reason = params.get("reason")
    return engine_words(reason) if isinstance(reason, EngineError) else str(reason)


def command_words(kind: str) -> str:
    """A command as something the game waits for (an accusative in German and Czech)."""
    words = {
        "place_tile": pgettext("the game waits for", "placing a tile"),
        "place_follower": pgettext("the game waits for", "placing a follower"),
        "skip_follower": pgettext("the game waits for", "placing no follower"),
        "choose_figure": pgettext("the game waits for", "a choice of figure"),
        "resolve_message": pgettext("the game waits for", "deciding the message"),
        "score": pgettext("the game waits for", "points"),
        "score_shared": pgettext("the game waits for", "shared points"),
        "end_turn": pgettext("the game waits for", "the end of the turn"),
        "end_game": pgettext("the game waits for", "the end of the game"),
        "finish": pgettext("the game waits for", "the end of the final scoring"),
        "undo": pgettext("the game waits for", "an undo"),
        "adjust": pgettext("the game waits for", "an adjustment"),
        "correct": pgettext("the game waits for", "a correction"),
    }
    return words.get(kind, kind)


def _either(items: Sequence[str]) -> str:
    """``a, b or c`` in the active language."""
    if len(items) < 2:
        return "".join(items)
    return pgettext("a list of choices", "%(items)s or %(last)s") % {
        "items": ", ".join(items[:-1]),
        "last": items[-1],
    }


def _not_whole(p: Params) -> str:
    if p.get("share"):
        return _("A share's '%(key)s' must be a whole number.") % p
    return _("'%(key)s' must be a whole number.") % p


def _not_one_of(p: Params) -> str:
    values = {"key": p["key"], "allowed": _listed(p["allowed"])}
    if p.get("share"):
        return _("A share's '%(key)s' must be one of %(allowed)s.") % values
    return _("'%(key)s' must be one of %(allowed)s.") % values


def _no_feature(p: Params) -> str:
    feature = p.get("feature")
    if feature == "city":
        return _("The tile (%(where)s) has no city at '%(at)s'.") % p
    if feature == "road":
        return _("The tile (%(where)s) has no road at '%(at)s'.") % p
    if feature == "field":
        return _("The tile (%(where)s) has no field at '%(at)s'.") % p
    return _("The tile (%(where)s) has no such feature.") % p


def _points_on_carrier(p: Params) -> str:
    if p.get("figure") == "messenger":
        return _("%(name)s's points all go on the messenger now.") % p
    return _("%(name)s's points all go on the meeple now.") % p


def _figure_fixed(p: Params) -> str:
    if p.get("figure") == "messenger":
        return _("%(name)s's points go on the messenger for the rest of this turn.") % p
    return _("%(name)s's points go on the meeple for the rest of this turn.") % p


def _final_points_figure(p: Params) -> str:
    if p.get("figure") == "messenger":
        return _("%(name)s's final points go on the messenger.") % p
    return _("%(name)s's final points go on the meeple.") % p


def _adjust_below_zero(p: Params) -> str:
    if p.get("figure") == "messenger":
        text = ngettext(
            "%(name)s's messenger has %(points)s point; it cannot lose %(loss)s.",
            "%(name)s's messenger has %(points)s points; it cannot lose %(loss)s.",
            p["points"],
        )
    else:
        text = ngettext(
            "%(name)s's meeple has %(points)s point; it cannot lose %(loss)s.",
            "%(name)s's meeple has %(points)s points; it cannot lose %(loss)s.",
            p["points"],
        )
    return text % p


def _wrong_command(p: Params) -> str:
    return _("The game waits for %(waiting)s, not %(command)s.") % {
        "waiting": _either([command_words(kind) for kind in p["waiting"]]),
        "command": command_words(p["command"]),
    }


def _too_old(p: Params) -> str:
    return (
        _(
            "Entry %(entry)s is too old to correct: corrections reach back over the latest"
            " %(entries)s entries with points, within the latest %(reach)s entries of the log (here"
            " back to entry %(oldest)s). Adjust the points instead."
        )
        % p
    )


WORDINGS: Final[Mapping[str, Callable[[Params], str]]] = {
    # A command that is not well formed (a client's mistake more than a player's).
    "not_whole": _not_whole,
    "not_one_of": _not_one_of,
    "not_boolean": lambda p: _("'%(key)s' must be true or false.") % p,
    "monastery_at": lambda p: _("A monastery is named without 'at'."),
    "at_without_feature": lambda p: _("'at' needs a 'feature'."),
    "bad_rotation": lambda p: _("'rotation' must be 0, 90, 180 or 270."),
    "points_range": lambda p: _("The points must be between %(least)s and %(most)s.") % p,
    "shares_not_list": lambda p: _("'shares' must be a list of objects with a 'seat'."),
    "shares_count": lambda p: _("Shared points are for %(least)s to %(most)s players.") % p,
    "share_unknown_key": lambda p: _("A share takes no %(keys)s.") % {"keys": _quoted(p["keys"])},
    "shares_seat_twice": lambda p: _("Shared points name a player twice."),
    "turn_too_small": lambda p: _("'turn' must be 1 or more."),
    "adjust_zero": lambda p: _("An adjustment of 0 points changes nothing."),
    "adjust_range": lambda p: _("An adjustment is between -%(most)s and %(most)s points.") % p,
    "entry_not_index": lambda p: _("'entry' must be the number of an entry of the log."),
    "replacement_not_action": lambda p: _(
        "'replacement' must be an action, or null to delete the entry."
    ),
    "replacement_type": lambda p: (
        _("A replacement is one of %(allowed)s, not '%(kind)s'.")
        % {"allowed": _listed(p["allowed"]), "kind": p["kind"]}
    ),
    "insert_type": lambda p: (
        _("An added entry is one of %(allowed)s.") % {"allowed": _listed(p["allowed"])}
    ),
    "insert_before": lambda p: _(
        "A forgotten entry is added before an end of turn that still counts."
    ),
    "replacement_seat": lambda p: _(
        "A replacement names its player: 'seat' must be a seat number."
    ),
    "command_not_object": lambda p: _("A command must be a JSON object."),
    "command_not_parsed": lambda p: _("A command must be read before it is applied."),
    "unknown_command": lambda p: _("Unknown command type '%(kind)s'.") % p,
    "unknown_key": lambda p: (
        _("A %(command)s command takes no %(keys)s.")
        % {"command": p["command"], "keys": _quoted(p["keys"])}
    ),
    "missing_key": lambda p: (
        _("A %(command)s command needs %(keys)s.")
        % {"command": p["command"], "keys": _quoted(p["keys"])}
    ),
    # A new game's setup.
    "player_count": lambda p: _("A game has %(least)s to %(most)s players, not %(count)s.") % p,
    "player_unnamed": lambda p: _("Every player needs a name."),
    "bad_mode": lambda p: (
        _("A game is played on the board or at a game night, not '%(mode)s'.") % p
    ),
    "bad_message_stack": lambda p: _("The message stack must hold the messages 1 to 8, once each."),
    "unknown_tile": lambda p: _("There is no tile '%(tile)s': tiles are lettered A to X.") % p,
    "too_many_tiles": lambda p: (
        ngettext(
            "The game has only %(count)s tile %(tile)s.",
            "The game has only %(count)s tiles %(tile)s.",
            p["count"],
        )
        % p
    ),
    # Whose decision it is, and when.
    "no_seat": lambda p: (
        _("There is no seat %(number)s at this table.") % {"number": _number(p.get("seat"))}
    ),
    "game_over": lambda p: _("The game is over."),
    "nothing_waiting": lambda p: _("Nothing is waiting for a decision."),
    "not_your_decision": lambda p: _("It is %(name)s's decision, not %(sender)s's.") % p,
    "not_your_turn_end": lambda p: _("Only %(name)s ends this turn.") % p,
    "wrong_command": _wrong_command,
    "turn_not_begun": lambda p: _("Turn %(turn)s has not begun; this is turn %(current)s.") % p,
    "turn_past": lambda p: (
        _("Turn %(turn)s is already over; it is %(name)s's turn %(current)s now.") % p
    ),
    "game_ending": lambda p: _("The game is ending; no turn is left to end."),
    "turn_ending": lambda p: _("%(name)s's turn %(turn)s is already ending.") % p,
    "end_game_mid_turn": lambda p: _("The game can end only between turns."),
    # The board.
    "no_tile": lambda p: _("There is no tile there (%(where)s).") % p,
    "no_monastery": lambda p: _("The tile (%(where)s) has no monastery.") % p,
    "no_feature": _no_feature,
    "not_open_cell": lambda p: (
        _("That place (%(where)s) is not an empty space next to the tiles on the board.") % p
    ),
    "does_not_fit": lambda p: (
        _("Tile %(tile)s turned by %(rotation)s° does not fit there (%(where)s).") % p
    ),
    "feature_occupied": lambda p: _("A follower already stands on that feature."),
    "no_follower_left": lambda p: _("%(name)s has no follower left in supply.") % p,
    # Points and figures.
    "points_on_carrier": _points_on_carrier,
    "figure_fixed": _figure_fixed,
    "final_points_figure": _final_points_figure,
    # Messages.
    "points_choice_extra": lambda p: _("Taking 2 points names no follower and no points."),
    "return_needs_message_8": lambda p: _(
        "Only message 8 may return a follower without scoring it."
    ),
    "tabletop_action_follower": lambda p: _(
        "At a game night, the message's action takes the points counted at the table, not a"
        " follower."
    ),
    "extra_tile_points_later": lambda p: _(
        "The extra tile's points are entered after it is placed."
    ),
    "unscored_return_points": lambda p: _("A follower returned without scoring scores 0 points."),
    "points_computed": lambda p: _("The app counts the action's points from the board."),
    "action_no_follower": lambda p: _("The action of message %(message)s takes no follower.") % p,
    "action_points_needed": lambda p: _("Enter the points the action gave at the table."),
    "action_impossible": lambda p: _("The action of message %(message)s is not possible now.") % p,
    "return_unnamed": lambda p: _("Name the follower to score and return."),
    "scoring_not_skippable": lambda p: _("This edition does not let you skip the scoring."),
    "not_returnable": lambda p: _(
        "That is not one of your followers that this message may return."
    ),
    # Undo, adjustments and corrections (game nights).
    "undo_not_tabletop": lambda p: _("Only entries of a game night can be undone."),
    "nothing_to_undo": lambda p: _("There is nothing to undo."),
    "undo_wrong_state": lambda p: _("The state given is not the one before the entry to undo."),
    "adjust_not_tabletop": lambda p: _("Points are adjusted only at a game night."),
    "adjust_below_zero": _adjust_below_zero,
    "correct_not_tabletop": lambda p: _("Entries are corrected only at a game night."),
    "too_old": _too_old,
    "no_entry": lambda p: (
        ngettext(
            "There is no entry %(entry)s: the log has %(count)s entry.",
            "There is no entry %(entry)s: the log has %(count)s entries.",
            p["count"],
        )
        % p
    ),
    "entry_lapsed": lambda p: (
        _("Entry %(entry)s no longer counts (undone, deleted or lapsed).") % p
    ),
    "not_scoring": lambda p: _("Only entries with points can be corrected."),
    "correction_refused": lambda p: (
        _("The corrected entry would not be accepted there: %(reason)s") % {"reason": _reason(p)}
    ),
    "resolution_not_deletable": lambda p: _(
        "A message's resolution cannot be deleted (the message would wait again); correct its"
        " points instead."
    ),
    "replacement_kind": lambda p: _("An entry's replacement must be the same kind of entry."),
    "resolution_keeps_choice": lambda p: _(
        "A message's resolution keeps its choice; only its points change."
    ),
    "replacement_same": lambda p: _("The replacement is the same as the entry."),
    "figure_unnamed": lambda p: _("Name the figure that takes %(name)s's corrected points.") % p,
    # Editions and house rules.
    "option_value": lambda p: (
        _("The house rule %(option)s must be one of %(allowed)s, not %(value)s.")
        % {"option": p["option"], "allowed": _listed(p["allowed"]), "value": p["value"]}
    ),
    "option_messages_per_turn": lambda p: (
        _("The house rule %(option)s must be a positive whole number or none, not %(value)s.") % p
    ),
    "unknown_option": lambda p: _("There is no house rule %(option)s.") % p,
    "unknown_preset": lambda p: _("There is no edition %(preset)s.") % p,
    "options_not_object": lambda p: _("The house rules must map each rule to its value."),
    # Game records (uploaded files).
    "record_not_json": lambda p: _("The record is not valid JSON (%(detail)s).") % p,
    "record_not_object": lambda p: _("A record must be a JSON object."),
    "record_format": lambda p: _("The record's format must be '%(format)s'.") % p,
    "record_unknown_keys": lambda p: (
        _("The record has unknown keys: %(keys)s.") % {"keys": _listed(p["keys"])}
    ),
    "record_players": lambda p: _("The record's 'players' must be a list of names."),
    "record_preset": lambda p: (
        _("The record's 'preset' must be one of %(known)s.") % {"known": _listed(p["known"])}
    ),
    "record_options": lambda p: _("The record's 'options' must be an object."),
    "record_tiles": lambda p: _("The record's 'tiles' must be a list of tile letters."),
    "record_messages": lambda p: _("The record's 'messages' must be a list of message numbers."),
    "record_seed": lambda p: _("The record's 'seed' must be a whole number."),
    "record_actions": lambda p: _("The record's 'actions' must be a list."),
    "record_action_not_object": lambda p: _("Action %(index)s of the record is not an object.") % p,
    "record_action_type": lambda p: (
        _("Action %(index)s of the record has an unknown type '%(kind)s'.") % p
    ),
    "record_action_seat": lambda p: (
        _("Action %(index)s of the record: 'seat' must be a whole number.") % p
    ),
    "record_setup": lambda p: (
        _("The record's setup is refused: %(reason)s") % {"reason": _reason(p)}
    ),
    "record_action": lambda p: (
        _("Action %(index)s of the record (%(kind)s) is refused: %(reason)s")
        % {"index": p["index"], "kind": p["kind"], "reason": _reason(p)}
    ),
}
"""Each engine code's wording, a function of the error's ``params``."""


_MEANWHILE_SHOWN: Final = 3
"""How many of the entries made meanwhile a refusal names (the latest); more are counted."""


def meanwhile_words(names: Sequence[str], since: Sequence[Mapping[str, Any]]) -> str:
    """What the entries since a client's version did, in words: "4 points were entered for
    Cleo", for a refusal that must say why the client's entry did not count. ``names``: the
    players' names as they may be shown (isolated)."""
    said = [entry_words(action, names) for action in since if action["type"] != "choose_figure"]
    if not said:
        said = [_("a figure was chosen")] if since else [_("the game moved on")]
    shown = said[-_MEANWHILE_SHOWN:]
    text = ", ".join(shown)
    if len(said) > len(shown):
        more = len(said) - len(shown)
        text = ngettext(
            "%(count)s more entry was made, then %(entries)s",
            "%(count)s more entries were made, then %(entries)s",
            more,
        ) % {"count": more, "entries": text}
    return text


def repeated_words(action: Mapping[str, Any], names: Sequence[str]) -> str:
    """Why an entry waits for its sender to confirm it: another device entered the same a moment
    ago (``action``: that entry, as the log holds it)."""
    return _(
        "Another device entered the same a moment ago (%(entry)s): count it once more, or not?"
    ) % {"entry": entry_words(action, names)}


def _both(items: Sequence[str]) -> str:
    """``a, b and c`` in the active language."""
    if len(items) < 2:
        return "".join(items)
    return pgettext("a list of names", "%(items)s and %(last)s") % {
        "items": ", ".join(items[:-1]),
        "last": items[-1],
    }


def entry_words(action: Mapping[str, Any], names: Sequence[str]) -> str:
    """One entry in words for a refusal's "Meanwhile ..."."""

    def name(seat: int) -> str:
        if 0 <= seat < len(names):
            return names[seat]
        return _("seat %(number)s") % {"number": seat + 1}

    kind = action["type"]
    if kind == "score":
        points = action["points"]
        return ngettext(
            "%(count)s point was entered for %(name)s",
            "%(count)s points were entered for %(name)s",
            points,
        ) % {"count": points, "name": name(action["seat"])}
    if kind == "score_shared":
        seats = [name(share["seat"]) for share in action["shares"]]
        points = action["points"]
        return ngettext(
            "%(count)s point each was entered for %(names)s",
            "%(count)s points each were entered for %(names)s",
            points,
        ) % {"count": points, "names": _both(seats)}
    if kind in ("undo", "end_game", "finish"):
        return {
            "undo": _("an entry was undone"),
            "end_game": _("the game was ended"),
            "finish": _("the final scoring was completed"),
        }[kind]
    seat = {"name": name(action["seat"])}
    done = {
        "end_turn": _("%(name)s's turn was ended"),
        "resolve_message": _("%(name)s resolved a message"),
        "place_tile": _("%(name)s placed a tile"),
        "place_follower": _("%(name)s placed a follower"),
        "skip_follower": _("%(name)s placed no follower"),
        "adjust": _("%(name)s had points adjusted by the host"),
        "correct": _("%(name)s corrected an earlier entry"),
    }.get(kind)
    if done is None:
        return _("%(name)s played (%(kind)s)") % {**seat, "kind": kind.replace("_", " ")}
    return done % seat


def stale_words(
    meanwhile: str,
    *,
    counted: bool,
    reason: EngineError | None = None,
    shown: Callable[[str], str] | None = None,
) -> str:
    """A refused command made against an older version: what happened meanwhile, and whether
    the sender decides again (``counted``: False for entries of points that did not count)."""
    if counted:
        return _("Meanwhile %(meanwhile)s; please decide again.") % {"meanwhile": meanwhile}
    if reason is None:
        return _("Meanwhile %(meanwhile)s; yours were not counted.") % {"meanwhile": meanwhile}
    return _("Meanwhile %(meanwhile)s; yours were not counted: %(reason)s") % {
        "meanwhile": meanwhile,
        "reason": engine_words(reason, shown),
    }


def turn_over_words(ended: str | None, now: str, turn: int, *, same_turn: bool, again: bool) -> str:
    """A refused ``end_turn`` naming whose turn had ended already (``ended``, the turn's player;
    ``now``, whose turn it is). ``same_turn``: the turn named is still ending; ``again``: the
    same player plays another turn."""
    values = {"ended": ended, "now": now, "turn": turn}
    if same_turn:
        return _("%(ended)s's turn is already ending; nothing more was ended.") % values
    if again:
        return _("%(ended)s's turn %(turn)s has already ended; %(now)s plays another turn now.") % (
            values
        )
    return (
        _("%(ended)s's turn has already ended; it is %(now)s's turn now. Nothing more was ended.")
        % values
    )
