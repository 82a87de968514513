"""The table's websocket: decode, authorise, call the services, send (docs/protocol.md).

The services publish their changes to the table's group themselves, after the commit
(game/services/publish.py); a handler here only answers its own connection."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from game.live import presence_writer, snapshots
from game.live.frames import BadField, BadFrame, check_keys, decode, flag, mapping, text, whole
from game.live.guard import client_address, frame_turns
from game.live.language import language_of
from game.live.page_protocol import stale_page_frame
from game.live.snapshots import NoSuchTable, history, snapshot
from game.live.table_pulse import PULSES
from game.ops import observe, read_budget
from game.ops.address_limits import new_tables
from game.ops.metrics import OPEN_WEBSOCKETS
from game.ops.unavailable import message as unavailable_message
from game.ops.unavailable import unreachable_service
from game.services import computers as computer
from game.services import presence, publish, seating
from game.services.commands import submit_command
from game.services.corrections import correctable, preview
from game.services.lobby import LobbyError, add_player, is_table_code, start_game, start_rematch
from game.services.preferences import set_preference
from game.services.presence_book import BOOK
from game.services.refusals import CommandRefused, echoable_id
from game.services.saving import Applied

GONE = 4404
"""Close code for an unknown table: the client stops reconnecting."""

STALE_PAGE = 4426
"""Close code for a page of an older protocol, told to load its fresh copy (page_protocol.py)."""

BUSY_READING = "busy_reading"
"""The error code of a read refused past the read budget (read_budget.py)."""


logger = logging.getLogger(__name__)


group_name = publish.group_name


class TableConsumer(AsyncWebsocketConsumer):
    """One browser tab (a seat's or a spectator's) watching one table."""

    code: str
    seat: int | None
    token: str | None
    address: str = "unknown"
    """The client's address, whose read budget this connection's reads also draw on."""
    host: bool = False
    """Whether the token is the host's (a tabletop host may hold no seat)."""
    computers: bool = False
    """Whether the game has computer players, as of this connection's latest snapshot: only
    then does a change wake them (game/services/computers.py)."""
    _refresh: asyncio.Task[None] | None = None
    """The snapshot being rebuilt after ``table.changed`` (at most one per connection)."""
    _refresh_again: bool = False
    _refresh_history: bool = False
    _counted: bool = False
    """Whether this socket is in the open websockets gauge (it is from its acceptance on)."""
    device: str = ""
    """This connection's random key, kept with the entries it sends: an entry repeating another
    device's a moment later is asked about (game/services/commands.py)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the connection; however it ends (even cancelled, when its clean-up never ran),
        its presence row is left to the process's writer to remove
        (game/services/presence_book.py)."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            channel = getattr(self, "channel_name", None)
            if channel is not None:
                BOOK.ended(channel)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Run the handler without Channels' per-message ``aclose_old_connections``.

        That call costs a hop to the database thread for every frame and every group message
        (four per command at a four-seat table). Every database access here goes through
        ``database_sync_to_async``, which already closes stale connections around each call.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.device = secrets.token_hex(8)
        self.token = self._token()
        self.address = client_address(self.scope)
        # Everything this connection is told from now on (the snapshot, the log, refusals) is
        # worded in its reader's language: the setting holds for the connection's task and the
        # database threads it hands work to.
        self.language = language_of(self.scope)
        translation.activate(self.language)
        # Accept before looking the table up: a refusal before the handshake reaches the browser
        # as HTTP 403, and only a close after it carries 4404 ("no such table, stop retrying").
        await self.accept()
        publish.serve_from(asyncio.get_running_loop())
        presence_writer.start()
        OPEN_WEBSOCKETS.inc()
        self._counted = True
        if not is_table_code(self.code):
            await self.close(code=GONE)
            return
        stale = stale_page_frame(self.scope)
        if stale is not None:
            await self.send(text_data=stale)
            await self.close(code=STALE_PAGE)
            return
        # Join the group first: an update applied while the snapshot is taken still arrives
        # (after it; the client skips what the snapshot already holds).
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        BOOK.opened(self.channel_name)
        try:
            # The welcomes of one address are built one at a time, as its other expensive reads:
            # hundreds of sockets of one address opening together cost the process one snapshot
            # and history at a time, and every other table goes on beside them.
            async with read_budget.turns.turn(self.address):
                welcome = await database_sync_to_async(snapshots.welcome)(
                    self.code, self.token, self.channel_name
                )
        except NoSuchTable:
            BOOK.forget(self.channel_name)
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
            await self.close(code=GONE)
            return
        self.seat = welcome.seat
        self.host = welcome.host
        if self.seat is None and not self.host:
            self.token = None
        await self.send(text_data=welcome.snapshot)
        await self.send(text_data=welcome.history)
        if welcome.presence is not None:
            await self._group_send({"type": "table.presence", "seats": welcome.presence})
        self.computers = welcome.computers
        if welcome.computers:
            computer.wake(self.code)

    def _token(self) -> str | None:
        for name, value in self.scope.get("headers", ()):
            if name == SEAT_TOKEN_HEADER:
                token = value.decode("latin-1")
                return token if is_token(token) else None
        session = self.scope.get("session")
        if session is not None:
            return session.get("seats", {}).get(self.code)
        return None

    async def disconnect(self, close_code: int) -> None:
        """Leave the group and the presence table; each step runs even if another failed, since
        a step skipped leaves a dead group member or a seat shown connected."""
        if self._refresh is not None:
            self._refresh.cancel()
        if self._counted:
            OPEN_WEBSOCKETS.dec()
            self._counted = False
        await self._discard_channel()
        if not hasattr(self, "code"):
            return
        try:
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
        except Exception:
            logger.exception("Leaving the group of table %s failed", self.code)
        if not hasattr(self, "seat"):
            return
        # Until its row is gone, the process's presence writer would remove it if this failed.
        BOOK.closing(self.channel_name)
        try:
            await database_sync_to_async(presence.leave)(self.channel_name)
            BOOK.cleared(self.channel_name)
            if self.seat is not None:
                await self._publish_presence()
        except Exception:
            logger.exception("Presence clean-up at table %s failed", self.code)

    async def _discard_channel(self) -> None:
        """Drop this socket's own channel and its Redis subscription now.

        channels-redis's pub/sub layer unsubscribes a channel only when a receive pending on it
        is cancelled as the consumer ends; sockets closing together often end without one
        pending, and their subscriptions stayed until the process restarted. Layers without
        subscriptions (the in-memory one, the list one) have nothing to drop.
        """
        discard = getattr(self.channel_layer, "discard_channel", None)
        if discard is None:
            return
        try:
            await discard(self.channel_name)
        except Exception:
            logger.exception("Dropping the channel of a closed socket failed")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not hasattr(self, "seat"):
            return  # closing: no such table
        # A few frames of one client address at a time in this process (game/live/guard.py): an
        # address with many sockets waits for its own turns, not everyone else's.
        turns = frame_turns(self.scope)
        async with turns if turns is not None else contextlib.nullcontext():
            await self._handle(text_data, bytes_data)

    async def _handle(self, text_data: str | None, bytes_data: bytes | None) -> None:
        try:
            message = decode(text_data, bytes_data)
        except BadFrame as bad:
            await self._error(bad.code, bad.message)
            return
        handler = self._HANDLERS.get(message["type"])
        if handler is None:
            await self._error(
                "unknown_type",
                _("Unknown message type '%(type)s'.") % {"type": message["type"][:40]},
            )
            return
        try:
            with observe.action(self.code, self.seat, message) as outcome:
                check_keys(message)
                outcome.version = await handler(self, message)
        except BadField as bad:
            await self._error("malformed", str(bad), None, message.get("id"), bad.field)
        except CommandRefused as refused:
            await self._error(
                refused.code,
                refused.message,
                refused.version,
                message.get("id"),
                refused.field,
                refused.reason,
            )
        except LobbyError as error:
            await self._error(error.code, str(error), None, None)
        except Exception as error:
            service = unreachable_service(error)
            if service is not None:
                # PostgreSQL or Redis away: nothing was applied, and it is worth trying again.
                logger.warning(
                    "A %r frame at table %s: %s unreachable",
                    message["type"],
                    self.code,
                    service.value,
                )
                await self._error("unavailable", unavailable_message(service))
                return
            # The last resort: a bug must not cost the connection (and with it the clean-up).
            logger.exception("A %r frame at table %s failed", message["type"], self.code)
            await self._error("server_error", _("Something went wrong on the server; try again."))

    # Each handler returns the table's version after a change it applied, for the log (None when
    # it has none to tell).

    async def on_command(self, message: dict[str, Any]) -> int | None:
        # submit_command checks the version, the id and the command (it also serves callers
        # other than this socket); the seat it is for is a whole number or nothing.
        as_seat = whole(message, "seat", optional=True)
        # `repeat`: the sender confirmed an entry refused `repeated`.
        repeat = flag(message, "repeat")
        applied = await database_sync_to_async(submit_command)(
            self.code,
            self.seat,
            message.get("version"),
            message.get("id"),
            message.get("command"),
            as_seat,
            host=self.host,
            device=self.device,
            repeat=repeat,
        )
        await self._published(applied)
        self._wake_computers()
        return applied.version

    async def on_preference(self, message: dict[str, Any]) -> int | None:
        figure = text(message, "figure")
        as_seat = whole(message, "seat", optional=True)
        applied = await database_sync_to_async(set_preference)(
            self.code, self.seat, figure, as_seat, host=self.host
        )
        if not isinstance(applied, Applied):
            return None
        await self._published(applied)
        return applied.version

    async def on_start(self, message: dict[str, Any]) -> int | None:
        if self.token is None:
            raise CommandRefused("spectator", _("Spectators cannot start the game."))
        table = await database_sync_to_async(start_game)(self.code, self.token)
        computer.wake(self.code)
        return table.version

    # Seats (game/services/seating.py): each changes the seats, and every page takes a fresh
    # snapshot.

    async def _seats_changed(self, change: Any, *args: object) -> None:
        await database_sync_to_async(change)(self.code, self.token, *args)

    async def on_reorder(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.reorder, message.get("order"))

    async def on_start_player(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.start_player, whole(message, "seat"))

    async def on_rename(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.rename, whole(message, "seat"), text(message, "name"))

    async def on_remove(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.remove, whole(message, "seat"))

    async def on_hand_host(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.hand_host, whole(message, "seat"))

    async def on_host_without_seat(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.host_without_seat)

    async def on_add_computer(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.add_computer, text(message, "level"))

    async def on_leave(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.leave)

    async def on_admit(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.admit, whole(message, "seat"))

    async def on_computer_for(self, message: dict[str, Any]) -> None:
        level = message.get("level", "strong")
        await self._seats_changed(seating.computer_for, whole(message, "seat"), level)
        computer.wake(self.code)

    async def on_take_back(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.take_back, whole(message, "seat"))

    async def on_absent_after(self, message: dict[str, Any]) -> None:
        await self._seats_changed(seating.set_absent_after, whole(message, "seconds"))

    async def on_add_player(self, message: dict[str, Any]) -> int | None:
        name = text(message, "name")
        colour = text(message, "colour")
        await database_sync_to_async(add_player)(self.code, self.token, name=name, colour=colour)
        return None

    async def on_rematch(self, message: dict[str, Any]) -> int | None:
        """The first "Play again" press creates the rematch and moves every page of the table
        there; a later one (a late visitor, a second device, a double click) moves only its own
        page to the same table."""
        if self.token is None:
            raise CommandRefused(
                "spectator", _("Only the players of this game can start a rematch.")
            )
        limit, address = new_tables(), client_address(self.scope)
        _table, moved = await database_sync_to_async(start_rematch)(
            self.code, self.token, lambda: limit.allow_address(address)
        )
        # Created: every page of the table moves (lobby.py publishes it); this one alone if that
        # publication failed, or if the rematch existed already.
        if moved is None or not await moved.delivered():
            await self.table_rematch({})
        return None

    # The expensive reads: each within the table's and the address's read budget.

    @asynccontextmanager
    async def _budgeted(self, kind: str) -> AsyncIterator[list[float]]:
        """Once no other read of the client's address runs in this process, refuse the read
        ``busy_reading`` (before any work) if the table or the address spent its read budget;
        else run the block and charge both what its database hops measured (read_budget.py)."""
        budget, keys = read_budget.budget(), read_budget.keys(self.code, self.address)
        async with read_budget.turns.turn(self.address):
            try:
                budget.check(keys)
            except read_budget.OverBudget as over:
                read_budget.refused(kind)
                raise CommandRefused(BUSY_READING, read_budget.refusal(over)) from None
            cost: list[float] = []
            try:
                yield cost
            finally:
                spent = sum(cost)
                budget.charge(keys, spent)
                read_budget.spent(kind, self.code, spent)

    @staticmethod
    def _hop(read: Callable[..., Any], cost: list[float] | None) -> Callable[..., Any]:
        """``read`` on the database thread, its CPU time added to ``cost`` when given."""
        return database_sync_to_async(read if cost is None else read_budget.measured(read, cost))

    async def on_sync(self, message: dict[str, Any]) -> None:
        async with self._budgeted("sync") as cost:
            await self._send_snapshot(with_history=True, cost=cost)

    async def on_history(self, message: dict[str, Any]) -> None:
        before = whole(message, "before", optional=True)
        try:
            async with self._budgeted("history") as cost:
                page = await self._hop(history, cost)(self.code, before)
        except NoSuchTable:
            await self.close(code=GONE)
            return
        await self.send(text_data=page)

    async def on_preview(self, message: dict[str, Any]) -> None:
        """What a correction would do, for the host to confirm, or where an entry's points
        would move each figure (protocol.md, "preview"); changes nothing."""
        command = mapping(message, "command")
        async with self._budgeted("preview") as cost:
            answer = await self._hop(preview, cost)(self.code, self.seat, command, host=self.host)
        request_id = echoable_id(message.get("id"))
        if request_id is not None:
            answer["id"] = request_id
        await self.send(text_data=json.dumps(answer))

    async def on_entries(self, message: dict[str, Any]) -> None:
        """The entries the host may correct, newest first; changes nothing. An ``id`` is echoed,
        so that a page knows a refusal answers its list."""
        async with self._budgeted("entries") as cost:
            answer = await self._hop(correctable, cost)(self.code, self.seat, host=self.host)
        request_id = echoable_id(message.get("id"))
        if request_id is not None:
            answer["id"] = request_id
        await self.send(text_data=json.dumps(answer))

    async def on_ping(self, message: dict[str, Any]) -> None:
        """Note the connection alive (in memory: game/services/presence_book.py) and answer with the
        table's version, from at most one read per table and ``PING_READ_SECONDS``
        (game/live/table_pulse.py): a client behind it missed an update (its publication was lost)
        and resyncs. The ping that made the read also wakes the table's computers if they are
        due (game/services/computers.py: a process that died while one was to move)."""
        BOOK.seen(self.channel_name)
        reading = await PULSES.get(self.code)
        pulse = reading.pulse
        version = None if pulse is None else pulse.version
        await self.send(text_data=json.dumps({"type": "pong", "version": version}))
        if (
            reading.fresh
            and pulse is not None
            and computer.resume_due(pulse.status, pulse.updated, pulse.has_computer)
        ):
            computer.wake(self.code)

    def _wake_computers(self) -> None:
        if self.computers:
            computer.wake(self.code)

    _HANDLERS = {
        "command": on_command,
        "preference": on_preference,
        "start": on_start,
        "add_player": on_add_player,
        "rematch": on_rematch,
        "reorder": on_reorder,
        "start_player": on_start_player,
        "rename": on_rename,
        "remove": on_remove,
        "hand_host": on_hand_host,
        "host_without_seat": on_host_without_seat,
        "add_computer": on_add_computer,
        "leave": on_leave,
        "admit": on_admit,
        "computer_for": on_computer_for,
        "take_back": on_take_back,
        "absent_after": on_absent_after,
        "sync": on_sync,
        "history": on_history,
        "ping": on_ping,
        "preview": on_preview,
        "entries": on_entries,
    }

    async def _published(self, applied: Applied) -> None:
        """Wait for the service's publication of ``applied``; if the channel layer failed,
        still tell the sender, whose command is saved. Everyone else learns of it from the
        version in their next ``pong``."""
        PULSES.note(self.code, applied.version)
        if not await applied.publication.delivered():
            await self.table_update(applied.message())

    async def _group_send(self, event: dict[str, Any]) -> bool:
        try:
            await self.channel_layer.group_send(group_name(self.code), event)
        except Exception:
            logger.exception("Publishing %s to table %s failed", event["type"], self.code)
            return False
        return True

    async def _publish_presence(self) -> None:
        seats = await database_sync_to_async(presence.summary)(self.code)
        await self._group_send({"type": "table.presence", "seats": seats})

    async def _error(
        self,
        code: str,
        text: str,
        version: int | None = None,
        command_id: object = None,
        field: str | None = None,
        reason: str | None = None,
    ) -> None:
        """An ``error`` frame to this socket alone: ``text`` in its language, ``code`` (and
        ``reason``, the engine's code when the engine refused) for programs."""
        error: dict[str, Any] = {
            "type": "error",
            "code": code,
            "message": text,
            "version": version,
            "id": echoable_id(command_id),
        }
        if field is not None:
            error["field"] = field
        if reason is not None:
            error["reason"] = reason
        await self.send(text_data=json.dumps(error))

    async def _send_snapshot(self, *, with_history: bool, cost: list[float] | None = None) -> None:
        """``cost``: a budgeted read's (``sync``), to which the database hops add their CPU."""
        try:
            if self.token is None:
                text = await self._hop(snapshot, cost)(self.code, None, host=False)
            else:
                # The seats may have changed: this token's seat may have moved or gone.
                who, text, self.computers = await self._hop(snapshots.refreshed, cost)(
                    self.code, self.token
                )
                self.seat, self.host = who.seat, who.host
        except NoSuchTable:
            await self.close(code=GONE)
            return
        await self.send(text_data=text)
        if with_history:
            await self.send(text_data=await self._hop(history, cost)(self.code))

    # Group messages ----------------------------------------------------------------------------

    async def table_update(self, event: dict[str, Any]) -> None:
        """An ``update``: the text of this connection's language, one of ``texts`` (one per
        language of settings.LANGUAGES, game/services/saving.py), else the default language's."""
        if self._refresh is not None and not self._refresh.done():
            # The snapshot being built may predate this update: build one more after it.
            self._refresh_again = True
        # An update published by a process of the previous release (during a rolling upgrade)
        # carries one English "text"; the pages read its string lines too.
        texts = event.get("texts") or {settings.LANGUAGE_CODE: event["text"]}
        await self.send(text_data=texts.get(self.language) or texts[settings.LANGUAGE_CODE])
        if event.get("finished"):
            await self._send_snapshot(with_history=False)

    async def table_changed(self, event: dict[str, Any]) -> None:
        """Send a fresh snapshot, coalesced: however many changes arrive, one rebuild runs and at
        most one more follows it (a flood of lobby or preference changes costs each connection a
        few snapshots, not one per change). The history goes along only when the game started."""
        self._refresh_history = self._refresh_history or bool(event.get("history"))
        if self._refresh is not None and not self._refresh.done():
            self._refresh_again = True
            return
        self._refresh = asyncio.create_task(self._refresh_snapshot())

    async def _refresh_snapshot(self) -> None:
        try:
            while True:
                self._refresh_again = False
                with_history, self._refresh_history = self._refresh_history, False
                await self._send_snapshot(with_history=with_history)
                if not self._refresh_again:
                    return
        except Exception:
            logger.exception("Refreshing the snapshot at table %s failed", self.code)

    async def table_rematch(self, event: dict[str, Any]) -> None:
        """Send this connection where the rematch is. The group's event names no seat and no
        token: each connection looks up its own seat's new token, so no page ever receives
        another seat's."""
        try:
            text = await database_sync_to_async(snapshots.rematch_message)(self.code, self.token)
        except NoSuchTable:
            return
        if text is not None:
            await self.send(text_data=text)

    async def layer_reconnected(self, event: dict[str, Any]) -> None:
        """The pub/sub channel layer subscribed again after losing Redis (game/live/layers.py):
        updates published meanwhile never came, so the page gets a fresh snapshot and history."""
        await self.table_changed({"history": True})

    async def table_presence(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "presence", "seats": event["seats"]}))


SEAT_TOKEN_HEADER = b"x-seat-token"
"""A client without the session cookie (a script, a benchmark) names its seat in this header.
Never in the URL: servers and proxies write URLs, query strings included, to their access logs."""


def is_token(text: str) -> bool:
    """A token from the header is looked up in the database: it must be text PostgreSQL
    accepts (no NUL); anything else watches as a spectator, like any wrong token."""
    return len(text) <= 64 and text.isprintable() and text.isascii()
