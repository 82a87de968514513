"""Which frames a page understands, so that an upgrade never leaves an open page behind.

A page names the protocol it speaks in its websocket's address (``?protocol=3``). Pages loaded
before a release that changed the frames stay open across the upgrade and reconnect to the new
processes with their old modules: a page from before log lines became objects would print
"[object Object]" in its log. Such a page is sent on to a fresh copy of itself instead: pages
speaking an older numbered protocol get a ``reload`` frame; pages from before protocols were
numbered know no such frame, so they get the one frame they already follow to another address,
``rematch``, with an empty address (their own). A client that is no browser (a script, a
benchmark) and names no protocol speaks the current one: it reads the frames as they are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import parse_qs

PAGE_PROTOCOL: Final = 3
"""Raised whenever a frame changes in a way the previous pages cannot read. 2: log lines are
objects ({kind, text, seat, at, feature, location}) and words come in the reader's language.
3: an entry repeating another device's is refused ``repeated`` until sent with ``repeat``, which
a page of 2 cannot do; seats carry ``offer_in``, views ``messages_left``."""

RELOAD: Final = json.dumps({"type": "reload"})
"""For a page of an older numbered protocol (pages reload themselves on it)."""

UNNUMBERED_RELOAD: Final = json.dumps({"type": "rematch", "url": "", "projector_url": ""})
"""For a page from before protocols were numbered: they go to a rematch's ``url`` (the table and
console pages) or ``projector_url`` (the projector); the empty address is the page's own."""


def stale_page_frame(scope: Mapping[str, Any]) -> str | None:
    """The frame that sends a page of an older protocol on to a fresh copy, or None for a client
    speaking the current one."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")[:200])
    named = query.get("protocol")
    if named:
        return None if named[0] == str(PAGE_PROTOCOL) else RELOAD
    return UNNUMBERED_RELOAD if _browser(scope) else None


def _browser(scope: Mapping[str, Any]) -> bool:
    """Browsers all name themselves "Mozilla/5.0 (…)"; scripts and test clients do not."""
    for name, value in scope.get("headers", ()):
        if name == b"user-agent":
            return value.startswith(b"Mozilla/")
    return False
