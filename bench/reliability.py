"""Faults during play: is an acknowledged command ever lost or applied twice, a client left behind?

Starts a private PostgreSQL, a private Redis and two Daphne processes (``tests/servers.py``),
creates ``--tables`` started two-seat games and plays them with ``bench/ws_load.py``'s scripted
players: seat 0 of every table on the first Daphne, seat 1 on the second, so every command
crosses Redis. Each table sends one command every ``1 / --rate`` seconds while play is on.

The run is a sequence of phases, one per fault, each the same: play, inject the fault, heal it,
play on, then stop sending and wait ``--grace`` seconds for the clients to settle before counting.
The faults, in turn:

* ``none``: a baseline with no fault.
* ``daphne-kill``: SIGKILL of the first Daphne, restarted on its port after ``--outage`` seconds.
* ``redis-stop``: Redis stopped (everything it held is gone: no persistence) and started again
  on its port after ``--outage`` seconds.
* ``redis-freeze``: Redis frozen with SIGSTOP for ``--freeze`` seconds, then SIGCONT.
* ``postgres-restart``: PostgreSQL stopped (fast shutdown, every connection cut) and started
  again on its port.

The clients behave like the browser's: each seat's socket reconnects by itself (every 0.5 s
while the server refuses); a client that sees a version gap sends ``sync``; every seat pings
every ``--ping`` seconds and sends ``sync`` when a ``pong`` carries a version above its own (a
``pong`` without a version changes nothing); a command unanswered for ``--resend`` seconds is
sent again, identical (same ``id``, same ``version``), as a client whose socket dropped would.

Counted per phase (by the time a command was first sent) and in total:

* sent: distinct commands sent.
* acknowledged: commands the server confirmed: an ``update`` with the command's id reached one of
  the table's seats, or a resend was refused as ``duplicate`` (already applied).
* lost: acknowledged commands absent from the table's log in PostgreSQL.
* duplicated: command ids that appear more than once in a log.
* stuck: seat connections behind their table's version in PostgreSQL at the end of the phase's
  grace period (a client that never learnt of a command that was applied).

Target: 0 lost, 0 duplicated, 0 stuck (``docs/reliability.md``). The exit status is 1 when a
target is missed, so the script can stand in a scheduled job.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import psycopg  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402
from websockets.typing import Origin  # noqa: E402
from ws_load import Player, TableSetup, create_tables  # noqa: E402

from tests import servers  # noqa: E402

FAULTS = ("none", "daphne-kill", "redis-stop", "redis-freeze", "postgres-restart")
RECONNECT_DELAY = 0.5
"""Seconds between two attempts to reopen a dropped socket (the browser waits longer)."""


@dataclass
class Sent:
    """One command as the client first sent it, and what became of it."""

    table: str
    phase: str
    frame: str
    seat: int
    first_sent: float
    last_sent: float
    acknowledged: bool = False


@dataclass
class Phase:
    """What one fault's phase counted."""

    name: str
    stuck: int = 0
    clients: int = 0
    notes: list[str] = field(default_factory=list)


class Bench:
    """What ``ws_load.Player`` reads from its bench (the choice of moves), plus the run's state."""

    def __init__(self, args: argparse.Namespace, daphnes: list[servers.RestartableDaphne]):
        self.args = args
        self.daphnes = daphnes
        self.rng = random.Random(args.seed)
        self.follower_share = 0.2
        self.sending = False
        self.running = True
        self.phase = "none"
        self.sent: dict[str, Sent] = {}
        self.errors: Counter[str] = Counter()
        self.reconnects: Counter[str] = Counter()
        """Socket reconnections by phase."""


