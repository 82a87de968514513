"""Counts HTTP answers with a 5xx status as server errors (``messengers_errors_total``).

It sits near the top of MIDDLEWARE, after ``/healthz`` is answered (a failing check is the
health check's finding, asked every few seconds, not an error of a visitor's request) and
before everything else: an exception in a view or a middleware below has become a 500 answer
by the time it gets here, and the 503 page of an unreachable service is counted too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware

from game.ops import metrics

SyncHandler = Callable[[HttpRequest], HttpResponseBase]
AsyncHandler = Callable[[HttpRequest], Awaitable[HttpResponseBase]]

SERVER_ERROR = 500


@sync_and_async_middleware
def count_server_errors(get_response: SyncHandler | AsyncHandler) -> SyncHandler | AsyncHandler:
    """Count every answer of status 500 or above."""
    if iscoroutinefunction(get_response):
        respond_async: AsyncHandler = get_response  # type: ignore[assignment]

        async def middleware_async(request: HttpRequest) -> HttpResponseBase:
            response = await respond_async(request)
            if response.status_code >= SERVER_ERROR:
                metrics.count_http_error()
            return response

        return middleware_async

    respond: SyncHandler = get_response  # type: ignore[assignment]

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = respond(request)
        if response.status_code >= SERVER_ERROR:
            metrics.count_http_error()
        return response

    return middleware
