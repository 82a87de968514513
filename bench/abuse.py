"""One abusive connection against a game in play: does the other table keep its pace?

A game plays at one table (the scripted players of ``ws_load.py``, open loop, ``--rate``
commands per second) while one connection at another table floods the server as fast as it can:
keep-alive pings, bad JSON, stale commands, figure preferences (each makes every connection of
its table fetch a fresh snapshot and history) and now and then an oversized frame. Idle
spectators sit at the flooded table, as they would at a real one. A flooder that is closed
reconnects at once and carries on, as an attacker would.

Three runs, each on a fresh Daphne process over one SQLite database, printed side by side:

* ``no flood``: the game alone (limits on);
* ``flood, limits on``: the per-connection limits of ``game/live/guard.py`` (the defaults);
* ``flood, limits off``: ``WS_GUARD=0``, the server as it was without them.

For each: the playing table's command latency (command to last seat: median, p95, p99), its
commands per second, and the Daphne process's resident memory (RSS) when the measured window
began, at its end, and its peak; plus what the flooder sent and how its connections were closed.
Targets (docs/performance.md): the playing table's median under 50 ms and memory growth under
50 MB during the flood, with the limits on.

That is ``--attack flood`` (the default). The other attacks stay within the per-socket limits
and try to make the server work for them instead, from an address of their own (127.0.0.2,
``bench/attacks.py``, in a process of its own), against one Daphne process over a private
PostgreSQL and Redis (the pub/sub channel layer), DEBUG off and every limit at its default. An
honest table of ``--seats`` seats plays a closed loop meanwhile (``--think`` seconds between a
command's update and the next command); each case prints its rows side by side, a row without
attack first:

* ``pings``: ``--ping-sockets`` sockets (e.g. 20, 50, 250), each pinging ``--ping-rate`` times a
  second, just under ``WS_RATE``;
* ``preview``: the host of a tabletop game of ``--long-game`` entries sends ``preview`` of a
  ``correct`` naming the oldest entry, one at a time per socket, from each of
  ``--preview-sockets`` sockets, then ``entries`` the same way (``--entries-sockets``);
* ``rematch``: the host of a tabletop game ends it, finishes it and asks for a rematch, and does
  the same at each new table (``TABLES_PER_HOUR`` should stop it);
* ``churn``: ``--churn-sockets`` sockets open (each waits for its snapshot) and close, in
  bursts of ``--churn-burst``.

Per row: the honest table's round trip (command to last seat: median, p99), its commands per
second, what the attacker sent and got (answers, error codes, close codes, refused handshakes,
tables made), Daphne's CPU and memory, and Redis's subscriptions and clients and the
``Connection`` rows before the row (no socket open) and after it (every socket closed, 2 s
later). ``--attack all`` runs the four cases in turn. The target (docs/performance.md): no
attack moves the honest table's median above 50 ms or its p99 above 150 ms; the benchmark
reports, it does not judge.

``--through-nginx`` runs the same cases against the deployment of ``tests/deploy_stack.py``
instead: the shipped nginx site over TLS in front of two Daphne processes, PostgreSQL and Redis,
with production's settings (the deployment tests' low ``TABLES_PER_HOUR`` and fixed tiles
dropped). Every client connects to nginx with the site's public name, the honest table from
127.0.0.1 and the attacker from 127.0.0.2, so nginx's limits per address apply to the attacker
alone; both Daphnes restart for each row (nginx keeps running), Daphne's CPU and memory are the
two processes' sums, and nginx's CPU (its workers included) gets a line of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import attacks  # noqa: E402  (the attackers, each in a process of its own)
import endpoints  # noqa: E402  (a Daphne directly, or nginx over TLS)
import table_load  # noqa: E402  (writes a long tabletop game straight into the database)
import ws_load  # noqa: E402  (the table, scripted-player and CPU-reading helpers)
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.typing import Origin  # noqa: E402

from tests import servers  # noqa: E402  (ws_load puts the project on sys.path)

OVERSIZED_EVERY = 500
"""One frame in this many is far larger than any real one (64 KiB)."""
SPECTATORS = 5
"""Idle spectators at the flooded table, who receive whatever the flood makes it send."""


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident memory now, peak resident memory) of ``pid`` in MB, from /proc."""
    values: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in {"VmRSS", "VmHWM"}:
            values[key] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", float("nan")), values.get("VmHWM", float("nan"))


