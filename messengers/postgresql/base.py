"""Django's PostgreSQL backend, whose connection pool checks connections with `check_connection`.

Django builds the pool (``OPTIONS["pool"]``) with psycopg_pool's own check,
``ConnectionPool.check_connection`` (an empty query), when CONN_HEALTH_CHECKS is on, and refuses
another check in the options. That check finds a broken connection, but after each failed check
the pool waits before it tries the next idle connection: 0 s, then 1, 2, 4, 8 s. A PostgreSQL
restart breaks every idle connection at once, so with six idle ones the first request after it
would wait 15 s and fail at DATABASE_POOL_TIMEOUT. Here the first failed check has all the other
idle connections checked at once (``ConnectionPool.check``: the broken ones are dropped and
replaced in the background), so the retry that follows at once gets a working connection, or
waits only for a new one.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.postgresql import base
from psycopg import Connection
from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)

POOLS: dict[str, ConnectionPool[Any]] = {}
"""The pool of each database alias, as the check below finds it."""


def check_connection(connection: Connection[Any]) -> None:
    """Raise if `connection` is broken, after sweeping its pool of the other broken ones."""
    try:
        ConnectionPool.check_connection(connection)
    except Exception:
        logger.warning("a pooled database connection was broken; checking the idle ones")
        for pool in POOLS.values():
            pool.check()
        raise


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's wrapper, with `check_connection` as its pool's check."""

    @property
    def pool(self) -> ConnectionPool[Any] | None:
        pool: ConnectionPool[Any] | None = super().pool
        if pool is not None and self.alias not in POOLS:
            if not hasattr(pool, "_check"):
                raise ImproperlyConfigured(
                    "this psycopg_pool keeps its check elsewhere: messengers/postgresql/base.py"
                    " must be updated with it"
                )
            # psycopg_pool 3.3 keeps the check there and reads it on every getconn().
            pool._check = check_connection
            POOLS[self.alias] = pool
        return pool
