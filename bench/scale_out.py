"""Scale-out over processes, measured side by side: one process against two, and one channel layer
against the other.

The machine's speed drifts from minute to minute (docs/performance.md, "Noise"), so two figures
measured apart cannot be compared to 10%. This script runs ``bench/ws_load.py`` in every
configuration in turn, round after round, and compares figures of the same round:

* ``1 process, memory``: one Daphne process, the in-memory channel layer (what a single server
  runs);
* ``1 process, LAYER``: one Daphne process over a private Redis with the channel layer LAYER
  (``redis`` or ``redis-pubsub``, see ``--layers``): the same layer as two processes, so that
  the comparison measures the second process, not the layer;
* ``2 processes, LAYER``: two Daphne processes over Redis, each table's seats on one process
  (``--spread tables``), as the proxy's routing by table code does.

Every configuration uses a private PostgreSQL, so that the database is the same in every row.
Each mode (``--modes``: closed and open loop) gets its table. Per configuration: medians over the
rounds of commands per second, latency p50 and p99 (command to last seat), CPU milliseconds per
command of the Daphne processes together and, apart, of PostgreSQL and Redis, the load
generator's CPU, the machine's busy share, and Redis's connection count. Then the ratios, each the
median of the per-round ratios: two processes against one (throughput, Daphne CPU per command)
and one layer against the other.

The output is a readable report; ``--json FILE`` also writes every run's full ws_load result.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WS_LOAD = ROOT / "bench" / "ws_load.py"
RUN_TIMEOUT = 600.0
"""Seconds one ws_load run may take, set-up included, before it counts as failed."""


@dataclass(frozen=True)
class Configuration:
    """One row of the table: a number of processes and a channel layer."""

    servers: int
    layer: str

    @property
    def label(self) -> str:
        processes = "1 process" if self.servers == 1 else f"{self.servers} processes"
        return f"{processes}, {self.layer}"

    def arguments(self) -> list[str]:
        """ws_load options of this configuration (tables spread over the processes)."""
        options = ["--servers", str(self.servers), "--layer", self.layer]
        if self.servers > 1:
            options += ["--spread", "tables"]
        return options


def configurations(layers: list[str]) -> list[Configuration]:
    """One process in memory, then one and two processes over each Redis layer."""
    rows = [Configuration(1, "memory")]
    for layer in layers:
        rows += [Configuration(1, layer), Configuration(2, layer)]
    return rows


def mode_arguments(mode: str, args: argparse.Namespace) -> list[str]:
    """ws_load options of a mode: the load, its length and enough spare tables."""
    common = ["--seconds", str(args.seconds), "--warmup", str(args.warmup), "--seats", "4"]
    if mode == "closed":
        return ["--mode", "closed", "--tables", str(args.closed_tables), "--spare-tables",
                str(args.closed_spares), *common]  # fmt: skip
    return ["--mode", "open", "--tables", str(args.open_tables), "--rate", str(args.rate), *common]


def run_once(options: list[str]) -> dict[str, Any]:
    """One ws_load run in its own process (Django is set up once per process, with one
    database); its result is the JSON object on the last line of its output."""
    command = [sys.executable, str(WS_LOAD), "--database", "postgres", "--json", *options]
    completed = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False
    )
    lines = completed.stdout.strip().splitlines()
    if completed.returncode != 0 or not lines or not lines[-1].startswith("{"):
        raise RuntimeError(
            f"ws_load failed ({completed.returncode}): {' '.join(options)}\n"
            f"{completed.stdout[-2000:]}\n{completed.stderr[-4000:]}"
        )
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def figures(result: dict[str, Any]) -> dict[str, float]:
    """The figures compared, from one ws_load result."""
    cpu = result["cpu_percent"]
    per_command = result["cpu_ms_per_command"]
    return {
        "commands/s": result["commands_per_second"],
        "p50 ms": result["latency_ms"]["p50"],
        "p99 ms": result["latency_ms"]["p99"],
        "Daphne ms/cmd": per_command["daphne (all processes)"],
        "PostgreSQL ms/cmd": per_command.get("postgres (all processes)", float("nan")),
        "Redis ms/cmd": per_command.get("redis", float("nan")),
        "Daphne % (sum)": sum(v for k, v in cpu.items() if k.startswith("daphne")),
        "client %": cpu["load generator"],
        "busy %": cpu.get("machine busy (% of all cores)", float("nan")),
        "rest %": cpu.get("rest of the machine", float("nan")),
        "Redis conns": result.get("redis_clients") or 0,
        "errors": sum(result["errors"].values()) + result["timeouts"],
    }


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


Runs = dict[Configuration, dict[int, dict[str, float]]]
"""Per configuration, per round number: the figures of that run (failed runs are absent)."""


def ratio(runs: Runs, top: Configuration, bottom: Configuration, key: str) -> float:
    """Median over the rounds of ``top[key] / bottom[key]``, pairing runs of the same round."""
    over, under = runs.get(top, {}), runs.get(bottom, {})
    return median([over[n][key] / under[n][key] for n in over if n in under and under[n][key]])


def report(mode: str, runs: Runs, layers: list[str]) -> None:
    """The table of medians and the ratios of one mode."""
    done = [figures for rounds in runs.values() for figures in rounds.values()]
    if not done:
        print(f"\n{mode} loop: no run completed")
        return
    keys = list(done[0])
    print(f"\n{mode} loop: medians over the rounds (runs per configuration in brackets)")
    print("| configuration | " + " | ".join(keys) + " |")
    print("| --- " * (len(keys) + 1) + "|")
    for configuration, rounds in runs.items():
        cells = [f"{median([row[key] for row in rounds.values()]):.4g}" for key in keys]
        print(f"| {configuration.label} ({len(rounds)}) | " + " | ".join(cells) + " |")
    print("ratios (median of the rounds' ratios):")
    memory = Configuration(1, "memory")
    for layer in layers:
        one, two = Configuration(1, layer), Configuration(2, layer)
        print(
            f"  {layer}: 2 processes / 1 process: throughput "
            f"{ratio(runs, two, one, 'commands/s'):.2f}x, Daphne CPU per command "
            f"{ratio(runs, two, one, 'Daphne ms/cmd'):.2f}x; 1 process {layer} / memory: "
            f"throughput {ratio(runs, one, memory, 'commands/s'):.2f}x, Daphne CPU per command "
            f"{ratio(runs, one, memory, 'Daphne ms/cmd'):.2f}x"
        )
    if len(layers) == 2:
        first, second = layers
        for servers in (1, 2):
            a, b = Configuration(servers, second), Configuration(servers, first)
            print(
                f"  {second} / {first}, {a.label.split(',')[0]}: throughput "
                f"{ratio(runs, a, b, 'commands/s'):.2f}x, p99 {ratio(runs, a, b, 'p99 ms'):.2f}x, "
                f"Daphne CPU per command {ratio(runs, a, b, 'Daphne ms/cmd'):.2f}x, "
                f"Redis CPU per command {ratio(runs, a, b, 'Redis ms/cmd'):.2f}x"
            )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of every configuration")
    parser.add_argument("--modes", default="closed,open", help="closed, open or both")
    parser.add_argument(
        "--layers", default="redis,redis-pubsub", help="Redis channel layers to compare"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--closed-tables", type=int, default=50)
    parser.add_argument("--closed-spares", type=int, default=100)
    parser.add_argument("--open-tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=100.0, help="open loop: commands/s")
    parser.add_argument("--json", type=Path, default=None, help="write every run's result here")
    args = parser.parse_args(argv)
    args.modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    args.layers = [layer.strip() for layer in args.layers.split(",") if layer.strip()]
    if not set(args.modes) <= {"closed", "open"} or not args.modes:
        parser.error("--modes takes closed, open or closed,open")
    if not set(args.layers) <= {"redis", "redis-pubsub"} or not args.layers:
        parser.error("--layers takes redis, redis-pubsub or both")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def main(argv: list[str] | None = None) -> None:
    """Run every configuration of every mode once per round, then report each mode."""
    args = parse_args(argv)
    rows = configurations(args.layers)
    results: list[dict[str, Any]] = []
    runs: dict[str, Runs] = {mode: {row: {} for row in rows} for mode in args.modes}
    print(f"command line: .venv/bin/python bench/scale_out.py {' '.join(argv or sys.argv[1:])}")
    for round_number in range(1, args.rounds + 1):
        for mode in args.modes:
            for row in rows:
                started = time.monotonic()
                try:
                    result = run_once(mode_arguments(mode, args) + row.arguments())
                except (RuntimeError, subprocess.TimeoutExpired) as failure:
                    # One failed run (a handshake lost on a saturated machine) costs its row
                    # one round, not the whole comparison.
                    print(f"round {round_number} {mode} {row.label}: FAILED {failure}", flush=True)
                    continue
                result["round"] = round_number
                results.append(result)
                if args.json is not None:
                    args.json.write_text(json.dumps(results, indent=1, sort_keys=True))
                measured = figures(result)
                runs[mode][row][round_number] = measured
                print(
                    f"round {round_number} {mode:<6} {row.label:<26} "
                    + ", ".join(f"{key} {value:.4g}" for key, value in measured.items())
                    + f" ({time.monotonic() - started:.0f} s)",
                    flush=True,
                )
    for mode in args.modes:
        report(mode, runs[mode], args.layers)


if __name__ == "__main__":
    main()
