"""Bounded work per table: entries per turn and per game, checkpoints for loads and undo."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import override_settings

from game.engine import record
from game.engine.autoplay import random_command
from game.engine.commands import EndGame, EndTurn
from game.engine.state import effective
from game.models import Checkpoint, LogEntry, Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game
from game.services.refusals import CommandRefused
from game.store import tables
from game.store.tables import STATES, load_state, record_of

pytestmark = pytest.mark.django_db


def tabletop(preset: str = "c1-zmg") -> Table:
    table, ann = create_table(preset=preset, mode="tabletop", seats=3, name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    join_table(table.code, name="Cy", colour="green")
    start_game(table.code, ann.token)
    table.refresh_from_db()
    return table


def send(table: Table, body: dict[str, Any], as_seat: int | None = None, sender: int = 0) -> int:
    """Send ``body`` from ``sender`` (the host by default); the table's version after it."""
    table.refresh_from_db()
    submit_command(table.code, sender, table.version, f"c{table.version}", body, as_seat)
    table.refresh_from_db()
    return table.version


def refused(table: Table, body: dict[str, Any], as_seat: int | None = None) -> CommandRefused:
    table.refresh_from_db()
    before = table.version
    with pytest.raises(CommandRefused) as error:
        send(table, body, as_seat)
    table.refresh_from_db()
    assert table.version == before
    return error.value


@override_settings(TABLETOP_ENTRIES_PER_TURN=6)
def test_a_turn_takes_a_limited_number_of_entries_and_can_still_end() -> None:
    table = tabletop()
    for _ in range(3):
        send(table, {"type": "score", "points": 1, "figure": "meeple"}, as_seat=1)
        send(table, {"type": "undo"})
    error = refused(table, {"type": "score", "points": 1, "figure": "meeple"}, as_seat=1)
    assert (
        error.code == "limit" and "6 entries" in error.message and "end the turn" in error.message
    )
    assert refused(table, {"type": "undo"}).code == "limit"
    send(table, {"type": "end_turn"})
    send(table, {"type": "score", "points": 1, "figure": "meeple"}, as_seat=1)
    assert load_state(table).turn == 2


@override_settings(TABLETOP_ENTRIES_PER_TURN=6)
def test_undoing_the_end_of_a_turn_counts_in_that_turn_again() -> None:
    """Ending the turn and taking it back, again and again, cannot escape the limit."""
    table = tabletop()
    send(table, {"type": "score", "points": 1, "figure": "meeple"}, as_seat=1)
    for _ in range(5):
        send(table, {"type": "end_turn"})
        send(table, {"type": "undo"})
    assert load_state(table).turn == 1
    assert refused(table, {"type": "score", "points": 1, "figure": "meeple"}).code == "limit"
    send(table, {"type": "end_turn"})
    assert refused(table, {"type": "undo"}).code == "limit"


@override_settings(GAME_MAX_ENTRIES=4)
def test_a_full_game_log_lets_the_turn_finish_and_the_host_end_the_game() -> None:
    table = tabletop()
    for _ in range(4):
        send(table, {"type": "score", "points": 1, "figure": "meeple"}, as_seat=2)
    error = refused(table, {"type": "score", "points": 1, "figure": "meeple"}, as_seat=2)
    assert error.code == "limit" and "(4)" in error.message and "finish this turn" in error.message
    send(table, {"type": "end_turn"})
    error = refused(table, {"type": "end_turn"}, as_seat=1)
    assert "only end it" in error.message
    with pytest.raises(CommandRefused) as not_host:
        send(table, {"type": "end_game"}, sender=1)
    assert not_host.value.code == "not_host"
    send(table, {"type": "end_game"})
    send(table, {"type": "score", "points": 3, "category": "field"}, as_seat=1)
    send(table, {"type": "finish"})
    assert load_state(table).finished


def play(table: Table, length: int, seed: int) -> None:
    """Random legal entries (a quarter of them undos) until the log has ``length`` entries; the
    game never ends."""
    rng = random.Random(seed)
    while table.version < length:
        state = load_state(table)
        if effective(state.log) and rng.random() < 0.25:
            send(table, {"type": "undo"})
            continue
        seat, command = random_command(state, rng)
        if isinstance(command, EndGame):
            seat, command = state.active, EndTurn()
        send(table, command.to_message(), as_seat=seat)