def flood_frames() -> list[str]:
    """The flood's frames, sent round robin."""
    stale = {"type": "command", "version": 0, "id": "stale", "command": {"type": "skip_follower"}}
    return [
        '{"type":"ping"}',
        '{"type":',
        json.dumps(stale),
        '{"type":"preference","figure":"messenger"}',
        '{"type":"ping"}',
        "[1,2,3]",
        '{"type":"preference","figure":"meeple"}',
        '{"type":"sync"}',
    ]


@dataclass
class FloodStats:
    sent: int = 0
    connections: int = 0
    closes: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    """Handshakes the server refused (HTTP status instead of a websocket)."""


async def _drain(socket: ClientConnection) -> None:
    """Read and drop everything, so the flood measures the server, not a full socket buffer."""
    with contextlib.suppress(ConnectionClosed):
        async for _ in socket:
            pass


async def _open(
    server: servers.RestartableDaphne, code: str, token: str | None
) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{server.port}/ws/t/{code}",
        additional_headers={"X-Seat-Token": token} if token else None,
        origin=Origin(server.url),
        compression=None,
        proxy=None,
        ping_interval=None,
        max_size=2**24,
        open_timeout=servers.STARTUP_TIMEOUT,
    )


async def flood(
    server: servers.RestartableDaphne, code: str, token: str, stop: asyncio.Event, stats: FloodStats
) -> None:
    """Send the flood's frames as fast as the socket takes them until ``stop``; reconnect."""
    frames = flood_frames()
    oversized = '{"type":"ping","pad":"' + "x" * 65536 + '"}'
    while not stop.is_set():
        try:
            socket = await _open(server, code, token)
        except InvalidStatus:
            stats.refused += 1
            await asyncio.sleep(0.05)
            continue
        stats.connections += 1
        reader = asyncio.create_task(_drain(socket))
        try:
            while not stop.is_set():
                stats.sent += 1
                if stats.sent % OVERSIZED_EVERY == 0:
                    await socket.send(oversized)
                else:
                    await socket.send(frames[stats.sent % len(frames)])
        except ConnectionClosed:
            pass
        await socket.close()
        await reader
        code_seen = socket.close_code
        stats.closes[str(code_seen) if code_seen is not None else "none"] += 1


@dataclass(frozen=True)
class Scenario:
    name: str
    flood: bool
    guard: bool


SCENARIOS = [
    Scenario("no flood", flood=False, guard=True),
    Scenario("flood, limits on", flood=True, guard=True),
    Scenario("flood, limits off", flood=True, guard=False),
]


def load_args(args: argparse.Namespace) -> argparse.Namespace:
    """``ws_load``'s options for the playing table: one table, open loop, at this run's rate."""
    return ws_load.parse_args(
        [
            *("--mode", "open", "--tables", "1", "--seats", str(args.seats)),
            *("--rate", str(args.rate), "--seconds", str(args.seconds)),
            *("--warmup", str(args.warmup), "--seed", str(args.seed)),
        ]
    )


async def run_scenario(
    args: argparse.Namespace,
    server: servers.RestartableDaphne,
    playing: list[ws_load.TableSetup],
    flooded: ws_load.TableSetup,
    scenario: Scenario,
) -> dict[str, Any]:
    """Play at ``playing`` (with spares) while ``flooded`` is flooded during the measurement."""
    bench_args = load_args(args)
    bench = ws_load.Bench(bench_args, [server], playing)
    meter = ws_load.CpuMeter({"daphne": server.pid})
    pid = server.pid
    spectators = [await _open(server, flooded.code, None) for _ in range(SPECTATORS)]
    readers = [asyncio.create_task(_drain(s)) for s in spectators]
    stop = asyncio.Event()
    flood_stats = FloodStats()
    memory: dict[str, float] = {}

    async def measure_memory() -> None:
        while not bench.measuring:
            await asyncio.sleep(0.01)
        memory["start"], _ = rss_mb(pid)
        flooder = (
            asyncio.create_task(flood(server, flooded.code, flooded.tokens[0], stop, flood_stats))
            if scenario.flood
            else None
        )
        while bench.measuring:
            await asyncio.sleep(0.05)
        memory["end"], memory["peak"] = rss_mb(pid)
        stop.set()
        if flooder is not None:
            await flooder

    watcher = asyncio.create_task(measure_memory())
    window = await bench.run(meter)
    await watcher
    for socket in spectators:
        await socket.close()
    await asyncio.gather(*readers)
    stats = bench.stats
    latency = stats.latency_ms
    return {
        "scenario": scenario.name,
        "seconds": round(window, 1),
        "completed": stats.completed,
        "commands_per_second": round(stats.completed / window, 1),
        "p50_ms": round(ws_load.percentile(latency, 50), 1) if latency else None,
        "p95_ms": round(ws_load.percentile(latency, 95), 1) if latency else None,
        "p99_ms": round(ws_load.percentile(latency, 99), 1) if latency else None,
        "timeouts": stats.timeouts,
        "late": stats.late,
        "rss_start_mb": round(memory["start"], 1),
        "rss_end_mb": round(memory["end"], 1),
        "rss_growth_mb": round(memory["end"] - memory["start"], 1),
        "rss_peak_mb": round(memory["peak"], 1),
        "flood_frames": flood_stats.sent,
        "flood_connections": flood_stats.connections,
        "flood_closes": dict(flood_stats.closes),
        "flood_refused": flood_stats.refused,
        "daphne_cpu_percent": meter.report(window).get("daphne"),
    }


