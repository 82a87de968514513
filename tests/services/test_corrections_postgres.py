"""Corrections on a real PostgreSQL (tests/pg_corrections_script.py): a cold load after each
correction, from the checkpoints saved in PostgreSQL, equals a replay of the whole record."""

import pytest

from tests import servers

pytestmark = pytest.mark.services


def test_cold_loads_after_corrections_equal_a_replay_on_postgresql(postgres_url: str) -> None:
    report = servers.script_report(postgres_url, "pg_corrections_script")
    assert report["vendor"] == "postgresql"
    assert report["corrections"] >= 6 and report["checkpoints"] >= 5
    assert report["checks"] and all(c["warm"] and c["cold"] for c in report["checks"]), report
