"""``python manage.py replay RECORD.json`` (rules/record-format.md, "Output of replay").

The command runs in a subprocess, as a user would run it, from the repository root; the runs are
started together by one fixture, so the Django start-up time is paid in parallel. A few more
faulty records go through the same command in-process (``call_command``).
"""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

REPO_ROOT = Path(__file__).resolve().parents[2]
RECORDS = REPO_ROOT / "tests" / "records"
EXAMPLES = RECORDS / "examples"
EVENTS_KEY = "events (those of the required types, in order)"

EXAMPLE_NAMES = sorted(path.name.removesuffix(".out.json") for path in EXAMPLES.glob("*.out.json"))
RECORD_NAMES = sorted(
    path.name.removesuffix(".json")
    for path in RECORDS.glob("*.json")
    if not path.name.endswith(".expected.json")
)

BASE = {"format": "carcassonne-messengers/1", "players": ["Ann", "Bob"], "preset": "c2-hig"}


def _c3_record() -> dict:
    return json.loads((RECORDS / "board-c3-all-messages.json").read_text(encoding="utf-8"))


def _illegal_placement() -> dict:
    """Action 11 of the c3 record places Bob's tile where it does not fit."""
    record = _c3_record()
    assert record["actions"][11]["type"] == "place_tile"
    record["actions"][11] |= {"x": 7, "y": 7}
    return record


def _wrong_seat() -> dict:
    """Action 2 is Bob's tile placement; here Ann sends it."""
    record = _c3_record()
    assert record["actions"][2] == {"seat": 1, "type": "place_tile", "x": 1, "y": 0, "rotation": 0}
    record["actions"][2]["seat"] = 0
    return record


def _after_the_end() -> dict:
    """One more action after the game is over (action 52 of a 52-action record)."""
    record = _c3_record()
    assert len(record["actions"]) == 52
    record["actions"].append({"seat": 0, "type": "place_tile", "x": 0, "y": 5, "rotation": 0})
    return record


# name -> (file content, or None for a missing file; words the one-line error must contain).
# These run as subprocesses; SMALL_FAULTS below run the same command in-process.
BAD_RECORDS: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "illegal-placement": (json.dumps(_illegal_placement()), ("action 11", "place_tile")),
    "wrong-seat": (json.dumps(_wrong_seat()), ("action 2",)),
    "malformed-json": ('{"format": "carcassonne-messengers/1", "players": [', ("JSON",)),
    "unknown-format": (json.dumps(BASE | {"format": "carcassonne-messengers/9"}), ("format",)),
    "unknown-preset": (json.dumps(BASE | {"preset": "c4"}), ("preset", "c4")),
    "bad-option-value": (
        json.dumps(BASE | {"options": {"trigger": "sometimes"}}),
        ("trigger", "sometimes"),
    ),
    "bad-tile-letter": (json.dumps(BASE | {"tiles": ["U", "Z", "V"]}), ("'Z'",)),
    "too-many-tiles": (json.dumps(BASE | {"tiles": ["C", "U", "C"]}), ("C", "1")),
    "messages-repeated": (json.dumps(BASE | {"messages": [1, 1, 2, 3, 4, 5, 6, 7]}), ("1 to 8",)),
    "missing-file": (None, ("cannot read", "missing-file.json")),
}

SMALL_FAULTS: dict[str, tuple[object, tuple[str, ...]]] = {
    "after-the-end": (_after_the_end(), ("action 52", "over")),
    "not-an-object": ([1, 2, 3], ("object",)),
    "unknown-option": (BASE | {"options": {"wind": "east"}}, ("wind",)),
    "bad-bool-option": (BASE | {"options": {"alone_rule": "yes"}}, ("alone_rule",)),
    "too-many-start-tiles": (BASE | {"tiles": ["D"] * 4}, ("D", "3")),
    "messages-missing-one": (BASE | {"messages": [1, 2, 3, 4, 5, 6, 7]}, ("1 to 8",)),
    "messages-out-of-range": (BASE | {"messages": [0, 1, 2, 3, 4, 5, 6, 7]}, ("1 to 8",)),
    "one-player": (BASE | {"players": ["Ann"]}, ("players",)),
    "bad-mode": (BASE | {"mode": "online"}, ("mode",)),
    "unknown-action": (BASE | {"actions": [{"seat": 0, "type": "fly"}]}, ("action 0", "fly")),
}


