"""Read-only access to the HTTP session from a websocket, to find the seat token it holds.

Channels' own session middleware saves the session when the socket is accepted; a websocket
here never changes the session, so it only reads it, which also costs no database write.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware
from django.conf import settings


def _load(session_key: str | None) -> dict[str, Any]:
    if not session_key:
        return {}
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return dict(store.load())


class ReadOnlySessionMiddleware:
    """Put the session's data into ``scope["session"]`` as a plain dict."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        data = await database_sync_to_async(_load)(key)
        return await self.inner(dict(scope, session=data), receive, send)


def SeatSessionMiddlewareStack(inner: Any) -> CookieMiddleware:  # noqa: N802
    return CookieMiddleware(ReadOnlySessionMiddleware(inner))
