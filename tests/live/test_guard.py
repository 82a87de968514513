"""Limits per connection and per client address (game/live/guard.py, game/ops/address_limits.py).

Every websocket limit first sends an ``error`` frame with its own code, then closes with its own
close code, and the consumer's clean-up still runs (its Connection row is gone). Normal play stays
far below every limit. Table creation and joining answer 429 past the hourly limit of an address,
and other addresses are unaffected.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from game.live import guard
from game.models import Connection, Table
from messengers.asgi import application
from tests import servers
from tests.live.test_consumers import command, first_placement, started_table

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def from_address(address: str) -> Any:
    """The project's ASGI application as reached from ``address`` (Daphne's ``client``)."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await application({**scope, "client": (address, 50000)}, receive, send)

    return app


async def open_socket(
    code: str, token: str | None = None, address: str = "10.0.0.1"
) -> WebsocketCommunicator:
    """A connected websocket at the table, its snapshot and history already read."""
    headers = [*HEADERS, *([(b"x-seat-token", token.encode())] if token else [])]
    socket = WebsocketCommunicator(from_address(address), f"/ws/t/{code}", headers=headers)
    connected, _ = await socket.connect()
    assert connected
    assert json.loads(await socket.receive_from())["type"] == "snapshot"
    assert json.loads(await socket.receive_from())["type"] == "history"
    return socket


async def closed_by_guard(socket: WebsocketCommunicator) -> tuple[dict[str, Any], int]:
    """Read up to the guard's error frame and the close after it: (the error, the close code).

    Answers to frames the consumer handled before the limit was reached come first; skip them.
    """
    while True:
        output = await socket.receive_output(timeout=5)
        assert output["type"] == "websocket.send", output
        frame = json.loads(output["text"])
        if frame["type"] == "error" and frame["code"] in GUARD_CODES:
            break
    close = await socket.receive_output(timeout=5)
    assert close["type"] == "websocket.close", close
    return frame, close["code"]


GUARD_CODES = {
    "too_many_messages",
    "too_many_queued",
    "frame_too_large",
    "silent",
    "too_many_connections",
}


async def connections() -> int:
    return await database_sync_to_async(Connection.objects.count)()


async def finished(socket: WebsocketCommunicator) -> None:
    """Wait for the application to end: after a guard's close it ends without the client."""
    await socket.wait(timeout=5)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
