"""Private PostgreSQL, Redis and Daphne processes for the tests that need real servers.

Each server runs from a temporary directory on a free loopback port and is stopped and removed
afterwards, so the tests never touch (or depend on) services the machine may already run on the
standard ports, and they behave the same on a fresh machine where none run at all.

When a binary is missing, `missing()` skips the test on a developer's machine but fails it where
REQUIRE_SERVICES is set (CI sets it), so CI cannot pass by silently skipping the real-server tests.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import glob
import http.client
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
"""The project directory: Daphne and manage.py run from here, as `make run` does."""

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which `make system-deps` installs for the browser tests."""

POSTGRES_BIN_GLOB = "/usr/lib/postgresql/*/bin"
"""Debian keeps the server binaries off PATH, one directory per major version."""

POSTGRES_SUPERUSER = "postgres"
"""The superuser initdb creates; the same name whoever runs the tests, so URLs look alike."""

STARTUP_TIMEOUT = 60.0
"""Seconds a server may take to answer; generous because CI machines have only 2 cores."""

STOP_TIMEOUT = 20.0
"""Seconds a server may take to stop after being asked before it is killed."""


def services_required() -> bool:
    """Whether a missing server must fail the run (REQUIRE_SERVICES set, and not to 0)."""
    value = os.environ.get("REQUIRE_SERVICES", "").strip()
    return value not in {"", "0"}


def missing(what: str) -> NoReturn:
    """Skip the test because `what` is not available, or fail it when services are required.

    A skip keeps the suite usable on a machine without the servers; CI sets REQUIRE_SERVICES so
    that a broken install step shows up as a failure instead of a quietly shorter run.
    """
    reason = f"{what} is not available"
    if services_required():
        pytest.fail(f"{reason} (REQUIRE_SERVICES is set; `make system-deps` installs it)")
    pytest.skip(reason)


def chromium_path() -> Path:
    """Debian's Chromium for the browser tests (Playwright's own download is not available)."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        missing(f"Chromium ({CHROMIUM})")
    return CHROMIUM


def free_port() -> int:
    """A loopback port nothing listens on right now.

    Another process may take it before the server binds it; the start-up helpers retry with a
    new port when that happens.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _tail(path: Path, limit: int = 4000) -> str:
    """The end of a server's log, to explain why it did not start."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return text[-limit:]


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Ask a server to stop with `sig`, then kill it if it has not stopped in time."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(sig)
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT)


def _pid_of(process: subprocess.Popen[bytes] | None) -> int:
    """The process id of a server that is running; an error if it is stopped."""
    if process is None or process.poll() is not None:
        raise RuntimeError("the server is not running")
    return process.pid


# --- PostgreSQL -------------------------------------------------------------------------------


def postgres_bindir() -> Path:
    """The newest Debian PostgreSQL server binaries (initdb and postgres), or `missing()`."""

    def major(path: str) -> int:
        match = re.search(r"/postgresql/(\d+)/", path + "/")
        return int(match.group(1)) if match else 0

    for bindir in sorted(glob.glob(POSTGRES_BIN_GLOB), key=major, reverse=True):
        if all(os.access(os.path.join(bindir, name), os.X_OK) for name in ("initdb", "postgres")):
            return Path(bindir)
    initdb = shutil.which("initdb")
    if initdb and shutil.which("postgres"):
        return Path(initdb).parent
    missing(f"the PostgreSQL server ({POSTGRES_BIN_GLOB}/initdb)")


def _postgres_account() -> pwd.struct_passwd | None:
    """The account to run PostgreSQL as: the postgres system user when we are root.

    initdb and postgres refuse to run as root, and CI runs as root.
    """
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        missing("the 'postgres' system user (PostgreSQL refuses to run as root)")


@dataclass(frozen=True)
class _RunAs:
    """Whom the PostgreSQL binaries run as; all None means the current user."""

    uid: int | None = None
    gid: int | None = None
    groups: list[int] | None = None


@contextlib.contextmanager
def private_postgres() -> Iterator[str]:
    """Run a throwaway PostgreSQL cluster; yield `postgres://postgres@127.0.0.1:PORT/postgres`.

    The cluster lives in a temporary directory (data and unix socket), trusts local connections
    and runs without fsync: nothing in it has to survive the test session.
    """
    with restartable_postgres() as server:
        yield server.url


@dataclass
class RestartablePostgres:
    """A private PostgreSQL cluster that can be restarted on the same port (fault injection)."""

    bindir: Path
    data: Path
    tmp: Path
    log_path: Path
    env: dict[str, str]
    as_user: _RunAs
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        """`postgres://postgres@127.0.0.1:PORT/postgres`, the same across restarts."""
        return f"postgres://{POSTGRES_SUPERUSER}@127.0.0.1:{self.port}/postgres"

    @property
    def pid(self) -> int:
        """The running server's process id (the benchmarks read its CPU time)."""
        return _pid_of(self.process)

    def stop(self) -> None:
        """Fast shutdown (SIGINT): open client connections are cut, as in a real restart."""
        _stop(self.process, signal.SIGINT)

    def start(self) -> None:
        """Start the cluster again on its port (retrying while the old socket is released)."""
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            try:
                self.process, _ = _start_postgres(
                    self.bindir,
                    self.data,
                    self.tmp,
                    self.log_path,
                    self.env,
                    self.as_user,
                    port=self.port,
                )
                return
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def restart(self) -> None:
        """Stop, then start on the same port."""
        self.stop()
        self.start()


