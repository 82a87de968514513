"""The table's websocket: decode, authorise, call the services, send (docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import presence, snapshots
from .lobby import LobbyError, add_player, start_game
from .services import Applied, CommandRefused, set_preference, submit_command
from .snapshots import NoSuchTable, history, snapshot
from .tables import for_seat

GONE = 4404
"""Close code for an unknown table: the client stops reconnecting."""


def group_name(code: str) -> str:
    return f"table.{code}"


class TableConsumer(AsyncWebsocketConsumer):
    """One browser tab (a seat's or a spectator's) watching one table."""

    code: str
    seat: int | None
    token: str | None

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
        self.token = self._token()
        # Join the group first: an update applied while the snapshot is taken still arrives
        # (after it; the client skips what the snapshot already holds).
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        try:
            welcome = await database_sync_to_async(snapshots.welcome)(
                self.code, self.token, self.channel_name
            )
        except NoSuchTable:
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
            await self.close(code=GONE)
            return
        self.seat = welcome.seat
        if self.seat is None:
            self.token = None
        await self.accept()
        await self.send(text_data=welcome.snapshot)
        await self.send(text_data=json.dumps({"type": "history", "lines": welcome.history}))
        if welcome.presence is not None:
            await self.channel_layer.group_send(
                group_name(self.code), {"type": "table.presence", "seats": welcome.presence}
            )

    def _token(self) -> str | None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        if query.get("token"):
            return query["token"][0]
        session = self.scope.get("session")
        if session is not None:
            return session.get("seats", {}).get(self.code)
        return None

    async def disconnect(self, close_code: int) -> None:
        if not hasattr(self, "seat"):
            return
        await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
        await database_sync_to_async(presence.leave)(self.channel_name)
        if self.seat is not None:
            await self._publish_presence()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data if text_data is not None else bytes_data or b"")
        except (ValueError, UnicodeDecodeError):
            message = None
        if not isinstance(message, dict):
            await self._error("bad_json", "Messages must be JSON objects.")
            return
        handler = self._HANDLERS.get(message.get("type"))  # type: ignore[arg-type]
        if handler is None:
            await self._error("unknown_type", f"Unknown message type {message.get('type')!r}.")
            return
        try:
            await handler(self, message)
        except CommandRefused as refused:
            await self._error(refused.code, refused.message, refused.version, message.get("id"))
        except LobbyError as error:
            await self._error(error.code, str(error), None, None)

    async def on_command(self, message: dict[str, Any]) -> None:
        applied = await database_sync_to_async(submit_command)(
            self.code,
            self.seat,
            message.get("version"),
            message.get("id"),
            message.get("command"),
            message.get("seat"),
        )
        await self._publish(applied)

    async def on_preference(self, message: dict[str, Any]) -> None:
        applied = await database_sync_to_async(set_preference)(
            self.code, self.seat, message.get("figure"), message.get("seat")
        )
        if applied is not None:
            await self._publish(applied)
        await self.channel_layer.group_send(group_name(self.code), {"type": "table.changed"})

    async def on_start(self, message: dict[str, Any]) -> None:
        if self.seat is None or self.token is None:
            raise CommandRefused("spectator", "Spectators cannot start the game.")
        await database_sync_to_async(start_game)(self.code, self.token)
        await self.channel_layer.group_send(group_name(self.code), {"type": "table.changed"})

    async def on_add_player(self, message: dict[str, Any]) -> None:
        await database_sync_to_async(add_player)(
            self.code, self.token, name=message.get("name"), colour=message.get("colour")
        )
        await self.channel_layer.group_send(group_name(self.code), {"type": "table.changed"})

    async def on_sync(self, message: dict[str, Any]) -> None:
        await self._send_snapshot(with_history=True)

    async def on_ping(self, message: dict[str, Any]) -> None:
        await database_sync_to_async(presence.refresh)(self.channel_name)
        await self.send(text_data='{"type":"pong"}')

    _HANDLERS = {
        "command": on_command,
        "preference": on_preference,
        "start": on_start,
        "add_player": on_add_player,
        "sync": on_sync,
        "ping": on_ping,
    }

    async def _publish(self, applied: Applied) -> None:
        await self.channel_layer.group_send(group_name(self.code), applied.message())

    async def _publish_presence(self) -> None:
        seats = await database_sync_to_async(presence.summary)(self.code)
        await self.channel_layer.group_send(
            group_name(self.code), {"type": "table.presence", "seats": seats}
        )

    async def _error(
        self, code: str, text: str, version: int | None = None, command_id: object = None
    ) -> None:
        await self.send(
            text_data=json.dumps(
                {
                    "type": "error",
                    "code": code,
                    "message": text,
                    "version": version,
                    "id": command_id if isinstance(command_id, str) else None,
                }
            )
        )

    async def _send_snapshot(self, *, with_history: bool) -> None:
        try:
            text = await database_sync_to_async(snapshot)(self.code, self.seat)
        except NoSuchTable:
            await self.close(code=GONE)
            return
        await self.send(text_data=text)
        if with_history:
            lines = await database_sync_to_async(history)(self.code)
            await self.send(text_data=json.dumps({"type": "history", "lines": lines}))

    # Group messages ----------------------------------------------------------------------------

    async def table_update(self, event: dict[str, Any]) -> None:
        view = for_seat(event["view_json"], self.seat)
        await self.send(text_data=event["head_json"][:-1] + ',"view":' + view + "}")
        if event.get("finished"):
            await self._send_snapshot(with_history=False)

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self._send_snapshot(with_history=True)

    async def table_presence(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "presence", "seats": event["seats"]}))
