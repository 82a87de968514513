"""The deployment of deploy/ and docs/deployment.md, started as configured, for the tests.

Debian's nginx runs the shipped site file (deploy/nginx/messengers.conf, with only the host's
names, ports and paths changed as the file's header says) with a self-signed certificate, in
front of two Daphne processes started with the command line of the shipped systemd unit
(deploy/systemd/messengers@.service), a private PostgreSQL and Redis, and the environment a
production host has (DEBUG off, a generated secret key, ALLOWED_HOSTS holding the public name
only). The release step is deploy/release.sh itself. The `deployment` and `tls_browser` fixtures
(tests/conftest.py) start it per module.

Clients reach it by its public name, HOST_NAME, as on a real host: the certificate and nginx's
server_name are for that name, Chromium resolves it to 127.0.0.1 (--host-resolver-rules) and
`https()` connects to 127.0.0.1 while sending the name (TLS server name and Host header).
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import itertools
import os
import secrets
import shlex
import shutil
import socket
import ssl
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect, sync_playwright

from tests import servers
from tests.browser.test_browser import MESSAGES, TILES
from tests.conftest import BROWSER_TIMEOUT_MS, CHROMIUM_ARGS

DEPLOY = servers.ROOT / "deploy"
SITE = DEPLOY / "nginx" / "messengers.conf"
UNITS = DEPLOY / "systemd"
DAPHNE_UNIT = UNITS / "messengers@.service"
HOUSEKEEPING_UNIT = UNITS / "messengers-housekeeping.service"
RELEASE_SCRIPT = DEPLOY / "release.sh"

HOST_NAME = "play.example.org"
"""The site's public name: the shipped site file's server_name, kept as it is, and the only name
in ALLOWED_HOSTS, as deploy/production.env.example has it."""

FOREIGN_HOST = "scanner.example.net"
"""A name that is not the site's, as a scanner or a stale DNS entry would send."""

APP_DIR = "/srv/messengers/app"
"""Where docs/deployment.md puts the release being served (a link into releases/); the units
name paths under it."""

STATIC_DIR = "/srv/messengers/staticfiles"
"""STATIC_ROOT of docs/deployment.md, shared by the releases; nginx serves /static/ from it."""

TABLES_PER_HOUR = 3
"""A low limit, so that the test can reach it from one address and not from another."""

LOOPBACK_CLIENTS = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
"""Client addresses of the limit test: all of 127.0.0.0/8 is loopback on Linux, so a client
can connect to nginx from any of them, and nginx sees each as a different client."""

_REDIS_DATABASES = itertools.cycle(range(1, 16))
"""Redis databases handed to deployments in turn; 0 stays for the tests that share the server."""


def own_redis_database(redis_url: str) -> str:
    """`redis_url` on a database of its own, emptied: nothing the tests before it left in the
    session's shared Redis (the channel layers' keys) meets this deployment, as on a new host."""
    import redis

    url = redis_url.rsplit("/", 1)[0] + f"/{next(_REDIS_DATABASES)}"
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
    return url


FORM = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Cy", "colour": "blue"}


# --- the shipped files ----------------------------------------------------------------------


def unit_values(path: Path, key: str) -> list[str]:
    """Every value of `key` in the unit file at `path` (systemd's `Key=value` lines)."""
    values = []
    for line in path.read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep and not line.lstrip().startswith(("#", ";")) and name.strip() == key:
            values.append(value.strip())
    return values


def exec_start(path: Path) -> list[str]:
    """The unit's command line, split as systemd splits it (no shell)."""
    (command,) = unit_values(path, "ExecStart")
    return shlex.split(command)


def unit_daphne_argv(port: int, app: Path | None = None) -> list[str]:
    """messengers@PORT.service's command line, run from this checkout's virtualenv, or with the
    unit's own paths under `app` in place of /srv/messengers/app when given."""
    argv = exec_start(DAPHNE_UNIT)
    assert argv[0] == f"{APP_DIR}/.venv/bin/daphne", argv
    daphne = servers.venv_bin("daphne") if app is None else app / ".venv" / "bin" / "daphne"
    return [str(daphne), *(arg.replace("%i", str(port)) for arg in argv[1:])]


