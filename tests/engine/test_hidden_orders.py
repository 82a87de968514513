"""Hidden orders that cannot be recovered: secret seeds, a keyed shuffle, host-only ending of a
tabletop game, and a downloadable record that never tells a message still to be drawn."""

from __future__ import annotations

import io
import json
import random

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from game.engine import record
from game.engine.play import new_game
from game.engine.shuffle import KEYED_SEED_MIN, shuffled_orders
from game.engine.state import MESSAGES
from game.engine.tiles import standard_bag
from game.live.snapshots import history, snapshot
from game.models import Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game
from game.services.refusals import CommandRefused
from game.store.tables import downloadable_record, load_state, record_of

ORDER = [6, 2, 7, 4, 1, 8, 3, 5]
"""A message stack whose undrawn part is not in number order."""


def test_old_seeds_shuffle_exactly_as_before() -> None:
    """Records written before secret seeds (small seeds) keep their orders."""
    legacy = random.Random(1234)
    bag, stack = standard_bag(), list(MESSAGES)
    legacy.shuffle(bag)
    legacy.shuffle(stack)
    assert shuffled_orders(1234, standard_bag(), MESSAGES) == (bag, stack)


def test_keyed_seeds_shuffle_reproducibly_and_differently() -> None:
    seed = KEYED_SEED_MIN | 0x5EED
    first = shuffled_orders(seed, standard_bag(), MESSAGES)
    assert first == shuffled_orders(seed, standard_bag(), MESSAGES)
    assert sorted(first[0]) == sorted(standard_bag()) and sorted(first[1]) == list(MESSAGES)
    assert first != shuffled_orders(seed + 1, standard_bag(), MESSAGES)
    # The same low bits as a legacy seed give another order: the keyed generator is in use.
    assert first != shuffled_orders(0x5EED, standard_bag(), MESSAGES)


def test_a_keyed_seed_record_replays_to_the_same_state() -> None:
    state, _ = new_game(["Ann", "Bob"], "c2-hig", seed=KEYED_SEED_MIN + 99)
    exported = record.export(state)
    again = record.replay(json.loads(json.dumps(exported))).state
    assert again == state and again.setup.seed == KEYED_SEED_MIN + 99


def started(mode: str = "board", preset: str = "c2-hig") -> tuple[Table, str, str]:
    table, ann = create_table(preset=preset, mode=mode, seats=2, name="Ann", colour="blue")
    bob = join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    table.refresh_from_db()
    return table, ann.token, bob.token


@pytest.mark.django_db
def test_a_new_table_gets_128_secret_bits(monkeypatch) -> None:
    drawn: list[int] = []

    def randbits(bits: int) -> int:
        drawn.append(bits)
        return (1 << bits) - 3

    monkeypatch.setattr("game.services.lobby.secrets.randbits", randbits)
    table, _, _ = started()
    assert drawn == [128]
    assert table.setup["seed"] == KEYED_SEED_MIN | ((1 << 128) - 3)
    assert table.setup["seed"].bit_length() > 128


@pytest.mark.django_db
def test_two_tables_get_different_seeds_and_orders() -> None:
    one, _, _ = started()
    two, _, _ = started()
    assert one.setup["seed"] != two.setup["seed"]
    assert min(one.setup["seed"], two.setup["seed"]) >= KEYED_SEED_MIN
    assert one.setup["tiles"] != two.setup["tiles"]
    assert sorted(one.setup["tiles"]) == sorted(two.setup["tiles"])


def send(table: Table, seat: int, body: dict, as_seat: int | None = None) -> None:
    table.refresh_from_db()
    submit_command(table.code, seat, table.version, f"c{table.version}", body, as_seat)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["end_game", "finish"])
def test_only_the_host_ends_or_finishes_a_tabletop_game(kind: str) -> None:
    table, _, _ = started("tabletop", preset="c1-zmg")
    if kind == "finish":
        send(table, 0, {"type": "end_game"})
    with pytest.raises(CommandRefused) as refused:
        send(table, 1, {"type": kind})
    assert refused.value.code == "not_host"
    table.refresh_from_db()
    before = table.version
    send(table, 0, {"type": kind})
    table.refresh_from_db()
    assert table.version == before + 1


@pytest.mark.django_db
def test_the_host_may_not_end_the_game_as_bob_either() -> None:
    """The check is on who sends, not on the seat a command is entered for."""
    table, _, _ = started("tabletop", preset="c1-zmg")
    with pytest.raises(CommandRefused) as refused:
        send(table, 1, {"type": "end_game"}, as_seat=0)
    assert refused.value.code == "not_host"


