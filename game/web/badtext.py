"""HTTP middleware: request text that no view should have to handle is refused up front (NUL)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrPromise


def _bad(texts: Iterable[str]) -> bool:
    """NUL characters (PostgreSQL refuses them in text, failing the query with a server error)
    and lone surrogates (they cannot be encoded for the database at all)."""
    for text in texts:
        if "\x00" in text:
            return True
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return True
    return False


class RejectBadText:
    """Answer 400 to a request whose path, query or form fields hold NUL or invalid text."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        fields = [request.path]
        try:
            post = request.POST if request.method == "POST" else None
        except MultiPartParserError:
            return _refuse(request, gettext_lazy("The form could not be read."))
        for data in (request.GET, post):
            if data is not None:
                for key, values in data.lists():
                    fields.append(key)
                    fields.extend(values)
        if _bad(fields):
            return _refuse(
                request,
                gettext_lazy(
                    "Text in the address or the form may not contain NUL or invalid characters."
                ),
            )
        return self.get_response(request)


def _refuse(request: HttpRequest, text: StrPromise) -> HttpResponse:
    """400 saying ``text`` in the reader's language: this runs before LocaleMiddleware, so the
    language is found here as it would be for the page."""
    with translation.override(translation.get_language_from_request(request)):
        return HttpResponseBadRequest(str(text), content_type="text/plain; charset=utf-8")