def render_site(replacements: dict[str, str]) -> str:
    """The shipped site file with the host's names, ports and paths put in (see its header).

    Every text replaced must occur in the file's directives, so that a change to the file that
    the header does not account for fails here instead of going untested.
    """
    text = SITE.read_text()
    directives = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    for old, new in replacements.items():
        # A commented-out line counts when the replacement uncomments it (a documented step).
        found = old in directives or (old.startswith("# ") and old in text)
        assert found, f"{SITE} no longer contains {old!r}"
        text = text.replace(old, new)
    return text


def ipv6_loopback() -> bool:
    """Whether this host has ::1 (a container may run without IPv6)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


WORKER_CONNECTIONS = 4096
"""nginx's connections per worker as docs/deployment.md (step 8) sets them in nginx.conf: a
proxied websocket takes two (the browser's and the Daphne's)."""
WORKER_OPEN_FILES = 16384
"""worker_rlimit_nofile, as the same step sets it: room for every connection's descriptor."""


def main_conf(prefix: Path, site: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf provides around a site file, with private paths and
    the worker limits that docs/deployment.md (step 8) sets.

    Run as root (CI), the workers drop to www-data as on a Debian host.
    """
    user = "user www-data;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {kind}_temp_path {prefix}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes 1;\n"
        f"worker_rlimit_nofile {WORKER_OPEN_FILES if os.geteuid() == 0 else 1024};\n"
        f"pid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/error.log notice;\n"
        f"events {{ worker_connections {WORKER_CONNECTIONS}; }}\n"
        "http {\n"
        "    include /etc/nginx/mime.types;\n"
        "    default_type application/octet-stream;\n"
        f"    access_log {prefix}/access.log;\n"
        f"{temp}\n"
        f"    include {site};\n"
        "}\n"
    )


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A certificate for HOST_NAME, made as docs/deployment.md shows."""
    cert, key = directory / "fullchain.pem", directory / "privkey.pem"
    openssl = shutil.which("openssl")
    if openssl is None:
        servers.missing("openssl")
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={HOST_NAME}",
            "-addext",
            f"subjectAltName=DNS:{HOST_NAME}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


# --- the deployment -------------------------------------------------------------------------


@dataclass
class Deployment:
    """nginx in front of two Daphnes, and what the tests need to talk to them."""

    https_port: int
    http_port: int
    daphnes: list[servers.RestartableDaphne]
    env: dict[str, str]
    static_root: Path
    nginx_log: Path
    access_log: Path
    """nginx's access log: one line per request, with the status it answered."""
    site: Path | None = None
    """The site file nginx runs (the shipped one with this host's names, ports and paths)."""
    app: Path = servers.ROOT
    """Where the Daphnes run from: this checkout, or the app link of an installation."""

    @property
    def url(self) -> str:
        """The public address, as a browser opens it (HOST_NAME resolves to 127.0.0.1)."""
        return f"https://{HOST_NAME}:{self.https_port}"

    def logs(self) -> list[str]:
        """Each Daphne's output so far (its access log: one line per request and websocket)."""
        return [daphne.log_path.read_text(errors="replace") for daphne in self.daphnes]


class LoopbackHTTPSConnection(http.client.HTTPSConnection):
    """An https connection to `host` (its TLS server name and Host header) made to 127.0.0.1,
    as from a client whose DNS resolves the name there."""

    def __init__(self, host: str, port: int, **options: Any) -> None:
        super().__init__(host, port, **options)
        self._create_connection = self._to_loopback  # type: ignore[method-assign]

    @staticmethod
    def _to_loopback(
        address: tuple[str, int], timeout: float, source: tuple[str, int] | None
    ) -> socket.socket:
        return socket.create_connection(("127.0.0.1", address[1]), timeout, source)


def https(
    deployment: Deployment, source: str = "127.0.0.1", host: str = HOST_NAME
) -> http.client.HTTPSConnection:
    """A connection to nginx's https port from the loopback address `source`, for the name
    `host` (the certificate is self-signed: not verified)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return LoopbackHTTPSConnection(
        host,
        deployment.https_port,
        context=context,
        timeout=30,
        source_address=(source, 0),
    )


def world_readable_tempdir(prefix: str) -> Path:
    """A temporary directory that nginx's workers (www-data when run as root) can read."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    path.chmod(0o755)
    return path


Install = Callable[[Path, dict[str, str]], Path]
"""Puts a version in place and runs its release step, given the deployment's directory and the
processes' environment; returns the directory the processes run from (their app link)."""


def release_this_checkout(tmp: Path, env: dict[str, str]) -> Path:
    """The release step of this checkout (deploy/release.sh), which the processes run from."""
    del tmp
    release = subprocess.run(
        [str(RELEASE_SCRIPT)],
        env=servers.child_env(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert release.returncode == 0, release.stdout + release.stderr
    return servers.ROOT


@contextlib.contextmanager
def running_deployment(
    postgres_url: str,
    redis_url: str,
    install: Install = release_this_checkout,
    settings: Mapping[str, str | None] | None = None,
) -> Iterator[Deployment]:
    """The whole deployment, set up as docs/deployment.md does it, on private ports.

    `install` puts the code in place (this checkout and its release step unless another is
    given, such as an installation by deploy/upgrade.sh). `settings` replaces the tests' own
    settings below (None removes one, leaving its default), as a benchmark does to run the
    deployment with the limits and shuffled games of production.
    """
    servers.nginx_binary()  # before anything is set up: skip or fail at once without nginx
    tmp = world_readable_tempdir("messengers-deploy-")
    try:
        static_root = tmp / "staticfiles"
        https_port, http_port = servers.free_port(), servers.free_port()
        # deploy/production.env.example, with this host's secret, names, servers and paths.
        host = {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": servers.create_database(postgres_url, "deploy"),
            "REDIS_URL": own_redis_database(redis_url),
            "ALLOWED_HOSTS": HOST_NAME,
            "CSRF_TRUSTED_ORIGINS": f"https://{HOST_NAME}:{https_port}",
            "STATIC_ROOT": str(static_root),
            "TABLES_PER_HOUR": str(TABLES_PER_HOUR),
            # The game of tests/browser/test_browser.py, so that its plan can be played here.
            "MESSENGERS_FIXED_TILES": ",".join(TILES),
            "MESSENGERS_FIXED_MESSAGES": ",".join(str(m) for m in MESSAGES),
        }
        for name, value in (settings or {}).items():
            if value is None:
                host.pop(name, None)
            else:
                host[name] = value
        env = servers.project_env(**{**servers.production_example(), **host})
        app = install(tmp, env)
        assert (static_root / "game" / "table" / "table.js").is_file()
        static_root.chmod(0o755)

        cert, key = self_signed_certificate(tmp)
        argv = functools.partial(unit_daphne_argv, app=None if app == servers.ROOT else app)
        with (
            servers.restartable_daphne(env, argv, app) as first,
            servers.restartable_daphne(env, argv, app) as second,
        ):
            replacements = {
                "/etc/letsencrypt/live/play.example.org/fullchain.pem": str(cert),
                "/etc/letsencrypt/live/play.example.org/privkey.pem": str(key),
                "listen 80;": f"listen 127.0.0.1:{http_port};",
                "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
                "listen 80 default_server;": f"listen 127.0.0.1:{http_port} default_server;",
                "listen 443 ssl http2 default_server;": (
                    f"listen 127.0.0.1:{https_port} ssl http2 default_server;"
                ),
                "server 127.0.0.1:8001 ": f"server 127.0.0.1:{first.port} ",
                # The second process, as docs/deployment.md's step 11 adds it.
                "# server 127.0.0.1:8002 ": f"server 127.0.0.1:{second.port} ",
                f"{STATIC_DIR}/": f"{static_root}/",
            }
            has_ipv6 = ipv6_loopback()
            for public, port, options in ((80, http_port, ""), (443, https_port, " ssl http2")):
                for default in ("", " default_server"):
                    shipped = f"listen [::]:{public}{options}{default};"
                    private = f"listen [::1]:{port}{options}{default};"
                    replacements[shipped] = private if has_ipv6 else ""
            site = tmp / "messengers.conf"
            site.write_text(render_site(replacements))
            conf = tmp / "nginx.conf"
            conf.write_text(main_conf(tmp, site))
            with servers.running_nginx(conf, tmp, [https_port, http_port]) as nginx_log:
                yield Deployment(
                    https_port,
                    http_port,
                    [first, second],
                    env,
                    static_root,
                    nginx_log,
                    tmp / "access.log",
                    site,
                    app,
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def tls_chromium(chromium_executable: Path) -> Iterator[Browser]:
    """Chromium as the conftest's `browser`, trusting the test's self-signed certificate."""
    expect.set_options(timeout=BROWSER_TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(chromium_executable),
            headless=True,
            args=[
                *CHROMIUM_ARGS,
                "--ignore-certificate-errors",
                f"--host-resolver-rules=MAP {HOST_NAME} 127.0.0.1",
            ],
        )
        try:
            yield chromium
        finally:
            chromium.close()