def play_three_messages_then_finish(table: Table) -> list[int]:
    """Ann, then Bob, then Ann land on dark spaces and draw a message each; the host ends and
    finishes the game. Returns the messages drawn."""
    drawn = []
    for seat in (0, 1, 0):
        meeple = load_state(Table.objects.get(pk=table.pk)).players[seat].meeple
        points = 5 - meeple % 5
        send(table, 0, {"type": "score", "points": points, "figure": "meeple"}, seat)
        send(table, 0, {"type": "end_turn"}, seat)
        state = load_state(Table.objects.get(pk=table.pk))
        assert state.revealed is not None
        drawn.append(state.revealed.message)
        send(table, 0, {"type": "resolve_message", "choice": "points"}, seat)
        state = load_state(Table.objects.get(pk=table.pk))
        if state.agenda and "Award" in type(state.agenda[0]).__name__:
            send(table, 0, {"type": "choose_figure", "figure": "meeple"}, seat)
    send(table, 0, {"type": "end_game"})
    send(table, 0, {"type": "finish"})
    return drawn


@pytest.mark.django_db
@override_settings(FIXED_MESSAGES=[str(m) for m in ORDER])
def test_a_finished_tabletop_record_tells_no_undrawn_message(tmp_path) -> None:
    """The attack on the hidden orders: the game ends, the record is downloaded, two undos reopen
    it. The record holds the drawn messages and then the rest in number order, and no seed; it
    still replays (engine and manage.py replay) to the same scores and draws."""
    table, ann, _ = started("tabletop", preset="c1-zmg")
    drawn = play_three_messages_then_finish(table)
    assert drawn == ORDER[:3]
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED

    response = Client().get(f"/t/{table.code}/record.json")
    assert response.status_code == 200
    served = json.loads(response.content)
    assert "seed" not in served
    assert served["messages"] == ORDER[:3] + sorted(ORDER[3:])
    assert served["messages"] != ORDER
    full = record_of(table)
    assert full["messages"] == ORDER and "seed" in full

    replayed = record.replay(served)
    actual = load_state(table)
    assert replayed.state.players == actual.players
    assert replayed.state.finished
    drawn_in_replay = [e["message"] for e in replayed.events if e["type"] == "message_drawn"]
    assert drawn_in_replay == drawn
    out = io.StringIO()
    (tmp_path / "served.json").write_text(json.dumps(served))
    call_command("replay", str(tmp_path / "served.json"), stdout=out)
    assert json.loads(out.getvalue())["finished"] is True

    # Reopen with two undos and play on: the next message is the real fourth, which the record
    # did not give away (it lists 1 there).
    send(table, 0, {"type": "undo"})
    send(table, 0, {"type": "undo"})
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert Client().get(f"/t/{table.code}/record.json").status_code == 409
    state = load_state(table)
    seat = state.active
    points = 5 - state.players[seat].meeple % 5
    send(table, 0, {"type": "score", "points": points, "figure": "meeple"}, seat)
    send(table, 0, {"type": "end_turn"}, seat)
    fourth = load_state(Table.objects.get(pk=table.pk)).revealed
    assert fourth is not None and fourth.message == ORDER[3] != served["messages"][3]


@pytest.mark.django_db
@override_settings(FIXED_MESSAGES=[str(m) for m in ORDER])
def test_a_finished_tabletop_record_holds_every_message_once_all_were_drawn() -> None:
    table, _, _ = started("tabletop", preset="c1-zmg")
    record_now = downloadable_record(table)
    assert record_now["messages"] == sorted(ORDER) and "seed" not in record_now
    assert record.replay(record_now).state.stack == tuple(sorted(ORDER))


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["board", "tabletop"])
def test_no_page_frame_or_download_holds_the_seed_or_the_stack(mode: str) -> None:
    table, ann, bob = started(mode)
    seed = str(table.setup["seed"])
    stack = json.dumps(table.setup["messages"], separators=(",", ":"))[1:-1]
    host, guest, watcher = Client(), Client(), Client()
    host.get(f"/t/{table.code}/rejoin/{ann}")
    guest.get(f"/t/{table.code}/rejoin/{bob}")
    texts = [
        client.get(path).content.decode()
        for client in (host, guest, watcher)
        for path in (
            f"/t/{table.code}",
            f"/t/{table.code}/projector",
            f"/t/{table.code}/record.json",
        )
    ]
    texts += [snapshot(table.code, seat) for seat in (0, 1, None)]
    texts += history(table.code)
    for text in texts:
        compact = text.replace(" ", "").replace("\n", "")
        assert seed not in compact
        assert stack not in compact
        assert '"seed"' not in compact
