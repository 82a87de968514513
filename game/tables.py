"""A table's game state, rebuilt from its setup and log, with a per-process cache.

The database holds only the setup and the log (as a game record does); every process keeps the
latest state of recently used tables in memory and applies just the log entries it has not seen,
so a command costs one engine step, not a replay of the whole game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, Final

from .engine.commands import parse_command
from .engine.record import FORMAT
from .engine.state import Event, GameState, apply, effective, new_game
from .engine.views import view
from .jsontext import dumps
from .models import LogEntry, Table

CACHE_SIZE: Final = 2000


class _StateCache:
    """The latest known state of each table (by primary key), least recently used evicted."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.states: OrderedDict[int, GameState] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, table_id: int) -> GameState | None:
        with self.lock:
            state = self.states.get(table_id)
            if state is not None:
                self.states.move_to_end(table_id)
            return state

    def put(self, table_id: int, state: GameState) -> None:
        with self.lock:
            known = self.states.get(table_id)
            if known is not None and known.version > state.version:
                return
            self.states[table_id] = state
            self.states.move_to_end(table_id)
            while len(self.states) > self.size:
                self.states.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.states.clear()


STATES = _StateCache(CACHE_SIZE)


def initial_state(table: Table) -> tuple[GameState, list[Event]]:
    """The state before the first command, and the events of setting up (first turn, tile)."""
    assert table.setup is not None, "the game has not started"
    return _new_game(table.setup)


def _new_game(setup: dict[str, Any]) -> tuple[GameState, list[Event]]:
    return new_game(
        setup["players"],
        setup["preset"],
        options=setup["options"],
        mode=setup["mode"],
        seed=setup["seed"],
        tiles=setup.get("tiles"),
        messages=setup["messages"],
    )


def _apply_entries(state: GameState, actions: Iterable[dict[str, Any]]) -> GameState:
    for action in actions:
        state, _ = apply(state, action["seat"], parse_command(action))
    return state


def load_state(table: Table) -> GameState:
    """The state at ``table.version``: from the cache, catching up on entries it has not seen."""
    return load_state_at(table.pk, table.version, table.setup)


def load_state_at(table_id: int, version: int, setup: dict[str, Any] | None = None) -> GameState:
    """The state of a started table at ``version``; reads the setup only if the cache lacks it."""
    cached = STATES.get(table_id)
    if cached is not None and cached.version == version:
        return cached
    if cached is None or cached.version > version:
        if setup is None:
            setup = Table.objects.values_list("setup", flat=True).get(pk=table_id)
        assert setup is not None, "the game has not started"
        cached = _new_game(setup)[0]
    actions = (
        LogEntry.objects.filter(table_id=table_id, index__gte=cached.version, index__lt=version)
        .order_by("index")
        .values_list("action", flat=True)
    )
    state = _apply_entries(cached, actions)
    STATES.put(table_id, state)
    return state


def remember(table_id: int, state: GameState) -> None:
    STATES.put(table_id, state)


def public_view_json(state: GameState) -> str:
    """The view every seat shares, as JSON without the ``you`` key (see ``for_seat``)."""
    shared = view(state, None)
    del shared["you"]
    return dumps(shared)


def for_seat(view_json: str, seat: int | None) -> str:
    """Insert ``you`` into a shared view: one serialisation serves every connection."""
    return '{"you":' + ("null" if seat is None else str(seat)) + "," + view_json[1:]


def record_of(table: Table) -> dict[str, Any]:
    """The game record (record-format.md) of the table so far. It holds the hidden orders."""
    setup = dict(table.setup or {})
    actions = list(
        LogEntry.objects.filter(table=table).order_by("index").values_list("action", flat=True)
    )
    return {"format": FORMAT, **setup, "actions": actions}


def effective_events(table: Table) -> list[Event]:
    """The events of the game as it stands: those of entries an undo took back are left out
    (each remaining entry was applied to the state the entries before it lead to)."""
    events = list(initial_state(table)[1])
    rows = list(
        LogEntry.objects.filter(table=table).order_by("index").values_list("action", "events")
    )
    for index in effective([action for action, _ in rows]):
        events.extend(rows[index][1])
    return events


def history_events(table: Table) -> list[Event]:
    """Every event of the game so far, from the setup on."""
    events = list(initial_state(table)[1])
    for entry_events in (
        LogEntry.objects.filter(table=table).order_by("index").values_list("events", flat=True)
    ):
        events.extend(entry_events)
    return events
