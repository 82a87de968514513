"""Corrections through the server (docs/protocol.md, "Corrections"): host only, refusals that
change nothing, a preview that saves nothing and tells what the correction then does, and the
state after corrections the same whether it comes from the cache, from checkpoints or from a
replay of the whole record."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from django.test import override_settings

from game.engine import corrections, record
from game.engine.commands import CORRECTABLE
from game.engine.corrections import plays
from game.models import LogEntry, Table
from game.services.commands import submit_command
from game.services.corrections import preview
from game.services.names import isolate
from game.services.refusals import CommandRefused
from game.store.tables import STATES, load_state, record_of
from tests.store.test_bounded_work import play, refused, send
from tests.store.test_bounded_work import tabletop as three_at_the_table

pytestmark = pytest.mark.django_db

MESSAGES = [3, 1, 4, 5, 2, 6, 7, 8]


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
def tabletop(preset: str = "c2-hig") -> Table:
    """Ann, Bob and Cy at a started tabletop game whose message stack is ``MESSAGES``."""
    return three_at_the_table(preset)


def score(points: int, figure: str = "meeple", **more: Any) -> dict[str, Any]:
    return {"type": "score", "points": points, "figure": figure, **more}


def correct(entry: int, replacement: dict[str, Any] | None) -> dict[str, Any]:
    return {"type": "correct", "entry": entry, "replacement": replacement}


def unchanged(table: Table, before: int) -> None:
    table.refresh_from_db()
    assert table.version == before
    assert LogEntry.objects.filter(table=table).count() == before


def test_only_the_host_adjusts_and_corrects() -> None:
    """Bob (seat 1, not the host) may enter his own points but not adjust or correct them."""
    table = tabletop()
    send(table, score(4), sender=1)
    for body in (
        {"type": "adjust", "points": -1, "figure": "meeple"},
        correct(0, {"seat": 1, "type": "score", "points": 3, "figure": "meeple"}),
    ):
        with pytest.raises(CommandRefused) as error:
            send(table, body, sender=1)
        assert error.value.code == "not_host"
        unchanged(table, 1)
    with pytest.raises(CommandRefused) as error:
        preview(table.code, 1, correct(0, None), host=False)
    assert error.value.code == "not_host"
    send(table, {"type": "adjust", "points": -1, "figure": "meeple"}, as_seat=1)
    send(table, correct(0, {"seat": 1, "type": "score", "points": 3, "figure": "meeple"}))
    assert load_state(table).players[1].meeple == 2


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (correct(9, None), "illegal"),  # no such entry
        (correct(1, None), "illegal"),  # an end of turn is not a scoring
        (correct(0, {"seat": 0, "type": "adjust", "points": 2, "figure": "meeple"}), "illegal"),
        (correct(0, {"seat": 0, "type": "score", "points": 2, "colour": "red"}), "malformed"),
        (correct(0, {"seat": 0, "type": "finish"}), "malformed"),
        ({"type": "correct", "entry": "0", "replacement": None}, "malformed"),
        ({"type": "correct", "entry": 0}, "malformed"),
        ({"type": "adjust", "points": -9, "figure": "meeple"}, "illegal"),  # below zero
        ({"type": "adjust", "points": 0, "figure": "meeple"}, "malformed"),
    ],
)
def test_hostile_corrections_are_refused_with_a_reason_and_change_nothing(
    body: dict[str, Any], code: str
) -> None:
    table = tabletop()
    send(table, score(4))
    send(table, {"type": "end_turn"})
    error = refused(table, body)
    assert error.code == code and error.message
    unchanged(table, 2)
    with pytest.raises(CommandRefused) as previewed:
        preview(table.code, 0, body, host=True)
    assert previewed.value.code == (code if body["type"] == "correct" else "malformed")


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
def test_the_preview_changes_nothing_and_tells_what_the_correction_then_does() -> None:
    """Ann's 5 drew message 3 (resolved for 4 points); the preview of correcting the 5 to 6
    lists the resolution as lapsing and the scores after it; nothing is saved, the cached state
    is still the uncorrected one; the correction then does exactly what the preview said."""
    table = tabletop()
    send(table, score(5))
    send(table, {"type": "end_turn"})
    send(table, {"type": "resolve_message", "choice": "action", "points": 4})
    send(table, {"type": "choose_figure", "figure": "messenger"})
    send(table, score(2), as_seat=1)
    state = load_state(table)
    body = correct(0, {"seat": 0, "type": "score", "points": 6, "figure": "meeple"})
    shown = preview(table.code, 0, body, host=True)
    unchanged(table, 5)
    assert STATES.get((table.id, table.code)) is state
    assert shown["type"] == "preview" and shown["command"] == body
    assert [item["entry"] for item in shown["lapsed"]] == [2, 3]
    assert (
        "message 3 (Score your smallest monastery, 4 points)" in shown["lapsed"][0]["line"]["text"]
    )
    assert shown["scores"][0] == {"meeple": 6, "messenger": 0}
    assert shown["scores"][1] == {"meeple": 2, "messenger": 0}

    table.refresh_from_db()
    applied = submit_command(table.code, 0, table.version, "fix", body)
    assert applied.lines[: len(shown["lines"])] == shown["lines"]
    corrected = next(event for event in applied.events if event["type"] == "corrected")
    assert corrected["lapsed"] == [2, 3]
    table.refresh_from_db()
    after = load_state(table)
    assert [{"meeple": p.meeple, "messenger": p.messenger} for p in after.players] == (
        shown["scores"]
    )
    assert after.stack[0] == 3 and sorted(after.stack) == list(range(1, 9))


def _corrections(table: Table, rng: random.Random, count: int) -> None:
    """``count`` random corrections (change or delete) of entries that still count, with
    adjustments and undos between them; refused ones (illegal at their point) are skipped."""
    done = 0
    while done < count:
        state = load_state(table)
        candidates = [
            (index, action)
            for index, action in plays(state)
            if action["type"] in CORRECTABLE
            and (action["type"] != "resolve_message" or action.get("points") is not None)
        ]
        if not candidates:
            return
        index, action = rng.choice(candidates)
        replacement: dict[str, Any] | None = dict(action)
        if action["type"] == "score" and rng.random() < 0.3:
            replacement = None
        elif action["type"] == "adjust":
            replacement = {**action, "points": action["points"] + 1 or 1}
        else:
            replacement = {**action, "points": action["points"] + 1}
        try:
            send(table, correct(index, replacement))
        except CommandRefused as error:
            assert error.code == "illegal", error.message
            continue
        done += 1
        if rng.random() < 0.3:
            send(table, {"type": "undo"})
        if rng.random() < 0.3:
            with contextlib.suppress(CommandRefused):  # e.g. after the game's end
                send(table, {"type": "adjust", "points": 2, "figure": "messenger"})


@override_settings(CHECKPOINT_EVERY=5, TABLETOP_ENTRIES_PER_TURN=10_000)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_cold_load_after_corrections_equals_a_replay_of_the_record(seed: int) -> None:
    """Random entries, then corrections, undos and adjustments: after each step a load in a
    fresh process (from checkpoints) reaches the state the whole record replays to."""
    table = tabletop()
    rng = random.Random(seed)
    play(table, 30, seed=seed)
    for _ in range(6):
        _corrections(table, rng, 1)
        expected = record.replay(record_of(table)).state
        assert load_state(table) == expected
        STATES.clear()
        assert load_state(table) == expected
        play(table, table.version + 4, seed=rng.randrange(1000))
    STATES.clear()
    assert load_state(table) == record.replay(record_of(table)).state


@override_settings(CHECKPOINT_EVERY=10, TABLETOP_ENTRIES_PER_TURN=10_000)
def test_a_correction_replays_from_the_checkpoint_before_the_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a 300-entry log, correcting an entry near its end applies the entries after the last
    checkpoint before it, not the whole game (the bounded work of docs/performance.md)."""
    table = tabletop()
    play(table, 300, seed=7)
    send(table, score(3), as_seat=2)
    entry = table.version - 1
    send(table, score(1), as_seat=1)
    STATES.clear()
    load_state(table)
    applies = 0
    engine_apply = corrections.apply

    def counted(*args: Any) -> Any:
        nonlocal applies
        applies += 1
        return engine_apply(*args)

    monkeypatch.setattr(corrections, "apply", counted)
    send(table, correct(entry, {"seat": 2, "type": "score", "points": 4, "figure": "meeple"}))
    assert applies <= 40, applies
    monkeypatch.undo()
    STATES.clear()
    assert load_state(table) == record.replay(record_of(table)).state
    assert load_state(table).players[2].meeple >= 4


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
def test_a_preview_never_tells_which_message_a_correction_would_draw() -> None:
    """Ann's 4 corrected to 5 (dark) would draw the top message: the preview says a message
    would be drawn, not which, so previews cannot be used to look into the stack."""
    table = tabletop()
    send(table, score(4))
    send(table, {"type": "end_turn"})
    body = correct(0, {"seat": 0, "type": "score", "points": 5, "figure": "meeple"})
    shown = preview(table.code, 0, body, host=True)
    assert shown["lines"][-1] == {
        "kind": "message_drawn",
        "text": "\u2068Ann\u2069 draws the next message of the stack",
        "seat": 0,
        "at": None,
        "feature": None,
        "location": None,
    }
    assert not any(
        "message 3" in line["text"] or "3" in line["text"].split("message")[-1]
        for line in shown["lines"]
    )
    table.refresh_from_db()
    applied = submit_command(table.code, 0, table.version, "dark", body)
    assert any(e["type"] == "message_drawn" and e["message"] == 3 for e in applied.events)


