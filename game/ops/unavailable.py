"""A clear 503 page instead of a bare 500 when PostgreSQL or Redis cannot be reached.

A page, creating a table or taking a seat needs the database; a table's websocket needs Redis
too (when ``REDIS_URL`` is set). When either is down, restarting or refusing writes, the request
fails through no fault of its own and would succeed a moment later: the visitor gets a page that
says so, with ``Retry-After``, and the log gets one line naming the service, not a traceback
(the service's own state is for ``/healthz`` and the alerts to tell).

Anything else that goes wrong stays a server error: only the exceptions that mean "the service
is unreachable or refuses writes" are answered here.
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import Final

from django.conf import settings
from django.db import InterfaceError, InternalError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from game.ops.database_busy import no_free_connection

logger = logging.getLogger(__name__)

READ_ONLY_SQLSTATE: Final = "25006"
"""PostgreSQL's read_only_sql_transaction: a hot standby, or default_transaction_read_only."""

REDIS_ERRORS: Final = (RedisConnectionError, RedisTimeoutError)
"""What redis-py raises when Redis is down, restarting, or does not answer in time."""


class Service(Enum):
    """A service every process depends on."""

    DATABASE = "database"
    REDIS = "redis"


class ServiceUnreachable(Exception):
    """``service`` cannot be reached (or refuses writes) right now; the request may be retried."""

    def __init__(self, service: Service) -> None:
        super().__init__(f"{service.value} unreachable")
        self.service = service


def unreachable_service(error: BaseException) -> Service | None:
    """The service whose absence ``error`` means, or None for any other error."""
    if isinstance(error, ServiceUnreachable):
        return error.service
    if isinstance(error, OperationalError | InterfaceError):
        return Service.DATABASE
    if isinstance(error, InternalError):
        sqlstate = getattr(error.__cause__, "sqlstate", None)
        return Service.DATABASE if sqlstate == READ_ONLY_SQLSTATE else None
    if isinstance(error, REDIS_ERRORS):
        return Service.REDIS
    return None


def message(service: Service) -> str:
    """What the visitor is told, in the visitor's language."""
    if service is Service.DATABASE:
        return gettext(
            "The game server cannot reach its database right now; try again in a moment."
        )
    return gettext("The game server cannot reach Redis right now; try again in a moment.")


def busy_message() -> str:
    """What the visitor is told when every database connection of the process was in use."""
    return gettext("The game server is busy right now; try again in a moment.")


def unavailable_page(request: HttpRequest, text: str) -> HttpResponse:
    """The 503 page saying ``text``, with ``Retry-After``; the caller logs why."""
    response = render(request, "unavailable.html", {"message": text}, status=503)
    response["Retry-After"] = str(settings.RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    # The line below is this answer's only log line: Django's own "Service Unavailable: /path"
    # (at ERROR, for every 5xx) would add a second, quoting the path. Django skips a response
    # marked as already logged.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def pools_full() -> bool:
    """Whether a database pool has every connection it may open: then a request that waited in
    vain found the server busy. With fewer open, the pool could not open more: the database is
    away (a timeout of the pool, too)."""
    from messengers.postgresql.base import POOLS

    return any(pool.get_stats().get("pool_size", 0) >= pool.max_size for pool in POOLS.values())


class ServiceUnavailableMiddleware(MiddlewareMixin):
    """Turn a view's "service unreachable" exception into the 503 page (last in MIDDLEWARE, so
    that its ``process_exception`` sees the view's exception first). A ``MiddlewareMixin``, so
    that it runs in the event loop under ASGI like the rest of the chain, without a thread hop."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if no_free_connection(exception) and pools_full():
            # Not broken but busy: the log names the setting that bounds it.
            logger.error(
                "503 to a %s request: no free database connection within %g s (all %d of this"
                " process in use; DATABASE_POOL_MAX_SIZE, docs/deployment.md)",
                request.method,
                settings.DATABASE_POOL_TIMEOUT,
                settings.DATABASE_POOL_MAX_SIZE,
            )
            return unavailable_page(request, busy_message())
        service = unreachable_service(exception)
        if service is None:
            return None
        # One line: the method and the exception's class, never the path (an old seat link held
        # a token in it) nor the message (hosts, ports, users).
        logger.warning(
            "503 to a %s request: %s unreachable (%s)",
            request.method,
            service.value,
            type(exception.__cause__ or exception).__name__,
        )
        return unavailable_page(request, message(service))