class Counted:
    """Counts engine applies and log rows read by ``game.store.tables``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.applies = 0
        self.rows = 0
        apply, log_actions = tables.apply, tables.log_actions

        def counted_apply(*args: Any) -> Any:
            self.applies += 1
            return apply(*args)

        def counted_rows(*args: Any) -> list[dict[str, Any]]:
            rows = log_actions(*args)
            self.rows += len(rows)
            return rows

        monkeypatch.setattr(tables, "apply", counted_apply)
        monkeypatch.setattr(tables, "log_actions", counted_rows)


@override_settings(CHECKPOINT_EVERY=10, TABLETOP_ENTRIES_PER_TURN=10_000)
@pytest.mark.parametrize("length", [45, 405])
def test_a_cold_load_and_an_undo_replay_only_from_the_nearest_checkpoint(
    monkeypatch: pytest.MonkeyPatch, length: int
) -> None:
    """Whether the log has 45 or 405 entries, loading the table in a fresh process and taking
    back an entry each apply and read at most a few checkpoint intervals' entries (a replay from
    the setup would take all of them), and reach the state the whole record replays to."""
    table = tabletop()
    play(table, length, seed=length)
    assert Checkpoint.objects.filter(table=table).count() >= length // 10 - 2
    expected = record.replay(record_of(table)).state

    STATES.clear()
    counted = Counted(monkeypatch)
    assert load_state(table) == expected
    assert counted.applies <= 40 and counted.rows <= 40, (counted.applies, counted.rows)

    counted.applies = counted.rows = 0
    if not effective(expected.log):
        send(table, {"type": "score", "points": 1, "figure": "meeple"})
        counted.applies = counted.rows = 0
    send(table, {"type": "undo"})
    assert counted.applies <= 40 and counted.rows <= 40, (counted.applies, counted.rows)
    STATES.clear()
    assert load_state(table) == record.replay(record_of(table)).state


@override_settings(CHECKPOINT_EVERY=5, TABLETOP_ENTRIES_PER_TURN=10_000)
def test_a_tampered_checkpoint_is_ignored() -> None:
    table = tabletop()
    play(table, 12, seed=1)
    row = Checkpoint.objects.filter(table=table).latest("version")
    blob = bytearray(row.state)
    blob[-1] ^= 1
    Checkpoint.objects.filter(pk=row.pk).update(state=bytes(blob))
    STATES.clear()
    assert load_state(table) == record.replay(record_of(table)).state


def test_the_cache_never_serves_another_game_with_the_same_id() -> None:
    """After a database restore or flush, an id may name another game: the cache is keyed by the
    table's random code as well."""
    table = tabletop()
    other = tabletop("c3")
    send(other, {"type": "score", "points": 4, "figure": "meeple"}, as_seat=1)
    STATES.put((table.id, "elsewhere"), load_state(other))
    assert load_state(table).setup.preset == "c1-zmg"
    assert LogEntry.objects.filter(table=table).count() == 0


