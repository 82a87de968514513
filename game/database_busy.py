"""A request that found no free database connection answers 503 at once, with one log line.

Every server process takes its PostgreSQL connections from a pool of at most
``DATABASE_POOL_MAX_SIZE`` (messengers/settings.py). When all are in use, a request waits up to
``DATABASE_POOL_TIMEOUT`` seconds for one; after that Django raises an OperationalError, which
would otherwise be a 500 page and a traceback. The server is not broken but busy: the client is
told so (503, ``Retry-After``), and the log says which setting bounds it.
"""

from __future__ import annotations

import logging
from typing import Final

from django.conf import settings
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin
from psycopg_pool import PoolTimeout

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS: Final = 5
"""What the 503 asks the client to wait before trying again."""


def no_free_connection(error: BaseException) -> bool:
    """Whether `error` is Django's wrapping of the pool's timeout."""
    return isinstance(error, OperationalError) and isinstance(error.__cause__, PoolTimeout)


class DatabaseBusy(MiddlewareMixin):
    """Turn the pool's timeout in a view into 503; any other exception passes on."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not no_free_connection(exception):
            return None
        # Not the path: an old seat link holds its seat's token there.
        logger.error(
            "answered 503: no free database connection within %g s (all %d of this process in"
            " use; DATABASE_POOL_MAX_SIZE, docs/deployment.md)",
            settings.DATABASE_POOL_TIMEOUT,
            settings.DATABASE_POOL_MAX_SIZE,
        )
        return HttpResponse(
            "The server is busy. Try again in a moment.\n",
            status=503,
            content_type="text/plain; charset=utf-8",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
