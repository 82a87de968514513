"""``/healthz`` and ``/metrics`` answered before Django looks at the Host header.

A health check or a Prometheus scrape on the machine itself asks ``http://127.0.0.1:8001/healthz``:
its Host is the address, which a production ``ALLOWED_HOSTS`` (the public name only) does not
hold, so Django would answer 400 and log the refusal. These two pages build no link from the Host
and set no cookie, so the name a request gives changes nothing in their answer, and this
middleware serves them before any code that validates it (``request.get_host()``).

What that exposes to a request with any Host: ``/healthz`` says only "ok" or which check failed
(never a host, port or message); ``/metrics`` keeps its own guard (``metrics_view.may_read``: an
allowed address or the token), and a request that fails it goes on through the usual chain,
where it gets the usual 400 (unknown host) or 404. Behind nginx a foreign Host never gets this
far: the site's catch-all servers drop it (docs/deployment.md, "nginx").

It sits right after ``SecurityMiddleware``, whose HTTPS redirect exempts both paths and which reads
no Host otherwise, so that the answers still carry its headers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from asgiref.sync import async_to_sync, iscoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware

from game.ops import health, metrics_view

HEALTH_PATH: Final = "/healthz"
METRICS_PATH: Final = "/metrics"

SyncHandler = Callable[[HttpRequest], HttpResponseBase]
AsyncHandler = Callable[[HttpRequest], Awaitable[HttpResponseBase]]


def _is_metrics(request: HttpRequest) -> bool:
    return request.path_info == METRICS_PATH and metrics_view.may_read(request)


@sync_and_async_middleware
def probes_before_host_check(
    get_response: SyncHandler | AsyncHandler,
) -> SyncHandler | AsyncHandler:
    """Answer ``/healthz`` (anyone) and ``/metrics`` (whoever may read it) at once."""
    if iscoroutinefunction(get_response):
        respond_async: AsyncHandler = get_response  # type: ignore[assignment]

        async def middleware_async(request: HttpRequest) -> HttpResponseBase:
            if request.path_info == HEALTH_PATH:
                return await health.healthz(request)
            if _is_metrics(request):
                # A sync view, in Django's one database thread as Django runs sync views.
                return await sync_to_async(metrics_view.metrics)(request)
            return await respond_async(request)

        return middleware_async

    respond: SyncHandler = get_response  # type: ignore[assignment]

    def middleware(request: HttpRequest) -> HttpResponseBase:
        if request.path_info == HEALTH_PATH:
            return async_to_sync(health.healthz)(request)
        if _is_metrics(request):
            return metrics_view.metrics(request)
        return respond(request)

    return middleware
