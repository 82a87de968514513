"""One abusive connection against a game in play: does the other table keep its pace?

A game plays at one table (the scripted players of ``ws_load.py``, open loop, ``--rate``
commands per second) while one connection at another table floods the server as fast as it can:
keep-alive pings, bad JSON, stale commands, figure preferences (each makes every connection of
its table fetch a fresh snapshot and history) and now and then an oversized frame. Idle
spectators sit at the flooded table, as they would at a real one. A flooder that is closed
reconnects at once and carries on, as an attacker would.

Three runs, each on a fresh Daphne process over one SQLite database, printed side by side:

* ``no flood``: the game alone (limits on);
* ``flood, limits on``: the per-connection limits of ``game/guard.py`` (the defaults);
* ``flood, limits off``: ``WS_GUARD=0``, the server as it was without them.

For each: the playing table's command latency (command to last seat: median, p95, p99), its
commands per second, and the Daphne process's resident memory (RSS) when the measured window
began, at its end, and its peak; plus what the flooder sent and how its connections were closed.
Targets (docs/performance.md): the playing table's median under 50 ms and memory growth under
50 MB during the flood, with the limits on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ws_load  # noqa: E402  (the server, table and scripted-player helpers)
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.typing import Origin  # noqa: E402

servers = ws_load.servers

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


async def _open(server: ws_load.Daphne, code: str, token: str | None) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{server.port}/ws/t/{code}",
        additional_headers={"X-Seat-Token": token} if token else None,
        origin=Origin(server.origin),
        compression=None,
        proxy=None,
        ping_interval=None,
        max_size=2**24,
        open_timeout=ws_load.STARTUP_TIMEOUT,
    )


async def flood(
    server: ws_load.Daphne, code: str, token: str, stop: asyncio.Event, stats: FloodStats
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
    server: ws_load.Daphne,
    playing: list[ws_load.TableSetup],
    flooded: ws_load.TableSetup,
    scenario: Scenario,
) -> dict[str, Any]:
    """Play at ``playing`` (with spares) while ``flooded`` is flooded during the measurement."""
    bench_args = load_args(args)
    bench = ws_load.Bench(bench_args, [server], playing)
    meter = ws_load.CpuMeter({"daphne": server.process.pid})
    pid = server.process.pid
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
    return parser.parse_args(argv)


def print_table(results: list[dict[str, Any]], command_line: str) -> None:
    rows = [
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
            value = result[key]
            if isinstance(value, dict):
                value = " ".join(f"{k}:{v}" for k, v in sorted(value.items())) or "-"
            cells.append(f"{value!s:>22}")
        print(f"{label:<{width}}" + "".join(cells))


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    args = parse_args(argv)
    command_line = " ".join([".venv/bin/python bench/abuse.py", *(argv or sys.argv[1:])])
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
            with ws_load.daphne(server_env, directory, f"daphne-{index}") as server:
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
