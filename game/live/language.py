"""The language a websocket speaks: the same as its page's, found the way Django finds it for
a request (the language cookie the switcher sets, else the browser's Accept-Language, else the
site's default), so the log, the refusals and the ranking read as the page around them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def language_of(scope: Mapping[str, Any]) -> str:
    """One of ``settings.LANGUAGES``' codes, whatever the client sent."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if isinstance(cookie, str):
        supported = _supported(cookie)
        if supported is not None:
            return supported
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            header = value.decode("latin-1")[:1000]
            for code, _quality in parse_accept_lang_header(header):
                supported = _supported(code)
                if supported is not None:
                    return supported
            break
    return _supported(settings.LANGUAGE_CODE) or settings.LANGUAGE_CODE


def _supported(code: str) -> str | None:
    if code == "*" or not code or len(code) > 20:
        return None
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return None
