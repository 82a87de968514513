"""Computer players at a table: noticing that one is to move, and moving for it.

A computer moves through ``commands.submit_command`` like a person: with the table's current
version and an id of its own (``cpu.<version>``), so its command is in the log and the record,
and a second process that reaches the same decision is refused as a duplicate or as stale:
each computer move happens exactly once, however many server processes notice it.

Who notices: the process that applied the previous command (``wake`` after each command, a
start, a hand-over), any process a page connects to, and, should a process die between noticing
and moving, the next ping of any connection to the table once it has been idle for
``COMPUTER_RESUME_SECONDS``. Computers move only while someone (a player or a watcher) is
connected to the table: a game of computers alone does not run unattended, and resumes when a
page opens it.

The thinking (``think``: the one call into ``game.players``) runs in a small pool of threads of
its own (``COMPUTER_THREADS``), never on the event loop that serves the websockets nor in the
single thread Channels gives database calls, which every page waits for; so does the database
work with PostgreSQL. With SQLite (``make run``), which takes one writer at a time anyway, the
database work shares Channels' thread. At most ``COMPUTER_THREADS`` of these steps run at once
per process, however many tables have a computer to move.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import random
import secrets
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from game import players
from game.engine.state import GameState
from game.engine.views import pending
from game.models import Connection, Seat, Table
from game.services import publish
from game.services.commands import submit_command
from game.services.presence import TIMEOUT
from game.services.refusals import CommandRefused
from game.services.saving import Applied
from game.store.tables import load_state

logger = logging.getLogger(__name__)

ID_PREFIX: Final = "cpu."
"""A computer's command id is this and the version it was made against."""

_T = TypeVar("_T")
_executor: ThreadPoolExecutor | None = None
_thinkers: ProcessPoolExecutor | None = None
_running: dict[str, asyncio.Task[None]] = {}
_again: set[str] = set()
_gate: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
_budget: tuple[asyncio.AbstractEventLoop, list[float]] | None = None


@dataclass(frozen=True, slots=True)
class Due:
    """A computer is to decide for ``seat`` at ``version``."""

    version: int
    seat: int
    level: str
    state: GameState
    """The game at ``version`` (immutable, so another thread may read it)."""


def seat_to_move(table: Table) -> int | None:
    """The seat the game waits for, or None."""
    if table.status != Table.Status.PLAYING:
        return None
    return _waiting_seat(load_state(table))


def _waiting_seat(state: GameState) -> int | None:
    waiting = pending(state)
    return None if waiting is None else waiting.get("seat")


def due(code: str) -> Due | None:
    """The computer move the table waits for, if it does and anyone is watching."""
    table = Table.objects.filter(code=code).first()
    if table is None or table.status != Table.Status.PLAYING or table.mode != "board":
        return None
    if not Seat.objects.filter(table=table).exclude(computer="").exists():
        return None
    watched = Connection.objects.filter(table=table, seen__gte=timezone.now() - TIMEOUT)
    if not watched.exists():
        return None
    state = load_state(table)
    seat = _waiting_seat(state)
    if seat is None:
        return None
    level = Seat.objects.filter(table=table, index=seat).values_list("computer", flat=True).first()
    if not level:
        return None
    return Due(version=table.version, seat=seat, level=level, state=state)


def think(turn: Due) -> dict[str, Any]:
    """The computer's command: the one call into ``game.players`` (no database)."""
    seen = players.seat_view(turn.state, turn.seat)
    return players.decide(turn.level, seen, random.Random(secrets.randbits(64)))


async def _think(turn: Due) -> dict[str, Any]:
    """``think``, in a worker process when ``COMPUTER_PROCESSES`` is set: thinking in this
    process's threads would hold the interpreter lock that the event loop serving the people
    needs (docs/performance.md, "Computer players beside people"). The worker is given the
    seat's view only, never the state with its hidden orders."""
    if not settings.COMPUTER_PROCESSES:
        return await _thinking(functools.partial(think, turn))
    seen = players.seat_view(turn.state, turn.seat)
    rng = random.Random(secrets.randbits(64))
    async with _turns():
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                _thinking_processes(), players.decide, turn.level, seen, rng
            )
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the pool refuses all work from then on, so
            # the next move starts a new one instead of every computer of this process stopping.
            global _thinkers
            _thinkers = None
            raise


def _thinking_processes() -> Executor:
    global _thinkers
    if _thinkers is None:
        # Started afresh ("spawn"), not forked from a process that runs an event loop and threads.
        _thinkers = ProcessPoolExecutor(
            max_workers=settings.COMPUTER_PROCESSES, mp_context=multiprocessing.get_context("spawn")
        )
    return _thinkers