@contextlib.contextmanager
def restartable_postgres() -> Iterator[RestartablePostgres]:
    """Like `private_postgres`, but yield the server itself, which `restart()` can restart."""
    bindir = postgres_bindir()
    account = _postgres_account()
    as_user = _RunAs() if account is None else _RunAs(account.pw_uid, account.pw_gid, [])
    # The postgres user must be able to reach the directory, so as root keep it under /tmp
    # whatever TMPDIR says (a root-only TMPDIR would be unreachable).
    parent = "/tmp" if account is not None and os.path.isdir("/tmp") else None
    tmp = Path(tempfile.mkdtemp(prefix="messengers-pg-", dir=parent))
    try:
        if account is not None:
            os.chown(tmp, account.pw_uid, account.pw_gid)
        data = tmp / "data"
        log_path = tmp / "postgres.log"
        pg_env = {**os.environ, "LC_ALL": "C", "TZ": "UTC"}
        init = subprocess.run(
            [
                str(bindir / "initdb"),
                "--pgdata",
                str(data),
                "--username",
                POSTGRES_SUPERUSER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--no-locale",
                "--no-sync",
            ],
            cwd=tmp,
            env=pg_env,
            capture_output=True,
            text=True,
            check=False,
            user=as_user.uid,
            group=as_user.gid,
            extra_groups=as_user.groups,
        )
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{init.stdout}\n{init.stderr}")
        process, port = _start_postgres(bindir, data, tmp, log_path, pg_env, as_user)
        server = RestartablePostgres(bindir, data, tmp, log_path, pg_env, as_user, process, port)
        try:
            yield server
        finally:
            # SIGINT is PostgreSQL's fast shutdown: it disconnects clients instead of waiting.
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _start_postgres(
    bindir: Path,
    data: Path,
    tmp: Path,
    log_path: Path,
    env: Mapping[str, str],
    as_user: _RunAs,
    port: int | None = None,
) -> tuple[subprocess.Popen[bytes], int]:
    """Start `postgres` on `port` (a free one if None) and wait until it accepts connections.

    Runs the server binary directly (not pg_ctl) so that this process owns it and can stop it
    even if the test run is interrupted halfway.
    """
    fixed = port
    last_log = ""
    for _attempt in range(3):
        port = fixed if fixed is not None else free_port()
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [
                    str(bindir / "postgres"),
                    "-D",
                    str(data),
                    "-p",
                    str(port),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    f"unix_socket_directories={tmp}",
                    # Durability buys nothing for a cluster deleted after the run.
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    # Room for concurrency tests plus a few Daphne processes.
                    "-c",
                    "max_connections=200",
                    "-c",
                    "shared_buffers=64MB",
                    "-c",
                    "log_min_messages=warning",
                ],
                cwd=tmp,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                user=as_user.uid,
                group=as_user.gid,
                extra_groups=as_user.groups,
            )
        if _wait_for_postgres(process, port):
            return process, port
        _stop(process, signal.SIGINT)
        last_log = _tail(log_path)
        if "could not bind" not in last_log and "already in use" not in last_log:
            break
    raise RuntimeError(f"PostgreSQL did not start:\n{last_log}")