def test_an_undo_at_a_board_game_is_refused_before_any_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, ann = create_table(preset="c2-hig", mode="board", seats=2, name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    table.refresh_from_db()
    state = load_state(table)
    seat, command = random_command(state, random.Random(1))
    send(table, command.to_message(), sender=seat)
    load_state(table)
    counted = Counted(monkeypatch)
    error = refused(table, {"type": "undo"})
    assert error.code == "illegal" and "game nights" in error.message
    assert counted.applies == 0 and counted.rows == 0


def scores(table: Table, count: int, seat: int = 1) -> None:
    for _ in range(count):
        send(table, {"type": "score", "points": 1, "figure": "meeple"}, as_seat=seat)


def deletion(entry: int) -> dict[str, Any]:
    return {"type": "correct", "entry": entry, "replacement": None}


@override_settings(CORRECTABLE_ENTRIES=3, TABLETOP_ENTRIES_PER_TURN=10_000)
def test_a_correction_and_its_preview_reach_only_the_entries_the_list_shows() -> None:
    """Entries 0 to 4 are Bob's points; the list shows the latest three (2, 3, 4). Entry 1 is
    refused ``too_old`` by the preview and by the correction, which changes nothing, and the
    message says how far back corrections reach; entry 2 is previewed and corrected."""
    from game.services.corrections import correctable, preview

    table = tabletop()
    scores(table, 5)
    listed = [item["entry"] for item in correctable(table.code, 0, host=True)["entries"]]
    assert listed == [4, 3, 2]
    with pytest.raises(CommandRefused) as old_preview:
        preview(table.code, 0, deletion(1), host=True)
    old_correction = refused(table, deletion(1))
    for error in (old_preview.value, old_correction):
        assert error.code == "too_old"
        assert error.message == (
            "Entry 1 is too old to correct: corrections reach back over the latest 3 entries"
            " with points, within the latest 1000 entries of the log (here back to entry 2)."
            " Adjust the points instead."
        )
    assert error.version == 5
    shown = preview(table.code, 0, deletion(2), host=True)
    assert [score["meeple"] for score in shown["scores"]] == [0, 4, 0]
    send(table, deletion(2))
    assert load_state(table).players[1].meeple == 4


@override_settings(
    CORRECTABLE_ENTRIES=300,
    CORRECTION_REACH=4,
    TABLETOP_ENTRIES_PER_TURN=10_000,
)
def test_corrections_reach_back_a_limited_number_of_log_entries() -> None:
    """However few entries have points, a correction replays every entry after the one it
    names: an entry of points before a long run of turns without any is out of reach, and
    not in the list either."""
    from game.services.corrections import correctable, preview

    table = tabletop()
    scores(table, 2, seat=0)  # entries 0, 1
    for _ in range(3):
        send(table, {"type": "end_turn"}, as_seat=load_state(table).active)  # entries 2 to 4
    scores(table, 1, seat=0)  # entry 5; the log's latest 4 entries are 2 to 5
    listed = [item["entry"] for item in correctable(table.code, 0, host=True)["entries"]]
    assert listed == [5]
    with pytest.raises(CommandRefused) as error:
        preview(table.code, 0, deletion(1), host=True)
    assert error.value.code == "too_old"
    assert "latest 4 entries of the log (here back to entry 2)" in error.value.message
    assert refused(table, deletion(0)).code == "too_old"
    assert preview(table.code, 0, deletion(5), host=True)["type"] == "preview"


class EngineSteps:
    """Counts the engine steps a correction's replay takes (``engine.corrections``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from game.engine import corrections

        self.steps = 0
        apply = corrections.apply

        def counted(*args: Any) -> Any:
            self.steps += 1
            return apply(*args)

        monkeypatch.setattr(corrections, "apply", counted)


@override_settings(
    CHECKPOINT_EVERY=10,
    CORRECTABLE_ENTRIES=20,
    CORRECTION_REACH=30,
    TABLETOP_ENTRIES_PER_TURN=10_000,
)
def test_a_preview_replays_from_the_checkpoint_before_its_entry_not_from_the_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 300 entries, a preview of the oldest entry the window allows takes a bounded number
    of engine steps (a checkpoint interval before it, twice the entries after it); one of the
    first entry is refused before any step (it took about 600 when it was accepted)."""
    from game.services.corrections import correctable, preview

    table = tabletop()
    scores(table, 300)
    STATES.clear()
    load_state(table)
    oldest = correctable(table.code, 0, host=True)["entries"][-1]["entry"]
    assert oldest == 280
    counted = EngineSteps(monkeypatch)
    preview(table.code, 0, deletion(oldest), host=True)
    assert 0 < counted.steps <= 10 + 2 * 20 + 2, counted.steps
    counted.steps = 0
    with pytest.raises(CommandRefused) as error:
        preview(table.code, 0, deletion(0), host=True)
    assert error.value.code == "too_old" and counted.steps == 0
    send(table, deletion(oldest))
    STATES.clear()
    assert load_state(table) == record.replay(record_of(table)).state
