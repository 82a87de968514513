"""Per-connection limits on the table websocket, so that no one client can starve the others.

Daphne hands every frame of a websocket to the application through an unbounded queue and never
closes a socket that stays open but says nothing. :class:`ConnectionGuard` sits between Daphne and
the consumer and enforces, per connection (docs/protocol.md, "Limits"):

* frames per second: a token bucket (a sustained rate plus a burst);
* the size of one frame;
* the frames waiting for the consumer: a reader task drains Daphne's queue at once into a
  bounded buffer, so a client that sends faster than the consumer works cannot grow the server's
  memory;
* silence: a socket that sends nothing (not even the page's keep-alive ping) for too long;
* open websockets per client address in this process;
* frames of one client address handled at once in this process: the guard hands the consumer
  one semaphore per address (``frame_turns``), which it holds while it handles a frame, so an
  address with many sockets (a flood, or a school behind one router) takes its turns while
  every other address goes on;
* under Daphne, what waits unsent for a client that stopped reading.

A limit first sends an ``error`` frame with its code and a human message, then closes the socket
with its close code. The consumer then receives ``websocket.disconnect`` at once, so its clean-up
(group membership, presence) runs even if the client never completes the close handshake; frames
still waiting for it are dropped, and frames that arrive after the close are read and discarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import resource
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from autobahn.exception import Disconnected
from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import gettext as _

from game.live.language import language_of

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

TOO_MANY_MESSAGES = 4429
"""Close code: too many frames per second, or too many waiting for the server."""
FRAME_TOO_LARGE = 4413
"""Close code: one frame larger than the limit."""
SILENT_TOO_LONG = 4408
"""Close code: nothing received for longer than the limit."""
TOO_MANY_CONNECTIONS = 4503
"""Close code: too many open websockets from the client's address."""
SLOW_READER = 1006
"""What the consumer is told when the guard aborts a socket whose client stopped reading: no
close frame can reach such a client, so the connection is dropped as if lost."""


@dataclass(frozen=True)
class Limits:
    """The limits of one websocket; see the ``WS_*`` settings."""

    rate: float
    """Frames per second a connection may send in the long run."""
    burst: int
    """Frames a connection may send at once after a quiet spell."""
    max_frame_bytes: int
    max_queued: int
    """Frames received but not yet taken by the consumer."""
    silence_seconds: float
    max_per_address: int
    at_once_per_address: int
    """Frames of one client address handled at the same time (the others wait their turn)."""
    address_rate: float
    """Frames per second all sockets of one address may send together (each gets its share)."""
    connects_per_second: float
    """New sockets one address may open per second in the long run."""
    connect_burst: int
    """New sockets one address may open at once."""
    max_unsent_bytes: int
    """Bytes the consumer may send while the client is not reading (Daphne only)."""

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            rate=settings.WS_RATE,
            burst=settings.WS_BURST,
            max_frame_bytes=settings.WS_MAX_FRAME_BYTES,
            max_queued=settings.WS_MAX_QUEUED,
            silence_seconds=settings.WS_SILENCE_SECONDS,
            max_per_address=settings.WS_MAX_PER_ADDRESS,
            at_once_per_address=settings.WS_AT_ONCE_PER_ADDRESS,
            address_rate=settings.WS_ADDRESS_RATE,
            connects_per_second=settings.WS_CONNECTS_PER_SECOND,
            connect_burst=settings.WS_CONNECT_BURST,
            max_unsent_bytes=settings.WS_MAX_UNSENT_BYTES,
        )


@dataclass(frozen=True)
class Breach:
    """A limit a connection went past: what the client is told, and how the socket closes."""

    code: str
    message: str
    close_code: int


def error_frame(breach: Breach) -> str:
    """The ``error`` frame of a breach, shaped like the consumer's own errors."""
    return json.dumps(
        {
            "type": "error",
            "code": breach.code,
            "message": breach.message,
            "version": None,
            "id": None,
        }
    )


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; each frame takes one."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def client_address(scope: Scope) -> str:
    """The client's address as Daphne reports it (from X-Forwarded-For with --proxy-headers)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


MAX_CONNECT_BUCKETS = 10_000
"""Connection-rate buckets kept at most; past it the full ones go (a full bucket is the same as
none), so that addresses seen once do not grow the process's memory."""


CONNECTS_PER_ADDRESS: dict[str, TokenBucket] = {}
"""New sockets per address in this process (``WS_CONNECTS_PER_SECOND``, ``WS_CONNECT_BURST``)."""


