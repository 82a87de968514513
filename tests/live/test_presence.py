"""Pings and presence cost the database nothing per frame (game/services/presence_book.py,
game/live/presence_writer.py, game/live/table_pulse.py), no connection row outlives its socket, and
the frames of one client address are handled a few at a time (game/live/guard.py).

The write-through interval is set far beyond any test's length, so that only the writes a test
makes itself (``presence_writer.flush``) happen: nothing here waits for a clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db.backends.utils import CursorWrapper
from django.test import override_settings
from django.utils import timezone

from game.live import presence_writer
from game.live.consumers import TableConsumer
from game.live.guard import ConnectionGuard
from game.live.table_pulse import PULSES, Pulse, PulseCache
from game.models import Connection, Seat, Table
from game.services import presence
from game.services.presence_book import BOOK, PresenceBook
from messengers.asgi import application
from tests.live.test_consumers import command, first_placement, started_table
from tests.live.test_guard import HEADERS, from_address, open_socket

QUIET = override_settings(PRESENCE_WRITE_SECONDS=3600, PING_READ_SECONDS=3600)
"""No write-through and no second read of a table by themselves during a test."""


@contextlib.contextmanager
def statements() -> Iterator[list[str]]:
    """Every SQL statement run meanwhile, in any thread (the consumers' database threads too)."""
    seen: list[str] = []
    original = CursorWrapper.execute

    def execute(self: CursorWrapper, sql: str, params: Any = None) -> Any:
        seen.append(sql)
        return original(self, sql, params)

    with mock.patch.object(CursorWrapper, "execute", execute):
        yield seen


async def next_of(socket: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await socket.receive_from(timeout=5))
        if message["type"] == kind:
            return message


async def rows() -> int:
    return await database_sync_to_async(Connection.objects.count)()


@pytest.fixture(autouse=True)
def _fresh_pulses() -> Iterator[None]:
    PULSES.clear()
    yield
    PULSES.clear()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
class TestPings:
    @QUIET
    async def test_pings_cost_one_read_per_table_and_one_write_per_interval(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        sockets = [
            await open_socket(code, token, f"10.1.0.{n}")
            for n, token in enumerate([tokens[0], tokens[1], None])
        ]
        old = timezone.now() - timedelta(seconds=50)
        await database_sync_to_async(Connection.objects.update)(seen=old)
        await presence_writer.flush()  # whatever the opening left to write

        with statements() as during_pings:
            for _ in range(20):
                for socket in sockets:
                    await socket.send_to(text_data='{"type":"ping"}')
            for socket in sockets:
                for _ in range(20):
                    assert (await next_of(socket, "pong"))["version"] == 0
        # Sixty pings: one read of the table, no write.
        assert len(during_pings) == 1, during_pings
        assert "game_table" in during_pings[0]

        with statements() as during_write:
            await presence_writer.flush()
        # One UPDATE of the three rows, whoever pinged how often.
        assert len(during_write) == 1, during_write
        assert during_write[0].startswith('UPDATE "game_connection"'), during_write
        refreshed = await database_sync_to_async(
            lambda: Connection.objects.filter(seen__gt=old).count()
        )()
        assert refreshed == 3
        with statements() as idle_write:
            await presence_writer.flush()
        assert idle_write == []  # nobody pinged since
        for socket in sockets:
            await socket.disconnect()
        assert await rows() == 0

    @QUIET
    async def test_a_version_applied_here_is_told_at_once_and_never_taken_back(self) -> None:
        """The pong's version comes from the cache, yet the process's own commands raise it; an
        older version is never told to a page after a newer one."""
        code, tokens = await started_table(["Ann", "Bob"])
        ann = await open_socket(code, tokens[0], "10.1.1.1")
        bob = await open_socket(code, tokens[1], "10.1.1.2")
        await bob.send_to(text_data='{"type":"ping"}')
        assert (await next_of(bob, "pong"))["version"] == 0  # cached for an hour from now on
        await ann.send_to(text_data='{"type":"sync"}')
        snapshot = await next_of(ann, "snapshot")
        await ann.send_to(text_data=json.dumps(command(0, "p1", first_placement(snapshot["view"]))))
        assert (await next_of(ann, "update"))["version"] == 1
        assert (await next_of(bob, "update"))["version"] == 1
        for socket in (ann, bob):
            await socket.send_to(text_data='{"type":"ping"}')
            assert (await next_of(socket, "pong"))["version"] == 1
        await ann.disconnect()
        await bob.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
class TestNoRowLeftBehind:
    @QUIET
    async def test_sockets_closing_in_bursts_and_cancelled_leave_no_row(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        before = await rows()
        sockets = [
            await open_socket(code, tokens[n % 2] if n % 3 else None, f"10.2.0.{n}")
            for n in range(24)
        ]
        assert await rows() == before + 24
        for socket in sockets:
            await socket.send_to(text_data='{"type":"ping"}')
        for socket in sockets:
            await next_of(socket, "pong")
        closing, cancelled = sockets[:16], sockets[16:]
        # A burst of closes racing the write-through of the same rows.
        await asyncio.gather(presence_writer.flush(), *(s.disconnect() for s in closing))
        # Applications cancelled before their clean-up could run (as Daphne does to one that
        # takes too long to end): their rows stay until the writer removes them.
        for socket in cancelled:
            socket.future.cancel()
        await asyncio.wait([socket.future for socket in cancelled])
        assert await rows() == before + len(cancelled)
        assert BOOK.counts() == (0, len(cancelled))
        await presence_writer.flush(grace=0)
        assert await rows() == before
        assert BOOK.counts() == (0, 0)
        # Ann's and Bob's seats are away since their last connection went.
        away = await database_sync_to_async(
            lambda: list(Seat.objects.filter(table__code=code).values_list("away_since", flat=True))
        )()
        assert all(since is not None for since in away), away

    @QUIET
    async def test_an_arrival_written_after_its_socket_was_cancelled_removes_itself(
        self,
    ) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        table = await database_sync_to_async(Table.objects.get)(code=code)
        BOOK.opened("late-channel")
        BOOK.ended("late-channel")  # cancelled while its welcome ran in a database thread
        await database_sync_to_async(presence.arrive)(table, 0, "late-channel")
        assert await rows() == 0
        BOOK.removed(["late-channel"])
        await database_sync_to_async(presence.arrive)(table, 0, "other-channel")  # no socket
        assert await rows() == 1

    @override_settings(PRESENCE_WRITE_SECONDS=0.01, PING_READ_SECONDS=3600)
    async def test_the_writer_writes_by_itself_survives_a_failure_and_ends_with_the_sockets(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        socket = await open_socket(code, tokens[0], "10.3.0.1")
        writer = presence_writer._task
        assert writer is not None and not writer.done()
        old = timezone.now() - timedelta(seconds=50)
        failures = 0
        original = presence.refresh

        def refresh_failing_once(channels: list[str]) -> int:
            nonlocal failures
            if failures == 0:
                failures += 1
                raise RuntimeError("the database is having a bad moment")
            return original(channels)

        with mock.patch.object(presence, "refresh", refresh_failing_once):
            await database_sync_to_async(Connection.objects.update)(seen=old)
            await socket.send_to(text_data='{"type":"ping"}')
            await next_of(socket, "pong")

            async def refreshed() -> None:
                while not await database_sync_to_async(
                    Connection.objects.filter(seen__gt=old).exists
                )():
                    await asyncio.sleep(0.01)

            await asyncio.wait_for(refreshed(), 10)
        assert failures == 1
        assert "Writing presence failed" in caplog.text
        assert not writer.done()
        await socket.disconnect()
        await asyncio.wait_for(writer, 10)  # nothing left to write: it ends
        assert BOOK.idle()


class TestPulseCache:
    """The cache itself, on a clock of its own."""

    @staticmethod
    def cache(versions: list[int]) -> tuple[PulseCache, list[str], list[float]]:
        reads: list[str] = []
        clock = [0.0]

        async def reader(code: str) -> Pulse | None:
            reads.append(code)
            await asyncio.sleep(0)
            return Pulse(versions[0], "playing", None, False)

        return PulseCache(reader, lambda: 1.0, lambda: clock[0]), reads, clock

    async def test_pings_of_one_table_at_once_share_one_read(self) -> None:
        versions = [3]
        pulses, reads, clock = self.cache(versions)
        readings = await asyncio.gather(*(pulses.get("ABCD") for _ in range(50)))
        assert reads == ["ABCD"]
        assert {r.pulse.version for r in readings if r.pulse} == {3}
        assert sum(r.fresh for r in readings) == 1  # only one may wake the computers
        clock[0] = 0.5
        assert not (await pulses.get("ABCD")).fresh
        versions[0] = 4
        clock[0] = 1.0
        assert (await pulses.get("ABCD")).pulse == Pulse(4, "playing", None, False)
        assert reads == ["ABCD", "ABCD"]

    async def test_a_noted_version_is_kept_even_against_a_read_that_began_before_it(self) -> None:
        versions = [3]
        pulses, _, clock = self.cache(versions)
        await pulses.get("ABCD")
        pulses.note("ABCD", 5)
        assert (await pulses.get("ABCD")).pulse == Pulse(5, "playing", None, False)
        clock[0] = 2.0
        reading = asyncio.ensure_future(pulses.get("ABCD"))  # reads 3 (before the commit)
        await asyncio.sleep(0)
        pulses.note("ABCD", 6)
        assert (await reading).pulse is not None
        assert (await pulses.get("ABCD")).pulse == Pulse(6, "playing", None, False)


class TestBook:
    def test_marks_are_written_once_and_a_failed_write_is_tried_again(self) -> None:
        book = PresenceBook()
        book.opened("a")
        book.opened("b")
        book.seen("a")
        book.seen("a")
        book.seen("unknown")  # not a socket of this process: ignored
        assert book.take(grace=5, now=0).refresh == ["a"]
        assert book.take(grace=5, now=0).refresh == []
        book.seen("b")
        book.again(book.take(grace=5, now=0).refresh)
        assert book.take(grace=5, now=0).refresh == ["b"]

    def test_a_closed_socket_is_the_writers_only_if_its_clean_up_did_not_finish(self) -> None:
        book = PresenceBook()
        for channel in ("clean", "failed", "cancelled"):
            book.opened(channel)
        book.closing("clean", now=0)
        book.cleared("clean")
        book.ended("clean")  # its application then ends: nothing left to do
        book.closing("failed", now=0)  # the database failed during its clean-up
        book.ended("cancelled", now=8)
        assert book.take(grace=5, now=10).departed == ["failed"]  # the other's may still run
        work = book.take(grace=5, now=20)
        assert sorted(work.departed) == ["cancelled", "failed"]
        book.removed(work.departed)
        assert book.idle()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
class TestFrameTurnsPerAddress:
    @override_settings(WS_AT_ONCE_PER_ADDRESS=2)
    async def test_a_flood_from_one_address_does_not_hold_up_another(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Six sockets of one address each send a frame that blocks; two are handled at a time,
        and a frame from another address is answered while all of them wait."""
        code, tokens = await started_table(["Ann", "Bob"])
        gate = asyncio.Event()
        inside: list[str] = []
        most = 0
        two_inside = asyncio.Event()
        original = TableConsumer._HANDLERS["ping"]

        async def held_ping(self: TableConsumer, message: dict[str, Any]) -> None:
            nonlocal most
            if self.scope["client"][0] == "10.9.0.1":
                inside.append(self.channel_name)
                most = max(most, len(inside))
                if len(inside) == 2:
                    two_inside.set()
                await gate.wait()
                inside.remove(self.channel_name)
            await original(self, message)

        monkeypatch.setitem(TableConsumer._HANDLERS, "ping", held_ping)
        flood = [await open_socket(code, None, "10.9.0.1") for _ in range(6)]
        other = await open_socket(code, tokens[1], "10.9.0.2")
        for socket in flood:
            await socket.send_to(text_data='{"type":"ping"}')
        await asyncio.wait_for(two_inside.wait(), 5)
        await other.send_to(text_data='{"type":"ping"}')
        assert (await next_of(other, "pong"))["version"] == 0
        for _ in range(100):  # every waiting frame has had its chance to start
            await asyncio.sleep(0)
        assert len(inside) == 2
        gate.set()
        for socket in flood:
            assert (await next_of(socket, "pong"))["version"] == 0
        assert most == 2
        for socket in [*flood, other]:
            await socket.disconnect()

    async def test_the_turns_of_an_address_go_with_its_last_socket(self) -> None:
        code, _ = await started_table(["Ann", "Bob"])
        socket = WebsocketCommunicator(from_address("10.9.1.1"), f"/ws/t/{code}", headers=HEADERS)
        connected, _ = await socket.connect()
        assert connected
        guard = _guard()
        assert "10.9.1.1" in guard.turns_per_address
        await socket.disconnect()
        assert "10.9.1.1" not in guard.turns_per_address


def _guard() -> ConnectionGuard:
    """The project's ConnectionGuard: the websocket side of the ASGI application."""
    guard = application.application_mapping["websocket"]
    assert isinstance(guard, ConnectionGuard)
    return guard