class FaultyPlayer(Player):
    """``ws_load.Player``'s choice of moves, with the browser's recovery: reconnect, resync on a
    gap or on a ``pong`` ahead of the client, resend an unanswered command as it was."""

    def __init__(self, bench: Bench, setup: TableSetup, number: int) -> None:
        super().__init__(bench, setup, number)  # type: ignore[arg-type]
        self.rbench = bench
        self.live: list[ClientConnection | None] = [None] * len(setup.tokens)
        self.seat_versions = [-1] * len(setup.tokens)
        self.waiting: str | None = None
        """The id of the command sent and not yet confirmed."""

    # --- connections ---------------------------------------------------------------------

    async def keep_connected(self, seat: int) -> None:
        """Hold the seat's socket open for the whole run, reopening it whenever it drops."""
        bench = self.rbench
        server = bench.daphnes[seat % len(bench.daphnes)]
        token = self.setup.tokens[seat]
        while bench.running:
            try:
                socket = await connect(
                    f"ws://127.0.0.1:{server.port}/ws/t/{self.code}",
                    additional_headers={"X-Seat-Token": token},
                    origin=Origin(server.url),
                    proxy=None,
                    ping_interval=None,
                    compression=None,
                    max_size=2**22,
                    open_timeout=10,
                )
            except (OSError, InvalidHandshake, TimeoutError):
                await asyncio.sleep(RECONNECT_DELAY)
                continue
            self.live[seat] = socket
            try:
                async for raw in socket:
                    await self.handle(seat, json.loads(raw))
            except ConnectionClosed:
                pass
            finally:
                self.live[seat] = None
            if bench.running:
                bench.reconnects[bench.phase] += 1
                await asyncio.sleep(RECONNECT_DELAY)

    async def send(self, seat: int, frame: str) -> bool:
        """Send on the seat's socket if it is open; False if it is not (or just dropped)."""
        socket = self.live[seat]
        if socket is None:
            return False
        try:
            await socket.send(frame)
        except ConnectionClosed:
            return False
        return True

    # --- messages ------------------------------------------------------------------------

    def _seen(self, seat: int, version: int) -> None:
        self.seat_versions[seat] = max(self.seat_versions[seat], version)

    async def handle(self, seat: int, message: dict[str, Any]) -> None:
        """Snapshots, updates, pongs and refusals of one seat's socket."""
        kind = message.get("type")
        if kind == "snapshot":
            self._seen(seat, int(message["version"]))
            if message.get("view") is not None:
                self._take_view(message["view"], int(message["version"]))
        elif kind == "update":
            if int(message["from_version"]) > self.seat_versions[seat]:
                await self.send(seat, '{"type":"sync"}')
            self._seen(seat, int(message["version"]))
            self._take_view(message["view"], int(message["version"]))
            self._confirm(message.get("id"))
        elif kind == "pong":
            version = message.get("version")
            if isinstance(version, int) and version > self.seat_versions[seat]:
                await self.send(seat, '{"type":"sync"}')
        elif kind == "error":
            code = str(message.get("code", "?"))
            self.rbench.errors[code] += 1
            if message.get("id") is not None and message.get("id") == self.waiting:
                if code == "duplicate":
                    self._confirm(self.waiting)
                self.waiting = None
            await self.send(seat, '{"type":"sync"}')

    def _confirm(self, command_id: object) -> None:
        sent = self.rbench.sent.get(command_id) if isinstance(command_id, str) else None
        if sent is not None:
            sent.acknowledged = True
        if command_id == self.waiting:
            self.waiting = None

    # --- play ----------------------------------------------------------------------------

    async def tick(self) -> None:
        """Send the next command, or resend the unanswered one once it has waited long enough."""
        bench = self.rbench
        now = time.monotonic()
        if self.waiting is not None:
            sent = bench.sent[self.waiting]
            if now - sent.last_sent >= bench.args.resend and await self.send(sent.seat, sent.frame):
                sent.last_sent = now
            return
        if self.finished or self.pending is None or not bench.sending:
            return
        seat, command = self.choose()
        self.sequence += 1
        command_id = f"{self.code}-{self.sequence}"
        frame = json.dumps(
            {"type": "command", "version": self.version, "id": command_id, "command": command},
            separators=(",", ":"),
        )
        if await self.send(seat, frame):
            bench.sent[command_id] = Sent(self.code, bench.phase, frame, seat, now, now)
            self.waiting = command_id
        else:
            self.sequence -= 1

    async def ping(self) -> None:
        for seat in range(len(self.live)):
            await self.send(seat, '{"type":"ping"}')


# --- the run ----------------------------------------------------------------------------------