def forget_connection_rates() -> None:
    """Start every address's connection rate afresh (for tests, which all connect from one)."""
    CONNECTS_PER_ADDRESS.clear()


FRAME_TURNS = "messengers.frame_turns"
"""The scope key of the semaphore shared by the sockets of one client address."""


def frame_turns(scope: Scope) -> asyncio.Semaphore | None:
    """The semaphore a consumer holds while it handles a frame of this socket (None without
    the guard)."""
    turns = scope.get(FRAME_TURNS)
    return turns if isinstance(turns, asyncio.Semaphore) else None


class ConnectionGuard:
    """ASGI middleware that applies :class:`Limits` to every websocket of ``inner``.

    HTTP passes straight through. With ``WS_GUARD`` off, websockets do too.
    """

    def __init__(self, inner: App) -> None:
        self.inner = inner
        self.open_per_address: Counter[str] = Counter()
        self.turns_per_address: dict[str, asyncio.Semaphore] = {}
        """One semaphore per address with an open socket; dropped with its last socket."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or not settings.WS_GUARD:
            await self.inner(scope, receive, send)
            return
        limits = Limits.from_settings()
        address = client_address(scope)
        language = scope_language(scope)
        self.open_per_address[address] += 1
        try:
            if self.open_per_address[address] > limits.max_per_address:
                await _refuse(receive, send, _too_many_connections(limits, language))
            elif not self._may_connect(address, limits):
                await _refuse_handshake(receive, send)
            else:
                turns = self.turns_per_address.get(address)
                if turns is None:
                    turns = asyncio.Semaphore(limits.at_once_per_address)
                    self.turns_per_address[address] = turns
                scope = {**scope, FRAME_TURNS: turns}
                share = functools.partial(self.share, address, limits)
                await _GuardedSocket(limits, receive, send, share, language).run(self.inner, scope)
        finally:
            self.open_per_address[address] -= 1
            if self.open_per_address[address] <= 0:
                del self.open_per_address[address]
                self.turns_per_address.pop(address, None)

    def share(self, address: str, limits: Limits) -> float:
        """Frames per second one socket of ``address`` may send now: the address's rate shared
        by its open sockets, never more than the rate of a single socket."""
        return min(limits.rate, limits.address_rate / max(1, self.open_per_address[address]))

    def _may_connect(self, address: str, limits: Limits) -> bool:
        """Count a new socket of ``address``; False past its connection rate."""
        now = time.monotonic()
        bucket = CONNECTS_PER_ADDRESS.get(address)
        if bucket is None:
            if len(CONNECTS_PER_ADDRESS) >= MAX_CONNECT_BUCKETS:
                self._forget_full_buckets(now)
            bucket = TokenBucket(limits.connects_per_second, limits.connect_burst, now)
            CONNECTS_PER_ADDRESS[address] = bucket
        return bucket.take(now)

    def _forget_full_buckets(self, now: float) -> None:
        for address, bucket in list(CONNECTS_PER_ADDRESS.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del CONNECTS_PER_ADDRESS[address]
        while len(CONNECTS_PER_ADDRESS) >= MAX_CONNECT_BUCKETS:  # none full: oldest go
            del CONNECTS_PER_ADDRESS[next(iter(CONNECTS_PER_ADDRESS))]


async def _refuse_handshake(receive: Receive, send: Send) -> None:
    """Refuse the websocket before it opens (Daphne answers the upgrade with 403): a client
    opening sockets in a loop costs the process one HTTP exchange each, no websocket, no frame
    and no close handshake. The page sees a failed connection and retries with its back-off."""
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": TOO_MANY_MESSAGES})
        elif message["type"] == "websocket.disconnect":
            return


def scope_language(scope: Scope) -> str:
    """The language of a socket's page, read before the cookie middleware (inside the guard)
    has parsed the cookies: the guard's refusals read in it too."""
    if "cookies" in scope:
        return language_of(scope)
    header = next((value for name, value in scope.get("headers", ()) if name == b"cookie"), b"")
    return language_of({**scope, "cookies": parse_cookie(header.decode("latin-1")[:4096])})


def _too_many_connections(limits: Limits, language: str) -> Breach:
    with translation.override(language):
        return Breach(
            "too_many_connections",
            _(
                "Too many open connections from your address (at most %(most)s). Close some tabs"
                " and reload the page."
            )
            % {"most": limits.max_per_address},
            TOO_MANY_CONNECTIONS,
        )


