"""Decoding a websocket frame from a browser, and checking the type of each of its fields.

Everything here treats the frame as hostile: whatever the bytes, the result is a plain ``dict``
with a string ``type`` whose strings are valid Unicode without NUL, or ``BadFrame``.
"""

from __future__ import annotations

import json
from typing import Any, Final

from django.conf import settings
from django.utils.translation import gettext as _


class BadFrame(ValueError):
    """The frame is not a usable JSON object; ``code`` is the ``error`` frame's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class BadField(ValueError):
    """A field of a well-formed frame has the wrong type or value (error code ``malformed``).

    ``field`` names a key that the frame may not carry at all (unknown, or misplaced).
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


FRAME_KEYS: Final[dict[str, frozenset[str]]] = {
    kind: frozenset({"type", *keys})
    for kind, keys in {
        "command": ("version", "id", "command", "seat", "repeat"),
        "preference": ("figure", "seat"),
        "start": (),
        "add_player": ("name", "colour"),
        "rematch": (),
        "reorder": ("order",),
        "start_player": ("seat",),
        "rename": ("seat", "name"),
        "remove": ("seat",),
        "hand_host": ("seat",),
        "host_without_seat": (),
        "add_computer": ("level",),
        "leave": (),
        "admit": ("seat",),
        "computer_for": ("seat", "level"),
        "take_back": ("seat",),
        "absent_after": ("seconds",),
        "sync": (),
        "history": ("before",),
        "ping": (),
        "preview": ("id", "command"),
        "entries": ("id",),
    }.items()
}
"""The keys each frame type may carry (docs/protocol.md, "Messages"): any other key is refused
with ``malformed`` naming it, so that a misspelt or misplaced key is never silently ignored."""


def check_keys(message: dict[str, Any]) -> None:
    """``BadField`` naming the first key that a frame of this type may not carry."""
    allowed = FRAME_KEYS.get(message["type"])
    if allowed is None:
        return
    unknown = sorted(key for key in message if key not in allowed)
    if unknown:
        raise BadField(
            _("A '%(type)s' message takes no '%(key)s'.")
            % {"type": message["type"], "key": unknown[0][:40]},
            field=unknown[0][:40],
        )


def decode(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """The frame as a JSON object, or ``BadFrame``.

    Deep nesting is refused twice over: the decoder's own recursion limit (RecursionError) and
    a walk that bounds the depth of what it did decode, so that no later code recurses into it.
    """
    raw: str | bytes = text_data if text_data is not None else bytes_data or b""
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadFrame("bad_json", _("Messages must be JSON objects.")) from None
    if not isinstance(message, dict):
        raise BadFrame("bad_json", _("Messages must be JSON objects."))
    _check_tree(message, settings.FRAME_MAX_DEPTH)
    kind = message.get("type")
    if not isinstance(kind, str):
        raise BadFrame("unknown_type", _("A message needs a 'type' string."))
    return message


def _check_tree(message: dict[str, Any], max_depth: int) -> None:
    stack: list[tuple[object, int]] = [(message, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, dict | list):
            if depth > max_depth:
                raise BadFrame(
                    "bad_json",
                    _("Messages nest at most %(depth)s levels deep.") % {"depth": max_depth},
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    _check_text(key)
                stack.append((item, depth + 1))


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise BadFrame("bad_json", _("Text in a message cannot contain NUL characters."))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadFrame("bad_json", _("Text in a message must be valid Unicode.")) from None


def whole(message: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    """``message[key]`` as a non-negative whole number (not a float, not a boolean)."""
    value = message.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadField(_("'%(key)s' must be a whole number.") % {"key": key})
    return value


def flag(message: dict[str, Any], key: str) -> bool:
    """``message[key]`` as true or false; false when absent."""
    value = message.get(key, False)
    if not isinstance(value, bool):
        raise BadField(_("'%(key)s' must be true or false.") % {"key": key})
    return value


def text(message: dict[str, Any], key: str) -> str:
    """``message[key]`` as a string (its content is checked by whoever uses it)."""
    value = message.get(key)
    if not isinstance(value, str):
        raise BadField(_("'%(key)s' must be a string.") % {"key": key})
    return value


def mapping(message: dict[str, Any], key: str) -> dict[str, Any]:
    """``message[key]`` as a JSON object (its keys are checked by whoever uses it)."""
    value = message.get(key)
    if not isinstance(value, dict):
        raise BadField(_("'%(key)s' must be an object.") % {"key": key})
    return value
