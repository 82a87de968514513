"""HTTP middleware: request text that no view should have to handle is refused up front (NUL)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError


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
            return HttpResponseBadRequest(
                "The form could not be read.", content_type="text/plain; charset=utf-8"
            )
        for data in (request.GET, post):
            if data is not None:
                for key, values in data.lists():
                    fields.append(key)
                    fields.extend(values)
        if _bad(fields):
            return HttpResponseBadRequest(
                "Text in the address or the form may not contain NUL or invalid characters.",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
