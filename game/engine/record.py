"""Game records (rules/record-format.md): read, validate, replay, export.

A record fully determines a game: setup, the order of the hidden stacks, and every decision.
Replaying a state's exported record yields the identical state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .commands import COMMAND_TYPES, parse_command
from .errors import EngineError, RecordError
from .events import Event
from .play import apply, new_game
from .presets import PRESETS
from .state import GameState, Mode
from .views import pending

FORMAT: Final = "carcassonne-messengers/1"
_KEYS: Final = {
    "format",
    "mode",
    "players",
    "preset",
    "options",
    "tiles",
    "messages",
    "seed",
    "actions",
}


@dataclass(frozen=True, slots=True)
class Replay:
    """The state a record leads to, and every event on the way."""

    state: GameState
    events: list[Event]


def load(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Parse and validate the shape of a record (not yet the legality of its actions)."""
    if isinstance(source, str | bytes):
        try:
            data = json.loads(source)
        except (ValueError, UnicodeDecodeError) as error:
            raise RecordError(
                f"the record is not valid JSON: {error}", "record_not_json", detail=str(error)
            ) from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object", "record_not_object")
    if data.get("format") != FORMAT:
        raise RecordError(f"the record's format must be {FORMAT!r}", "record_format", format=FORMAT)
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise RecordError(
            f"unknown record keys: {', '.join(unknown)}", "record_unknown_keys", keys=unknown
        )
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names", "record_players")
    if not isinstance(data.get("preset"), str):
        raise RecordError(
            "'preset' must be one of c1-zmg, c2-hig, c2-zmg, c3",
            "record_preset",
            known=list(PRESETS),
        )
    if "options" in data and not isinstance(data["options"], Mapping):
        raise RecordError("'options' must be an object", "record_options")
    if "tiles" in data and (
        not isinstance(data["tiles"], list) or not all(isinstance(t, str) for t in data["tiles"])
    ):
        raise RecordError("'tiles' must be a list of tile letters", "record_tiles")
    if "messages" in data and (
        not isinstance(data["messages"], list)
        or not all(isinstance(m, int) and not isinstance(m, bool) for m in data["messages"])
    ):
        raise RecordError("'messages' must be a list of message numbers", "record_messages")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("'seed' must be a whole number", "record_seed")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list", "record_actions")
    for index, action in enumerate(actions):
        if not isinstance(action, Mapping):
            raise RecordError(
                f"action {index}: must be an object",
                "record_action_not_object",
                index=index,
            )
        if action.get("type") not in COMMAND_TYPES:
            raise RecordError(
                f"action {index}: unknown type {action.get('type')!r}",
                "record_action_type",
                index=index,
                kind=str(action.get("type"))[:40],
            )
        seat = action.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RecordError(
                f"action {index}: 'seat' must be a whole number",
                "record_action_seat",
                index=index,
            )
    return dict(data)


def start(record: Mapping[str, Any]) -> tuple[GameState, list[Event]]:
    """The state before the record's first action."""
    try:
        return new_game(
            record["players"],
            record["preset"],
            options=record.get("options"),
            mode=record.get("mode", Mode.BOARD.value),
            seed=record.get("seed", 0),
            tiles=record.get("tiles"),
            messages=record.get("messages"),
        )
    except EngineError as error:
        raise RecordError(f"setup: {error}", "record_setup", reason=error) from None


def replay(source: str | bytes | Mapping[str, Any]) -> Replay:
    """Replay a record; an illegal action raises ``RecordError`` naming its index and reason."""
    record = load(source)
    state, events = start(record)
    for index, action in enumerate(record.get("actions", [])):
        try:
            state, new_events = apply(state, action["seat"], parse_command(action))
        except EngineError as error:
            kind = action.get("type")
            raise RecordError(
                f"action {index} ({kind}): {error}",
                "record_action",
                index=index,
                kind=str(kind),
                reason=error,
            ) from None
        events.extend(new_events)
    return Replay(state, events)


def export(state: GameState) -> dict[str, Any]:
    """The record of a game so far: replaying it gives back ``state``.

    It stores the resolved options, not only the preset, so that it replays the same even if a
    preset's defaults change.

    It holds the full tile and message orders: show it to players only once the game is over.
    """
    setup = state.setup
    record: dict[str, Any] = {
        "format": FORMAT,
        "mode": setup.mode.value,
        "players": list(setup.players),
        "preset": setup.preset,
        "options": setup.options.to_json(),
        "seed": setup.seed,
    }
    if setup.mode is Mode.BOARD:
        record["tiles"] = list(setup.tiles)
    record["messages"] = list(setup.messages)
    record["actions"] = [dict(action) for action in state.log]
    return record


def output(result: Replay) -> dict[str, Any]:
    """What ``manage.py replay`` prints (rules/record-format.md, "Output of replay")."""
    state = result.state
    compact = None
    waiting = pending(state)
    if waiting is not None:
        compact = {"seat": waiting["seat"], "type": waiting["type"]}
        if waiting["type"] == "resolve_message":
            compact["message"] = waiting["message"]
    players = []
    for player in state.players:
        entry: dict[str, Any] = {
            "name": player.name,
            "score": player.score,
            "meeple": player.meeple,
            "messenger": player.messenger,
        }
        if state.mode is Mode.BOARD:
            entry["followers"] = player.followers
        players.append(entry)
    result_json: dict[str, Any] = {
        "finished": state.finished,
        "turn": state.turn,
        "active_seat": state.active,
        "pending": compact,
        "players": players,
    }
    if state.mode is Mode.BOARD:
        result_json["tile"] = state.tile
        result_json["tiles_left"] = len(state.bag)
    result_json["options"] = state.options.to_json()
    result_json["events"] = result.events
    return result_json