def _wait_for_postgres(process: subprocess.Popen[bytes], port: int) -> bool:
    """Poll until the server accepts a real connection (the port opens before it is ready)."""
    import psycopg

    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with psycopg.connect(
                host="127.0.0.1",
                port=port,
                user=POSTGRES_SUPERUSER,
                dbname="postgres",
                connect_timeout=2,
            ):
                return True
        except psycopg.OperationalError:
            time.sleep(0.1)
    return False


def create_database(server_url: str, prefix: str = "test") -> str:
    """Create an empty database on the server at `server_url` and return its URL.

    The session shares one PostgreSQL server; a database per test keeps their tables apart.
    """
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path=f"/{name}"))


# --- Redis ------------------------------------------------------------------------------------


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """Run a throwaway redis-server without persistence; yield `redis://127.0.0.1:PORT/0`."""
    with restartable_redis() as server:
        yield server.url


class RestartableRedis:
    """A private redis-server that can be stopped, started again on its port, frozen and thawed.

    Fault injection for the reliability suite: `stop()` loses every message and group it held
    (no persistence), as a crashed Redis would; `freeze()` (SIGSTOP) keeps connections open but
    unanswered, as a Redis stalled by its host would.
    """

    def __init__(self, binary: str, tmp: Path) -> None:
        self.binary = binary
        self.tmp = tmp
        self.log_path = tmp / "redis.log"
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """`redis://127.0.0.1:PORT/0`, the same across restarts."""
        if self.port is None:
            raise RuntimeError("the server has not been started")
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        """The running server's process id (the benchmarks read its CPU time)."""
        return _pid_of(self.process)

    def _spawn(self, port: int) -> bool:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.tmp),
                    "--daemonize",
                    "no",
                ],
                cwd=self.tmp,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        if _wait_for_redis(self.process, port):
            return True
        _stop(self.process)
        self.process = None
        return False

    def start(self) -> None:
        """Start on a free port the first time, on the same port afterwards."""
        if self.port is None:
            for _attempt in range(3):
                port = free_port()
                if self._spawn(port):
                    self.port = port
                    return
                if "in use" not in _tail(self.log_path):
                    break
            raise RuntimeError(f"redis-server did not start:\n{_tail(self.log_path)}")
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not self._spawn(self.port):
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not restart:\n{_tail(self.log_path)}")
            time.sleep(0.5)

    def stop(self) -> None:
        """Stop the server (thawing it first if frozen, so that it can act on the signal)."""
        if self.process is not None:
            self.thaw()
            _stop(self.process)
            self.process = None

    def freeze(self) -> None:
        """SIGSTOP: the server keeps its sockets but answers nothing until `thaw()`."""
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT after `freeze()`; harmless otherwise."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)


@contextlib.contextmanager
def restartable_redis() -> Iterator[RestartableRedis]:
    """Like `private_redis`, but yield the server itself for stop/start/freeze/thaw."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing("redis-server")
    tmp = Path(tempfile.mkdtemp(prefix="messengers-redis-"))
    server = RestartableRedis(binary, tmp)
    try:
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _wait_for_redis(process: subprocess.Popen[bytes], port: int) -> bool:
    """Poll until the server answers PING (it may load or refuse connections at first)."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(64).startswith(b"+PONG"):
                    return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


