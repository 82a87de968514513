"""Shared pytest fixtures for the test suite."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import servers

SERVICE_FIXTURES = frozenset(
    {"postgres_url", "redis_url", "chromium_executable", "browser", "deployment", "tls_browser"}
)
"""Fixtures that start a private server or a browser: a test asking for one is a `services` test."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks `services` every test that asks for a fixture of SERVICE_FIXTURES, so that
    `pytest -m "not services"` (the fast subset, docs/contributing.md) never starts one.

    A module that starts its servers itself (tests/servers.py's `sqlite_daphne`,
    `daphne_server`, ...) rather than through these fixtures marks itself with
    `pytestmark = pytest.mark.services`.
    """
    for item in items:
        if SERVICE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.services)


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


BROWSER_TIMEOUT_MS = 20_000
"""How long a browser test's expectation may wait; generous because CI machines have 2 cores."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""No sandbox because CI runs as root; the rest keeps Chromium from calling home or updating."""


@pytest.fixture(scope="module")
def browser(chromium_executable: Path) -> Iterator[Any]:
    """One headless Chromium per browser-test module; each person gets a context of their own.

    Module scope, not session: Playwright's synchronous API keeps its event loop registered as
    running in the main thread while it is open, and asyncio tests that run after it would then
    fail with "cannot be called from a running event loop".

    Expectations wait BROWSER_TIMEOUT_MS rather than Playwright's 5 s: a slow machine may take
    longer to pass an update through the server to several pages. Playwright is imported here so
    that the rest of the suite does not need it.
    """
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=BROWSER_TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(chromium_executable), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session", autouse=True)
def _plain_static_names() -> Iterator[None]:
    """Pages rendered in this process name static files without a hash.

    pytest-django runs with DEBUG off, where the hashed storage (messengers/staticfiles.py) needs
    the manifest that only `collectstatic` writes. The hashed names themselves are tested on a real
    server after a real `collectstatic` (tests/ops/test_production_server.py). ServeStatic finds the
    files in the apps' folders, as with DEBUG on.
    """
    from django.conf import settings
    from django.test import override_settings

    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    storages = {**settings.STORAGES, "staticfiles": plain}
    with override_settings(STORAGES=storages, SERVESTATIC_USE_FINDERS=True):
        yield


@pytest.fixture(autouse=True)
def _fresh_connection_rates() -> Iterator[None]:
    """Every test starts with its addresses' connection rates unspent (game/live/guard.py): they
    live in the process's memory, and every test connects from the same few addresses."""
    from game.live import guard

    guard.forget_connection_rates()
    yield


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Every test starts and ends in the default language: a websocket consumer activates its
    reader's language for its own task, and a test that drives one through ``async_to_sync``
    gets that activation back in its own thread (asgiref carries context changes back)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_read_budget() -> Iterator[None]:
    """Every test starts with full read budgets (game/ops/read_budget.py): they live in the
    process's memory, and every test's clients share one address."""
    from game.ops import read_budget

    read_budget.reset()
    yield
    read_budget.reset()


@pytest.fixture(scope="module")
def deployment(postgres_url: str, redis_url: str) -> Iterator[Any]:
    """The deployment of deploy/ (nginx in front of two Daphnes, tests/deploy_stack.py), once
    per module that asks; imported here so that the rest of the suite needs no nginx."""
    from tests.deploy_stack import running_deployment

    with running_deployment(postgres_url, redis_url) as stack:
        yield stack


@pytest.fixture(scope="module")
def tls_browser(chromium_executable: Path) -> Iterator[Any]:
    """Chromium as `browser`, trusting the deployment's self-signed certificate."""
    from tests.deploy_stack import tls_chromium

    with tls_chromium(chromium_executable) as chromium:
        yield chromium
