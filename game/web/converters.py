"""Path converters: a table code in a URL is checked before any view or query sees it."""

from __future__ import annotations

from game.services.lobby import TABLE_CODE


class TableCodeConverter:
    regex = TABLE_CODE

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