# --- Django and Daphne ------------------------------------------------------------------------

DAPHNE_OPTIONS = ("--websocket_connect_timeout", "30")
"""As `make run` starts Daphne: 30 s, not Daphne's 5 s, for a websocket's opening handshake. When
hundreds of sockets connect at once (every browser after a restart) the last ones are accepted
seconds later on two cores; a 5 s limit drops them with no answer at all."""


def project_env(**extra: str) -> dict[str, str]:
    """Environment for the project's own processes: settings module, debug, loopback hosts.

    Values in `extra` (DATABASE_URL, REDIS_URL, ...) override these defaults.
    """
    return {
        "DJANGO_SETTINGS_MODULE": "messengers.settings",
        "DEBUG": "1",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


def production_env(**extra: str) -> dict[str, str]:
    """Environment for a server with DEBUG off, as in production but over plain HTTP.

    A random secret key, the HTTPS settings off as for a game night on the local network
    (messengers/serve.py), and STATIC_ROOT pointing at files `collectstatic` has hashed once for
    the whole run. Values in `extra` override these.
    """
    from messengers.serve import PLAIN_HTTP

    production = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "STATIC_ROOT": str(collected_static()),
        **PLAIN_HTTP,
    }
    return project_env(**{**production, **extra})


PRODUCTION_EXAMPLE = ROOT / "deploy" / "production.env.example"


def production_example() -> dict[str, str]:
    """The KEY=value lines of deploy/production.env.example (comments and blank lines skipped):
    the environment a production host starts from."""
    values: dict[str, str] = {}
    for line in PRODUCTION_EXAMPLE.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, separator, value = line.partition("=")
        if not separator:
            raise ValueError(f"{PRODUCTION_EXAMPLE.name}: not a KEY=value line: {line!r}")
        values[key] = value
    return values


@functools.cache
def collected_static() -> Path:
    """A directory `manage.py collectstatic` has filled (hashed names and manifest), once per run.

    Removed when the process exits.
    """
    root = Path(tempfile.mkdtemp(prefix="messengers-static-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=child_env(project_env(STATIC_ROOT=str(root))),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"collectstatic failed:\n{result.stdout}\n{result.stderr}")
    return root


def child_env(env: Mapping[str, str]) -> dict[str, str]:
    """The test run's environment with `env` on top.

    DATABASE_URL and REDIS_URL are dropped from the inherited part so that a server never
    silently uses whatever the calling shell pointed at.
    """
    inherited = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "PYTEST_CURRENT_TEST"}
    }
    return {**inherited, **env}


def script_report(postgres_url: str, module: str, **settings: str) -> dict[str, Any]:
    """Run ``python -m tests.<module>`` against a new database on the PostgreSQL server at
    ``postgres_url`` (with ``settings`` added to its environment) and return the JSON report it
    prints last; fail the test with the script's output when it fails."""
    env = project_env(DATABASE_URL=create_database(postgres_url, module), **settings)
    result = subprocess.run(
        [sys.executable, "-m", f"tests.{module}"],
        cwd=ROOT,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, f"{module} failed:\n{result.stdout}\n{result.stderr}"
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return report


def venv_bin(name: str) -> Path:
    """A script installed next to the running interpreter (the project's .venv)."""
    candidate = Path(sys.executable).parent / name
    return candidate if candidate.exists() else ROOT / ".venv" / "bin" / name


def migrate(env: Mapping[str, str]) -> None:
    """Apply the migrations to the database that `env` names (DATABASE_URL)."""
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"migrate failed:\n{result.stdout}\n{result.stderr}")


