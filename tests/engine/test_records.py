"""Complete recorded games (tests/records/*.json) replay to their hand-checked results.

Each ``NAME.json`` is a finished game; ``NAME.expected.json`` holds what it must end with, worked
out by hand (tests/records/README.md has the ledger of every game): the players' scores, figures
and followers, every message drawn and how it was resolved, every point scored during play (in
order) and at the final scoring.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from game.engine.record import export, output, replay

RECORDS = Path(__file__).resolve().parent.parent / "records"
NAMES = sorted(
    path.name.removesuffix(".json")
    for path in RECORDS.glob("*.json")
    if not path.name.endswith(".expected.json")
)

# rules/messengers.md §4, the table of the eight messages per set (copied here, not read from the
# engine, so that a wrong number in the engine's table fails these tests).
MESSAGE_TABLE = {
    "c1": {
        1: "smallest_road",
        2: "smallest_city",
        3: "smallest_monastery",
        4: "coats_of_arms",
        5: "knights",
        6: "farmers",
        7: "extra_tile",
        8: "score_and_return",
    },
    "c2": {
        1: "smallest_road",
        2: "smallest_city",
        3: "smallest_monastery",
        4: "extra_tile",
        5: "coats_of_arms",
        6: "knights",
        7: "farmers",
        8: "score_and_return",
    },
    "c3": {
        1: "smallest_city",
        2: "smallest_road",
        3: "smallest_monastery",
        4: "extra_tile",
        5: "coats_of_arms",
        6: "knights",
        7: "farmers",
        8: "score_and_return",
    },
}
MESSAGE_SET_OF = {"c1-zmg": "c1", "c2-hig": "c2", "c2-zmg": "c2", "c3": "c3"}


def _load(name: str) -> tuple[dict, dict]:
    record = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text(encoding="utf-8"))
    return record, expected


def _resolutions(events: list[dict]) -> list[dict]:
    """Each message drawn, paired with how it was resolved."""
    drawn = [event for event in events if event["type"] == "message_drawn"]
    resolved = [event for event in events if event["type"] == "message_resolved"]
    assert len(drawn) == len(resolved)
    result = []
    for draw, resolution in zip(drawn, resolved, strict=True):
        assert (draw["seat"], draw["message"]) == (resolution["seat"], resolution["message"])
        result.append(
            {
                "seat": draw["seat"],
                "message": draw["message"],
                "action": draw["action"],
                "choice": resolution["choice"],
                "points": resolution["points"],
            }
        )
    return result


def _points(events: list[dict], final: bool) -> list[list]:
    return [
        [event["seat"], event["points"], event["figure"], event["reason"]]
        for event in events
        if event["type"] == "points" and (event["reason"] == "final") == final
    ]


def test_every_record_has_an_expected_result() -> None:
    """tests/records/README.md: every record comes with its hand-checked result."""
    assert len(NAMES) >= 6
    for name in NAMES:
        assert (RECORDS / f"{name}.expected.json").is_file(), name
    presets = {_load(name)[0]["preset"] for name in NAMES if _load(name)[0]["mode"] == "board"}
    assert presets == set(MESSAGE_SET_OF)


@pytest.mark.parametrize("name", NAMES)
def test_record_replays_to_its_hand_checked_result(name: str) -> None:
    """rules/record-format.md "Output of replay": final scores, figures, followers, messages and
    points."""
    record, expected = _load(name)
    result = replay(record)
    printed = output(result)
    assert printed["finished"] is expected["finished"] is True
    assert printed["pending"] is None
    assert printed["players"] == expected["players"]
    assert result.events[-1] == {"type": "game_over", "scores": expected["scores"]}
    assert _resolutions(result.events) == expected["messages"]
    assert _points(result.events, final=False) == expected["points_during_play"]
    assert Counter(map(tuple, _points(result.events, final=True))) == Counter(
        map(tuple, expected["final_points"])
    )


@pytest.mark.parametrize("name", NAMES)
def test_record_round_trips_through_export(name: str) -> None:
    """rules/record-format.md: a record fully determines a game; exporting the replayed game and
    replaying that gives the identical state and events."""
    record, _ = _load(name)
    first = replay(record)
    again = replay(json.loads(json.dumps(export(first.state))))
    assert again.state == first.state
    assert again.events == first.events
    assert [dict(action) for action in first.state.log] == record["actions"]


@pytest.mark.parametrize("name", NAMES)
def test_record_messages_follow_the_digest_table(name: str) -> None:
    """rules/messengers.md §4: the drawn numbers name the actions of the preset's message set, and
    the stack is drawn from the top and cycles (a resolved message goes to the bottom)."""
    record, expected = _load(name)
    table = MESSAGE_TABLE[MESSAGE_SET_OF[record["preset"]]]
    stack = list(record["messages"])
    for resolution in expected["messages"]:
        assert resolution["action"] == table[resolution["message"]]
        top = stack.pop(0)
        assert resolution["message"] == top
        stack.append(top)


def test_records_resolve_every_message_by_its_action() -> None:
    """rules/messengers.md §4: across the board-mode records, every message of every set is resolved
    by its action at least once (c1 set in c1-zmg, c2 set in c2-hig or c2-zmg, c3 set in c3),
    and "2 points" is chosen at least once."""
    by_action: dict[str, set[int]] = {name: set() for name in MESSAGE_TABLE}
    choices: Counter[str] = Counter()
    for name in NAMES:
        record, _ = _load(name)
        events = replay(record).events
        for resolution in _resolutions(events):
            choices[resolution["choice"]] += 1
            if record["mode"] == "board" and resolution["choice"] == "action":
                by_action[MESSAGE_SET_OF[record["preset"]]].add(resolution["message"])
    for message_set, numbers in by_action.items():
        assert numbers == set(range(1, 9)), (message_set, sorted(numbers))
    assert choices["points"] >= 1
