"""Shared pytest fixtures for the test suite."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import servers


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A private PostgreSQL server for the whole session, started by the first test that asks.

    Starting a cluster takes a few seconds, so it is shared; tests that need a clean database
    create their own in it with `servers.create_database`.
    """
    with servers.private_postgres() as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A private Redis server for the whole session, started by the first test that asks.

    Channel-layer groups are named after table codes, which are random, so tests sharing it do
    not hear each other.
    """
    with servers.private_redis() as url:
        yield url


@pytest.fixture(scope="session")
def chromium_executable() -> Path:
    """Debian's Chromium for browser tests; skipped (or failed under REQUIRE_SERVICES) if absent."""
    return servers.chromium_path()