def run_script(env: Mapping[str, str], module: str, *args: str, timeout: float = 300) -> Any:
    """Run `python -m module args` against the database that `env` names and return the JSON
    value its last line of output prints (tests/lobby_script.py, tests/redis_tables_script.py)."""
    result = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{module} failed:\n{result.stdout}\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def sqlite_daphne(
    folder: Path, *, tiles: Sequence[str] = (), messages: Sequence[int] = ()
) -> Iterator[str]:
    """A Daphne on a new, migrated SQLite database in ``folder``, with the tile bag and the
    message stack fixed when given (so that a browser test knows what comes); yields its URL."""
    fixed: dict[str, str] = {}
    if tiles:
        fixed["MESSENGERS_FIXED_TILES"] = ",".join(tiles)
    if messages:
        fixed["MESSENGERS_FIXED_MESSAGES"] = ",".join(str(m) for m in messages)
    env = project_env(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", **fixed)
    migrate(env)
    with daphne_server(env) as url:
        yield url


@contextlib.contextmanager
def daphne_server(env: Mapping[str, str], options: Sequence[str] = ()) -> Iterator[str]:
    """Run the project under Daphne with `env` added; yield its base URL `http://127.0.0.1:PORT`.

    Started exactly as `make run` starts it, so the tests exercise the real ASGI stack (HTTP,
    websockets, channel layer) in its own process; `options` adds Daphne options (such as
    `--proxy-headers`, as behind a reverse proxy).
    """
    tmp = Path(tempfile.mkdtemp(prefix="messengers-daphne-"))
    log_path = tmp / "daphne.log"
    try:
        last_log = ""
        for _attempt in range(3):
            port = free_port()
            with open(log_path, "wb") as log:
                process = subprocess.Popen(
                    daphne_argv(port, options),
                    cwd=ROOT,
                    env=child_env(env),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            if _wait_for_http(process, port):
                break
            _stop(process)
            last_log = _tail(log_path)
            if "in use" not in last_log:
                raise RuntimeError(f"Daphne did not start:\n{last_log}")
        else:
            raise RuntimeError(f"Daphne did not start:\n{last_log}")
        try:
            yield f"http://127.0.0.1:{port}"
        except BaseException:
            # Whatever the server logged explains most failures seen by the client.
            print(f"--- Daphne log (port {port}) ---\n{_tail(log_path)}", file=sys.stderr)
            raise
        finally:
            _stop(process)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _wait_for_http(process: subprocess.Popen[bytes], port: int) -> bool:
    """Poll until `GET /` gets any answer: then Django has loaded and the port is served."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", "/")
            connection.getresponse().read()
            return True
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
        finally:
            connection.close()
    return False


class RestartableDaphne:
    """A Daphne process that can be stopped and started again on the same port.

    `daphne_server` picks a new port on every start; a restart test needs the same address, so
    that pages already open in a browser find the server again by themselves, as they would
    after a real deployment restarts the process. The log accumulates across restarts.
    """

    def __init__(
        self,
        env: Mapping[str, str],
        tmp: Path,
        argv: Callable[[int], list[str]] | None = None,
        cwd: Path = ROOT,
    ) -> None:
        self.env = dict(env)
        self.log_path = tmp / "daphne.log"
        self.argv = argv or daphne_argv
        self.cwd = cwd
        """The working directory: this checkout, or a deployment's app link (a restart started
        after the link was switched runs the new release, as under systemd)."""
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base URL `http://127.0.0.1:PORT`; the same before and after a restart."""
        if self.port is None:
            raise RuntimeError("the server has not been started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The running server's process id (the benchmarks read its CPU time and memory)."""
        return _pid_of(self.process)

    def _spawn(self, port: int) -> bool:
        """Start Daphne on `port` and wait until it answers; False if it did not come up."""
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.argv(port),
                cwd=self.cwd,
                env=child_env(self.env),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        if _wait_for_http(self.process, port):
            return True
        _stop(self.process)
        self.process = None
        return False

    def start(self) -> None:
        """Start the server: on a free port the first time, on the same port afterwards.

        A restart may find the port briefly held (a socket still closing); it then retries on
        the same port for a while instead of moving, since the open pages only know this one.
        """
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError("the server is already running")
        if self.port is None:
            for _attempt in range(3):
                port = free_port()
                if self._spawn(port):
                    self.port = port
                    return
                if "in use" not in _tail(self.log_path):
                    break
            raise RuntimeError(f"Daphne did not start:\n{_tail(self.log_path)}")
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if self._spawn(self.port):
                return
            if "in use" not in _tail(self.log_path) or time.monotonic() > deadline:
                raise RuntimeError(f"Daphne did not restart:\n{_tail(self.log_path)}")
            time.sleep(0.5)

    def stop(self) -> None:
        """Stop the server as a deployment would (SIGTERM); the port stays reserved for it."""
        if self.process is not None:
            _stop(self.process)
            self.process = None

    def kill(self) -> None:
        """SIGKILL, as a crash or the kernel's out-of-memory killer would: nothing is closed."""
        if self.process is not None:
            _stop(self.process, signal.SIGKILL)
            self.process = None


def daphne_argv(port: int, options: Sequence[str] = ()) -> list[str]:
    """Daphne's command line as `make run` starts it, on 127.0.0.1:`port`, plus `options`."""
    return [
        str(venv_bin("daphne")),
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        *DAPHNE_OPTIONS,
        *options,
        "messengers.asgi:application",
    ]


@contextlib.contextmanager
def restartable_daphne(
    env: Mapping[str, str], argv: Callable[[int], list[str]] | None = None, cwd: Path = ROOT
) -> Iterator[RestartableDaphne]:
    """Run the project under Daphne like `daphne_server`, but with `stop()` and `start()`.

    `argv(port)` gives the command line (`daphne_argv` unless another is given, such as a
    deployment's), run in `cwd`. The server is running when the block starts and is stopped (and its
    directory removed) when it ends, whatever state a test left it in.
    """
    tmp = Path(tempfile.mkdtemp(prefix="messengers-daphne-"))
    server = RestartableDaphne(env, tmp, argv, cwd)
    try:
        server.start()
        try:
            yield server
        except BaseException:
            print(
                f"--- Daphne log (port {server.port}) ---\n{_tail(server.log_path)}",
                file=sys.stderr,
            )
            raise
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --- nginx ------------------------------------------------------------------------------------

NGINX = Path("/usr/sbin/nginx")
"""Debian's nginx, which `make system-deps` installs for the deployment test."""


def nginx_binary() -> Path:
    """Debian's nginx, or `missing()`."""
    if NGINX.is_file() and os.access(NGINX, os.X_OK):
        return NGINX
    found = shutil.which("nginx")
    if found is None:
        missing(f"nginx ({NGINX})")
    return Path(found)


@contextlib.contextmanager
def running_nginx(conf: Path, prefix: Path, ports: list[int]) -> Iterator[Path]:
    """Run nginx in the foreground from `conf`, its relative paths under `prefix`; yield its log.

    The configuration is checked first (`nginx -t`), so a mistake in it fails with nginx's own
    message. The block starts once every port in `ports` accepts connections.
    """
    binary = nginx_binary()
    base = [str(binary), "-p", f"{prefix}/", "-c", str(conf)]
    check = subprocess.run(
        [*base, "-t"], capture_output=True, text=True, timeout=STARTUP_TIMEOUT, check=False
    )
    if check.returncode != 0:
        raise RuntimeError(f"nginx -t refused {conf}:\n{check.stdout}{check.stderr}")
    log_path = prefix / "nginx.out"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [*base, "-g", "daemon off;"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        if not all(_wait_for_port(process, port) for port in ports):
            raise RuntimeError(f"nginx did not start:\n{_tail(log_path)}")
        yield log_path
    finally:
        # SIGTERM is nginx's fast stop (SIGQUIT would wait for open websockets).
        _stop(process, signal.SIGTERM)


def _wait_for_port(process: subprocess.Popen[bytes], port: int) -> bool:
    """Poll until `port` on 127.0.0.1 accepts a TCP connection (False if `process` exits)."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return True
        except OSError:
            time.sleep(0.05)
    return False
