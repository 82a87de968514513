"""A table's game state, rebuilt from its setup and log, with a per-process cache.

The database holds the setup and the log (as a game record does), and every ``CHECKPOINT_EVERY``
entries a checkpoint of the engine state (``checkpoints.py``). Every process keeps the latest
state of recently used tables in memory and applies just the log entries it has not seen, so a
command costs one engine step, not a replay of the whole game; a table the process has not seen
is loaded from its nearest checkpoint, and an undo fetches the state before the entry it takes
back the same way, so neither grows with the log. A checkpoint of another engine state version
(an earlier release's) is never read: the state is rebuilt from the setup and log, and the
checkpoint written again with this release's version.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any, Final

from django.conf import settings
from django.db import DatabaseError, transaction

from game.engine import corrections
from game.engine.commands import Correct, Undo, parse_command
from game.engine.errors import IllegalCommand
from game.engine.events import Event
from game.engine.play import apply, new_game, undo_from, undo_target
from game.engine.record import FORMAT
from game.engine.state import GameState, Mode, effective
from game.models import Checkpoint, LogEntry, Table
from game.store import checkpoints

CACHE_SIZE: Final = 2000
logger = logging.getLogger(__name__)

TableKey = tuple[int, str]
"""A table's id and code. The cache is keyed by both: after a database is restored or flushed
while processes keep running, an id can name another game, but not with the same random code."""


class _StateCache:
    """The latest known state of each table, least recently used evicted."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.states: OrderedDict[TableKey, GameState] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: TableKey) -> GameState | None:
        with self.lock:
            state = self.states.get(key)
            if state is not None:
                self.states.move_to_end(key)
            return state

    def put(self, key: TableKey, state: GameState) -> None:
        with self.lock:
            known = self.states.get(key)
            if known is not None and known.version > state.version:
                return
            self.states[key] = state
            self.states.move_to_end(key)
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


def log_actions(table_id: int, start: int, stop: int) -> list[dict[str, Any]]:
    """The actions of the log entries ``start`` to ``stop - 1``, in order."""
    return list(
        LogEntry.objects.filter(table_id=table_id, index__gte=start, index__lt=stop)
        .order_by("index")
        .values_list("action", flat=True)
    )