async def _refuse(receive: Receive, send: Send, breach: Breach) -> None:
    """Accept only to say why, close, and wait for the socket to go; no consumer is made."""
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": error_frame(breach)})
            await send({"type": "websocket.close", "code": breach.close_code})
            stop_reading(send)
        elif message["type"] == "websocket.disconnect":
            return


def stop_reading(send: Send) -> None:
    """Under Daphne, stop reading the socket and drop it once the frames sent are flushed.

    A websocket close waits for the client's answer, by default up to a second, and reads (and
    parses) everything the client sends until then: a client that keeps sending instead of
    answering costs the whole process that second, tens of thousands of frames. Daphne gives
    each application ``partial(server.handle_reply, protocol)`` as ``send``, so the protocol's
    Twisted transport is at hand; ``loseConnection`` stops reading at once, writes what is
    buffered (the error and the close frame) and then closes. Daphne then tells the application
    the socket is gone, as for any dropped connection. Under another server (or in tests) the
    ordinary close handshake still applies.
    """
    transport = daphne_transport(send)
    if transport is not None:
        # A registered producer would keep the connection open until it unregisters.
        with contextlib.suppress(Exception):
            transport.unregisterProducer()
        transport.loseConnection()


def daphne_transport(send: Send) -> Any:
    """The Twisted transport of the socket behind Daphne's ``send``, or None elsewhere."""
    if not isinstance(send, functools.partial) or len(send.args) != 1:
        return None
    transport = getattr(send.args[0], "transport", None)
    needed = ("loseConnection", "abortConnection", "registerProducer", "unregisterProducer")
    if all(callable(getattr(transport, name, None)) for name in needed):
        return transport
    return None


class SendBacklog:
    """A push producer on the socket's transport, only to learn that the client stopped reading.

    Twisted asks its producer to pause once more than 64 KiB wait unsent in the process, and to
    resume when they are written. What the consumer sends while paused is counted: a client that
    never reads (while it keeps sending, so that Daphne's keep-alive ping never fires) would
    otherwise make the server buffer every snapshot sent to it.
    """

    def __init__(self) -> None:
        self.paused = False
        self.bytes_while_paused = 0

    def pauseProducing(self) -> None:  # noqa: N802 (Twisted's interface)
        self.paused = True

    def resumeProducing(self) -> None:  # noqa: N802
        self.paused = False
        self.bytes_while_paused = 0

    def stopProducing(self) -> None:  # noqa: N802
        self.paused = False


