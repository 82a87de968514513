"""The in-memory channel layer, with its housekeeping done once a second instead of per message.

Channels' ``InMemoryChannelLayer`` walks every channel and every group membership looking for
expired entries on each ``receive`` and ``group_send``. With 800 connected seats that walk costs
more than the game itself, and it grows with every connection. Expiry is measured in seconds
(a minute for messages, a day for group membership), so doing the walk at most once a second
keeps its meaning and makes its cost independent of traffic.
"""

from __future__ import annotations

import time
from typing import Final

from channels.layers import InMemoryChannelLayer

CLEAN_INTERVAL: Final = 1.0
"""Seconds between two sweeps for expired messages and group memberships."""


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    """``InMemoryChannelLayer`` whose expiry sweep runs at most every ``CLEAN_INTERVAL``."""

    _last_clean: float = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_clean < CLEAN_INTERVAL:
            return
        self._last_clean = now
        super()._clean_expired()
