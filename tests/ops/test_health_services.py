"""``/healthz`` of a real Daphne whose PostgreSQL refuses writes: it answers 503 naming the
refusal, with one log line, and 200 again once writes are taken (game/ops/health.py)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from messengers.version import VERSION
from tests import servers

pytestmark = pytest.mark.services


def health(base: str) -> tuple[int, dict[str, str]]:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=30) as response:
            return int(response.status), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def set_read_only(server_url: str, database: str, read_only: bool) -> None:
    """Make `database` refuse (or take) writes, as a standby or an operator's
    default_transaction_read_only would, and end its sessions so that new ones see it."""
    import psycopg

    value = "on" if read_only else "off"
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(
            f'ALTER DATABASE "{database}" SET default_transaction_read_only = {value}'
        )
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (database,),
        )


def test_a_read_only_database_fails_the_check_until_it_takes_writes(postgres_url: str) -> None:
    url = servers.create_database(postgres_url, "health")
    database = urlsplit(url).path.lstrip("/")
    env = servers.project_env(DATABASE_URL=url)
    servers.migrate(env)
    with servers.restartable_daphne(env) as daphne:
        assert health(daphne.url) == (
            200,
            {"database": "ok", "channel_layer": "ok", "static_files": "ok", "version": VERSION},
        )

        set_read_only(postgres_url, database, True)
        status, answer = health(daphne.url)
        assert status == 503
        assert answer["database"] == "refuses writes (ReadOnlySqlTransaction)"
        assert answer["channel_layer"] == "ok"

        set_read_only(postgres_url, database, False)
        assert health(daphne.url)[0] == 200
        log = daphne.log_path.read_text(errors="replace")

    [line] = [line for line in log.splitlines() if "health check" in line]
    assert line.endswith(
        "WARNING game.ops.health health check database: refuses writes (ReadOnlySqlTransaction):"
        " cannot execute UPDATE in a read-only transaction"
    ), line
    assert "Traceback" not in log
