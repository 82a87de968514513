"""Names in plain text lines: each between the Unicode isolates FSI and PDI."""

from __future__ import annotations


def isolate(name: str) -> str:
    """``name`` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, for plain text lines:
    whatever direction the name runs in, it cannot reorder the words around it."""
    return f"\u2068{name}\u2069"
