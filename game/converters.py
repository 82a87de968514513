"""Path converters: a table code in a URL is checked before any view or query sees it."""

from __future__ import annotations

import re
from typing import Final

from .lobby import _CODE_ALPHABET, _CODE_LENGTH

TABLE_CODE: Final = f"[{_CODE_ALPHABET}]{{{_CODE_LENGTH}}}"
"""A table code as ``game.lobby`` makes them. Anything else (too long, non-ASCII, a NUL byte)
names no table, so it answers 404 without a query: PostgreSQL refuses NUL in text outright."""

_TABLE_CODE: Final = re.compile(TABLE_CODE)


def is_table_code(text: str) -> bool:
    return _TABLE_CODE.fullmatch(text) is not None


class TableCodeConverter:
    regex = TABLE_CODE

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