def test_a_final_score_corrected_after_the_end_shows_in_the_final_breakdown() -> None:
    """The ranking was shown before a final score was right: the host corrects it; the game
    stays over, its record downloads and replays, and the breakdown counts the corrected
    points (and an adjustment during play) once."""
    import json

    from game.live.snapshots import snapshot
    from game.store.tables import downloadable_record

    table = tabletop("c1-zmg")
    send(table, score(9))
    send(table, {"type": "adjust", "points": -2, "figure": "meeple"}, as_seat=0)
    send(table, {"type": "end_turn"})
    send(table, {"type": "end_game"})
    send(table, {"type": "score", "points": 7, "category": "city"})
    final = send(table, {"type": "score", "points": 12, "category": "field"}, as_seat=1) - 1
    send(table, {"type": "finish"})
    send(table, correct(final, {"seat": 1, "type": "score", "points": 2, "category": "field"}))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    rows = json.loads(snapshot(table.code, 0, host=True))["table"]["final_scoring"]
    assert (rows[0]["play"], rows[0]["city"]) == (7, 7)
    assert rows[1]["field"] == 2 and sum(rows[1].values()) == 2
    replayed = record.replay(downloadable_record(table)).state
    assert replayed.finished and [p.score for p in replayed.players] == [14, 2, 0]


