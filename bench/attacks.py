"""The attackers of ``bench/abuse.py``: clients that stay just within the per-socket limits yet
try to make the server work for them, each from an address of its own.

Each attack runs in a process of its own (``run``), so that its sending and reading do not slow
the event loop of the honest table's clients, whose round trips are what the benchmark
measures. It connects from ``ATTACKER_ADDRESS`` (any 127.x address reaches a server on
127.0.0.1 on Linux), so the per-address limits (the server's, and nginx's when it runs through
the deployment) count it apart from the honest players, as they would count a stranger on the
internet. It speaks only the websocket protocol
(docs/protocol.md): what it sends and what it counts hold whatever the server does inside.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from typing import Any

from endpoints import Endpoint, open_websocket
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

ATTACKER_ADDRESS = "127.0.0.2"
"""The attacker's client address: not the honest players' 127.0.0.1."""
OPEN_TIMEOUT = 30.0
"""Seconds a handshake may take before the attacker counts it as refused."""
ANSWER_TIMEOUT = 30.0
"""Seconds the attacker waits for the answer to a request before sending the next one."""
RECONNECT_PAUSE = 0.1
"""Seconds before a closed attacker's socket connects again, as a script would."""
TYPE_HEAD = re.compile(r'\{"type": ?"(\w+)"')
"""A message's type, read without decoding the whole (a snapshot is many kilobytes)."""


def kind_of(raw: str | bytes) -> str:
    """The ``type`` of a server message, from its first key when the server writes it first."""
    text = raw if isinstance(raw, str) else raw.decode()
    head = TYPE_HEAD.match(text)
    if head:
        return head[1]
    with contextlib.suppress(ValueError, AttributeError):
        return str(json.loads(text).get("type", ""))
    return ""


@dataclass(frozen=True)
class Target:
    """Where the attacker connects (a Daphne, or the deployment's nginx) and as whom
    (``token``: a seat's, or None for a spectator)."""

    endpoint: Endpoint
    code: str
    token: str | None


@dataclass
class AttackStats:
    """What the attacker did and what it got, counted over the measured window."""

    sockets: int = 0
    """Websockets opened (handshakes completed)."""
    refused: Counter[str] = field(default_factory=Counter)
    """Handshakes refused, by HTTP status (or ``timeout``)."""
    sent: int = 0
    answers: int = 0
    """Answers to what it asked for (``pong``, ``preview``, ``entries``, a snapshot...)."""
    answer_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    """``error`` frames received, by code."""
    closes: Counter[str] = field(default_factory=Counter)
    """Sockets the server closed, by close code."""
    tables: int = 0
    """Rematch tables made."""
    seconds: float = 0.0


async def open_socket(target: Target, code: str | None = None, token: str | None = None) -> Any:
    """A websocket to ``code`` (default the target's table) from the attacker's address."""
    seat = token if token is not None else target.token
    return await open_websocket(
        target.endpoint,
        f"/ws/t/{code or target.code}",
        seat,
        source=ATTACKER_ADDRESS,
        max_size=2**24,
        open_timeout=OPEN_TIMEOUT,
    )


async def try_open(
    target: Target, stats: AttackStats, code: str | None = None, token: str | None = None
) -> ClientConnection | None:
    """A socket, or None (counted in ``refused``) when the handshake fails."""
    try:
        socket = await open_socket(target, code, token)
    except InvalidStatus as refusal:
        stats.refused[str(refusal.response.status_code)] += 1
        return None
    except InvalidHandshake:
        stats.refused["handshake"] += 1
        return None
    except (TimeoutError, OSError):
        stats.refused["timeout"] += 1
        return None
    stats.sockets += 1
    return socket


def note_close(socket: ClientConnection, stats: AttackStats) -> None:
    """Count the server's close code (``1000`` when the attacker closed it itself at the end)."""
    code = socket.close_code
    stats.closes[str(code) if code is not None else "none"] += 1


async def closed(
    socket: ClientConnection, reader: asyncio.Task[None], stop: asyncio.Event, stats: AttackStats
) -> None:
    """Close ``socket`` once its sender stopped, let its reader end, and unless the attack is over
    count how the server closed it and pause before the next socket."""
    await socket.close()
    await reader
    if not stop.is_set():
        note_close(socket, stats)
        await asyncio.sleep(RECONNECT_PAUSE)


# --- pings -------------------------------------------------------------------------------------


