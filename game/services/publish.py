"""Telling a table's pages about a change: the one way, after the change is committed.

Every function that changes a table (``commands``, ``saving``, ``preferences``, ``lobby``,
``seating``) calls one of the functions below inside its transaction. The message goes to the
table's group on the channel layer only once the transaction commits (``transaction.on_commit``):
nobody ever sees a change that was rolled back, and a caller that is not a websocket (a view, a
management command, a computer player's thread, a test) broadcasts exactly like a consumer does,
without doing anything else.

The callback runs in the thread that commits. When that thread serves an event loop (a
``database_sync_to_async`` thread of a consumer, a computer player's thread beside the server's
loop), the message is handed to that loop and the thread does not wait for it: the database
thread is not held up by the channel layer. A thread with no loop at hand (a management command)
sends it on a loop of its own and waits. Each publication says whether it reached the layer, so
that a consumer can still tell its own sender when the layer is down (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
from collections.abc import Callable
from typing import Any, Final

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from game.ops.unavailable import Service, unreachable_service

logger = logging.getLogger(__name__)

CHANGED: Final = "table.changed"
"""Every connection rebuilds its snapshot (lobby, seats, preferences, the start)."""
UPDATE: Final = "table.update"
"""A command was applied: the update, serialised once per language (``texts``), each connection
sending the text of its own."""
REMATCH: Final = "table.rematch"
"""The finished game's rematch exists: every connection looks up where it goes."""

_serving: asyncio.AbstractEventLoop | None = None
"""The loop of this process's websockets, for threads that asgiref did not start."""


def group_name(code: str) -> str:
    """The table's group on the channel layer: every connection to the table is in it."""
    return f"table.{code}"


def serve_from(loop: asyncio.AbstractEventLoop) -> None:
    """Note the loop that serves this process's websockets (consumers and computer players call
    it): a commit in a thread of ours (computers.py's pool) hands its messages to that loop."""
    global _serving
    _serving = loop


class Publication:
    """One message to a table's group, sent after the commit; ``delivered`` tells whether it
    reached the channel layer. A publication whose transaction rolls back is never sent and
    never settles: nobody holds it then, since the function that made it raised."""

    __slots__ = ("_future",)

    def __init__(self) -> None:
        self._future: concurrent.futures.Future[bool] = concurrent.futures.Future()

    async def delivered(self) -> bool:
        """Wait for the send (from async code, once the service function returned: its
        transaction committed, so the send is under way); False if it failed."""
        return await asyncio.wrap_future(self._future)

    def _settle(self, outcome: bool) -> None:
        if not self._future.done():
            self._future.set_result(outcome)


def changed(code: str, *, history: bool = False) -> Publication:
    """Every page of the table takes a fresh snapshot (and the history too, with ``history``:
    the game started)."""
    event: dict[str, Any] = {"type": CHANGED}
    if history:
        event["history"] = True
    return after_commit(code, lambda: event)


def rematch(code: str) -> Publication:
    """Every page of the finished table ``code`` moves to its rematch."""
    return after_commit(code, lambda: {"type": REMATCH})


def after_commit(
    code: str, event: Callable[[], dict[str, Any]], publication: Publication | None = None
) -> Publication:
    """Send ``event()`` to the table's group once the current transaction commits (at once
    outside one). ``event`` is built then, once, whoever receives it."""
    if publication is None:
        publication = Publication()
    transaction.on_commit(lambda: _send(code, event, publication))
    return publication


def _send(code: str, event: Callable[[], dict[str, Any]], publication: Publication) -> None:
    """Never raises: the change is committed, and its caller must learn that it succeeded."""
    try:
        _hand_over(code, event(), publication)
    except Exception:
        logger.exception("Publishing to table %s failed", code)
        publication._settle(False)


def _hand_over(code: str, event: dict[str, Any], publication: Publication) -> None:
    layer = get_channel_layer()
    if layer is None:
        publication._settle(False)
        return
    try:
        own = asyncio.get_running_loop()
    except RuntimeError:
        own = None
    if own is not None:
        # Committed on the loop's own thread (it must not block here): a task of that loop.
        task = own.create_task(_group_send(layer, code, event))
        task.add_done_callback(lambda done: publication._settle(_outcome(done)))
        return
    loop = _loop()
    if loop is not None:
        future = asyncio.run_coroutine_threadsafe(_group_send(layer, code, event), loop)
        future.add_done_callback(lambda done: publication._settle(_outcome(done)))
        return
    publication._settle(async_to_sync(_group_send)(layer, code, event))


def _outcome(done: concurrent.futures.Future[bool] | asyncio.Future[bool]) -> bool:
    return not done.cancelled() and done.exception() is None and done.result()


def _loop() -> asyncio.AbstractEventLoop | None:
    """The event loop to hand a message to from this thread, if any: the loop of the consumer
    whose ``database_sync_to_async`` thread this is, else the serving loop noted by
    ``serve_from``."""
    candidates = []
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        candidates.append(getattr(SyncToAsync.threadlocal, "main_event_loop", None))
    candidates.append(_serving)
    for loop in candidates:
        if loop is not None and loop.is_running() and not loop.is_closed():
            return loop
    return None


async def _group_send(layer: Any, code: str, event: dict[str, Any]) -> bool:
    try:
        await layer.group_send(group_name(code), event)
    except Exception as error:
        if unreachable_service(error) is Service.REDIS:
            # Expected while Redis is away, and said by /healthz and the alerts: one line each.
            logger.warning(
                "Publishing %s to table %s failed: Redis unreachable", event["type"], code
            )
        else:
            logger.exception("Publishing %s to table %s failed", event["type"], code)
        return False
    return True