def test_a_checkpoint_written_before_corrections_existed_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A state pickled without the ``amendments`` field (servers before corrections, whose
    checkpoints carry no engine state version) is refused before it is unpickled: the table is
    then rebuilt from its log (tests/store/test_checkpoints.py)."""
    import io
    import zlib

    from game.engine.play import new_game
    from game.engine.state import GameState
    from game.store import checkpoints

    state, _ = new_game(["Ann", "Bob"], "c3", mode="tabletop", seed=1)
    full = GameState.__getstate__
    monkeypatch.setattr(GameState, "__getstate__", lambda self: full(self)[:-1])
    buffer = io.BytesIO()
    checkpoints._Pickler(buffer, protocol=5).dump((state, b""))
    monkeypatch.undo()
    data = zlib.compress(buffer.getvalue())
    with pytest.raises(checkpoints.StaleCheckpoint, match="before checkpoints carried"):
        checkpoints.decode(checkpoints._mac(data) + data)


@override_settings(CORRECTABLE_ENTRIES=2)
def test_the_host_lists_the_entries_to_correct_newest_first_within_the_limit() -> None:
    """The ``entries`` answer: each entry with points that still counts, in its latest form and
    in words, with its turn; not the ends of turns, not undone or deleted ones; at most
    ``CORRECTABLE_ENTRIES`` of the latest; host only."""
    from game.services.corrections import correctable

    table = tabletop()
    send(table, score(66, category="city"))
    send(table, score(4), as_seat=1)
    send(table, score(9), as_seat=2)
    send(table, {"type": "undo"})
    send(table, {"type": "end_turn"})
    fixed = {"seat": 0, "type": "score", "points": 6, "figure": "meeple", "category": "city"}
    without_figure = {key: value for key, value in fixed.items() if key != "figure"}
    assert refused(table, correct(0, without_figure)).message == (
        f"Name the figure that takes {isolate('Ann')}'s corrected points."
    )
    send(table, correct(0, fixed))
    send(table, {"type": "adjust", "points": -1, "figure": "meeple"}, as_seat=1)
    listed = correctable(table.code, 0, host=True)
    assert listed["version"] == 7
    assert [item["entry"] for item in listed["entries"]] == [6, 1]
    with override_settings(CORRECTABLE_ENTRIES=10):
        listed = correctable(table.code, 0, host=True)
    assert [item["entry"] for item in listed["entries"]] == [6, 1, 0]
    assert listed["entries"][2]["action"] == fixed
    assert listed["entries"][2]["line"] == "\u2068Ann\u2069's 6 points (city, meeple)"
    assert listed["entries"][2]["turn"] == 1
    assert listed["entries"][0]["line"] == "\u2068Bob\u2069's adjustment of -1 on the meeple"
    with pytest.raises(CommandRefused) as error:
        correctable(table.code, 1, host=False)
    assert error.value.code == "not_host"


def test_a_preview_shows_a_waiting_message_that_would_no_longer_be_drawn() -> None:
    """Ann's 5 (dark) drew message 3, still waiting; corrected to 4 it is no longer drawn. The
    preview lists it with what lapses, and the correction's lines say it too."""
    table = tabletop()
    send(table, score(5))
    send(table, {"type": "end_turn"})
    body = correct(0, {"seat": 0, "type": "score", "points": 4, "figure": "meeple"})
    shown = preview(table.code, 0, body, host=True)
    said = [
        item["line"]["text"].replace("\u2068", "").replace("\u2069", "") for item in shown["lapsed"]
    ]
    assert said == [
        "No longer drawn: Ann's message 3 (Score your smallest monastery) goes back on top"
    ]
    table.refresh_from_db()
    applied = submit_command(table.code, 0, table.version, "undraw", body)
    assert any(line["text"].endswith("goes back on top") for line in applied.lines)
    assert json.loads(applied.view_json)["revealed"] is None


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
def test_a_message_resolution_is_listed_under_the_turn_it_was_drawn_in() -> None:
    """c3 fixes Ann's figure for the turn, so her resolution of the message her 5 drew ends
    turn 1 at once and Bob's turn 2 begins: the list still names the resolution with turn 1,
    the turn it belongs to, and Bob's 2 with turn 2."""
    from game.services.corrections import correctable

    table = tabletop("c3")
    send(table, score(5))
    send(table, {"type": "end_turn"})
    send(table, {"type": "resolve_message", "choice": "action", "points": 4})
    send(table, score(2), as_seat=1)
    listed = correctable(table.code, 0, host=True)
    assert [item["action"]["type"] for item in listed["entries"]] == [
        "score",
        "resolve_message",
        "score",
    ]
    assert [item["turn"] for item in listed["entries"]] == [2, 1, 1]


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
def test_a_forgotten_entry_is_added_at_its_turn_and_draws_the_message_it_would_have() -> None:
    """Ann's 5 (a dark space) was forgotten in turn 1; Bob's turn 2 ended without points. The
    list offers both ends of turns; adding the 5 before turn 1's end draws message 3 there,
    so Bob's end of turn lapses; the preview says so and the correction does what it said.
    An adjustment instead would have drawn nothing."""
    from game.services.corrections import correctable

    table = tabletop()
    send(table, {"type": "end_turn"})
    send(table, {"type": "end_turn"}, as_seat=1)
    listed = correctable(table.code, 0, host=True)
    assert listed["turns"] == [{"turn": 2, "entry": 1}, {"turn": 1, "entry": 0}]
    forgotten = {"seat": 0, "type": "score", "points": 5, "figure": "meeple", "category": "road"}
    body = {"type": "correct", "entry": 0, "replacement": forgotten, "insert": True}
    shown = preview(table.code, 0, body, host=True)
    unchanged(table, 2)
    texts = [line["text"] for line in shown["lines"]]
    assert "Host adds \u2068Ann\u2069's 5 points (road, meeple), forgotten in turn 1" in texts
    assert [item["entry"] for item in shown["lapsed"]] == [1]
    assert shown["scores"][0] == {"meeple": 5, "messenger": 0}
    send(table, body)
    state = load_state(table)
    assert state.revealed is not None and state.revealed.message == 3
    assert (state.players[0].meeple, state.active) == (5, 0)
    assert [index for index, _ in plays(state)] == [2, 0]
    listed = correctable(table.code, 0, host=True)
    assert [(item["entry"], item["turn"]) for item in listed["entries"]] == [(2, 1)]
    assert listed["turns"] == [{"turn": 1, "entry": 0}]
    # The record replays to the same game.
    game = record.replay(record_of(table))
    assert game.state.revealed == state.revealed
    assert game.state.players == state.players
    # Before turn 1's end only: not before an entry with points.
    send(table, {"type": "resolve_message", "choice": "points"})
    send(table, {"type": "choose_figure", "figure": "meeple"})
    with pytest.raises(CommandRefused) as error:
        preview(table.code, 0, {**body, "entry": 2}, host=True)
    assert error.value.code == "illegal"
    assert "before an end of turn" in error.value.message


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"insert": "yes"}, "malformed"),
        ({"insert": True, "replacement": None}, "malformed"),
        ({"insert": True, "replacement": {"seat": 0, "type": "adjust", "points": 2}}, "malformed"),
        ({"insert": True, "replacement": {"seat": 7, "type": "score", "points": 2}}, "illegal"),
        ({"insert": True, "entry": 0}, "illegal"),  # before an entry with points
        ({"insert": True, "entry": 9}, "illegal"),  # no such entry
    ],
)
def test_hostile_added_entries_are_refused_and_change_nothing(
    extra: dict[str, Any], code: str
) -> None:
    table = tabletop()
    send(table, score(4))
    send(table, {"type": "end_turn"})
    body = {"type": "correct", "entry": 1, "replacement": score(2, seat=0)} | extra
    error = refused(table, body)
    assert error.code == code and error.message
    unchanged(table, 2)
    with pytest.raises(CommandRefused) as previewed:
        preview(table.code, 0, body, host=True)
    assert previewed.value.code == code