def table_versions(database_url: str) -> dict[str, int]:
    """Every table's version in PostgreSQL."""
    with psycopg.connect(database_url) as db:
        return {
            code: version for code, version in db.execute("SELECT code, version FROM game_table")
        }


def logged_ids(database_url: str) -> Counter[str]:
    """How often each client command id appears in the tables' logs."""
    with psycopg.connect(database_url) as db:
        rows = db.execute("SELECT command_id FROM game_logentry WHERE command_id <> ''")
        return Counter(command_id for (command_id,) in rows)


async def run(
    args: argparse.Namespace,
    database_url: str,
    tables: list[TableSetup],
    faults: dict[str, Any],
) -> int:
    """Play through every phase and print the counts; the exit status (0: every target met)."""
    daphnes: list[servers.RestartableDaphne] = faults["daphnes"]
    bench = Bench(args, daphnes)
    players = [FaultyPlayer(bench, setup, n) for n, setup in enumerate(tables)]
    tasks = [
        asyncio.create_task(player.keep_connected(seat)) for player in players for seat in (0, 1)
    ]
    while any(socket is None for player in players for socket in player.live) or any(
        player.pending is None for player in players
    ):
        await asyncio.sleep(0.1)

    async def play(seconds: float) -> None:
        end = time.monotonic() + seconds
        interval = 1 / args.rate
        next_ping = time.monotonic() + args.ping
        while time.monotonic() < end:
            await asyncio.gather(*(player.tick() for player in players))
            if time.monotonic() >= next_ping:
                next_ping += args.ping
                await asyncio.gather(*(player.ping() for player in players))
            await asyncio.sleep(interval)

    phases: list[Phase] = []
    for name in args.faults:
        phase = Phase(name)
        bench.phase = name
        bench.sending = True
        await play(args.play)
        inject: Callable[[], Awaitable[None]] = faults[name]
        fault = asyncio.create_task(inject())
        while not fault.done():  # play goes on during the fault
            await play(0.5)
        await fault
        await play(args.play)
        bench.sending = False
        await play(args.grace)  # no new commands: resends, pings and resyncs only
        versions = await asyncio.to_thread(table_versions, database_url)
        for player in players:
            for seat, seen in enumerate(player.seat_versions):
                phase.clients += 1
                if seen < versions[player.code]:
                    phase.stuck += 1
                    phase.notes.append(
                        f"{player.code} seat {seat} at {seen}, table at {versions[player.code]}"
                    )
        phases.append(phase)
        print(
            f"  phase {name:<17} done; {phase.stuck} of {phase.clients} clients behind", flush=True
        )

    bench.running = False
    for player in players:
        for socket in player.live:
            if socket is not None:
                await socket.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    logged = await asyncio.to_thread(logged_ids, database_url)
    return report(args, bench, phases, logged)


