"""Online play under load: scripted players over real websockets against real Daphne processes.

The engine benchmark (``engine_playouts.py``) times the rules alone. A player online waits for
much more: the websocket frame, the consumer, a database transaction that locks the table and
appends to the log, the view built and serialised, the channel layer's group message and one
``update`` per connection. This benchmark measures that whole path, as deployed:

* ``--servers 1``: one Daphne process with the in-memory channel layer (or, with ``--layer
  redis`` or ``redis-pubsub``, a private Redis, to compare one process with two on equal terms).
* ``--servers 2``: two Daphne processes sharing a private Redis (``REDIS_URL``, and the channel
  layer of ``--layer``: ``redis-pubsub`` by default as in production, or ``redis``;
  ``CHANNEL_LAYER``); the seats of every table are split between the two processes (even seats
  on the first, odd on the second), so every command crosses Redis and the other process catches
  up on the state from the log.
  ``--spread tables`` keeps each table's seats together on one process instead (tables
  alternate), as a proxy that routes ``/ws/t/<code>`` by table code would.

Every command is persisted as in production: in a SQLite file in a temporary directory
(``--database sqlite``, the default for one process) or in a private PostgreSQL cluster
(``--database postgres``, the default for two processes when the server binaries are installed).
All servers are private instances on free loopback ports, started here and stopped at the end.

Setup: ``manage.py migrate``, then ``--tables`` started tables of ``--seats`` seats (preset
``c2-hig``, board mode) are created through ``game.services.lobby`` in this process, plus spare
tables that replace games which end during the run. Every seat connects with
``ws://127.0.0.1:PORT/ws/t/<code>`` with its token in the ``X-Seat-Token`` header.

Scripted players: the seat the game waits for (``view.pending.seat``) takes a legal choice from
``view.pending``: a random placement with its first rotation; no follower, or one on a random free
spot ``--follower-share`` of the time; a random figure when asked which figure scores; the points
of a revealed message.

Loads:

* ``--mode open``: a fixed timetable of ``--rate`` commands per second in total, spread evenly over
  the tables (each table's slot comes every ``tables / rate`` seconds), whatever the server
  answers. A slot whose table still waits for its previous command is counted as late and skipped:
  an open loop must not queue work the server has not kept up with.
* ``--mode closed``: each table sends its next command as soon as the update of its previous one
  has reached every seat; the command rate is then the server's capacity. ``--think S`` makes
  each table wait S seconds after that update first, as people do (``bench/abuse.py`` plays its
  honest table so, within the per-socket limits that every client has).

Latency is command-to-last-seat: from sending a command until the ``update`` with the resulting
version has reached every seat of the table (every client lives in this process: one clock). A
load generator that is itself short of CPU inflates that figure, so the client's CPU and the lag
of its event loop are reported beside it, as are the CPU of every server process and the
machine's busy and steal time.

``--computer-tables N`` adds N tables of ``--seats`` computer players (``--computer-level``) that
play at full speed beside the scripted people (``MESSENGERS_COMPUTER_PAUSE_MS=0``), each watched
by one websocket (computers move only while someone watches); their moves are counted, not
timed, and a finished one is replaced by a spare. The people's latency then shows what the
computers cost them.

``--languages en,de,cs`` gives each table's seats those languages in turn (seat 1 English, seat 2
German, seat 3 Czech, seat 4 English again), as their browsers' ``Accept-Language``: a table's
websocket words everything it sends in its reader's language (docs/languages.md), so a table read
in three languages may cost the server more per command than one read in one. Given more than
once (``--languages en --languages en,de,cs``), the benchmark runs once per list, one after the
other, each on fresh servers and tables with the same seed, and ends with their numbers side by
side.

Commands sent during ``--warmup`` seconds are not counted; after ``--seconds`` of measurement no
new command is sent and the ones in flight are awaited. The output is a readable summary; with
``--json`` one JSON object follows it on the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import endpoints  # noqa: E402  (bench/ is the script's folder)
import pytest  # noqa: E402  (tests.servers reports a missing server through pytest.skip)
from engine_playouts import percentile  # noqa: E402  (bench/ is the script's folder)
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.typing import Origin  # noqa: E402

from tests import servers  # noqa: E402

PRESET = "c2-hig"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
CONNECT_CONCURRENCY = 32
"""Websocket handshakes in flight at once while seating the players: each one costs the server a
few queries, and 800 at once would only time out instead of finishing sooner."""
DRAIN_SECONDS = 10.0
"""How long to wait for the commands still in flight when the measurement ends."""
STALL_SECONDS = 10.0
"""A command unanswered for this long is given up (counted as a timeout) and the table resyncs."""
COMMANDS_PER_GAME = 140
"""A little below the usual length of a random 4-seat game, to size the spare tables generously."""
CLOSED_LOOP_GUESS = 1000.0
"""Commands per second assumed for a closed loop when sizing its spare tables."""

UPDATE_HEAD = re.compile(r'\{"type":"update","from_version":(\d+),"version":(\d+),')
"""The start of an ``update`` as the consumer writes it (keys in a fixed order, no spaces). Only
the first seat of a table to receive a version decodes the whole message; the others need no more
than these two numbers, which keeps the load generator's CPU for the server."""


# --- Server processes -------------------------------------------------------------------------


