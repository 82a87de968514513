"""Many simultaneous copies of the same command apply exactly once, on a real PostgreSQL.

SQLite serialises every writer, so only PostgreSQL shows whether `submit_command`'s row lock and
its duplicate and version checks hold when connections really race. The race itself runs in
tests/pg_concurrency_script.py, in a process whose Django uses the private server.
"""

from typing import Any

import pytest

from tests import servers

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def race(postgres_url: str) -> dict[str, Any]:
    """Run the race script once against a fresh database and return its report."""
    return servers.script_report(postgres_url, "pg_concurrency_script")


def _check_round(report: dict[str, Any], name: str, losers: set[str]) -> None:
    """One success, every other call refused with one of `losers`, one row and one version."""
    round_ = report["rounds"][name]
    results = round_["results"]
    assert len(results) == report["threads"]
    errors = [r for r in results if r["outcome"] == "error"]
    assert not errors, errors
    applied = [r for r in results if r["outcome"] == "applied"]
    refused = [r for r in results if r["outcome"] == "refused"]
    assert len(applied) == 1, results
    assert len(refused) == len(results) - 1
    assert {r["code"] for r in refused} <= losers, results
    before, after = round_["before"], round_["after"]
    assert after["version"] == before["version"] + 1
    assert after["log_rows"] == before["log_rows"] + 1
    assert applied[0]["version"] == after["version"]
    # A refusal tells the client the version it should sync to: the one after the winner.
    assert {r["version"] for r in refused} == {after["version"]}


def test_identical_resends_apply_once(race: dict[str, Any]) -> None:
    """The same id and version sent 16 times at once: one applies, the rest are duplicates."""
    _check_round(race, "same_id", {"duplicate", "stale"})


def test_same_move_under_different_ids_applies_once(race: dict[str, Any]) -> None:
    """One version, 16 different ids at once: one applies, the others were made too late."""
    _check_round(race, "distinct_ids", {"stale"})


def test_entries_for_different_seats_at_one_version_all_count(race: dict[str, Any]) -> None:
    """docs/protocol.md "Concurrent entries": six seats of a tabletop game enter points at the
    same version at once; the row lock makes them wait for each other, and each counts once."""
    round_ = race["rounds"]["distinct_seats"]
    assert [r["outcome"] for r in round_["results"]] == ["applied"] * 6, round_["results"]
    assert round_["after"]["version"] == round_["before"]["version"] + 6
    assert round_["after"]["log_rows"] == round_["before"]["log_rows"] + 6
    assert sorted(r["version"] for r in round_["results"]) == [
        round_["before"]["version"] + step for step in range(1, 7)
    ]
    assert round_["scores"] == [[seat + 1, 0] for seat in range(6)]


def test_entries_for_one_seat_at_one_version_count_once(race: dict[str, Any]) -> None:
    """The same seat's points entered 16 times at one version under different ids: one counts;
    the others are refused stale, since they may be the same points entered twice."""
    _check_round(race, "one_seat", {"stale"})
    assert race["rounds"]["one_seat"]["scores"][1] == [2, 2]
