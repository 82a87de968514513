"""The read budget (game/ops/read_budget.py; docs/protocol.md, "Limits"): the expensive reads of a
table's websocket and its story draw on CPU milliseconds per table and per client address; past
the budget a read is refused ``busy_reading`` and not done, other tables and addresses are not
affected, and the budget refills with time. Costs and time are faked, never measured."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client as HttpClient
from django.test import override_settings

from game.live import consumers
from game.ops import read_budget
from game.ops.read_budget import OverBudget, ReadBudget
from tests.live.test_consumers import Client
from tests.services.test_console import command, tabletop_lobby, update_at

BURST = 1000
RATE = 100


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class CpuTime:
    """A thread clock by which every measured read costs ``per_read`` milliseconds."""

    def __init__(self, per_read: float) -> None:
        self.per_read = per_read
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        return (self.calls // 2) * self.per_read / 1000


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """The process's budget on a fake clock, every read costing 250 ms of fake CPU."""
    fake = Clock()
    with override_settings(READ_BUDGET_MS_PER_SECOND=RATE, READ_BUDGET_BURST_MS=BURST):
        read_budget.reset(ReadBudget(RATE, BURST, clock=fake))
        monkeypatch.setattr(read_budget, "thread_time", CpuTime(250))
        yield fake


# The buckets ----------------------------------------------------------------------------------

TABLE = ("table", "abcd2345")
ADDRESS = ("address", "10.0.0.1")


def test_a_bucket_refuses_once_spent_and_refills_with_time() -> None:
    clock = Clock()
    budget = ReadBudget(RATE, BURST, clock=clock)
    budget.check([TABLE, ADDRESS])
    budget.charge([TABLE, ADDRESS], 600)
    budget.check([TABLE, ADDRESS])  # 400 left
    budget.charge([TABLE, ADDRESS], 600)  # 200 owed: the cost is known only afterwards
    with pytest.raises(OverBudget) as over:
        budget.check([TABLE, ADDRESS])
    assert over.value.key == TABLE
    assert over.value.wait == pytest.approx(2.01)
    budget.check([("table", "other"), ("address", "10.0.0.2")])  # others keep their budget
    clock.now = 2.0
    with pytest.raises(OverBudget):
        budget.check([TABLE])  # back to 0: still nothing left
    clock.now = 2.5
    budget.check([TABLE, ADDRESS])
    clock.now = 1000.0
    assert budget.level(TABLE) == BURST  # never above the burst


def test_either_bucket_refuses() -> None:
    budget = ReadBudget(RATE, BURST, clock=Clock())
    budget.charge([ADDRESS], 1000)
    with pytest.raises(OverBudget) as over:
        budget.check([TABLE, ADDRESS])
    assert over.value.key == ADDRESS
    assert read_budget.refusal(over.value).startswith("Your network has asked the server")


async def test_reads_of_one_address_take_turns_and_other_addresses_do_not_wait() -> None:
    """Turns: a second read of an address starts only once the first is done, while a read of
    another address goes ahead at once; nothing is kept once no read runs."""
    import asyncio

    turns = read_budget.Turns()
    events: list[str] = []
    first_in, release = asyncio.Event(), asyncio.Event()

    async def read(name: str, address: str, hold: asyncio.Event | None = None) -> None:
        async with turns.turn(address):
            events.append(f"{name} starts")
            if hold is not None:
                first_in.set()
                await hold.wait()
            events.append(f"{name} ends")

    first = asyncio.create_task(read("first", "10.0.0.1", release))
    await first_in.wait()
    second = asyncio.create_task(read("second", "10.0.0.1"))
    await read("other", "10.0.0.2")
    await asyncio.sleep(0)
    assert events == ["first starts", "other starts", "other ends"]
    release.set()
    await asyncio.gather(first, second)
    assert events[3:] == ["first ends", "second starts", "second ends"]
    assert turns.waiting() == 0


def test_no_rate_means_no_budget() -> None:
    budget = ReadBudget(0, BURST, clock=Clock())
    budget.charge([TABLE], 10_000)
    budget.check([TABLE])


def test_the_buckets_kept_are_bounded_and_full_ones_go_first() -> None:
    clock = Clock()
    budget = ReadBudget(RATE, BURST, clock=clock, max_buckets=3)
    budget.charge([("address", "a")], 10)
    clock.now = 1.0  # "a" has refilled
    budget.charge([("address", "b"), ("address", "c")], 500)
    budget.charge([("address", "d")], 500)
    assert budget.level(("address", "b")) == pytest.approx(500)
    assert budget.level(("address", "d")) == pytest.approx(500)
    assert len(budget._buckets) == 3


def test_a_read_is_measured_in_cpu_milliseconds_even_when_it_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(read_budget, "thread_time", CpuTime(40))
    cost: list[float] = []

    def failing() -> None:
        raise ValueError

    with pytest.raises(ValueError):
        read_budget.measured(failing, cost)()
    assert read_budget.measured(lambda: 7, cost)() == 7
    assert cost == [pytest.approx(40), pytest.approx(40)]


# Over the websocket ---------------------------------------------------------------------------

pytestmark = pytest.mark.django_db(transaction=True)


