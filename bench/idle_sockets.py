"""Memory of one idle table websocket in a Daphne process: what ``WS_MAX_PER_ADDRESS`` costs.

Starts a private Daphne (on SQLite with the in-memory channel layer, or with ``--redis`` on a
private Redis with the pub/sub layer as in production; ``tests/servers.py``), opens ``--warm-up``
sockets to one table and reads the server's resident memory, then opens ``--sockets`` more, each
answered with its snapshot and one ``pong``, and reads it again. All sockets come from one
address, as a school behind one router would. Prints the memory per socket in KiB.

    .venv/bin/python bench/idle_sockets.py --sockets 1000 [--redis]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402


def resident_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


async def open_idle(base: str, code: str, token: str | None) -> ClientConnection:
    socket = await connect(
        f"ws://{base.removeprefix('http://')}/ws/t/{code}",
        additional_headers={"X-Seat-Token": token} if token else None,
        origin=Origin(base),
        proxy=None,
        open_timeout=60,
        compression=None,
    )
    while json.loads(await socket.recv())["type"] != "snapshot":
        pass
    await socket.send('{"type":"ping"}')
    while json.loads(await socket.recv())["type"] != "pong":
        pass
    return socket


async def measure(base: str, pid: int, code: str, warm_up: int, count: int) -> float:
    sockets: list[ClientConnection] = []
    try:
        for _ in range(warm_up):
            sockets.append(await open_idle(base, code, None))
        await asyncio.sleep(2)
        before = resident_bytes(pid)
        for start in range(0, count, 50):
            batch = min(50, count - start)
            sockets += await asyncio.gather(*(open_idle(base, code, None) for _ in range(batch)))
        await asyncio.sleep(2)
        after = resident_bytes(pid)
    finally:
        for socket in sockets:
            with contextlib.suppress(Exception):
                await socket.close()
    return (after - before) / count / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--warm-up", type=int, default=100)
    parser.add_argument("--redis", action="store_true", help="a private Redis, pub/sub layer")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        extra = {
            "WS_MAX_PER_ADDRESS": str(args.sockets + args.warm_up + 10),
            "WS_CONNECT_BURST": str(args.sockets + args.warm_up + 10),
        }
        if args.redis:
            extra["REDIS_URL"] = stack.enter_context(servers.private_redis())
        env = servers.project_env(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", **extra)
        servers.migrate(env)
        (table,) = servers.run_script(env, "tests.redis_tables_script", "1")
        daphne = stack.enter_context(servers.restartable_daphne(env))
        per_socket = asyncio.run(
            measure(daphne.url, daphne.pid, table["code"], args.warm_up, args.sockets)
        )
    layer = "Redis pub/sub" if args.redis else "in-memory"
    print(f"{args.sockets} idle sockets ({layer} layer): {per_socket:.1f} KiB per socket")


if __name__ == "__main__":
    main()