class _History:
    """Earlier states of one table, each from the nearest checkpoint (or the setup) and the log
    entries after it; an undo in those entries fetches the state before the entry it took back
    the same way. Remembers what it built, for the rest of one load or undo."""

    def __init__(self, table_id: int, setup: dict[str, Any] | None) -> None:
        self.table_id = table_id
        self.setup = setup
        self.known: dict[int, GameState] = {}
        self.kept: dict[int, list[int]] = {}
        """The actions that count (``effective``) of some known states, by version."""
        self.stale: dict[int, bytes] = {}
        """Checkpoints refused as another version's, by version: written again once known."""

    def at(self, version: int) -> GameState:
        """The state after the first ``version`` log entries."""
        known = self.known.get(version)
        if known is None:
            known = self.known[version] = self.replay(self._start(version), version)
            self._renew()
        return known

    def replay(self, state: GameState, version: int) -> GameState:
        """``state`` moved on to ``version`` by the log entries in between."""
        known_kept = self.kept.get(state.version)
        if known_kept is not None and self.known.get(state.version) is state:
            kept: list[int] | None = list(known_kept)
        else:
            kept = None
        for action in log_actions(self.table_id, state.version, version):
            self.known.setdefault(state.version, state)
            if action.get("type") == Undo.type:
                if kept is None:
                    kept = effective(state.log)
                if not kept:
                    raise IllegalCommand("there is nothing to undo", "nothing_to_undo")
                target = kept.pop()
                before = self.at(target)
                state, _ = undo_from(state, action["seat"], before, target=target)
            elif action.get("type") == Correct.type:
                command = parse_command(action)
                assert isinstance(command, Correct)
                state, _ = self.correct(state, action["seat"], command)
                if kept is not None:
                    kept.append(state.version - 1)
            else:
                state, _ = apply(state, action["seat"], parse_command(action))
                if kept is not None:
                    kept.append(state.version - 1)
        if kept is not None:
            self.kept[state.version] = kept
        return state

    def correct(
        self, state: GameState, seat: int, command: Correct
    ) -> tuple[GameState, list[Event]]:
        """The engine's ``correct``, replaying from a state at or before the corrected entry
        (the nearest checkpoint's) rather than from the setup: the state at the entry's log
        index, or, when an earlier correction changed what came before it, the state before
        the earliest entry corrections changed. The engine checks that a start fits the
        corrected history and replays from the setup otherwise, so this only bounds the work."""
        amendments = state.amendments or corrections.NONE
        changed = [index for index, _ in amendments.replaced] + list(amendments.lapsed)
        earliest = min((index for index in changed if index < command.entry), default=None)
        versions = [command.entry] if command.entry <= state.version else []
        if earliest is not None:
            versions.append(earliest)
        # Lazily: the second start is built only if the first does not fit.
        return corrections.correct(state, seat, command, (self.at(v) for v in versions))

    def _start(self, version: int) -> GameState:
        """The nearest known state or checkpoint at or before ``version``, else the setup."""
        best = max((v for v in self.known if v <= version), default=-1)
        row = (
            Checkpoint.objects.filter(
                table_id=self.table_id, version__gt=best, version__lte=version
            )
            .order_by("-version")
            .values_list("version", "state")
            .first()
        )
        if row is not None:
            try:
                state, kept = checkpoints.decode(row[1])
            except checkpoints.StaleCheckpoint as error:
                # Expected once per checkpoint after a release that changed the engine's state.
                logger.info("table %s: rebuilt from its log: %s", self.table_id, error)
                self.stale[row[0]] = bytes(row[1])
            except checkpoints.CheckpointError as error:
                logger.warning("table %s: checkpoint ignored: %s", self.table_id, error)
            else:
                return self._remember(state, kept)
        if best >= 0:
            return self.known[best]
        if self.setup is None:
            self.setup = Table.objects.values_list("setup", flat=True).get(pk=self.table_id)
        assert self.setup is not None, "the game has not started"
        return self._remember(_new_game(self.setup)[0], [])

    def _remember(self, state: GameState, kept: list[int]) -> GameState:
        self.known[state.version] = state
        self.kept[state.version] = kept
        return state

    def _renew(self) -> None:
        """Write again, with this release's version, each refused checkpoint whose state the
        replay has now built, so that the next load starts from it."""
        for version in [v for v in self.stale if v in self.known]:
            renew_checkpoint(self.table_id, version, self.stale.pop(version), self.known[version])


def load_state(table: Table) -> GameState:
    """The state at ``table.version``: from the cache, catching up on entries it has not seen."""
    return load_state_at((table.pk, table.code), table.version, table.setup)


def load_state_at(key: TableKey, version: int, setup: dict[str, Any] | None = None) -> GameState:
    """The state of a started table at ``version``; reads the setup only if neither the cache
    nor a checkpoint has what it needs."""
    history = _History(key[0], setup)
    cached = STATES.get(key)
    if cached is not None and cached.version == version:
        return cached
    if cached is not None and cached.version < version:
        state = history.replay(cached, version)
    else:
        state = history.at(version)
    STATES.put(key, state)
    return state


def undo(
    key: TableKey, state: GameState, seat: int, target: int | None = None
) -> tuple[GameState, list[Event]]:
    """``state`` with its latest entry that still counts taken back (the engine's undo), from
    the nearest checkpoint before that entry rather than from the setup. ``target``: that
    entry's index, when the caller already knows it (``undo_target`` reads the whole log)."""
    if state.mode is not Mode.TABLETOP:
        raise IllegalCommand("only entries of a tabletop game can be undone", "undo_not_tabletop")
    if target is None:
        target = undo_target(state)
    before = _History(key[0], None).at(target)
    return undo_from(state, seat, before, target=target)


