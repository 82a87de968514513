"""Compact JSON text, fast: every command serialises a whole table view and its log entry.

``orjson`` writes the same JSON as ``json.dumps(value, separators=(",", ":"),
ensure_ascii=False)`` several times faster, which matters on the path every command takes
(docs/performance.md). Keys that are not strings are written as strings, as ``json`` does.
"""

from __future__ import annotations

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: object) -> str:
    """``value`` as compact JSON text."""
    return orjson.dumps(value, option=_OPTIONS).decode()