def move(code: str, turn: Due, command: dict[str, Any]) -> Applied | None:
    """Send the computer's command; None if the table moved on meanwhile (another process
    moved for it, or its person took the seat back)."""
    try:
        return submit_command(
            code,
            turn.seat,
            turn.version,
            f"{ID_PREFIX}{turn.version}",
            command,
            host=False,
            computer=turn.level,
        )
    except CommandRefused as refused:
        if refused.code not in ("stale", "duplicate", "not_computer", "game_over"):
            logger.error("A computer's move at table %s was refused: %s", code, refused.message)
        return None


def resume_due(status: str, updated: object, has_computer: bool) -> bool:
    """Whether a ping should wake a table's computers: a game with a computer seat that has
    not changed for ``COMPUTER_RESUME_SECONDS``."""
    if status != Table.Status.PLAYING or not has_computer:
        return False
    idle = timedelta(seconds=settings.COMPUTER_RESUME_SECONDS)
    return updated is not None and timezone.now() - updated >= idle  # type: ignore[operator]


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=settings.COMPUTER_THREADS, thread_name_prefix="computer"
        )
    return _executor


def _with_connections(function: Callable[[], _T]) -> _T:
    close_old_connections()
    try:
        return function()
    finally:
        close_old_connections()


def _turns() -> asyncio.Semaphore:
    """At most ``COMPUTER_THREADS`` computer steps of this process at once, however many tables
    have a computer to move: people's commands queue behind a few of them at most, never behind
    every computer table's (docs/performance.md, "Computer players beside people")."""
    global _gate
    loop = asyncio.get_running_loop()
    if _gate is None or _gate[0] is not loop:
        _gate = (loop, asyncio.Semaphore(settings.COMPUTER_THREADS))
    return _gate[1]


async def _move_slot() -> None:
    """Wait for this process's next computer move slot: at most
    ``COMPUTER_MOVES_PER_SECOND`` moves a second in all, so that computers at full speed
    (``COMPUTER_PAUSE_MS=0``) on many tables leave the people's commands their share of the
    process (docs/performance.md, "Computer players beside people")."""
    global _budget
    rate = settings.COMPUTER_MOVES_PER_SECOND
    if not rate:
        return
    loop = asyncio.get_running_loop()
    if _budget is None or _budget[0] is not loop:
        _budget = (loop, [0.0])
    now = loop.time()
    slot = max(now, _budget[1][0])
    _budget[1][0] = slot + 1 / rate
    if slot > now:
        await asyncio.sleep(slot - now)


async def _database(function: Callable[[], _T]) -> _T:
    """A step that reads or writes the database, in a thread (see the module's docstring)."""
    async with _turns():
        if connection.vendor == "sqlite":
            # SQLite has one writer at a time, and its in-memory databases refuse a second
            # thread outright ("table is locked"): share the thread Channels gives it instead.
            return await database_sync_to_async(function)()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_pool(), _with_connections, function)


async def _thinking(function: Callable[[], _T]) -> _T:
    """The thinking, without the database: always in the computers' own threads."""
    async with _turns():
        return await asyncio.get_running_loop().run_in_executor(_pool(), function)


def wake(code: str) -> None:
    """Let the table's computers move if one is due; at most one runner per table and process
    (a wake while it runs makes it look once more before it stops)."""
    loop = asyncio.get_running_loop()
    publish.serve_from(loop)
    task = _running.get(code)
    if task is not None and not task.done():
        _again.add(code)
        return
    _running[code] = loop.create_task(_run(code))


async def _run(code: str) -> None:
    try:
        while True:
            _again.discard(code)
            turn = await _database(functools.partial(due, code))
            if turn is None:
                if code in _again:
                    continue
                return
            if settings.COMPUTER_PAUSE_MS:
                await asyncio.sleep(settings.COMPUTER_PAUSE_MS / 1000)
            await _move_slot()
            command = await _think(turn)
            # submit_command publishes the move once it is committed (game/services/publish.py).
            applied = await _database(functools.partial(move, code, turn, command))
            if applied is None:
                if code in _again:
                    continue
                return
    except Exception:
        logger.exception("The computer players at table %s stopped", code)
    finally:
        if _running.get(code) is asyncio.current_task():
            del _running[code]


async def idle() -> None:
    """Wait until no computer runner of this process is busy (for tests and benchmarks)."""
    while any(not task.done() for task in _running.values()):
        await asyncio.gather(*_running.values(), return_exceptions=True)