async def pings(
    target: Target, stop: asyncio.Event, stats: AttackStats, params: dict[str, Any]
) -> None:
    """``sockets`` sockets, each sending ``ping`` at ``rate`` a second (just under ``WS_RATE``),
    not waiting for the pongs; a closed socket connects again and carries on."""
    count: int = params["sockets"]
    rate: float = params["rate"]

    async def one(number: int) -> None:
        await asyncio.sleep(number / count / rate)  # spread the sockets' pings over a period
        while not stop.is_set():
            socket = await try_open(target, stats)
            if socket is None:
                await asyncio.sleep(RECONNECT_PAUSE)
                continue
            sent: deque[float] = deque()

            async def read(socket: ClientConnection = socket, sent: deque[float] = sent) -> None:
                with contextlib.suppress(ConnectionClosed):
                    async for raw in socket:
                        kind = kind_of(raw)
                        if kind == "pong":
                            stats.answers += 1
                            if sent:
                                waited = time.perf_counter() - sent.popleft()
                                stats.answer_ms.append(waited * 1000)
                        elif kind == "error":
                            stats.errors[json.loads(raw).get("code", "?")] += 1

            reader = asyncio.create_task(read())
            start = time.perf_counter()
            n = 0
            try:
                while not stop.is_set():
                    sent.append(time.perf_counter())
                    await socket.send('{"type":"ping"}')
                    stats.sent += 1
                    n += 1
                    delay = start + n / rate - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
            except ConnectionClosed:
                pass
            await closed(socket, reader, stop, stats)

    await asyncio.gather(*(one(n) for n in range(count)))


# --- requests answered one at a time (preview, entries) -----------------------------------------


async def requests(
    target: Target, stop: asyncio.Event, stats: AttackStats, params: dict[str, Any]
) -> None:
    """``sockets`` sockets, each sending ``frame`` as soon as the previous one was answered, at
    most ``rate`` a second; a closed socket connects again and carries on."""
    frame: str = params["frame"]
    answer_type: str = params["answer"]
    rate: float = params["rate"]

    async def one() -> None:
        while not stop.is_set():
            socket = await try_open(target, stats)
            if socket is None:
                await asyncio.sleep(RECONNECT_PAUSE)
                continue
            answers: asyncio.Queue[str] = asyncio.Queue()

            async def read(socket: ClientConnection = socket, answers: Any = answers) -> None:
                with contextlib.suppress(ConnectionClosed):
                    async for raw in socket:
                        kind = kind_of(raw)
                        if kind == answer_type:
                            await answers.put("")
                        elif kind == "error":
                            await answers.put(json.loads(raw).get("code", "?"))

            reader = asyncio.create_task(read())
            try:
                while not stop.is_set():
                    start = time.perf_counter()
                    await socket.send(frame)
                    stats.sent += 1
                    try:
                        error = await asyncio.wait_for(answers.get(), ANSWER_TIMEOUT)
                    except TimeoutError:
                        stats.errors["no answer"] += 1
                        continue
                    if error:
                        stats.errors[error] += 1
                    else:
                        stats.answers += 1
                        stats.answer_ms.append((time.perf_counter() - start) * 1000)
                    delay = start + 1 / rate - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
            except ConnectionClosed:
                pass
            await closed(socket, reader, stop, stats)

    await asyncio.gather(*(one() for _ in range(params["sockets"])))


# --- rematch -----------------------------------------------------------------------------------