def test_the_list_names_the_figure_of_an_entry_whose_figure_was_asked_after_it() -> None:
    """Ann's 3 for a road and Bob's message action were sent without a figure and the figure
    was asked afterwards: the list names the figure that moved, as for an entry sent with it."""
    from game.services.corrections import correctable

    table = tabletop()
    send(table, {"type": "score", "points": 3, "category": "road"})
    send(table, {"type": "choose_figure", "figure": "messenger"})
    send(table, score(2, category="city"))
    # 5 on the meeple: a dark space, which draws a message; its action is counted at the table.
    send(table, {"type": "end_turn"})
    send(table, score(4), as_seat=1)
    send(table, {"type": "end_turn"}, as_seat=1)
    send(table, score(5), as_seat=2)
    send(table, {"type": "end_turn"}, as_seat=2)
    send(table, {"type": "resolve_message", "choice": "action", "points": 4}, as_seat=2)
    send(table, {"type": "choose_figure", "figure": "messenger"}, as_seat=2)
    listed = correctable(table.code, 0, host=True)
    lines = [item["line"] for item in listed["entries"]]
    assert lines == [
        "\u2068Cy\u2069's message action (4 points, messenger)",
        "\u2068Cy\u2069's 5 points (meeple)",
        "\u2068Bob\u2069's 4 points (meeple)",
        "\u2068Ann\u2069's 2 points (city, meeple)",
        "\u2068Ann\u2069's 3 points (road, messenger)",
    ]
    assert listed["entries"][-1]["action"] == {
        "seat": 0,
        "type": "score",
        "points": 3,
        "category": "road",
    }
