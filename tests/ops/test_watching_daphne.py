"""A real Daphne process watched from outside: its stdout and its /metrics, directly and behind
a proxy (docs/deployment.md, "Watching")."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from tests import servers
from tests.deploy.test_restore import TIMEOUT, _start_and_move

pytestmark = pytest.mark.services


def _status(url: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


async def test_a_running_process_logs_actions_to_stdout_and_counts_them(
    postgres_url: str,
) -> None:
    """Daphne's stdout gets one line per action (no token) and its /metrics counts them."""
    env = servers.project_env(DATABASE_URL=servers.create_database(postgres_url, "watch"))
    servers.migrate(env)
    with servers.restartable_daphne(env) as server:
        table = servers.run_script(env, "tests.lobby_script")
        await _start_and_move(server.url, table)
        with urllib.request.urlopen(f"{server.url}/metrics", timeout=TIMEOUT) as response:
            metrics = response.read().decode()
        stdout = server.log_path.read_text()

    assert re.search(
        rf"INFO game\.commands action table={table['code']} seat=0 type=start outcome=applied"
        r" version=0 ms=\d+\.\d\n",
        stdout,
    ), stdout
    assert re.search(
        rf"INFO game\.commands action table={table['code']} seat=0 type=place_tile"
        r" outcome=applied version=1 ms=\d+\.\d\n",
        stdout,
    ), stdout
    assert '"GET /metrics" 200' in stdout
    assert all(token not in stdout for token in table["tokens"])
    assert 'messengers_commands_total{code="",outcome="applied",type="place_tile"} 1.0' in metrics
    assert 'messengers_tables{status="playing"} 1.0' in metrics
    assert "messengers_command_seconds_count 2.0" in metrics


def test_behind_a_proxy_metrics_answer_only_the_forwarded_allowed_address(
    postgres_url: str,
) -> None:
    """With --proxy-headers, as behind nginx, Daphne checks the address the proxy forwards: a
    request from outside through the proxy is refused although it comes from loopback."""
    env = servers.project_env(DATABASE_URL=servers.create_database(postgres_url, "proxied"))
    servers.migrate(env)
    with servers.daphne_server(env, ["--proxy-headers"]) as base:
        assert _status(f"{base}/metrics", {"X-Forwarded-For": "203.0.113.9"}) == 404
        assert _status(f"{base}/metrics", {"X-Forwarded-For": "127.0.0.1"}) == 200
        assert _status(f"{base}/metrics") == 200