def report(
    args: argparse.Namespace, bench: Bench, phases: list[Phase], logged: Counter[str]
) -> int:
    """Print the table of counts per phase and in total; 0 if every target is met."""
    print(
        f"\nReliability: {args.tables} tables x 2 seats over 2 Daphne processes, Redis and "
        f"PostgreSQL; {args.rate:g} command(s)/s per table, {args.play:g} s of play before and "
        f"after each fault, {args.grace:g} s grace; channel layer "
        f"{os.environ.get('CHANNEL_LAYER') or 'the default'}"
    )
    print(f"  command line  {' '.join(['.venv/bin/python bench/reliability.py', *sys.argv[1:]])}")
    print(
        f"  {'fault':<17} {'sent':>6} {'acked':>6} {'applied':>8} {'lost':>5} {'dup':>4} "
        f"{'stuck':>6} {'reconnects':>10}"
    )
    totals = Counter[str]()
    for phase in phases:
        mine = [(key, sent) for key, sent in bench.sent.items() if sent.phase == phase.name]
        row = Counter(
            sent=len(mine),
            acked=sum(sent.acknowledged for _, sent in mine),
            applied=sum(logged[key] > 0 for key, _ in mine),
            lost=sum(sent.acknowledged and logged[key] == 0 for key, sent in mine),
            dup=sum(logged[key] > 1 for key, _ in mine),
            stuck=phase.stuck,
            reconnects=bench.reconnects[phase.name],
        )
        totals.update(row)
        print(
            f"  {phase.name:<17} {row['sent']:>6} {row['acked']:>6} {row['applied']:>8} "
            f"{row['lost']:>5} {row['dup']:>4} {row['stuck']:>6} {row['reconnects']:>10}"
        )
        for note in phase.notes[:5]:
            print(f"      behind: {note}")
    print(
        f"  {'total':<17} {totals['sent']:>6} {totals['acked']:>6} {totals['applied']:>8} "
        f"{totals['lost']:>5} {totals['dup']:>4} {totals['stuck']:>6} {totals['reconnects']:>10}"
    )
    errors = ", ".join(f"{code} {n}" for code, n in sorted(bench.errors.items())) or "none"
    print(f"  refusals seen: {errors}")
    met = totals["lost"] == 0 and totals["dup"] == 0 and totals["stuck"] == 0
    print("  targets (0 lost, 0 duplicated, 0 stuck): " + ("met" if met else "MISSED"))
    if args.json:
        print(json.dumps({"phases": [p.name for p in phases], "totals": dict(totals)}))
    return 0 if met else 1


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables played at once")
    parser.add_argument(
        "--rate", type=float, default=1.0, help="commands per second per table while playing"
    )
    parser.add_argument(
        "--play", type=float, default=8.0, help="seconds of play before and after each fault"
    )
    parser.add_argument("--outage", type=float, default=3.0, help="seconds a server stays down")
    parser.add_argument("--freeze", type=float, default=10.0, help="seconds Redis stays frozen")
    parser.add_argument(
        "--grace", type=float, default=15.0, help="seconds to settle before counting stuck"
    )
    parser.add_argument("--ping", type=float, default=5.0, help="seconds between pings")
    parser.add_argument(
        "--resend", type=float, default=5.0, help="seconds before an unanswered command is resent"
    )
    parser.add_argument(
        "--faults",
        nargs="+",
        choices=FAULTS,
        default=list(FAULTS),
        help="the phases to run, in order (default: all)",
    )
    parser.add_argument(
        "--layer",
        choices=("redis", "redis-pubsub"),
        default=None,
        help="the servers' channel layer (CHANNEL_LAYER; default: the settings' default)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--json", action="store_true", help="print a JSON line at the end")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.rate <= 0:
        parser.error("--tables and --rate must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    """Start the servers, play through the faults, stop everything, report."""
    args = parse_args(argv)
    with contextlib.ExitStack() as stack:
        postgres = stack.enter_context(servers.restartable_postgres())
        redis = stack.enter_context(servers.restartable_redis())
        env = servers.production_env(
            DATABASE_URL=servers.create_database(postgres.url, "reliability"),
            REDIS_URL=redis.url,
            **({"CHANNEL_LAYER": args.layer} if args.layer else {}),
        )
        servers.migrate(env)
        os.environ.update(env)
        tables = create_tables(args.tables, 2)
        daphnes = [stack.enter_context(servers.restartable_daphne(env)) for _ in range(2)]
        print(
            f"servers up: PostgreSQL {postgres.url}, Redis {redis.url}, "
            f"Daphne {daphnes[0].url} and {daphnes[1].url}",
            flush=True,
        )

        async def nothing() -> None:
            return None

        async def daphne_kill() -> None:
            daphnes[0].kill()
            await asyncio.sleep(args.outage)
            await asyncio.to_thread(daphnes[0].start)

        async def redis_stop() -> None:
            redis.stop()
            await asyncio.sleep(args.outage)
            await asyncio.to_thread(redis.start)

        async def redis_freeze() -> None:
            redis.freeze()
            await asyncio.sleep(args.freeze)
            redis.thaw()

        async def postgres_restart() -> None:
            await asyncio.to_thread(postgres.restart)

        faults = {
            "daphnes": daphnes,
            "none": nothing,
            "daphne-kill": daphne_kill,
            "redis-stop": redis_stop,
            "redis-freeze": redis_freeze,
            "postgres-restart": postgres_restart,
        }
        return asyncio.run(run(args, env["DATABASE_URL"], tables, faults))


if __name__ == "__main__":
    sys.exit(main())