class TestWebsocketLimits:
    @override_settings(WS_RATE=0.01, WS_BURST=3, WS_MAX_QUEUED=1000)
    async def test_too_many_frames_per_second(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        socket = await open_socket(code, tokens[0])
        assert await connections() == 1
        for _ in range(4):
            await socket.send_to(text_data='{"type":"ping"}')
        error, close_code = await closed_by_guard(socket)
        assert error["code"] == "too_many_messages"
        assert "at most 0.01 per second" in error["message"]
        assert error["version"] is None and error["id"] is None
        assert close_code == guard.TOO_MANY_MESSAGES == 4429
        await finished(socket)
        assert await connections() == 0

    @override_settings(WS_RATE=1000, WS_BURST=1000, WS_MAX_QUEUED=5)
    async def test_too_many_frames_waiting(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        socket = await open_socket(code, tokens[0])
        # Nothing here lets the consumer run between the sends: all of them wait for it at once.
        for _ in range(20):
            await socket.send_to(text_data='{"type":"ping"}')
        error, close_code = await closed_by_guard(socket)
        assert error["code"] == "too_many_queued"
        assert "at most 5" in error["message"]
        assert close_code == 4429
        await finished(socket)
        assert await connections() == 0

    @override_settings(WS_MAX_FRAME_BYTES=100)
    async def test_frame_too_large(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        socket = await open_socket(code, tokens[0])
        await socket.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 100}))
        error, close_code = await closed_by_guard(socket)
        assert error["code"] == "frame_too_large"
        assert "limit of 100 bytes" in error["message"]
        assert close_code == guard.FRAME_TOO_LARGE == 4413
        await finished(socket)
        assert await connections() == 0

    @override_settings(WS_MAX_FRAME_BYTES=100)
    async def test_a_frame_at_the_size_limit_passes(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        socket = await open_socket(code, tokens[0])
        # 100 bytes in UTF-8; the consumer itself refuses the made-up figure, so an error
        # other than the guard's (and no close) shows that the frame passed the guard.
        frame = '{"type":"preference","figure":"' + "é" * 32 + "abc" + '"}'
        assert len(frame.encode()) == 100
        await socket.send_to(text_data=frame)
        error = json.loads(await socket.receive_from(timeout=5))
        while error["type"] != "error":
            error = json.loads(await socket.receive_from(timeout=5))
        assert error["code"] == "malformed", error
        await socket.send_to(text_data='{"type":"ping"}')
        await _next(socket, "pong")
        await socket.disconnect()

    @override_settings(WS_SILENCE_SECONDS=0.3)
    async def test_silent_socket(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        socket = await open_socket(code, tokens[0])
        error, close_code = await closed_by_guard(socket)
        assert error["code"] == "silent"
        assert "0.3 seconds" in error["message"]
        assert close_code == guard.SILENT_TOO_LONG == 4408
        await finished(socket)
        assert await connections() == 0

    @override_settings(WS_MAX_PER_ADDRESS=2)
    async def test_too_many_connections_from_one_address(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        first = await open_socket(code, tokens[0], "10.0.0.1")
        second = await open_socket(code, tokens[1], "10.0.0.1")

        third = WebsocketCommunicator(from_address("10.0.0.1"), f"/ws/t/{code}", headers=HEADERS)
        connected, _ = await third.connect()
        assert connected
        error, close_code = await closed_by_guard(third)
        assert error["code"] == "too_many_connections"
        assert "at most 2" in error["message"]
        assert close_code == guard.TOO_MANY_CONNECTIONS == 4503
        await third.disconnect()
        assert await connections() == 2  # no consumer was made for the third

        other = await open_socket(code, None, "10.0.0.2")
        await other.disconnect()
        await first.disconnect()
        # A closed socket frees its place for the address.
        again = await open_socket(code, tokens[0], "10.0.0.1")
        for socket in (second, again):
            await socket.disconnect()
        assert await connections() == 0

    @override_settings(WS_CONNECTS_PER_SECOND=0.01, WS_CONNECT_BURST=2)
    async def test_too_many_new_connections_from_one_address(self) -> None:
        """An address that opens sockets faster than its connection rate is refused before the
        socket opens (no consumer, no snapshot); another address connects as usual
        (docs/protocol.md, "Limits")."""
        code, tokens = await started_table(["Ann", "Bob"])
        for _ in range(2):
            socket = await open_socket(code, tokens[0], "10.0.0.1")
            await socket.disconnect()
        third = WebsocketCommunicator(from_address("10.0.0.1"), f"/ws/t/{code}", headers=HEADERS)
        connected, close_code = await third.connect()
        assert not connected
        assert close_code == guard.TOO_MANY_MESSAGES
        assert await connections() == 0  # no consumer was made for the third
        other = await open_socket(code, tokens[1], "10.0.0.2")
        await other.disconnect()

    @override_settings(WS_RATE=0.02, WS_BURST=3, WS_ADDRESS_RATE=0.02, WS_MAX_QUEUED=1000)
    async def test_the_sockets_of_one_address_share_its_rate(self) -> None:
        """Each socket's rate is its address's rate shared by the address's open sockets (never
        more than one socket's own rate): with two sockets open an address's sockets get half
        of it each, while the one socket of another address gets all of it."""
        code, tokens = await started_table(["Ann", "Bob"])
        first = await open_socket(code, tokens[0], "10.0.0.1")
        second = await open_socket(code, tokens[1], "10.0.0.1")
        alone = await open_socket(code, None, "10.0.0.2")
        for socket in (first, alone):
            for _ in range(4):
                await socket.send_to(text_data='{"type":"ping"}')
        shared, close_code = await closed_by_guard(first)
        assert shared["code"] == "too_many_messages"
        assert "at most 0.01 per second on this connection" in shared["message"]
        assert close_code == guard.TOO_MANY_MESSAGES
        whole, _ = await closed_by_guard(alone)
        assert "at most 0.02 per second on this connection" in whole["message"]
        await second.send_to(text_data='{"type":"ping"}')
        await _next(second, "pong")  # the other socket of the address goes on
        await second.disconnect()

    async def test_frames_after_the_close_are_dropped(self) -> None:
        with override_settings(WS_RATE=0.01, WS_BURST=1):
            code, tokens = await started_table(["Ann", "Bob"])
            socket = await open_socket(code, tokens[0])
            for _ in range(5):
                await socket.send_to(text_data='{"type":"ping"}')
            await closed_by_guard(socket)
            assert await socket.receive_nothing(timeout=0.2)

    @override_settings(WS_GUARD=False, WS_RATE=0.01, WS_BURST=1)
    async def test_the_guard_can_be_turned_off(self) -> None:
        code, tokens = await started_table(["Ann", "Bob"])
        socket = await open_socket(code, tokens[0])
        for _ in range(5):
            await socket.send_to(text_data='{"type":"ping"}')
        for _ in range(5):
            await _next(socket, "pong")
        await socket.disconnect()

    async def test_normal_play_never_reaches_a_limit(self) -> None:
        """Two seats play ten commands, a page resyncs, the host sends a burst of commands and
        keep-alives: every frame is answered and no limit is reached (default settings)."""
        code, tokens = await started_table(["Ann", "Bob"])
        ann = await open_socket(code, tokens[0])
        bob = await open_socket(code, tokens[1])
        sockets = [ann, bob]
        await ann.send_to(text_data='{"type":"sync"}')
        snapshot = await _next(ann, "snapshot")
        view, version = snapshot["view"], snapshot["version"]
        frames: list[dict[str, Any]] = []
        for turn in range(10):
            seat = view["pending"]["seat"]
            body = _choice(view)
            await sockets[seat].send_to(text_data=json.dumps(command(version, f"c{turn}", body)))
            update = await _next(sockets[seat], "update", frames)
            view, version = update["view"], update["version"]
            await _next(sockets[1 - seat], "update", frames)
        # A burst: many frames at once, as a page does after reconnecting or a console does.
        for _ in range(30):
            await ann.send_to(text_data='{"type":"ping"}')
        for _ in range(30):
            await _next(ann, "pong", frames)
        assert not [f for f in frames if f["type"] == "error"]
        for socket in sockets:
            await socket.disconnect()
        assert await connections() == 0


async def _next(
    socket: WebsocketCommunicator, kind: str, seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    while True:
        frame = json.loads(await socket.receive_from(timeout=5))
        if seen is not None:
            seen.append(frame)
        assert frame["type"] != "error", frame
        if frame["type"] == kind:
            return frame


def _choice(view: dict[str, Any]) -> dict[str, Any]:
    """A legal answer to what the game waits for: the first of each list the view offers."""
    pending = view["pending"]
    if pending["type"] == "place_tile":
        return first_placement(view)
    if pending["type"] == "place_follower":
        return {"type": "skip_follower"}
    if pending["type"] == "choose_figure":
        return {"type": "choose_figure", "figure": pending["options"][0]["figure"]}
    if pending["type"] == "resolve_message":
        return {"type": "resolve_message", "choice": "points"}
    raise AssertionError(f"unexpected decision in a short test game: {pending}")


# --- HTTP: tables and seats per address and hour ----------------------------------------------

FORM = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Ann", "colour": "blue"}


@pytest.mark.django_db
@override_settings(TABLES_PER_HOUR=2)
def test_table_creation_is_limited_per_address() -> None:
    for _ in range(2):
        assert Client().post("/tables", FORM, REMOTE_ADDR="10.0.0.1").status_code == 302
    refused = Client().post("/tables", FORM, REMOTE_ADDR="10.0.0.1")
    assert refused.status_code == 429
    assert "Too many new tables from your address: at most 2 an hour" in refused.content.decode()
    assert Table.objects.count() == 2

    assert Client().post("/tables", FORM, REMOTE_ADDR="10.0.0.2").status_code == 302
    assert Table.objects.count() == 3


@pytest.mark.django_db
def test_hourly_counts_are_kept_in_the_database_by_hashed_address_and_hour() -> None:
    """The counts live in the database, so they survive a restart of Redis or of every server
    process; no row names the address itself; each clock hour counts afresh, and housekeeping
    removes the hours that are over."""
    from game.models import AddressCount
    from game.ops.address_limits import HourlyLimit, current_window
    from game.ops.housekeeping import sweep

    limit = HourlyLimit("create", 2)
    assert [limit.allow_address("203.0.113.9") for _ in range(3)] == [True, True, False]
    assert limit.allow_address("203.0.113.10")
    rows = list(AddressCount.objects.values_list("action", "address", "window", "count"))
    assert sorted(count for *_, count in rows) == [1, 3]
    assert all(action == "create" and window == current_window() for action, _, window, _ in rows)
    assert not any("203.0.113" in address for _, address, _, _ in rows)

    AddressCount.objects.update(window=current_window() - 1)
    assert limit.allow_address("203.0.113.9")  # a new hour
    assert sweep().counts == 2
    assert list(AddressCount.objects.values_list("count", flat=True)) == [1]


@pytest.mark.django_db
@override_settings(JOINS_PER_HOUR=1)
def test_joining_is_limited_per_address() -> None:
    code, _ = _lobby(seats=4)
    first = Client().post(
        f"/t/{code}/join", {"name": "Bob", "colour": "green"}, REMOTE_ADDR="1.2.3.4"
    )
    assert first.status_code == 302
    refused = Client().post(
        f"/t/{code}/join", {"name": "Cy", "colour": "pink"}, REMOTE_ADDR="1.2.3.4"
    )
    assert refused.status_code == 429
    assert "at most 1 an hour" in refused.context["join_error"]
    other = Client().post(
        f"/t/{code}/join", {"name": "Di", "colour": "pink"}, REMOTE_ADDR="5.6.7.8"
    )
    assert other.status_code == 302
    assert Table.objects.get(code=code).seats.count() == 3


def _lobby(seats: int) -> tuple[str, str]:
    from game.services.lobby import create_table

    table, seat = create_table(
        preset="c2-hig", overrides=None, seats=seats, name="Ann", colour="blue"
    )
    return table.code, seat.token


def test_open_file_limit_is_raised_to_the_hard_limit() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    guard.raise_open_file_limit()
    raised, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert raised == (soft if hard == resource.RLIM_INFINITY else hard)


# --- Under Daphne: the same limits over real sockets -----------------------------------------


@pytest.fixture(scope="module")
def daphne(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, list[str]]]:
    """Daphne with a low rate and three sockets per address; (base URL, code, tokens)."""
    database = tmp_path_factory.mktemp("guard") / "db.sqlite3"
    env = servers.project_env(
        DATABASE_URL=f"sqlite:///{database}", WS_RATE="0.01", WS_BURST="5", WS_MAX_PER_ADDRESS="3"
    )
    servers.migrate(env)
    table = servers.run_script(env, "tests.lobby_script")
    with servers.daphne_server(env) as base:
        yield base, table["code"], table["tokens"]


async def _real_socket(base: str, code: str) -> ClientConnection:
    host = base.removeprefix("http://")
    return await connect(f"ws://{host}/ws/t/{code}", origin=Origin(base), proxy=None)


async def _until_closed(socket: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """Every frame up to the close, and the close code the server sent."""
    frames = []
    with contextlib.suppress(ConnectionClosed):
        while True:
            frames.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=20)))
    return frames, socket.close_code


@pytest.mark.services
@pytest.mark.asyncio
async def test_under_daphne_a_burst_gets_the_error_then_the_close(
    daphne: tuple[str, str, list[str]],
) -> None:
    base, code, _ = daphne
    socket = await _real_socket(base, code)
    # The server may close before the client has written all twenty: what it sent before
    # closing is still read below.
    with contextlib.suppress(ConnectionClosed):
        for _ in range(20):
            await socket.send('{"type":"ping"}')
    frames, close_code = await _until_closed(socket)
    errors = [f for f in frames if f["type"] == "error"]
    assert [e["code"] for e in errors] == ["too_many_messages"], (frames, close_code)
    assert frames[-1] == errors[0]
    assert close_code == 4429


@pytest.mark.services
@pytest.mark.asyncio
async def test_under_daphne_too_many_sockets_from_one_address(
    daphne: tuple[str, str, list[str]],
) -> None:
    base, code, _ = daphne
    kept = [await _real_socket(base, code) for _ in range(3)]
    extra = await _real_socket(base, code)
    frames, close_code = await _until_closed(extra)
    assert [f["code"] for f in frames if f["type"] == "error"] == ["too_many_connections"]
    assert close_code == 4503
    for socket in kept:
        await socket.close()


# --- Under Daphne's transport (a stand-in): the socket stops being read, or is dropped ---------


class FakeTransport:
    """What the guard uses of Twisted's TCP transport, recorded."""

    def __init__(self) -> None:
        self.producer: Any = None
        self.lost = False
        self.aborted = False

    def registerProducer(self, producer: Any, streaming: bool) -> None:  # noqa: N802
        assert streaming and self.producer is None
        self.producer = producer

    def unregisterProducer(self) -> None:  # noqa: N802
        self.producer = None

    def loseConnection(self) -> None:  # noqa: N802
        assert self.producer is None, "a registered producer would keep the socket open"
        self.lost = True

    def abortConnection(self) -> None:  # noqa: N802
        self.aborted = True


class FakeProtocol:
    def __init__(self) -> None:
        self.transport = FakeTransport()
        self.gone = False
        """The client has closed, and Daphne has not told the application yet."""


def behind_daphne(protocol: FakeProtocol) -> Any:
    """The application given ``send`` as Daphne gives it: ``partial(handle_reply, protocol)``."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        async def handle_reply(protocol: FakeProtocol, message: Any) -> None:
            if protocol.gone:
                raise Disconnected("Attempt to send on a closed protocol")  # as autobahn does
            await send(message)

        scope = {**scope, "client": ("10.0.0.9", 50000)}
        await application(scope, receive, functools.partial(handle_reply, protocol))

    return app


async def _socket_behind_daphne(code: str, protocol: FakeProtocol) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(behind_daphne(protocol), f"/ws/t/{code}", headers=HEADERS)
    connected, _ = await socket.connect()
    assert connected
    await _next(socket, "history")
    return socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@override_settings(WS_MAX_FRAME_BYTES=100)
async def test_a_closed_socket_is_no_longer_read() -> None:
    code, _ = await started_table(["Ann", "Bob"])
    protocol = FakeProtocol()
    socket = await _socket_behind_daphne(code, protocol)
    assert protocol.transport.producer is not None
    await socket.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 100}))
    error, close_code = await closed_by_guard(socket)
    assert (error["code"], close_code) == ("frame_too_large", 4413)
    assert protocol.transport.lost and not protocol.transport.aborted
    await finished(socket)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@override_settings(WS_MAX_UNSENT_BYTES=5000)
async def test_a_client_that_does_not_read_is_dropped() -> None:
    """Twisted pauses the producer once 64 KiB wait unsent; past the limit sent meanwhile, the
    socket is aborted (no close frame could reach such a client) and the clean-up runs."""
    code, _ = await started_table(["Ann", "Bob"])
    protocol = FakeProtocol()
    socket = await _socket_behind_daphne(code, protocol)
    await socket.send_to(text_data='{"type":"sync"}')
    await _next(socket, "history")
    assert not protocol.transport.aborted  # reading: any amount passes

    protocol.transport.producer.pauseProducing()
    for _ in range(20):
        await socket.send_to(text_data='{"type":"sync"}')
    await finished(socket)
    assert protocol.transport.aborted
    assert await connections() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@override_settings(WS_MAX_UNSENT_BYTES=5000)
async def test_a_client_that_catches_up_is_kept() -> None:
    code, _ = await started_table(["Ann", "Bob"])
    protocol = FakeProtocol()
    socket = await _socket_behind_daphne(code, protocol)
    for _ in range(20):
        protocol.transport.producer.pauseProducing()
        await socket.send_to(text_data='{"type":"sync"}')
        await _next(socket, "history")
        protocol.transport.producer.resumeProducing()
    assert not protocol.transport.aborted
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_what_the_consumer_sends_after_the_client_left_is_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A client may close while the consumer is still answering it: Daphne raises on that send
    before its ``websocket.disconnect`` arrives. The answer goes nowhere; nothing fails."""
    code, _ = await started_table(["Ann", "Bob"])
    protocol = FakeProtocol()
    socket = await _socket_behind_daphne(code, protocol)
    protocol.gone = True
    with caplog.at_level(logging.ERROR):
        await socket.send_to(text_data='{"type":"sync"}')
        await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert await connections() == 0


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.exceptions import ImproperlyConfigured

    from messengers.settings import limit_from_env

    monkeypatch.setenv("WS_BURST", "7")
    assert limit_from_env("WS_BURST", 60) == 7
    monkeypatch.setenv("WS_RATE", "2.5")
    assert limit_from_env("WS_RATE", 20.0, integer=False) == 2.5
    monkeypatch.delenv("WS_MAX_QUEUED", raising=False)
    assert limit_from_env("WS_MAX_QUEUED", 100) == 100
    for bad in ("0", "-3", "many", "2.5"):
        monkeypatch.setenv("WS_BURST", bad)
        with pytest.raises(ImproperlyConfigured, match="WS_BURST must be"):
            limit_from_env("WS_BURST", 60)
