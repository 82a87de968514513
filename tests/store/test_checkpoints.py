"""Checkpoints carry the engine state version: one of another version, or of none, is never
unpickled; the table is rebuilt from its setup and log and the checkpoint written again. The
version changes whenever the engine's state types do (``tests/state_fingerprint.json``)."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

from game.engine import presets, record
from game.engine import state as engine_state
from game.engine.state import STATE_VERSION
from game.models import Checkpoint, Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game
from game.store import checkpoints, tables
from game.store.tables import STATES, load_state, record_of
from tests import checkpoints_before, state_fingerprint

SCORE = {"type": "score", "points": 2, "figure": "meeple"}


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """No state of one test (some built by patched classes) is served to another."""
    STATES.clear()
    yield
    STATES.clear()


# The fingerprint ---------------------------------------------------------------------------


def test_the_engine_state_types_are_those_recorded_for_state_version() -> None:
    """Fails after a change to a type a stored state is built of until ``STATE_VERSION`` is
    bumped and the fingerprint recorded again; the message says how."""
    problem = state_fingerprint.problem(state_fingerprint.recorded(), state_fingerprint.current())
    assert problem is None, problem


def test_the_fingerprint_walks_the_types_a_state_is_built_of() -> None:
    """Found from ``GameState`` through field types and subclasses, not from a list."""
    types = state_fingerprint.current()["types"]
    assert "game.engine.presets.Options" in types  # GameState.setup.options
    assert "game.engine.agenda.AwaitMessage" in types  # a subclass of the agenda's Step
    assert "game.engine.corrections.Amendments" in types  # named only for type checking
    assert "game.engine.tiles.FeatureKind" in types  # through Board, Feature (a named tuple)
    assert types["game.engine.state.Mode"] == {
        "kind": "enum",
        "members": {"BOARD": "board", "TABLETOP": "tabletop"},
    }
    assert "game.engine.commands.Score" not in types  # the log holds actions as mappings


def with_house_rule(monkeypatch: pytest.MonkeyPatch) -> type:
    """The engine as a release that adds a house rule has it: ``Options`` with one more field
    (with a default), the presets built of it."""
    old = presets.Options
    fields = [(field.name, field.type, field) for field in dataclasses.fields(old)]
    options = dataclasses.make_dataclass(
        "Options",
        [*fields, ("house_rule", bool, dataclasses.field(default=False))],
        frozen=True,
        slots=True,
        namespace={"to_json": old.to_json},
    )
    options.__module__ = old.__module__
    options.__qualname__ = old.__qualname__
    monkeypatch.setattr(presets, "Options", options)
    monkeypatch.setattr(engine_state, "Options", options)
    for name, preset in presets.PRESETS.items():
        values = {field.name: getattr(preset, field.name) for field in dataclasses.fields(old)}
        monkeypatch.setitem(presets.PRESETS, name, options(**values))
    return options


def test_an_added_field_without_a_new_version_is_named_with_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record_before = state_fingerprint.current()
    with_house_rule(monkeypatch)
    now = state_fingerprint.current()
    assert now["version"] == STATE_VERSION
    problem = state_fingerprint.problem(record_before, now)
    assert problem is not None
    assert "game.engine.presets.Options (changed)" in problem
    assert f"Set STATE_VERSION in game/engine/state.py to {STATE_VERSION + 1}" in problem
    assert "`.venv/bin/python -m tests.state_fingerprint`" in problem

    # The command refuses to record the new types under the old version.
    path = tmp_path / "state_fingerprint.json"
    path.write_text(json.dumps(record_before))
    monkeypatch.setattr(state_fingerprint, "PATH", path)
    assert state_fingerprint.main() == 1
    assert json.loads(path.read_text()) == record_before

    # Bumped, the test asks for the record, and the command writes it.
    monkeypatch.setattr(engine_state, "STATE_VERSION", STATE_VERSION + 1)
    monkeypatch.setattr(state_fingerprint, "STATE_VERSION", STATE_VERSION + 1)
    bumped = state_fingerprint.current()
    assert "-m tests.state_fingerprint` to record it" in str(
        state_fingerprint.problem(record_before, bumped)
    )
    assert state_fingerprint.main() == 0
    assert state_fingerprint.problem(state_fingerprint.recorded(), bumped) is None


def test_a_version_is_never_used_twice() -> None:
    now = state_fingerprint.current()
    later = {**now, "version": now["version"] + 1}
    assert "lower than the recorded" in str(state_fingerprint.problem(later, now))


# Checkpoints of another version ------------------------------------------------------------


def tabletop() -> Table:
    table, ann = create_table(preset="c2-hig", mode="tabletop", seats=2, name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    table.refresh_from_db()
    return table


def send(table: Table, body: dict[str, Any], as_seat: int | None = None) -> None:
    table.refresh_from_db()
    submit_command(table.code, 0, table.version, f"c{table.version}", body, as_seat)
    table.refresh_from_db()


def play(table: Table, entries: int) -> None:
    """Scores and ends of turns, ``entries`` of them."""
    while table.version < entries:
        if table.version % 3:
            send(table, SCORE, as_seat=1)
        else:
            send(table, {"type": "end_turn"}, as_seat=load_state(table).active)


def written_under(blob: bytes | memoryview) -> bytes:
    """The header of a checkpoint: the line after the signature."""
    return bytes(blob)[32:].partition(b"\n")[0] + b"\n"


def rows(table: Table) -> dict[int, bytes]:
    return {
        version: bytes(state)
        for version, state in Checkpoint.objects.filter(table=table).values_list("version", "state")
    }


class Unpickles:
    """Counts the states the server unpickles."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        outer = self

        class Counting(checkpoints._EngineUnpickler):
            def load(self) -> Any:
                outer.count += 1
                return super().load()

        monkeypatch.setattr(checkpoints, "_EngineUnpickler", Counting)