def available(check: Any) -> bool:
    """Whether ``check()`` finds its server binaries (tests.servers skips through pytest)."""
    try:
        check()
    except (pytest.skip.Exception, pytest.fail.Exception):
        return False
    return True


# --- CPU readings -----------------------------------------------------------------------------


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and of its reaped children), or None if gone.

    Reaped children count so that a PostgreSQL backend that exits during the run keeps its
    CPU time in the total (it moves into the postmaster's cutime).
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    ticks = sum(int(value) for value in fields[11:15])
    return int(fields[1]), ticks / CLOCK_TICKS


def process_tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every live descendant (PostgreSQL runs one per connection)."""
    parents: dict[int, int] = {}
    seconds: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = _proc_stat(int(entry.name))
            if stat is not None:
                parents[int(entry.name)], seconds[int(entry.name)] = stat
    total = 0.0
    for pid, cpu in seconds.items():
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        if ancestor == root:
            total += cpu
    return total


def machine_ticks() -> tuple[int, int, int, int]:
    """(total, idle incl. iowait, interrupts, steal) jiffies of all CPUs, from /proc/stat.

    Interrupt time is mostly the loopback network's softirq work, which no process is charged
    for; it is reported apart so that "rest of the machine" shows other load, not our own.
    """
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    values += [0] * (8 - len(values))
    return sum(values[:8]), values[3] + values[4], values[5] + values[6], values[7]


@dataclass
class CpuMeter:
    """CPU time of the server processes, this process and the machine over the measured window."""

    roots: dict[str, int]
    start: dict[str, float] = field(default_factory=dict)
    end: dict[str, float] = field(default_factory=dict)
    machine_start: tuple[int, int, int, int] = (0, 0, 0, 0)
    machine_end: tuple[int, int, int, int] = (0, 0, 0, 0)

    def _read(self) -> dict[str, float]:
        readings = {name: process_tree_cpu(pid) for name, pid in self.roots.items()}
        readings["load generator"] = time.process_time()
        return readings

    def begin(self) -> None:
        self.start = self._read()
        self.machine_start = machine_ticks()

    def finish(self) -> None:
        self.end = self._read()
        self.machine_end = machine_ticks()

    def report(self, seconds: float) -> dict[str, float]:
        """Per process: percent of one core; machine: percent of all cores busy, and steal."""
        result = {
            name: round(100 * (self.end[name] - self.start[name]) / seconds, 1)
            for name in self.start
        }
        total, idle, interrupts, steal = (
            end - start for start, end in zip(self.machine_start, self.machine_end, strict=True)
        )
        if total > 0:
            cores = os.cpu_count() or 1
            busy = 100 * (total - idle) / total
            irq = 100 * cores * interrupts / total
            listed = sum(result.values())
            result["interrupts (loopback network)"] = round(irq, 1)
            result["rest of the machine"] = round(max(0.0, busy * cores - listed - irq), 1)
            result["machine busy (% of all cores)"] = round(busy, 1)
            result["machine steal (% of all cores)"] = round(100 * steal / total, 1)
        return result


# --- Tables -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableSetup:
    """A started table and its seats' tokens, in seat order: all a script needs to play it."""

    code: str
    tokens: list[str]


def create_tables(count: int, seats: int) -> list[TableSetup]:
    """Create ``count`` started tables through the lobby, as players would have set them up.

    Runs in this process with the servers' DATABASE_URL, before any server starts: the
    measurement sees only play, not table creation.
    """
    import django

    django.setup()
    from django.db import connections

    from game.services.lobby import COLOUR_IDS, create_table, join_table, start_game

    created = []
    for _ in range(count):
        table, creator = create_table(
            preset=PRESET, seats=seats, name="Seat 1", colour=COLOUR_IDS[0]
        )
        tokens = [creator.token]
        for index in range(1, seats):
            seat = join_table(table.code, name=f"Seat {index + 1}", colour=COLOUR_IDS[index])
            tokens.append(seat.token)
        start_game(table.code, creator.token)
        created.append(TableSetup(table.code, tokens))
    connections.close_all()
    return created


def create_computer_tables(count: int, seats: int, level: str) -> list[str]:
    """Create ``count`` started tables where computers play every seat; their codes.

    The lobby seats a person first (every board game has a host); the benchmark then hands that
    seat to a computer too, as the host would hand an absent player's seat.
    """
    import django

    django.setup()
    from django.db import connections

    from game.models import Seat
    from game.services.lobby import COLOUR_IDS, create_table, start_game
    from game.services.seating import add_computer

    codes = []
    for _ in range(count):
        table, creator = create_table(preset=PRESET, seats=seats, name="Host", colour=COLOUR_IDS[0])
        for _index in range(1, seats):
            add_computer(table.code, creator.token, level)
        start_game(table.code, creator.token)
        Seat.objects.filter(table=table, index=0).update(computer=level, stand_in=True)
        codes.append(table.code)
    connections.close_all()
    return codes


class ComputerWatch:
    """One watcher at each computer table: counts the computers' moves, and opens the next
    spare table when a game ends."""

    def __init__(self, bench: Bench, codes: list[str]) -> None:
        self.bench = bench
        self.spares = codes[bench.args.computer_tables :]
        self.first = codes[: bench.args.computer_tables]
        self.moves = 0
        self.finished = 0
        self.sockets: list[ClientConnection] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        for code in self.first:
            await self._watch(code)
        self.tasks.append(asyncio.create_task(self._ping()))

    async def _ping(self) -> None:
        """Ping as pages do (every 20 s): a watcher must stay present for its computers."""
        while True:
            await asyncio.sleep(20)
            for socket in list(self.sockets):
                with contextlib.suppress(ConnectionClosed):
                    await socket.send('{"type":"ping"}')

    async def _watch(self, code: str) -> None:
        daphne = self.bench.daphnes[len(self.sockets) % len(self.bench.daphnes)]
        socket = await connect(
            f"ws://127.0.0.1:{daphne.port}/ws/t/{code}",
            origin=Origin(daphne.url),
            compression=None,
            proxy=None,
            ping_interval=None,
            max_size=2**22,
            open_timeout=servers.STARTUP_TIMEOUT,
        )
        self.sockets.append(socket)
        self.tasks.append(asyncio.create_task(self._read(socket)))

    async def _read(self, socket: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in socket:
                text = raw if isinstance(raw, str) else raw.decode()
                if not text.startswith('{"type":"update"'):
                    continue
                if self.bench.measuring:
                    self.moves += 1
                if '"game_over"' in text:
                    if self.bench.measuring:
                        self.finished += 1
                    await socket.close()
                    if self.spares:
                        await self._watch(self.spares.pop())
                    return

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for socket in self.sockets:
            with contextlib.suppress(Exception):
                await socket.close()


# --- Scripted players -------------------------------------------------------------------------


@dataclass
class InFlight:
    """A command sent and not yet seen by every seat."""

    from_version: int
    command_id: str
    sent: float
    measured: bool
    arrivals: int = 0
    first: float = 0.0


@dataclass
class Stats:
    """Everything counted over the measured window (and the drain after it)."""

    latency_ms: list[float] = field(default_factory=list)
    first_seat_ms: list[float] = field(default_factory=list)
    sent: int = 0
    completed: int = 0
    late: int = 0
    idle_slots: int = 0
    schedule_lag_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    timeouts: int = 0
    commands: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    tables_started: int = 0
    loop_lag_ms: list[float] = field(default_factory=list)
    trace: list[tuple[float, float, float, str]] = field(default_factory=list)
    """(sent, seconds after the window began; to last seat, ms; to first seat, ms; table)."""


class Player:
    """The scripted seats of one table: reads their websockets, decides and sends for them."""

    def __init__(self, bench: Bench, setup: TableSetup, number: int) -> None:
        self.bench = bench
        self.setup = setup
        self.code = setup.code
        self.number = number
        """The table's place in the list of created tables, which picks its server with
        ``--spread tables``."""
        self.sockets: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []
        self.snapshots = 0
        self.ready = asyncio.Event()
        self.version = -1
        """The version of the newest view decoded, which the next command is made against."""
        self.pending: dict[str, Any] | None = None
        self.finished = False
        self.in_flight: InFlight | None = None
        self.sequence = 0

    async def open(self) -> None:
        """Connect every seat (to alternating servers) and wait for each one's snapshot."""
        bench = self.bench
        for index, token in enumerate(self.setup.tokens):
            spot = index if bench.spread == "seats" else self.number
            server = bench.daphnes[spot % len(bench.daphnes)]
            assert server.port is not None
            endpoint = bench.front or endpoints.Endpoint(server.port)
            languages = bench.languages
            async with bench.connecting:
                socket = await endpoints.open_websocket(
                    endpoint,
                    f"/ws/t/{self.code}",
                    token,
                    max_size=2**22,
                    open_timeout=servers.STARTUP_TIMEOUT,
                    language=languages[index % len(languages)] if languages else None,
                )
            self.sockets.append(socket)
            self.readers.append(asyncio.create_task(self.read(index, socket)))
        await self.ready.wait()

    async def read(self, seat: int, socket: ClientConnection) -> None:
        """Handle every message of one seat's connection until it closes."""
        clock = time.perf_counter
        match = UPDATE_HEAD.match
        try:
            async for raw in socket:
                now = clock()
                assert isinstance(raw, str)
                head = match(raw)
                if head is not None:
                    await self.on_update(int(head[1]), int(head[2]), raw, now)
                else:
                    await self.on_message(seat, json.loads(raw))
        except ConnectionClosed:
            pass

    def _take_view(self, view: dict[str, Any], version: int) -> None:
        """Keep what the next decision needs from a view newer than the one held; an older one
        (a snapshot overtaken by an update) is ignored."""
        if version > self.version:
            self.version = version
            self.pending = view["pending"]
            self.finished = bool(view["finished"])

    async def on_update(self, from_version: int, version: int, raw: str, now: float) -> None:
        """Count the update's arrival at one more seat; decode it only at the first seat."""
        if version > self.version:
            self._take_view(json.loads(raw)["view"], version)
        flight = self.in_flight
        if flight is None or flight.from_version != from_version:
            return
        flight.arrivals += 1
        if flight.arrivals == 1:
            flight.first = now
        if flight.arrivals < len(self.setup.tokens):
            return
        self.in_flight = None
        stats = self.bench.stats
        if flight.measured:
            stats.completed += 1
            stats.latency_ms.append((now - flight.sent) * 1000)
            stats.first_seat_ms.append((flight.first - flight.sent) * 1000)
            if self.bench.trace:
                stats.trace.append(
                    (
                        flight.sent - self.bench.begin,
                        stats.latency_ms[-1],
                        stats.first_seat_ms[-1],
                        self.code,
                    )
                )
        if self.finished:
            await self.bench.game_over(self)
        elif self.bench.mode == "closed":
            await self.follow_up()

    async def on_message(self, seat: int, message: dict[str, Any]) -> None:
        """Snapshots (on connect, after a resync) and refusals; presence and history are only
        read past, since the script needs nothing from them."""
        kind = message.get("type")
        if kind == "snapshot":
            view = message.get("view")
            if view is not None:
                self._take_view(view, message["version"])
            if not self.ready.is_set():
                self.snapshots += 1
                if self.snapshots == len(self.setup.tokens):
                    self.ready.set()
            elif self.in_flight is None and not self.finished and self.bench.mode == "closed":
                await self.follow_up()  # the snapshot that a resync after an error asked for
        elif kind == "error":
            self.bench.stats.errors[message.get("code", "?")] += 1
            flight = self.in_flight
            if flight is not None and message.get("id") == flight.command_id:
                self.in_flight = None
                await self.sockets[0].send('{"type":"sync"}')

    def choose(self) -> tuple[int, dict[str, Any]]:
        """The deciding seat and a legal command for it, taken from ``pending``."""
        waiting = self.pending
        assert waiting is not None
        seat = waiting["seat"] if waiting["seat"] is not None else 0
        kind = waiting["type"]
        rng = self.bench.rng
        if kind == "place_tile":
            spot = rng.choice(waiting["placements"])
            return seat, {
                "type": "place_tile",
                "x": spot["x"],
                "y": spot["y"],
                "rotation": spot["rotations"][0],
            }
        if kind == "place_follower":
            spots = waiting["spots"]
            if spots and rng.random() < self.bench.follower_share:
                spot = rng.choice(spots)
                command = {"type": "place_follower", "feature": spot["feature"]}
                if "at" in spot:
                    command["at"] = spot["at"]
                return seat, command
            return seat, {"type": "skip_follower"}
        if kind == "choose_figure":
            return seat, {
                "type": "choose_figure",
                "figure": rng.choice(waiting["options"])["figure"],
            }
        if kind == "resolve_message":
            return seat, {"type": "resolve_message", "choice": "points"}
        raise ValueError(f"the script plays board mode only, not {kind!r}")

    async def act(self) -> None:
        """Send the next command of this table, made against the newest version it has seen."""
        bench = self.bench
        if self.finished or self.in_flight is not None or not bench.sending:
            return
        seat, command = self.choose()
        self.sequence += 1
        command_id = f"{self.code}-{self.sequence}"
        text = json.dumps(
            {"type": "command", "version": self.version, "id": command_id, "command": command},
            separators=(",", ":"),
        )
        measured = bench.measuring
        self.in_flight = InFlight(self.version, command_id, time.perf_counter(), measured)
        if measured:
            bench.stats.sent += 1
            bench.stats.commands[command["type"]] += 1
        await self.sockets[seat].send(text)

    async def follow_up(self) -> None:
        """Closed loop: the next command at once, or ``--think`` seconds later, as a person
        takes a moment (and as every client must, to stay within ``WS_RATE`` per socket)."""
        think: float = self.bench.args.think
        if think <= 0:
            await self.act()
            return

        async def later() -> None:
            await asyncio.sleep(think)
            await self.act()

        task = asyncio.create_task(later())
        self.bench.background.add(task)
        task.add_done_callback(self.bench.background.discard)

    def check_stall(self, now: float) -> bool:
        """Give up a command that has waited far too long, so that one lost update cannot stop
        a closed-loop table for the rest of the run."""
        flight = self.in_flight
        if flight is None or now - flight.sent < STALL_SECONDS:
            return False
        self.in_flight = None
        if flight.measured:
            self.bench.stats.timeouts += 1
        return True

    async def close(self) -> None:
        """Close the seats' sockets, so that the servers see ordinary disconnects."""
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*(socket.close() for socket in self.sockets), return_exceptions=True)


class Bench:
    """The load generator: seats the players, drives the chosen loop, collects the numbers."""

    def __init__(
        self,
        args: argparse.Namespace,
        daphnes: list[servers.RestartableDaphne],
        tables: list[TableSetup],
        computer_codes: list[str] | None = None,
        front: endpoints.Endpoint | None = None,
    ) -> None:
        self.mode: str = args.mode
        self.front = front
        """Where every seat connects instead of the Daphnes themselves (the deployment's nginx),
        or None."""
        self.args = args
        self.daphnes = daphnes
        self.rng = random.Random(args.seed)
        self.follower_share: float = args.follower_share
        self.languages = seat_languages(args)
        """The languages of each table's seats in turn (``--languages``); none: no header."""
        self.slots: list[Player | None] = []
        self.spread: str = args.spread
        self.first_tables = tables[: args.tables]
        self.created = args.tables
        """Tables given to a slot so far; the next spare table's number."""
        self.spares = list(reversed(tables[args.tables :]))
        self.connecting = asyncio.Semaphore(CONNECT_CONCURRENCY)
        self.stats = Stats()
        self.sending = False
        self.measuring = False
        self.begin = 0.0
        """When the measured window began (``time.perf_counter``)."""
        self.trace = args.trace is not None
        self.background: set[asyncio.Task[None]] = set()
        self.players: list[Player] = []
        self.seating_seconds = 0.0
        """How long the first tables' seats took to connect and receive their snapshots."""
        self.computers = ComputerWatch(self, computer_codes or [])

    async def seat_everyone(self) -> None:
        """Connect every seat of the first tables before any load, so that no handshake is
        timed."""
        players = [Player(self, setup, n) for n, setup in enumerate(self.first_tables)]
        await asyncio.gather(*(player.open() for player in players))
        self.slots = list(players)
        self.players.extend(players)

    async def game_over(self, player: Player) -> None:
        """A table's game ended: its slot moves on to a fresh started table, if any is left."""
        if self.measuring:
            self.stats.games_finished += 1
        slot = self.slots.index(player)
        self.slots[slot] = None
        if not self.spares:
            return
        task = asyncio.create_task(self._replace(slot, self.spares.pop()))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _replace(self, slot: int, setup: TableSetup) -> None:
        """Seat a fresh table's players (their handshakes are part of the load, as when new
        games start on a live server) and let it play in the freed slot."""
        player = Player(self, setup, self.created)
        self.created += 1
        self.players.append(player)
        await player.open()
        self.slots[slot] = player
        if self.measuring:
            self.stats.tables_started += 1
        if self.mode == "closed":
            await player.act()

    async def open_loop(self, until: float) -> None:
        """Fire one table's slot every ``1 / rate`` seconds, round robin, on a fixed timetable."""
        rate: float = self.args.rate
        start = time.perf_counter()
        slot_count = len(self.slots)
        tick = 0
        while True:
            due = start + tick / rate
            if due >= until:
                return
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            player = self.slots[tick % slot_count]
            if self.measuring:
                self.stats.schedule_lag_ms.append((time.perf_counter() - due) * 1000)
            if player is None or player.finished:
                if self.measuring:
                    self.stats.idle_slots += 1
            elif player.in_flight is not None:
                if self.measuring:
                    self.stats.late += 1
            else:
                await player.act()
            tick += 1

    async def watch(self) -> None:
        """Measure the event loop's lag (a sign of a saturated load generator) and clear stalled
        commands."""
        interval = 0.01
        while True:
            before = time.perf_counter()
            await asyncio.sleep(interval)
            now = time.perf_counter()
            if self.measuring:
                self.stats.loop_lag_ms.append((now - before - interval) * 1000)
            for player in self.slots:
                if player is not None and player.check_stall(now):
                    await player.sockets[0].send('{"type":"sync"}')

    async def run(self, meter: CpuMeter) -> float:
        """Warm up, measure, drain; return the measured window's length in seconds."""
        started = time.perf_counter()
        await self.seat_everyone()
        self.seating_seconds = time.perf_counter() - started
        await self.computers.start()
        watcher = asyncio.create_task(self.watch())
        self.sending = True
        warmup_end = time.perf_counter() + self.args.warmup
        if self.mode == "closed":
            await asyncio.gather(*(player.act() for player in self.slots if player is not None))
            await asyncio.sleep(self.args.warmup)
            self.measuring = True
            meter.begin()
            begin = self.begin = time.perf_counter()
            await asyncio.sleep(self.args.seconds)
        else:
            await self.open_loop(warmup_end)
            self.measuring = True
            meter.begin()
            begin = self.begin = time.perf_counter()
            await self.open_loop(begin + self.args.seconds)
        self.sending = False
        window = time.perf_counter() - begin
        meter.finish()
        self.measuring = False
        deadline = time.perf_counter() + DRAIN_SECONDS
        while time.perf_counter() < deadline and any(
            player is not None and player.in_flight is not None and player.in_flight.measured
            for player in self.slots
        ):
            await asyncio.sleep(0.05)
        for player in self.slots:
            if player is not None and player.in_flight is not None and player.in_flight.measured:
                self.stats.timeouts += 1
        watcher.cancel()
        await self.computers.close()
        for task in list(self.background):
            task.cancel()
        await asyncio.gather(*(player.close() for player in self.players))
        return window


# --- Running it -------------------------------------------------------------------------------


LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$")
"""A language as ``--languages`` takes it (and Django's LANGUAGES write it): ``de``, ``pt-br``."""


def seat_languages(args: argparse.Namespace) -> list[str]:
    """The languages of one run's seats in turn: its only ``--languages`` list, or none."""
    lists = getattr(args, "languages", None) or []
    return lists[0].split(",") if len(lists) == 1 else []


def check_languages(codes: list[str]) -> None:
    """Refuse a language the servers do not offer: its seats would read English unnoticed, and
    the run would measure something else than it says."""
    from django.conf import settings

    offered = {code for code, _ in settings.LANGUAGES}
    unknown = [code for code in codes if code not in offered]
    if unknown:
        raise SystemExit(
            f"--languages: the servers offer {', '.join(sorted(offered))}, not {', '.join(unknown)}"
        )


def spare_tables(args: argparse.Namespace) -> int:
    """Started tables kept aside for the games that end during the run."""
    if args.spare_tables is not None:
        return int(args.spare_tables)
    duration = args.seconds + args.warmup + DRAIN_SECONDS
    rate = args.rate if args.mode == "open" else CLOSED_LOOP_GUESS
    per_table = rate / args.tables * duration / COMMANDS_PER_GAME
    if args.mode == "open" and per_table < 0.5:
        return 0
    return math.ceil(args.tables * per_table * 1.2)


LAYER_NAMES = {
    "memory": "in-memory",
    "redis": "Redis (lists)",
    "redis-pubsub": "Redis pub/sub",
}
"""How the summary names each ``--layer``."""


def cpu_per_command(cpu: dict[str, float], window: float, completed: int) -> dict[str, float]:
    """CPU milliseconds per completed command: the Daphne processes together, then PostgreSQL,
    Redis and the load generator apart (``cpu`` is in percent of one core over ``window``)."""
    if completed == 0:
        return {}

    def ms(percent: float) -> float:
        return round(percent * window * 10 / completed, 3)

    daphnes = sum(value for name, value in cpu.items() if name.startswith("daphne"))
    result = {"daphne (all processes)": ms(daphnes)}
    for name, value in cpu.items():
        if name.startswith(("postgres", "redis", "load generator")):
            result[name] = ms(value)
    return result


def summarise(
    args: argparse.Namespace, stats: Stats, window: float, cpu: dict[str, float], database: str
) -> dict[str, Any]:
    """The run's numbers as one JSON-ready dictionary (milliseconds, percent of one core)."""

    def ms(values: list[float], pct: float) -> float | None:
        return round(percentile(values, pct), 2) if values else None

    latency = stats.latency_ms
    return {
        "mode": args.mode,
        "servers": args.servers,
        "layer": args.layer,
        "spread": args.spread,
        "database": database,
        "tables": args.tables,
        "seats": args.seats,
        "rate": args.rate if args.mode == "open" else None,
        "think": args.think if args.mode == "closed" else None,
        "seconds": round(window, 2),
        "warmup": args.warmup,
        "seed": args.seed,
        "languages": seat_languages(args) or None,
        "sent": stats.sent,
        "completed": stats.completed,
        "commands_per_second": round(stats.completed / window, 1),
        "latency_ms": {
            "p50": ms(latency, 50),
            "p95": ms(latency, 95),
            "p99": ms(latency, 99),
            "max": ms(latency, 100),
            "mean": round(statistics.fmean(latency), 2) if latency else None,
        },
        "first_seat_ms": {
            "p50": ms(stats.first_seat_ms, 50),
            "p99": ms(stats.first_seat_ms, 99),
        },
        "late_skipped": stats.late,
        "idle_slots": stats.idle_slots,
        "schedule_lag_ms": {
            "p99": ms(stats.schedule_lag_ms, 99),
            "max": ms(stats.schedule_lag_ms, 100),
        },
        "loop_lag_ms": {"p99": ms(stats.loop_lag_ms, 99), "max": ms(stats.loop_lag_ms, 100)},
        "errors": dict(stats.errors),
        "timeouts": stats.timeouts,
        "commands": dict(stats.commands),
        "games_finished": stats.games_finished,
        "computer_tables": args.computer_tables,
        "computer_level": args.computer_level if args.computer_tables else None,
        "tables_started": stats.tables_started,
        "cpu_percent": cpu,
        "cpu_ms_per_command": cpu_per_command(cpu, window, stats.completed),
        "python": platform.python_version(),
    }


def print_summary(result: dict[str, Any], command_line: str) -> None:
    """The readable report, with the command line, so that a pasted result can be rerun."""
    latency = result["latency_ms"]
    loop = (
        f"open loop, {result['rate']} commands/s in total"
        if result["mode"] == "open"
        else "closed loop"
    )
    print(
        f"Websocket load: {result['tables']} tables x {result['seats']} seats, {loop}, "
        f"{result['servers']} Daphne process(es) "
        f"({LAYER_NAMES[result['layer']]} channel layer"
        f"{'' if result['servers'] == 1 else ', ' + result['spread'] + ' spread over them'}), "
        f"{result['database']}, {result['seconds']:.1f} s measured after "
        f"{result['warmup']} s warm-up"
    )
    print(f"  command line         {command_line}")
    if result.get("languages"):
        turn = ", ".join(
            result["languages"][i % len(result["languages"])] for i in range(result["seats"])
        )
        print(f"  languages            each table's seats, as Accept-Language: {turn}")
    print(
        f"  seating              {result['tables'] * result['seats']} websockets connected "
        f"with their snapshots in {result['seating_seconds']} s, before any load"
    )
    print(
        f"  commands             {result['sent']} sent, {result['completed']} reached every "
        f"seat: {result['commands_per_second']} per second"
    )
    print(
        f"  command to last seat p50 {latency['p50']} ms, p95 {latency['p95']} ms, "
        f"p99 {latency['p99']} ms, max {latency['max']} ms"
    )
    print(
        f"  command to 1st seat  p50 {result['first_seat_ms']['p50']} ms, "
        f"p99 {result['first_seat_ms']['p99']} ms"
    )
    if result["mode"] == "open":
        print(
            f"  timetable            {result['late_skipped']} slots late (previous command "
            f"unanswered, skipped), {result['idle_slots']} idle (no game), schedule lag p99 "
            f"{result['schedule_lag_ms']['p99']} ms"
        )
    errors = ", ".join(f"{code} {n}" for code, n in sorted(result["errors"].items())) or "none"
    print(
        f"  errors               {errors}; unanswered after {STALL_SECONDS:.0f} s: "
        f"{result['timeouts']}"
    )
    print(
        f"  games                {result['games_finished']} finished, "
        f"{result['tables_started']} fresh tables started in their place"
    )
    print(
        "  commands by type     "
        + ", ".join(f"{kind} {n}" for kind, n in sorted(result["commands"].items()))
    )
    print(
        f"  client event loop    lag p99 {result['loop_lag_ms']['p99']} ms, "
        f"max {result['loop_lag_ms']['max']} ms"
    )
    if result["computer_tables"]:
        print(
            f"  computer tables      {result['computer_tables']} x {result['seats']} "
            f"{result['computer_level']} computers at full speed: "
            f"{result['computer_moves_per_second']} moves/s, "
            f"{result['computer_games_finished']} games finished"
        )
    print("  CPU (% of one core unless noted)")
    for name, value in result["cpu_percent"].items():
        print(f"    {name:<34} {value:>6.1f}")
    print("  CPU per command (ms)")
    for name, value in result["cpu_ms_per_command"].items():
        print(f"    {name:<34} {value:>6.3f}")
    if result.get("redis_clients") is not None:
        print(f"  Redis clients        {result['redis_clients']} connected at the end of the run")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; defaults are the open-loop target load (200 x 4 seats, 100/s)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("open", "closed"), default="open")
    parser.add_argument("--tables", type=int, default=200, help="tables played at once")
    parser.add_argument("--seats", type=int, default=4, help="seats per table, 2 to 6")
    parser.add_argument(
        "--rate", type=float, default=100.0, help="open loop: commands per second in total"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds of load before measuring"
    )
    parser.add_argument("--servers", type=int, choices=(1, 2), default=1)
    parser.add_argument(
        "--spread",
        choices=("seats", "tables"),
        default="seats",
        help="with two servers: split every table's seats between them (default), or put each "
        "table's seats together on one server, as a proxy routing by table code would",
    )
    parser.add_argument(
        "--layer",
        choices=tuple(LAYER_NAMES),
        default=None,
        help="channel layer: memory (default with one server, which is then alone), "
        "redis-pubsub (default with two, as in production) or redis (channels-redis's lists)",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default=None,
        help="default: sqlite with one server, postgres (if installed) with two",
    )
    parser.add_argument(
        "--spare-tables",
        type=int,
        default=None,
        help="started tables kept to replace games that end (default: enough for the run)",
    )
    parser.add_argument(
        "--follower-share",
        type=float,
        default=0.2,
        help="share of follower decisions that place one (default 0.2)",
    )
    parser.add_argument(
        "--settings",
        default="messengers.settings",
        help="Django settings module of the servers and the setup (default messengers.settings); "
        "another module (on PYTHONPATH) that imports it and changes one setting measures that "
        "change before it is made",
    )
    parser.add_argument(
        "--computer-tables",
        type=int,
        default=0,
        help="tables of computer players playing at full speed beside the scripted people",
    )
    parser.add_argument(
        "--computer-level", default="easy", help="their level (game/players: easy, strong)"
    )
    parser.add_argument(
        "--computer-moves",
        type=int,
        default=None,
        help="MESSENGERS_COMPUTER_MOVES_PER_SECOND of the servers (default: the setting's)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="closed loop: seconds a table waits after an update before its next command "
        "(default 0: at once)",
    )
    parser.add_argument(
        "--languages",
        action="append",
        metavar="CODES",
        help="languages of each table's seats in turn, as their Accept-Language (en,de,cs); "
        "given more than once, one run per list on fresh servers, compared at the end",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--json", action="store_true", help="print a JSON line at the end")
    parser.add_argument(
        "--trace",
        type=Path,
        default=None,
        help="write every measured command (sent at s, to last seat ms, to first seat ms, table) "
        "to this CSV file, to see when slow commands happen",
    )
    args = parser.parse_args(argv)
    if args.tables < 1:
        parser.error("--tables must be at least 1")
    if not 2 <= args.seats <= 6:
        parser.error("--seats must be 2 to 6")
    if args.rate <= 0 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--rate and --seconds must be positive, --warmup not negative")
    if args.layer is None:
        args.layer = "memory" if args.servers == 1 else "redis-pubsub"
    if args.layer == "memory" and args.servers == 2:
        parser.error("--layer memory serves one process only: two need Redis")
    for codes in args.languages or []:
        if not all(LANGUAGE_CODE.match(code) for code in codes.split(",")):
            parser.error(f"--languages {codes!r}: language codes separated by commas (en,de,cs)")
    if args.languages and len(args.languages) > 1 and args.trace is not None:
        parser.error("--trace writes one run's commands: give one --languages list with it")
    return args


def redis_clients(url: str) -> int:
    """Connections Redis holds, this one included (the servers' pools keep theirs open)."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("clients")["connected_clients"]) - 1
    finally:
        client.close()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Start the servers, create the tables, play, stop everything, report."""
    args = parse_args(argv)
    if args.languages and len(args.languages) > 1:
        return compare_languages(args, list(sys.argv[1:] if argv is None else argv))
    command_line = " ".join([".venv/bin/python bench/ws_load.py", *(argv or sys.argv[1:])])
    database = args.database or (
        "postgres" if args.servers == 2 and available(servers.postgres_bindir) else "sqlite"
    )
    with contextlib.ExitStack() as stack:
        directory = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ws-load-")))
        # Every scripted player connects from 127.0.0.1, and a closed loop sends as fast as the
        # server answers: lift the per-address and per-socket limits (docs/protocol.md, "Limits"),
        # which would otherwise refuse the crowd; the guard itself still runs.
        extra: dict[str, str] = {
            "WS_MAX_PER_ADDRESS": "100000",
            "WS_CONNECT_BURST": "100000",
            "WS_ADDRESS_RATE": "1000000",
            "WS_RATE": "1000",
            "WS_BURST": "1000",
        }
        roots: dict[str, int] = {}
        if database == "postgres":
            postgres = stack.enter_context(servers.restartable_postgres())
            extra["DATABASE_URL"] = servers.create_database(postgres.url, "wsload")
            roots["postgres (all processes)"] = postgres.pid
        else:
            extra["DATABASE_URL"] = f"sqlite:///{directory / 'db.sqlite3'}"
        redis_url = None
        if args.layer == "memory":
            os.environ.pop("CHANNEL_LAYER", None)
        else:
            redis = stack.enter_context(servers.restartable_redis())
            redis_url = extra["REDIS_URL"] = redis.url
            extra["CHANNEL_LAYER"] = args.layer
            roots["redis"] = redis.pid
        if args.computer_tables:
            extra["MESSENGERS_COMPUTER_PAUSE_MS"] = "0"
            if args.computer_moves is not None:
                extra["MESSENGERS_COMPUTER_MOVES_PER_SECOND"] = str(args.computer_moves)
        env = servers.production_env(DJANGO_SETTINGS_MODULE=args.settings, **extra)
        servers.migrate(env)
        os.environ.update(env)
        if seat_languages(args):
            import django

            django.setup()
            check_languages(seat_languages(args))
        spares = spare_tables(args)
        started = time.perf_counter()
        tables = create_tables(args.tables + spares, args.seats)
        computer_codes = create_computer_tables(
            args.computer_tables * 2, args.seats, args.computer_level
        )
        print(
            f"created {len(tables)} started tables ({spares} spare) "
            f"in {time.perf_counter() - started:.1f} s; starting {args.servers} Daphne process(es)",
            flush=True,
        )
        daphnes = [
            stack.enter_context(servers.restartable_daphne(env)) for _ in range(args.servers)
        ]
        for n, server in enumerate(daphnes):
            roots[f"daphne {n + 1} (pid {server.pid})"] = server.pid
        meter = CpuMeter(roots)

        async def play() -> tuple[Stats, float, float]:
            bench = Bench(args, daphnes, tables, computer_codes)
            window = await bench.run(meter)
            computers = (bench.computers.moves, bench.computers.finished)
            return bench.stats, window, bench.seating_seconds, computers

        stats, window, seating, (computer_moves, computer_games) = asyncio.run(play())
        cpu = meter.report(window)
        clients = redis_clients(redis_url) if redis_url else None
    result = summarise(args, stats, window, cpu, database)
    result["computer_moves_per_second"] = round(computer_moves / window, 1)
    result["computer_games_finished"] = computer_games
    result["redis_clients"] = clients
    result["seating_seconds"] = round(seating, 2)
    if args.trace is not None:
        with open(args.trace, "w") as out:
            out.write("sent_s,last_seat_ms,first_seat_ms,table\n")
            for sent, last, first, code in sorted(stats.trace):
                out.write(f"{sent:.4f},{last:.2f},{first:.2f},{code}\n")
    print_summary(result, command_line)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    return result


def without_languages(argv: list[str]) -> list[str]:
    """``argv`` without its ``--languages`` lists and ``--json``."""
    kept: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--languages":
            skip = True
        elif not word.startswith("--languages=") and word != "--json":
            kept.append(word)
    return kept


def compare_languages(args: argparse.Namespace, argv: list[str]) -> dict[str, Any]:
    """One run per ``--languages`` list, each in a process of its own (fresh servers, database
    and tables, the same seed), then their numbers side by side."""
    runs: dict[str, dict[str, Any]] = {}
    common = without_languages(argv)
    for codes in args.languages:
        print(f"--- languages {codes}", flush=True)
        script = str(Path(__file__).resolve())
        child = subprocess.run(
            [sys.executable, script, *common, "--languages", codes, "--json"],
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        lines = child.stdout.strip().splitlines()
        print("\n".join(lines[:-1]), flush=True)
        if child.returncode != 0 or not lines:
            raise SystemExit(f"the run with --languages {codes} failed ({child.returncode})")
        runs[codes] = json.loads(lines[-1])
    print("One run per --languages list, side by side (CPU: the Daphne processes together)")
    print(
        f"  {'languages':<16} {'commands/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'CPU %':>7} {'CPU ms/command':>15}"
    )
    for codes, result in runs.items():
        cpu = sum(v for k, v in result["cpu_percent"].items() if k.startswith("daphne"))
        per_command = result["cpu_ms_per_command"].get("daphne (all processes)")
        print(
            f"  {codes:<16} {result['commands_per_second']:>10} "
            f"{result['latency_ms']['p50']!s:>8} {result['latency_ms']['p99']!s:>8} "
            f"{cpu:>7.1f} {per_command!s:>15}"
        )
    comparison = {"languages": runs}
    if args.json:
        print(json.dumps(comparison, sort_keys=True))
    return comparison


if __name__ == "__main__":
    main()
