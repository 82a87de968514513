"""Corrections on a real PostgreSQL (tests/pg_corrections_script.py): a cold load after each
correction, from the checkpoints saved in PostgreSQL, equals a replay of the whole record."""

import json
import subprocess
import sys
from typing import Any

import pytest

from tests import servers

pytestmark = pytest.mark.services


def test_cold_loads_after_corrections_equal_a_replay_on_postgresql(postgres_url: str) -> None:
    env = servers.project_env(DATABASE_URL=servers.create_database(postgres_url, "corrections"))
    result = subprocess.run(
        [sys.executable, "-m", "tests.pg_corrections_script"],
        cwd=servers.ROOT,
        env=servers.child_env(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, f"script failed:\n{result.stdout}\n{result.stderr}"
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["vendor"] == "postgresql"
    assert report["corrections"] >= 6 and report["checkpoints"] >= 5
    assert report["checks"] and all(c["warm"] and c["cold"] for c in report["checks"]), report