def assert_rebuilt_and_renewed(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, why: str
) -> None:
    """Loaded cold, the table comes from its log without unpickling any stored state; each
    checkpoint passed on the way is written again with this version; the game goes on."""
    versions = sorted(rows(table))
    unpickles = Unpickles(monkeypatch)
    with caplog.at_level(logging.INFO, logger="game.store.tables"):
        assert load_state(table) == record.replay(record_of(table)).state
    assert unpickles.count == 0
    assert f"table {table.pk}: rebuilt from its log" in caplog.text and why in caplog.text
    assert "checkpoint ignored" not in caplog.text
    renewed = rows(table)
    assert sorted(renewed) == versions
    # The latest one, the one a load starts from, is of this version now.
    assert written_under(renewed[versions[-1]]) == checkpoints.header()
    state, _ = checkpoints.decode(renewed[versions[-1]])
    full = record_of(table)
    assert state == record.replay({**full, "actions": full["actions"][: versions[-1]]}).state

    send(table, SCORE, as_seat=1)
    STATES.clear()
    unpickles.count = 0
    assert load_state(table) == record.replay(record_of(table)).state
    assert unpickles.count == 1  # from the renewed checkpoint


@pytest.mark.django_db
@override_settings(CHECKPOINT_EVERY=5)
def test_a_checkpoint_of_another_version_is_refused_and_written_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table = tabletop()
    with monkeypatch.context() as earlier:
        earlier.setattr(checkpoints, "STATE_VERSION", STATE_VERSION + 7)
        play(table, 12)
    assert sorted(rows(table)) == [5, 10]
    assert {written_under(blob) for blob in rows(table).values()} == {
        b"checkpoint 1 %d\n" % (STATE_VERSION + 7)
    }
    with pytest.raises(checkpoints.StaleCheckpoint, match=f"version {STATE_VERSION + 7}"):
        checkpoints.decode(rows(table)[10])
    STATES.clear()
    assert_rebuilt_and_renewed(table, monkeypatch, caplog, f"version {STATE_VERSION + 7}")


