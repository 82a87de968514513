"""A "Play again" pressed from many connections at once makes one rematch, on a real PostgreSQL.

SQLite serialises every writer, so only PostgreSQL shows whether the finished table's row lock
and the one-to-one link to its rematch hold when connections (as of two server processes)
really race. The race runs in tests/pg_rematch_script.py, in a process whose Django uses the
private server.
"""

import pytest

from tests import servers

pytestmark = pytest.mark.services


def test_simultaneous_rematches_make_one_table(postgres_url: str) -> None:
    report = servers.script_report(postgres_url, "pg_rematch_script", MESSENGERS_FIXED_TILES="W,E")
    assert report["status"] == "finished"
    results = report["results"]
    assert [r for r in results if r["outcome"] != "ok"] == []
    assert len({r["code"] for r in results}) == 1
    assert sum(r["created"] for r in results) == 1
    assert report["after"] == report["before"] + 1
