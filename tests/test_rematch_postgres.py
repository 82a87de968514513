"""A "Play again" pressed from many connections at once makes one rematch, on a real PostgreSQL.

SQLite serialises every writer, so only PostgreSQL shows whether the finished table's row lock
and the one-to-one link to its rematch hold when connections (as of two server processes)
really race. The race runs in tests/pg_rematch_script.py, in a process whose Django uses the
private server.
"""

import json
import subprocess
import sys

import pytest

from tests import servers

pytestmark = pytest.mark.services


def test_simultaneous_rematches_make_one_table(postgres_url: str) -> None:
    env = servers.project_env(
        DATABASE_URL=servers.create_database(postgres_url, "rematch"),
        MESSENGERS_FIXED_TILES="W,E",
    )
    result = subprocess.run(
        [sys.executable, "-m", "tests.pg_rematch_script"],
        cwd=servers.ROOT,
        env=servers.child_env(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, f"rematch script failed:\n{result.stdout}\n{result.stderr}"
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["status"] == "finished"
    results = report["results"]
    assert [r for r in results if r["outcome"] != "ok"] == []
    assert len({r["code"] for r in results}) == 1
    assert sum(r["created"] for r in results) == 1
    assert report["after"] == report["before"] + 1