def _run(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "replay", str(path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess]:
    """Every replay this module checks, keyed by a name, run in parallel."""
    folder = tmp_path_factory.mktemp("bad-records")
    paths: dict[str, Path] = {}
    for name in EXAMPLE_NAMES:
        paths[f"example:{name}"] = EXAMPLES / f"{name}.json"
    for name in RECORD_NAMES:
        paths[f"record:{name}"] = RECORDS / f"{name}.json"
    for name, (content, _) in BAD_RECORDS.items():
        path = folder / f"{name}.json"
        if content is not None:
            path.write_text(content, encoding="utf-8")
        paths[f"bad:{name}"] = path
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = dict(zip(paths, pool.map(_run, paths.values()), strict=True))
    return results


def _contains_in_order(printed: list[dict], wanted: list[dict]) -> bool:
    """Whether each wanted event matches a printed one (its keys with equal values), in order."""
    position = 0
    for event in wanted:
        while position < len(printed) and any(
            printed[position].get(key, object()) != value for key, value in event.items()
        ):
            position += 1
        if position == len(printed):
            return False
        position += 1
    return True


def test_the_contains_in_order_helper_can_fail() -> None:
    """The subsequence check used below rejects wrong order, wrong values and missing events."""
    printed = [{"type": "a", "n": 1}, {"type": "b", "n": 2}, {"type": "a", "n": 3}]
    assert _contains_in_order(printed, [{"type": "a"}, {"type": "a", "n": 3}])
    assert not _contains_in_order(printed, [{"type": "b"}, {"type": "a", "n": 1}])
    assert not _contains_in_order(printed, [{"type": "b", "n": 3}])
    assert not _contains_in_order(printed, [{"type": "c"}])


def test_the_examples_are_those_of_the_rules() -> None:
    """rules/record-format.md, "Worked examples": each example it describes is a record in
    tests/records/examples/ with its output, and there is no other."""
    text = (REPO_ROOT / "docs/rules/record-format.md").read_text(encoding="utf-8")
    described = re.findall(r"^\* `([\w-]+)`:", text.split("## Worked examples")[1], re.MULTILINE)
    assert sorted(described) == EXAMPLE_NAMES
    assert EXAMPLE_NAMES == ["board-c2hig-first-city", "tabletop-c2hig-bob-draws"]
    for name in EXAMPLE_NAMES:
        assert (EXAMPLES / f"{name}.json").is_file()


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_replay_prints_the_example_output(runs: dict, name: str) -> None:
    """rules/record-format.md, "Worked examples": the listed keys with these values, the listed
    events among the printed ones in this order."""
    result = runs[f"example:{name}"]
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    wanted = json.loads((EXAMPLES / f"{name}.out.json").read_text(encoding="utf-8"))
    events = wanted.pop(EVENTS_KEY)
    for key, value in wanted.items():
        assert printed[key] == value, key
    assert events
    assert _contains_in_order(printed["events"], events)


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_replay_prints_each_recorded_game(runs: dict, name: str) -> None:
    """rules/record-format.md "Output of replay": the keys it lists, and the hand-checked results of
    tests/records/NAME.expected.json."""
    result = runs[f"record:{name}"]
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    printed = json.loads(result.stdout)
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    assert {"finished", "turn", "active_seat", "pending", "players", "events"} <= set(printed)
    assert printed["finished"] is True
    assert printed["pending"] is None
    assert printed["players"] == expected["players"]
    assert printed["events"][-1] == {"type": "game_over", "scores": expected["scores"]}
    drawn = [
        {"seat": e["seat"], "message": e["message"], "action": e["action"]}
        for e in printed["events"]
        if e["type"] == "message_drawn"
    ]
    assert drawn == [
        {"seat": m["seat"], "message": m["message"], "action": m["action"]}
        for m in expected["messages"]
    ]
    record = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    if record["mode"] == "board":
        assert printed["tiles_left"] == 0
        assert {"followers"} <= set(printed["players"][0])
    else:
        assert "followers" not in printed["players"][0]


@pytest.mark.parametrize("name", sorted(BAD_RECORDS))
def test_replay_refuses_a_bad_record_in_one_line(runs: dict, name: str) -> None:
    """rules/record-format.md: an illegal action stops the replay with a non-zero exit status and a
    one-line message naming the action's index; unreadable records are refused the same way."""
    result = runs[f"bad:{name}"]
    _, words = BAD_RECORDS[name]
    assert result.returncode != 0
    assert result.stdout == ""
    message = result.stderr.strip()
    assert message and "\n" not in message, result.stderr
    assert "Traceback" not in message
    for word in words:
        assert word in message, (word, message)


@pytest.mark.parametrize("name", sorted(SMALL_FAULTS))
def test_replay_command_refuses_more_faults(tmp_path: Path, name: str) -> None:
    """rules/record-format.md: more unreadable or illegal records, through the same command run
    in-process: a CommandError (non-zero exit) with a one-line message."""
    content, words = SMALL_FAULTS[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("replay", str(path), stdout=out)
    message = str(raised.value)
    assert out.getvalue() == ""
    assert message and "\n" not in message
    for word in words:
        assert word in message, (word, message)


def test_bad_records_change_only_what_they_test() -> None:
    """The illegal-action records differ from a legal record in one action only."""
    legal = _c3_record()
    for broken in (_illegal_placement(), _wrong_seat(), _after_the_end()):
        differing = [
            index
            for index, action in enumerate(broken["actions"])
            if index >= len(legal["actions"]) or action != legal["actions"][index]
        ]
        assert len(differing) == 1
        assert copy.deepcopy(broken) | {"actions": legal["actions"]} == legal
