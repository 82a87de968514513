"""The private servers the integration tests start, and how a missing one is reported."""

import socket
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from tests import servers


@pytest.mark.parametrize("value", ["", "0", " "])
def test_missing_skips_when_services_are_optional(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """A developer without the servers still gets a usable, shorter run."""
    monkeypatch.setenv("REQUIRE_SERVICES", value)
    with pytest.raises(pytest.skip.Exception, match="redis-server is not available"):
        servers.missing("redis-server")


def test_missing_skips_without_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset is the same as optional."""
    monkeypatch.delenv("REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception):
        servers.missing("redis-server")


@pytest.mark.parametrize("value", ["1", "true", "yes"])
def test_missing_fails_when_services_are_required(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """CI must not pass by skipping the tests that need real servers."""
    monkeypatch.setenv("REQUIRE_SERVICES", value)
    with pytest.raises(pytest.fail.Exception, match="redis-server is not available"):
        servers.missing("redis-server")


def test_missing_postgres_binaries_fail_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real look-up, pointed at nowhere, turns into a failure under REQUIRE_SERVICES."""
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    monkeypatch.setattr(servers, "POSTGRES_BIN_GLOB", "/nonexistent/postgresql/*/bin")
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(pytest.fail.Exception, match="PostgreSQL server"):
        servers.postgres_bindir()


def test_missing_redis_is_a_skip_when_optional(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without redis-server on PATH the Redis helper skips instead of erroring."""
    monkeypatch.setenv("REQUIRE_SERVICES", "0")
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(pytest.skip.Exception, match="redis-server"), servers.private_redis():
        pass


def test_missing_chromium_fails_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    """Browser tests fail in CI rather than skip when Chromium was not installed."""
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    monkeypatch.setattr(servers, "CHROMIUM", Path("/nonexistent/chromium"))
    with pytest.raises(pytest.fail.Exception, match="Chromium"):
        servers.chromium_path()


@pytest.mark.services
def test_private_postgres_answers_on_its_own_port(postgres_url: str) -> None:
    """The session's PostgreSQL is ours: not the standard port, and a fresh database works."""
    port = urlsplit(postgres_url).port
    assert port is not None and port != 5432
    database_url = servers.create_database(postgres_url)
    with psycopg.connect(database_url) as connection:
        row = connection.execute("SELECT current_database(), current_setting('fsync')").fetchone()
    assert row is not None
    assert row[0] == urlsplit(database_url).path.lstrip("/")
    assert row[1] == "off"


@pytest.mark.services
def test_private_redis_answers_ping(redis_url: str) -> None:
    """The session's Redis is ours: not the standard port, and it answers."""
    port = urlsplit(redis_url).port
    assert port is not None and port != 6379
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"PING\r\n")
        assert sock.recv(64).startswith(b"+PONG")


@pytest.mark.services
def test_restartable_redis_names_its_process() -> None:
    """`pid` is the running server's own process (the benchmarks read its CPU time by it), and a
    stopped server has none."""
    import redis

    with servers.restartable_redis() as server:
        client = redis.Redis.from_url(server.url)
        try:
            assert client.info("server")["process_id"] == server.pid
        finally:
            client.close()
        server.stop()
        with pytest.raises(RuntimeError, match="not running"):
            _ = server.pid