async def hosted_game(address: str, frames: list[str]) -> tuple[str, Client]:
    """A started two-seat tabletop game (Ann hosts, Bob has no phone) with one entry of
    points, its host connected from ``address``."""
    code, host_token = await tabletop_lobby(seats=2)
    host = await connect(code, host_token, address, frames)
    await host.send({"type": "add_player", "name": "Bob", "colour": "orange"})
    await host.receive("snapshot")
    await host.send({"type": "start"})
    await host.receive("snapshot")
    await host.receive("history")
    await host.send(command(0, "h1", {"type": "score", "points": 4, "figure": "meeple"}))
    await update_at(host, 1)
    return code, host


async def connect(code: str, token: str | None, address: str, frames: list[str]) -> Client:
    client = Client(code, token, frames)
    client.socket.scope["client"] = (address, 50000)
    await client.connect()
    return client


class Counted:
    """How often the services behind the reads ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs: dict[str, int] = {}
        for name in ("correctable", "preview", "history"):
            real = getattr(consumers, name)
            monkeypatch.setattr(consumers, name, self._counting(name, real))

    def _counting(self, name: str, real: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            self.runs[name] = self.runs.get(name, 0) + 1
            return real(*args, **kwargs)

        return run


async def refused_busy(client: Client, request_id: str | None = None) -> dict[str, Any]:
    error = await client.receive("error")
    assert error["code"] == "busy_reading", error
    assert error["id"] == request_id
    assert "try again in" in error["message"]
    return error


FIX = {"type": "correct", "entry": 0, "replacement": None}


@pytest.mark.asyncio
async def test_past_the_budget_a_read_is_refused_and_not_done(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each read costs 250 ms here: four spend the table's and the address's 1,000. The fifth
    (whichever kind) is refused ``busy_reading`` with the request's id, and its service does
    not run; another table from another address reads on; with time the budget refills."""
    frames: list[str] = []
    code, host = await hosted_game("10.0.0.1", frames)
    counted = Counted(monkeypatch)
    for request_id in ("l1", "l2"):
        await host.send({"type": "entries", "id": request_id})
        assert (await host.receive("entries"))["id"] == request_id
    await host.send({"type": "preview", "id": "p1", "command": FIX})
    assert (await host.receive("preview"))["id"] == "p1"
    await host.send({"type": "history"})
    await host.receive("history")
    assert counted.runs == {"correctable": 2, "preview": 1, "history": 1}

    await host.send({"type": "entries", "id": "l3"})
    error = await refused_busy(host, "l3")
    assert error["message"].startswith("This table has asked the server")
    await host.send({"type": "preview", "id": "p2", "command": FIX})
    await refused_busy(host, "p2")
    await host.send({"type": "history", "before": 1})
    await refused_busy(host)
    await host.send({"type": "sync"})
    await refused_busy(host)
    await host.nothing_pending()
    assert counted.runs == {"correctable": 2, "preview": 1, "history": 1}
    # Nothing else is refused: a command is not a read.
    await host.send(command(1, "h2", {"type": "end_turn"}))
    await update_at(host, 2)

    # Another table, from another address: its own budgets.
    other_code, other = await hosted_game("10.0.0.2", frames)
    await other.send({"type": "entries"})
    assert (await other.receive("entries"))["entries"]
    # The same table from another address: the table's budget is spent.
    spectator = await connect(code, None, "10.0.0.3", frames)
    await spectator.send({"type": "sync"})
    await refused_busy(spectator)
    # Another table from the same address: the address's budget is spent.
    third = await connect(other_code, None, "10.0.0.1", frames)
    await third.send({"type": "sync"})
    await refused_busy(third)

    clock.now += 2.5  # 250 ms back: one read's worth
    await host.send({"type": "entries", "id": "l4"})
    assert (await host.receive("entries"))["id"] == "l4"
    await host.send({"type": "entries", "id": "l5"})
    await refused_busy(host, "l5")
    clock.now += 60
    await host.send({"type": "sync"})
    await host.receive("snapshot")
    await host.receive("history")
    for client in (host, other, spectator, third):
        await client.close()


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "game.ops.read_budget"]


@pytest.mark.asyncio
async def test_a_costly_read_is_logged_with_its_table_and_kind_only(
    clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    frames: list[str] = []
    code, host = await hosted_game("10.0.0.1", frames)
    with override_settings(READ_SLOW_MS=200), caplog.at_level("WARNING", "game.ops.read_budget"):
        await host.send({"type": "entries"})
        await host.receive("entries")
    assert said(caplog) == [f"Read of entries at table {code} took 250 ms of CPU"]
    with override_settings(READ_SLOW_MS=300), caplog.at_level("WARNING", "game.ops.read_budget"):
        caplog.clear()
        await host.send({"type": "entries"})
        await host.receive("entries")
    assert said(caplog) == []
    await host.close()


def test_the_story_past_the_budget_is_429_with_words_and_a_retry_after(clock: Clock) -> None:
    from tests.store.test_bounded_work import tabletop

    table = tabletop()
    client = HttpClient(REMOTE_ADDR="10.0.0.7")
    for _ in range(4):
        assert client.get(f"/t/{table.code}/story.json").status_code == 200
    refused = client.get(f"/t/{table.code}/story.json")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "1"
    assert "try again in 1 second" in json.loads(refused.content)["error"]
    assert client.get(f"/t/{table.code}/results.csv").status_code == 429
    other = tabletop()
    assert HttpClient(REMOTE_ADDR="10.0.0.8").get(f"/t/{other.code}/story.json").status_code == 200
    clock.now += 60
    assert client.get(f"/t/{table.code}/results.csv").status_code == 200