class Conversation:
    """One socket whose every message is decoded and queued, keeping the table's version."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.version = -1
        self.status = ""
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.socket:
                message = json.loads(raw)
                if message["type"] == "snapshot":
                    self.version = max(self.version, message["version"])
                    self.status = message["table"]["status"]
                elif message["type"] == "update":
                    self.version = max(self.version, message["version"])
                    if message["view"]["finished"]:
                        self.status = "finished"
                await self.inbox.put(message)
        await self.inbox.put({"type": "closed"})

    async def expect(self, *kinds: str) -> dict[str, Any]:
        """The next message of one of ``kinds``, an ``error`` or ``closed``."""
        while True:
            message = await asyncio.wait_for(self.inbox.get(), ANSWER_TIMEOUT)
            if message["type"] in (*kinds, "error", "closed"):
                return message

    async def close(self) -> None:
        await self.socket.close()
        await self.reader


async def rematch(
    target: Target, stop: asyncio.Event, stats: AttackStats, params: dict[str, Any]
) -> None:
    """The host of a tabletop game ends it, finishes it and asks for a rematch, then does the
    same at the new table, again and again, at most ``rate`` frames a second; once refused,
    it keeps asking."""
    pause = 1 / params["rate"]
    code, token = target.code, target.token
    while not stop.is_set():
        socket = await try_open(target, stats, code, token)
        if socket is None:
            await asyncio.sleep(RECONNECT_PAUSE)
            continue
        talk = Conversation(socket)
        moved = False
        try:
            await talk.expect("snapshot")
            for step in ("end_game", "finish"):
                if talk.status == "finished" or stop.is_set():
                    break
                body = {"type": step}
                frame = {"type": "command", "version": talk.version, "id": f"{step}-{talk.version}"}
                await socket.send(json.dumps({**frame, "command": body}))
                stats.sent += 1
                answer = await talk.expect("update")
                if answer["type"] == "error":
                    stats.errors[answer["code"]] += 1
                await asyncio.sleep(pause)
            while not stop.is_set() and not moved:
                start = time.perf_counter()
                await socket.send('{"type":"rematch"}')
                stats.sent += 1
                answer = await talk.expect("rematch")
                if answer["type"] == "rematch":
                    stats.tables += 1
                    stats.answers += 1
                    stats.answer_ms.append((time.perf_counter() - start) * 1000)
                    code, token = answer["code"], answer["rejoin_url"].partition("#")[2]
                    moved = True
                elif answer["type"] == "error":
                    stats.errors[answer["code"]] += 1
                else:
                    break  # closed
                await asyncio.sleep(pause)
        except (ConnectionClosed, TimeoutError):
            stats.errors["no answer"] += 1
        await talk.close()
        if not stop.is_set() and not moved:
            note_close(socket, stats)
            await asyncio.sleep(RECONNECT_PAUSE)


# --- churn -------------------------------------------------------------------------------------


async def churn(
    target: Target, stop: asyncio.Event, stats: AttackStats, params: dict[str, Any]
) -> None:
    """Open ``burst`` sockets at once, wait for each one's snapshot, close them all (without
    waiting for the closing handshakes) and open the next burst, until ``total`` sockets have
    come and gone; ``sent`` counts the sockets opened so far."""
    total: int = params["total"]
    burst: int = params["burst"]
    closing: set[asyncio.Task[None]] = set()

    async def close(socket: ClientConnection) -> None:
        await socket.close()
        if socket.close_code not in (1000, None):
            note_close(socket, stats)

    async def one() -> None:
        socket = await try_open(target, stats)
        if socket is None:
            return
        start = time.perf_counter()
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            async with asyncio.timeout(ANSWER_TIMEOUT):
                async for raw in socket:
                    if kind_of(raw) == "snapshot":
                        stats.answers += 1
                        stats.answer_ms.append((time.perf_counter() - start) * 1000)
                        break
        # Close without waiting for the closing handshake, as a script that reloads would.
        task = asyncio.create_task(close(socket))
        closing.add(task)
        task.add_done_callback(closing.discard)

    done = 0
    while done < total and not stop.is_set():
        await asyncio.gather(*(one() for _ in range(min(burst, total - done))))
        done += burst
        stats.sent = min(done, total)
    await asyncio.gather(*closing)


ATTACKS: dict[str, Callable[..., Coroutine[Any, Any, None]]] = {
    "pings": pings,
    "requests": requests,
    "rematch": rematch,
    "churn": churn,
}


async def _attack(
    kind: str, target: Target, params: dict[str, Any], begin: Event, end: Event
) -> AttackStats:
    stats = AttackStats()
    while not begin.is_set():
        await asyncio.sleep(0.01)
    stop = asyncio.Event()
    started = time.perf_counter()
    task = asyncio.create_task(ATTACKS[kind](target, stop, stats, params))
    while not end.is_set() and not task.done():
        await asyncio.sleep(0.02)
    stats.seconds = time.perf_counter() - started
    stop.set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(task, ANSWER_TIMEOUT + 5)
    return stats


def run(
    kind: str,
    target: Target,
    params: dict[str, Any],
    begin: Event,
    end: Event,
    results: Queue[dict[str, Any]],
) -> None:
    """The attacker process: wait for ``begin``, attack until ``end``, put what it counted."""
    stats = asyncio.run(_attack(kind, target, params, begin, end))
    # Not dataclasses.asdict: it would rebuild each Counter from its (key, count) pairs.
    results.put({name: getattr(stats, name) for name in stats.__dataclass_fields__})
