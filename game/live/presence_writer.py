"""Writing this process's presence book (game/services/presence_book.py) through to the database.

Every ``PRESENCE_WRITE_SECONDS`` one task of the serving event loop refreshes the rows of the
sockets that pinged since the last write, in one query, and removes the rows of sockets that
closed without their clean-up (telling their tables who is connected now). Other processes read
presence from the database (``presence.connected_seats``) and count a row for ``TIMEOUT`` after
its refresh, so a socket that pings every 20 s still counts everywhere.

The task starts with the first socket of its event loop (``start``), logs a failed write and
goes on, and ends once the process holds no socket and nothing to clean up: it never outlives
the sockets it serves (a test's event loop ends with nothing of it pending), and the next socket
starts it again.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from game.ops.unavailable import unreachable_service
from game.services import presence, publish
from game.services.presence_book import BOOK, PresenceBook

logger = logging.getLogger(__name__)

_task: asyncio.Task[None] | None = None


def start() -> None:
    """Make sure the writer runs on the running event loop (a consumer calls it as it opens)."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is not None and not _task.done() and _task.get_loop() is loop:
        return
    _task = loop.create_task(_write_through(BOOK), name="presence writer")


async def _write_through(book: PresenceBook) -> None:
    while True:
        await asyncio.sleep(settings.PRESENCE_WRITE_SECONDS)
        try:
            await flush(book)
        except Exception as error:
            service = unreachable_service(error)
            if service is not None:
                logger.warning("Writing presence: %s unreachable; trying again", service.value)
            else:
                logger.exception("Writing presence failed; trying again")
        if book.idle():
            return


async def flush(book: PresenceBook = BOOK, grace: float | None = None) -> None:
    """Refresh the rows of the sockets that pinged, and remove those of sockets that closed at
    least ``grace`` seconds ago (default: one interval) without their own clean-up."""
    if grace is None:
        grace = settings.PRESENCE_WRITE_SECONDS
    work = book.take(grace)
    if work.refresh:
        try:
            await database_sync_to_async(presence.refresh)(work.refresh)
        except BaseException:
            book.again(work.refresh)
            raise
    if work.departed:
        codes = await database_sync_to_async(presence.leave_all)(work.departed)
        book.removed(work.departed)
        logger.info("Cleaned up after %d sockets closed without their clean-up", len(work.departed))
        for code in codes:
            await _tell_presence(code)


async def _tell_presence(code: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    seats = await database_sync_to_async(presence.summary)(code)
    try:
        await layer.group_send(publish.group_name(code), {"type": "table.presence", "seats": seats})
    except Exception:
        logger.exception("Publishing the presence of table %s failed", code)
