"""Whether a request found no free database connection (the pool's timeout).

Every server process takes its PostgreSQL connections from a pool of at most
``DATABASE_POOL_MAX_SIZE`` (messengers/settings.py). When all are in use, a request waits up to
``DATABASE_POOL_TIMEOUT`` seconds for one; after that Django raises an OperationalError. The
server is not broken but busy: game/ops/unavailable.py answers 503 saying so, and logs which setting
bounds it.
"""

from __future__ import annotations

from django.db import OperationalError
from psycopg_pool import PoolTimeout


def no_free_connection(error: BaseException) -> bool:
    """Whether `error` is Django's wrapping of the pool's timeout."""
    return isinstance(error, OperationalError) and isinstance(error.__cause__, PoolTimeout)