def correct(
    key: TableKey, state: GameState, seat: int, command: Correct
) -> tuple[GameState, list[Event]]:
    """``state`` with an entry corrected (the engine's ``correct``), replayed from the nearest
    checkpoint before the corrected entry. Checkpoints stay valid: each is the state after a
    prefix of the log, which a later correction does not change."""
    return _History(key[0], None).correct(state, seat, command)


def save_checkpoint(table_id: int, from_version: int, state: GameState) -> None:
    """Store ``state`` as a checkpoint if the entries just saved crossed a multiple of
    ``CHECKPOINT_EVERY``."""
    every = settings.CHECKPOINT_EVERY
    if every <= 0 or state.version // every == from_version // every:
        return
    Checkpoint.objects.bulk_create(
        [Checkpoint(table_id=table_id, version=state.version, state=checkpoints.encode(state))],
        ignore_conflicts=True,
    )


def renew_checkpoint(table_id: int, version: int, refused: bytes, state: GameState) -> None:
    """Replace the checkpoint ``refused`` (of another engine state version) with ``state``.

    Only while the row still holds what was refused: another process may have renewed it
    meanwhile. It runs where the state was rebuilt, often a read: in a savepoint, and a
    database that does not take the write now only leaves the old row, refused again next
    time, rather than failing the read."""
    try:
        with transaction.atomic():
            Checkpoint.objects.filter(table_id=table_id, version=version, state=refused).update(
                state=checkpoints.encode(state)
            )
    except DatabaseError as error:
        logger.warning("table %s: checkpoint at %s not renewed: %s", table_id, version, error)


def remember(key: TableKey, state: GameState) -> None:
    STATES.put(key, state)


def record_of(table: Table) -> dict[str, Any]:
    """The game record (rules/record-format.md) of the table so far. It holds the hidden orders."""
    setup = dict(table.setup or {})
    actions = list(
        LogEntry.objects.filter(table=table).order_by("index").values_list("action", flat=True)
    )
    return {"format": FORMAT, **setup, "actions": actions}


def downloadable_record(table: Table) -> dict[str, Any]:
    """The record offered for download: at a tabletop game without the undrawn messages' order.

    An undo can reopen a finished tabletop game, so its record must not tell what comes next:
    the stack lists the messages drawn so far in their order (drawn messages go to the bottom
    and an undo puts them back on top, so every draw of the game came from the top of the
    setup's stack), then the undrawn ones in number order, and the seed, which fixes the whole
    order, is left out. The record still replays to the same scores, draws and decisions. A
    board game cannot be reopened, so its finished record keeps everything.
    """
    full = record_of(table)
    if full.get("mode") != Mode.TABLETOP.value:
        return full
    drawn: list[int] = []
    for entry_events in [initial_state(table)[1]] + list(
        LogEntry.objects.filter(table=table).order_by("index").values_list("events", flat=True)
    ):
        for event in entry_events:
            if event.get("type") == "message_drawn" and event["message"] not in drawn:
                drawn.append(event["message"])
    stack = list(full["messages"])
    if stack[: len(drawn)] != drawn:
        raise AssertionError("messages are drawn from the top of the setup's stack")
    full.pop("seed", None)
    full["messages"] = drawn + sorted(stack[len(drawn) :])
    return full


def effective_events(table: Table) -> list[Event]:
    """The events of the game as it stands: those of entries an undo took back are left out
    (each remaining entry was applied to the state the entries before it lead to)."""
    rows = list(
        LogEntry.objects.filter(table=table).order_by("index").values_list("action", "events")
    )
    if any(action.get("type") == Correct.type for action, _ in rows):
        # A correction changed earlier entries: their stored events no longer tell the game.
        return corrections.play_events(load_state(table))
    events = list(initial_state(table)[1])
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


def history_entries(table: Table) -> list[list[Event]]:
    """The events of the game so far, the setup's first, then each log entry's: narrated one
    entry at a time, since a computer's entry names its seat as played by a computer."""
    entries = [list(initial_state(table)[1])]
    entries.extend(
        LogEntry.objects.filter(table=table).order_by("index").values_list("events", flat=True)
    )
    return entries