@pytest.mark.django_db
@override_settings(CHECKPOINT_EVERY=5)
def test_a_checkpoint_from_before_versions_is_refused_the_same_way(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Written by a release before checkpoints carried a version: no header."""
    table = tabletop()
    play(table, 12)
    STATES.clear()
    for version in rows(table):
        old = checkpoints_before.encode(tables.load_state_at((table.pk, table.code), version))
        Checkpoint.objects.filter(table=table, version=version).update(state=old)
    STATES.clear()
    with pytest.raises(checkpoints.StaleCheckpoint, match="before checkpoints carried"):
        checkpoints.decode(rows(table)[10])
    assert_rebuilt_and_renewed(table, monkeypatch, caplog, "before checkpoints carried")


@pytest.mark.django_db
@override_settings(CHECKPOINT_EVERY=5)
def test_a_state_pickled_before_a_field_was_added_is_never_used(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A release adds a house rule: a field of ``Options``, so (the fingerprint test asks for
    it) a new ``STATE_VERSION``. The checkpoints of the games running before it hold states
    pickled by the classes without the field. Read into the new classes they would load and
    fail when the field is read (every such game failing with server_error); refused by their
    version, the games are rebuilt from their logs with the field's default and go on."""
    table = tabletop()
    play(table, 12)
    blob = rows(table)[10]
    options = with_house_rule(monkeypatch)
    monkeypatch.setattr(checkpoints, "STATE_VERSION", STATE_VERSION + 1)

    # What reading it without a version would give: the failure this change removes.
    payload = zlib.decompress(bytes(blob)[32 + len(written_under(blob)) :])
    unpickled, _ = checkpoints._EngineUnpickler(io.BytesIO(payload)).load()
    assert type(unpickled.options) is options
    with pytest.raises(AttributeError):
        _ = unpickled.options.house_rule

    with pytest.raises(checkpoints.StaleCheckpoint, match=f"version {STATE_VERSION},"):
        checkpoints.decode(blob)
    STATES.clear()
    state = load_state(table)
    assert state.options.house_rule is False
    assert state.options == presets.resolve_options("c2-hig")
    send(table, SCORE, as_seat=1)
    STATES.clear()
    assert load_state(table).options.house_rule is False
    renewed = rows(table)[10]
    assert written_under(renewed) == b"checkpoint 1 %d\n" % (STATE_VERSION + 1)
    assert checkpoints.decode(renewed)[0].options.house_rule is False


# Two releases side by side -------------------------------------------------------------------


def test_the_version_is_covered_by_the_signature() -> None:
    table_state = record.replay(
        {"format": "carcassonne-messengers/1", **_setup(), "actions": []}
    ).state
    blob = bytearray(checkpoints.encode(table_state))
    header = checkpoints.header()
    assert bytes(blob[32 : 32 + len(header)]) == header
    blob[32 + header.index(b" ", len(b"checkpoint ")) + 1] ^= 1  # the version's digit
    with pytest.raises(checkpoints.CheckpointError, match="signature"):
        checkpoints.decode(bytes(blob))


def _setup() -> dict[str, Any]:
    return {
        "players": ["Ann", "Bob"],
        "preset": "c2-hig",
        "mode": "tabletop",
        "seed": 5,
        "messages": [3, 1, 4, 8, 5, 2, 6, 7],
    }


@pytest.mark.django_db
@override_settings(CHECKPOINT_EVERY=5)
def test_the_release_before_reads_a_checkpoint_of_today_as_broken_and_uses_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """During a rolling restart the release before (checkpoints without a version) meets the
    checkpoints this one writes: its reader fails to decompress what follows the signature (the
    header is not a zlib stream), which it treats as a broken checkpoint, and it loads the table
    from its setup and log, as it does for a tampered one. Nothing is unpickled."""
    table = tabletop()
    play(table, 12)
    with pytest.raises(checkpoints.CheckpointError, match="cannot be read.*header check"):
        checkpoints_before.decode(rows(table)[10])
    monkeypatch.setattr(checkpoints, "decode", checkpoints_before.decode)
    unpickles = Unpickles(monkeypatch)
    STATES.clear()
    with caplog.at_level(logging.WARNING, logger="game.store.tables"):
        assert load_state(table) == record.replay(record_of(table)).state
    assert unpickles.count == 0
    assert "checkpoint ignored: the checkpoint cannot be read" in caplog.text


@pytest.mark.django_db
@override_settings(CHECKPOINT_EVERY=5)
def test_a_checkpoint_renewed_meanwhile_is_left_as_it_is() -> None:
    """Two processes rebuilding the same table: the second one's write finds the row no longer
    holding what it refused, and leaves it."""
    table = tabletop()
    play(table, 6)
    current = rows(table)[5]
    state, _ = checkpoints.decode(current)
    tables.renew_checkpoint(table.pk, 5, b"what another process refused", state)
    assert rows(table)[5] == current