# --- Attacks within the limits, beside an honest table (--attack pings|preview|rematch|churn) --

CASES = ("pings", "preview", "rematch", "churn")
SETTLE_SECONDS = 2.0
"""How long after every socket closed the "after" counts are read (the "before" ones are read
once Daphne has started, before any socket opens)."""


@dataclass(frozen=True)
class Row:
    """One column of a case: an attack (``kind`` of ``attacks.ATTACKS``, or None for the honest
    table alone), its parameters, and the table it attacks (made before the server starts)."""

    name: str
    kind: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    table: Callable[[], tuple[str, str]] | None = None
    """Makes the attacker's table: its code and the token the attacker holds."""


def int_list(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def seated_board_table() -> tuple[str, str]:
    """A started two-seat board game; the attacker holds seat 0."""
    setup = ws_load.create_tables(1, 2)[0]
    return setup.code, setup.tokens[0]


def tabletop_table() -> tuple[str, str]:
    """A started two-seat tabletop game; the attacker is its host."""
    from django.db import connections

    from game.services.lobby import create_table, join_table, start_game

    table, host = create_table(
        preset="c1-zmg", mode="tabletop", seats=2, name="Host", colour="blue"
    )
    join_table(table.code, name="Guest", colour="orange")
    start_game(table.code, host.token)
    connections.close_all()
    return table.code, host.token


@dataclass
class LongGame:
    """A tabletop game of many entries and the ``correct`` of its oldest entry with points."""

    code: str
    token: str
    correct: dict[str, Any]
    entries: int
    build_seconds: float
    preview_ms: float
    """One preview of that correction in this process (no server): the work it asks for."""


def long_game(length: int) -> LongGame:
    """Write a tabletop game of ``length`` random entries, every one still counting (no undos),
    with checkpoints as the server writes them; find the oldest entry a ``correct`` may name
    (the preview that replays the most)."""
    from django.conf import settings
    from django.db import connections

    from game.models import LogEntry, Seat
    from game.services.corrections import preview
    from game.services.refusals import CommandRefused

    started = time.perf_counter()
    table = table_load.write_game(length, settings.CHECKPOINT_EVERY, seed=length, undo_share=0)
    built = time.perf_counter() - started
    token = Seat.objects.get(table=table, index=0).token
    for entry in LogEntry.objects.filter(table=table, action__type="score").order_by("index"):
        action = dict(entry.action)
        replacement = {**action, "points": action["points"] % 20 + 1}
        correct = {"type": "correct", "entry": entry.index, "replacement": replacement}
        try:
            start = time.perf_counter()
            preview(table.code, 0, correct, host=None)
        except CommandRefused:
            continue  # before the correction window (too_old, refused before any replay)
        took = (time.perf_counter() - start) * 1000
        connections.close_all()
        return LongGame(table.code, token, correct, length, built, took)
    raise RuntimeError("no entry of the long game could be corrected")


def case_rows(case: str, args: argparse.Namespace) -> list[Row]:
    """The columns of a case: the honest table alone, then each attack."""
    rows = [Row("no attack")]
    if case == "pings":
        for count in int_list(args.ping_sockets):
            params = {"sockets": count, "rate": args.ping_rate}
            rows.append(Row(f"{count} sockets", "pings", params, seated_board_table))
    elif case == "preview":
        game: list[LongGame] = []

        def host_of_long_game() -> tuple[str, str]:
            if not game:
                game.append(long_game(args.long_game))
                made = game[0]
                print(
                    f"  long game: {made.entries} entries written in {made.build_seconds:.1f} s; "
                    f"preview of a correction of entry {made.correct['entry']} "
                    f"takes {made.preview_ms:.0f} ms in-process",
                    flush=True,
                )
            return game[0].code, game[0].token

        for count in int_list(args.preview_sockets):
            params = {"sockets": count, "rate": args.request_rate, "answer": "preview"}
            params["game"] = game
            rows.append(Row(f"preview x{count}", "requests", params, host_of_long_game))
        for count in int_list(args.entries_sockets):
            params = {"sockets": count, "rate": args.request_rate, "answer": "entries"}
            params["frame"] = '{"type":"entries"}'
            rows.append(Row(f"entries x{count}", "requests", params, host_of_long_game))
    elif case == "rematch":
        rows.append(Row("rematch loop", "rematch", {"rate": args.request_rate}, tabletop_table))
    elif case == "churn":
        params = {"total": args.churn_sockets, "burst": args.churn_burst}
        rows.append(
            Row(
                f"churn {args.churn_sockets}/{args.churn_burst}",
                "churn",
                params,
                seated_board_table,
            )  # fmt: skip
        )
    return rows


def honest_args(args: argparse.Namespace) -> argparse.Namespace:
    """``ws_load``'s options for the honest table: one table, a closed loop with think time."""
    duration = args.warmup + args.seconds + ws_load.DRAIN_SECONDS
    games = duration / (args.think + 0.01) / ws_load.COMMANDS_PER_GAME
    return ws_load.parse_args(
        [
            *("--mode", "closed", "--tables", "1", "--seats", str(args.seats)),
            *("--think", str(args.think), "--seconds", str(args.seconds)),
            *("--warmup", str(args.warmup), "--seed", str(args.seed)),
            *("--spare-tables", str(math.ceil(games * 1.3) + 1)),
        ]
    )


def server_counts(redis_url: str) -> dict[str, int]:
    """Redis's subscriptions and clients, and the open-websocket rows of the database."""
    import redis
    from django.db import connections

    from game.models import Connection

    client = redis.Redis.from_url(redis_url)
    try:
        clients: list[dict[str, Any]] = client.client_list()  # type: ignore[assignment]
        counts = {
            "channels": len(client.pubsub_channels()),  # type: ignore[arg-type]
            "patterns": int(client.pubsub_numpat()),  # type: ignore[arg-type]
            "subscriptions": sum(int(c.get("sub", 0)) for c in clients),
            "clients": len(clients) - 1,
        }
    finally:
        client.close()
    counts["connection_rows"] = Connection.objects.count()
    connections.close_all()
    return counts


@dataclass(frozen=True)
class Stack:
    """What a row runs against: the Daphne processes, where clients connect, and nginx."""

    daphnes: list[servers.RestartableDaphne]
    endpoint: endpoints.Endpoint
    nginx_pid: int | None = None
    """nginx's master process (its workers are its children), or None without nginx."""

    def rss_mb(self) -> tuple[float, float]:
        """The Daphnes' resident memory now and their peaks, summed."""
        readings = [rss_mb(daphne.pid) for daphne in self.daphnes]
        return sum(now for now, _ in readings), sum(peak for _, peak in readings)


async def play_honest(
    args: argparse.Namespace,
    stack: Stack,
    tables: list[ws_load.TableSetup],
    begin: Any,
    end: Any,
) -> dict[str, Any]:
    """Play the honest table; ``begin`` and ``end`` tell the attacker the measured window."""
    front = stack.endpoint if stack.endpoint.tls_name is not None else None
    bench = ws_load.Bench(honest_args(args), stack.daphnes, tables, front=front)
    roots = {f"daphne {n}": daphne.pid for n, daphne in enumerate(stack.daphnes)}
    if stack.nginx_pid is not None:
        roots["nginx"] = stack.nginx_pid
    meter = ws_load.CpuMeter(roots)
    memory: dict[str, float] = {}

    async def window() -> None:
        while not bench.measuring:
            await asyncio.sleep(0.01)
        memory["start"], _ = stack.rss_mb()
        begin.set()
        while bench.measuring:
            await asyncio.sleep(0.02)
        end.set()
        memory["end"], memory["peak"] = stack.rss_mb()

    watcher = asyncio.create_task(window())
    seconds = await bench.run(meter)
    await watcher
    stats = bench.stats
    latency = stats.latency_ms
    cpu = meter.report(seconds)

    def ms(values: list[float], pct: float) -> float | None:
        return round(ws_load.percentile(values, pct), 1) if values else None

    return {
        "seconds": round(seconds, 1),
        "commands_per_second": round(stats.completed / seconds, 1),
        "p50_ms": ms(latency, 50),
        "p99_ms": ms(latency, 99),
        "max_ms": ms(latency, 100),
        "timeouts": stats.timeouts,
        "honest_errors": dict(stats.errors),
        "loop_lag_p99_ms": ms(stats.loop_lag_ms, 99),
        "daphne_cpu_percent": round(sum(cpu[name] for name in roots if name != "nginx"), 1),
        "nginx_cpu_percent": cpu.get("nginx", "-"),
        "machine_busy_percent": cpu.get("machine busy (% of all cores)"),
        "rss_growth_mb": round(memory["end"] - memory["start"], 1),
        "rss_peak_mb": round(memory["peak"], 1),
    }


StackFactory = Callable[[], contextlib.AbstractContextManager[Stack]]
"""Starts what a row runs against, fresh (new Daphne processes), for the row's duration."""


def one_daphne(env: dict[str, str]) -> StackFactory:
    """A new Daphne process per row, reached directly."""

    @contextlib.contextmanager
    def start() -> Iterator[Stack]:
        with servers.restartable_daphne(env) as server:
            assert server.port is not None
            yield Stack([server], endpoints.Endpoint(server.port))

    return start


def behind_nginx(deployment: Any) -> StackFactory:
    """The deployment's two Daphnes, restarted per row (nginx keeps running), reached through
    nginx over TLS."""
    from tests.deploy_stack import HOST_NAME

    pid_file = deployment.nginx_log.parent / "nginx.pid"
    front = endpoints.Endpoint(deployment.https_port, HOST_NAME)

    @contextlib.contextmanager
    def start() -> Iterator[Stack]:
        for daphne in deployment.daphnes:
            daphne.stop()
            daphne.start()
        yield Stack(list(deployment.daphnes), front, int(pid_file.read_text().split()[0]))

    return start


def run_row(
    args: argparse.Namespace,
    fresh_stack: StackFactory,
    redis_url: str,
    row: Row,
) -> dict[str, Any]:
    """One column: fresh Daphne processes, the honest table, and the row's attacker."""
    honest = ws_load.create_tables(1 + honest_args(args).spare_tables, args.seats)
    code, token = row.table() if row.table is not None else ("", "")
    context = multiprocessing.get_context("fork")
    begin, end = context.Event(), context.Event()
    results: Any = context.Queue()
    print(f"{row.name}: starting Daphne", flush=True)
    with fresh_stack() as stack:
        before = server_counts(redis_url)
        attacker = None
        if row.kind is not None:
            params = {key: value for key, value in row.params.items() if key != "game"}
            if row.params.get("answer") == "preview":
                correct = row.params["game"][0].correct
                params["frame"] = json.dumps({"type": "preview", "command": correct})
            target = attacks.Target(stack.endpoint, code, token)
            attacker = context.Process(
                target=attacks.run, args=(row.kind, target, params, begin, end, results)
            )
            attacker.start()
        started = time.perf_counter()
        played = asyncio.run(play_honest(args, stack, honest, begin, end))
        result = {"scenario": row.name, **played}
        got: dict[str, Any] = {}
        if attacker is not None:
            got = results.get(timeout=attacks.ANSWER_TIMEOUT + 30)
            attacker.join(timeout=30)
        time.sleep(SETTLE_SECONDS)
        after = server_counts(redis_url)
        print(f"  done in {time.perf_counter() - started:.1f} s", flush=True)
    answers = got.get("answer_ms") or []
    result.update(
        {
            "attack_sockets": got.get("sockets", "-"),
            "attack_refused": got.get("refused", {}),
            "attack_sent": got.get("sent", "-"),
            "attack_answers": got.get("answers", "-"),
            "attack_answer_p50_ms": round(statistics.median(answers), 1) if answers else "-",
            "attack_errors": got.get("errors", {}),
            "attack_closes": got.get("closes", {}),
            "attack_tables": got.get("tables", "-"),
            "attack_seconds": round(got["seconds"], 1) if got else "-",
            **{f"before_{key}": value for key, value in before.items()},
            **{f"after_{key}": value for key, value in after.items()},
        }
    )
    return result


CASE_ROWS = [
    ("honest commands/s", "commands_per_second"),
    ("honest round trip p50 (ms)", "p50_ms"),
    ("honest round trip p99 (ms)", "p99_ms"),
    ("honest round trip max (ms)", "max_ms"),
    ("honest unanswered after 10 s", "timeouts"),
    ("honest error frames", "honest_errors"),
    ("client event loop lag p99 (ms)", "loop_lag_p99_ms"),
    ("Daphne CPU (% of a core)", "daphne_cpu_percent"),
    ("nginx CPU (% of a core)", "nginx_cpu_percent"),
    ("machine busy (% of 2 cores)", "machine_busy_percent"),
    ("Daphne RSS growth (MB)", "rss_growth_mb"),
    ("attack seconds", "attack_seconds"),
    ("attack sockets opened", "attack_sockets"),
    ("attack handshakes refused", "attack_refused"),
    ("attack frames sent", "attack_sent"),
    ("attack answers", "attack_answers"),
    ("attack answer p50 (ms)", "attack_answer_p50_ms"),
    ("attack error codes", "attack_errors"),
    ("attack close codes", "attack_closes"),
    ("attack tables made", "attack_tables"),
    ("Redis channels before/after", ("before_channels", "after_channels")),
    ("Redis patterns before/after", ("before_patterns", "after_patterns")),
    ("Redis subscriptions before/after", ("before_subscriptions", "after_subscriptions")),
    ("Redis clients before/after", ("before_clients", "after_clients")),
    ("Connection rows before/after", ("before_connection_rows", "after_connection_rows")),
]
"""The printed lines of a case: label, and the result's key (or the pair shown as a/b)."""


DEPLOYMENT_SETTINGS: dict[str, str | None] = {
    "TABLES_PER_HOUR": None,
    "MESSENGERS_FIXED_TILES": None,
    "MESSENGERS_FIXED_MESSAGES": None,
}
"""The deployment's test settings that ``--through-nginx`` drops: production's limit on tables
an hour (the tests' low one would stop the rematch attack at once) and shuffled games."""


def run_cases(args: argparse.Namespace, cases: list[str], command_line: str) -> list[Any]:
    """Each case on the same private PostgreSQL and Redis, each row on fresh Daphnes: one
    reached directly, or, with ``--through-nginx``, the two of the deployment behind nginx."""
    everything: list[Any] = []
    with contextlib.ExitStack() as stack:
        postgres = stack.enter_context(servers.private_postgres())
        redis_url = stack.enter_context(servers.private_redis())
        fresh_stack: StackFactory
        if args.through_nginx:
            from tests.deploy_stack import running_deployment

            print("starting the deployment (nginx, two Daphnes)", flush=True)
            deployment = stack.enter_context(
                running_deployment(postgres, redis_url, settings=DEPLOYMENT_SETTINGS)
            )
            env = deployment.env
            redis_url = env["REDIS_URL"]
            fresh_stack = behind_nginx(deployment)
        else:
            env = servers.production_env(
                DATABASE_URL=servers.create_database(postgres, "abuse"),
                REDIS_URL=redis_url,
                CHANNEL_LAYER="redis-pubsub",
            )
            servers.migrate(env)
            fresh_stack = one_daphne(env)
        os.environ.update(env)
        for case in cases:
            print(f"case {case}", flush=True)
            results = []
            for row in case_rows(case, args):
                results.append(run_row(args, fresh_stack, redis_url, row))
            print(f"\ncase {case}")
            print_table(results, command_line, CASE_ROWS)
            print()
            everything.append({"case": case, "rows": results})
    return everything


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured flood per run")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before it")
    parser.add_argument(
        "--rate", type=float, default=10.0, help="commands per second at the playing table"
    )
    parser.add_argument("--seats", type=int, default=4, help="seats at the playing table")
    parser.add_argument(
        "--scenarios",
        default="0,1,2",
        help="which runs, by number: 0 no flood, 1 flood with limits, 2 flood without",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print a JSON line at the end")
    parser.add_argument(
        "--attack",
        choices=("flood", *CASES, "all"),
        default="flood",
        help="flood (default: the three runs above) or an attack within the limits beside an "
        "honest table; all: the four of them in turn",
    )
    parser.add_argument(
        "--think", type=float, default=0.05, help="honest table: seconds between commands"
    )
    parser.add_argument("--ping-sockets", default="20,50,250", help="pings: socket counts")
    parser.add_argument("--ping-rate", type=float, default=19.0, help="pings a second a socket")
    parser.add_argument(
        "--long-game", type=int, default=3000, help="preview: entries of the tabletop game"
    )
    parser.add_argument("--preview-sockets", default="1,4", help="preview: socket counts")
    parser.add_argument("--entries-sockets", default="4", help="entries: socket counts")
    parser.add_argument(
        "--request-rate",
        type=float,
        default=19.0,
        help="preview, entries, rematch: at most this many frames a second a socket",
    )
    parser.add_argument(
        "--through-nginx",
        action="store_true",
        help="attacks within the limits: run against the deployment of tests/deploy_stack.py "
        "(nginx over TLS in front of two Daphnes) instead of one Daphne reached directly",
    )
    parser.add_argument("--churn-sockets", type=int, default=1000, help="churn: sockets in all")
    parser.add_argument("--churn-burst", type=int, default=10, help="churn: sockets at once")
    return parser.parse_args(argv)


def print_table(
    results: list[dict[str, Any]], command_line: str, rows: list[tuple[str, Any]] | None = None
) -> None:
    """One column per run, one line per figure (a pair of keys prints as ``a/b``)."""
    rows = rows or [
        ("commands/s at the playing table", "commands_per_second"),
        ("latency p50 (ms)", "p50_ms"),
        ("latency p95 (ms)", "p95_ms"),
        ("latency p99 (ms)", "p99_ms"),
        ("commands unanswered after 10 s", "timeouts"),
        ("Daphne RSS at start (MB)", "rss_start_mb"),
        ("Daphne RSS growth (MB)", "rss_growth_mb"),
        ("Daphne RSS peak (MB)", "rss_peak_mb"),
        ("Daphne CPU (% of a core)", "daphne_cpu_percent"),
        ("flood frames sent", "flood_frames"),
        ("flood connections", "flood_connections"),
        ("flood closes by code", "flood_closes"),
    ]
    print(f"command line: {command_line}")
    width = 34
    print(" " * width + "".join(f"{r['scenario']:>22}" for r in results))
    for label, key in rows:
        cells = []
        for result in results:
            value = (
                "/".join(str(result[part]) for part in key)
                if isinstance(key, tuple)
                else result[key]
            )
            if isinstance(value, dict):
                value = " ".join(f"{k}:{v}" for k, v in sorted(value.items())) or "-"
            cells.append(f"{value!s:>22}")
        print(f"{label:<{width}}" + "".join(cells))


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    args = parse_args(argv)
    command_line = " ".join([".venv/bin/python bench/abuse.py", *(argv or sys.argv[1:])])
    if args.attack != "flood":
        cases = list(CASES) if args.attack == "all" else [args.attack]
        everything = run_cases(args, cases, command_line)
        if args.json:
            print(json.dumps(everything, sort_keys=True))
        return everything
    chosen = [SCENARIOS[int(n)] for n in args.scenarios.split(",")]
    with tempfile.TemporaryDirectory(prefix="abuse-") as name:
        directory = Path(name)
        env = servers.production_env(DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}")
        servers.migrate(env)
        os.environ.update(env)
        spares = ws_load.spare_tables(load_args(args))
        playing = [ws_load.create_tables(1 + spares, args.seats) for _ in chosen]
        flooded = [ws_load.create_tables(1, 2)[0] for _ in chosen]
        results = []
        for index, scenario in enumerate(chosen):
            server_env = {**env, "WS_GUARD": "1" if scenario.guard else "0"}
            print(f"{scenario.name}: starting Daphne", flush=True)
            with servers.restartable_daphne(server_env) as server:
                started = time.perf_counter()
                result = asyncio.run(
                    run_scenario(args, server, playing[index], flooded[index], scenario)
                )
                print(f"  done in {time.perf_counter() - started:.1f} s", flush=True)
            results.append(result)
    print_table(results, command_line)
    if args.json:
        print(json.dumps(results, sort_keys=True))
    return results


if __name__ == "__main__":
    main()