class _GuardedSocket:
    """One websocket: the reader, the bounded buffer, the silence watch and the close."""

    def __init__(
        self,
        limits: Limits,
        receive: Receive,
        send: Send,
        share: Callable[[], float] | None = None,
        language: str | None = None,
    ) -> None:
        self.limits = limits
        self.language = language or settings.LANGUAGE_CODE
        """The language of the page: a breach's message reads in it."""
        self.share = share
        """This socket's rate now (its address's rate shared by its sockets); None: ``rate``."""
        self.receive = receive
        self.send = send
        self.buffer: asyncio.Queue[Message] = asyncio.Queue()
        self.frames_waiting = 0
        self.bucket = TokenBucket(limits.rate, limits.burst, time.monotonic())
        self.last_frame = time.monotonic()
        self.accepted = asyncio.Event()
        self.closed = False
        """Set once a close has been sent, by the guard or by the consumer: no more frames."""
        self.disconnected = False
        """Set once the consumer has been given its ``websocket.disconnect``."""
        self.transport = daphne_transport(send)
        self.backlog = SendBacklog()

    async def run(self, inner: App, scope: Scope) -> None:
        reader = asyncio.create_task(self._read())
        watch = asyncio.create_task(self._watch_silence())
        try:
            await inner(scope, self._inner_receive, self._inner_send)
        finally:
            watch.cancel()
            reader.cancel()

    async def _inner_receive(self) -> Message:
        message = await self.buffer.get()
        if message["type"] == "websocket.receive":
            self.frames_waiting -= 1
        return message

    async def _inner_send(self, message: Message) -> None:
        if self.closed:
            return  # The socket is closing; what the consumer still says goes nowhere.
        kind = message["type"]
        if kind == "websocket.send":
            if self.backlog.paused:
                data = message.get("text") or message.get("bytes") or ""
                self.backlog.bytes_while_paused += len(data)
                if self.backlog.bytes_while_paused > self.limits.max_unsent_bytes:
                    self._drop_slow_reader()
                    return
        elif kind == "websocket.accept":
            self.last_frame = time.monotonic()
            self.accepted.set()
            if self.transport is not None:
                with contextlib.suppress(RuntimeError):  # another producer is registered
                    self.transport.registerProducer(self.backlog, True)
        elif kind == "websocket.close":
            self.closed = True
        try:
            await self.send(message)
        except Disconnected:
            # The client left before Daphne told us: what the consumer still says goes nowhere.
            self.closed = True

    def _drop_slow_reader(self) -> None:
        """Abort the socket of a client that does not read: it could not read a close either."""
        self.closed = True
        logger.info("websocket dropped by the guard: not reading")
        assert self.transport is not None
        with contextlib.suppress(Exception):
            self.transport.unregisterProducer()
        self.transport.abortConnection()
        self._tell_consumer_gone(SLOW_READER)

    async def _read(self) -> None:
        """Take every message from Daphne at once, so that its unbounded queue stays empty."""
        while True:
            message = await self.receive()
            kind = message["type"]
            if kind == "websocket.receive":
                if self.closed:
                    continue
                with translation.override(self.language):
                    breach = self._check(message)
                if breach is not None:
                    await self._close(breach)
                    continue
                self.frames_waiting += 1
                self.buffer.put_nowait(message)
            elif kind == "websocket.disconnect":
                self._tell_consumer_gone(message.get("code", 1000))
                return
            else:
                self.buffer.put_nowait(message)

    def _check(self, message: Message) -> Breach | None:
        now = time.monotonic()
        self.last_frame = now
        limits = self.limits
        text = message.get("text")
        size = len(text.encode("utf-8")) if text is not None else len(message.get("bytes") or b"")
        if size > limits.max_frame_bytes:
            return Breach(
                "frame_too_large",
                _("A message of %(size)s bytes is larger than the limit of %(most)s bytes.")
                % {"size": size, "most": limits.max_frame_bytes},
                FRAME_TOO_LARGE,
            )
        if self.share is not None:
            self.bucket.rate = self.share()
        if not self.bucket.take(now):
            return Breach(
                "too_many_messages",
                _(
                    "Too many messages: at most %(rate)s per second on this connection (bursts"
                    " of %(burst)s). The page reconnects by itself."
                )
                % {"rate": f"{self.bucket.rate:.3g}", "burst": limits.burst},
                TOO_MANY_MESSAGES,
            )
        if self.frames_waiting >= limits.max_queued:
            return Breach(
                "too_many_queued",
                _(
                    "Too many messages waiting for the server (at most %(most)s). The page"
                    " reconnects by itself."
                )
                % {"most": limits.max_queued},
                TOO_MANY_MESSAGES,
            )
        return None

    async def _watch_silence(self) -> None:
        await self.accepted.wait()
        limit = self.limits.silence_seconds
        while not self.closed:
            quiet = time.monotonic() - self.last_frame
            if quiet >= limit:
                with translation.override(self.language):
                    breach = Breach(
                        "silent",
                        _(
                            "Nothing received for %(seconds)s seconds; the connection was"
                            " closed. The page reconnects by itself."
                        )
                        % {"seconds": f"{limit:g}"},
                        SILENT_TOO_LONG,
                    )
                await self._close(breach)
                return
            await asyncio.sleep(limit - quiet)

    async def _close(self, breach: Breach) -> None:
        """Tell the client why, close, and let the consumer clean up without waiting for it."""
        if self.closed:
            return
        self.closed = True
        logger.info("websocket closed by the guard: %s", breach.code)
        await self.send({"type": "websocket.send", "text": error_frame(breach)})
        await self.send({"type": "websocket.close", "code": breach.close_code})
        stop_reading(self.send)
        self._tell_consumer_gone(breach.close_code)

    def _tell_consumer_gone(self, code: int) -> None:
        if self.disconnected:
            return
        self.disconnected = True
        self.closed = True
        # Frames the consumer has not taken yet are dropped: the socket they came from is closed.
        kept = []
        while not self.buffer.empty():
            waiting = self.buffer.get_nowait()
            if waiting["type"] != "websocket.receive":
                kept.append(waiting)
        for waiting in kept:
            self.buffer.put_nowait(waiting)
        self.frames_waiting = 0
        self.buffer.put_nowait({"type": "websocket.disconnect", "code": code})


def raise_open_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit on open files to the hard limit; return (old, new).

    Every websocket holds a file descriptor; Linux's usual soft limit of 1,024 would lock
    everyone out after about a thousand idle sockets, while the hard limit is usually far higher.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == resource.RLIM_INFINITY or soft >= hard:
        return soft, soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        return soft, soft
    return soft, hard
