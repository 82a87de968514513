"""`make run`: the server on this machine, or for a game night on the local network.

On a loopback address (the default) it is the development server: DEBUG on, static files from
the apps' folders, no configuration. On any other address (`make run HOST=0.0.0.0`) other
machines can reach it, and a debug page would show them the settings and the code: so it runs
with DEBUG off, as in production, but over plain HTTP, which is all a home network has. A secure
cookie is dropped by a browser over plain HTTP, and with it the player's seat, so the HTTPS
settings are off; the secret key is generated once into a git-ignored file that only its owner
may read; the static files are collected first; the hosts allowed are this machine's names and
addresses, which it prints for the phones to open.

Migrations run first in both cases; then the process becomes Daphne (exec), so a signal meant
for the server reaches it.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from messengers.environment import FALSE_WORDS

ROOT = Path(__file__).resolve().parent.parent

PLAIN_HTTP = {
    "SECURE_SSL_REDIRECT": "0",
    "SESSION_COOKIE_SECURE": "0",
    "CSRF_COOKIE_SECURE": "0",
    "SECURE_HSTS_SECONDS": "0",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "0",
    "SECURE_HSTS_PRELOAD": "0",
    "TRUST_X_FORWARDED_PROTO": "0",
}
"""DEBUG off over plain HTTP: no redirect to HTTPS, cookies a browser keeps over HTTP, no HSTS,
and no proxy to trust (the tests' and benchmarks' servers use the same; tests/servers.py)."""

SECRET_KEY_FILE = ROOT / ".secret_key"
"""Where a game night's secret key is kept between runs (git-ignored), unless SECRET_KEY_FILE or
SECRET_KEY says otherwise: a new key every run would drop every seat's cookie."""

DAPHNE_OPTIONS = ("--websocket_connect_timeout", "30")
"""30 s, not Daphne's 5 s, for a websocket's opening handshake: after a restart every browser
reconnects at once, and on two cores the last ones are accepted seconds later."""

LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach a server bound to `host`."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses, loopback excluded (the ones a phone on the network uses)."""
    found: list[str] = []
    try:
        import fcntl
        import struct

        siocgifaddr = 0x8915  # Linux: the IPv4 address of a named interface
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for _index, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    request = struct.pack("256s", name.encode()[:15])
                    answer = fcntl.ioctl(sock.fileno(), siocgifaddr, request)
                    found.append(socket.inet_ntoa(answer[20:24]))
    except (ImportError, AttributeError, OSError):
        pass
    if not found:
        with contextlib.suppress(OSError):
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            found = [str(info[4][0]) for info in infos]
    return sorted({address for address in found if not is_loopback(address)})


def lan_hosts(host: str) -> tuple[list[str], list[str]]:
    """(ALLOWED_HOSTS, addresses to print) for a server bound to the non-loopback `host`."""
    if host in {"0.0.0.0", "::", "[::]"}:
        addresses = interface_addresses()
        name = socket.gethostname()
        names = [name, f"{name}.local"] if name and name != "localhost" else []
    else:
        addresses = [host.strip("[]")]
        names = []
    bracketed = [f"[{a}]" if ":" in a else a for a in addresses]
    return sorted({*bracketed, *names, *LOOPBACK_HOSTS}), bracketed or names


def ensure_secret_key_file(path: Path) -> None:
    """Create `path` with a new random key, readable by its owner only, unless it exists."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(secrets.token_urlsafe(50))


def lan_env(host: str, environ: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The environment of a game-night server on `host`, and the addresses to print.

    DEBUG is off whatever the environment says; the other values only fill what is unset.
    """
    allowed, shown = lan_hosts(host)
    env = {**PLAIN_HTTP, "ALLOWED_HOSTS": ",".join(allowed), **environ, "DEBUG": "0"}
    if not environ.get("SECRET_KEY"):
        key_file = Path(environ.get("SECRET_KEY_FILE") or SECRET_KEY_FILE)
        ensure_secret_key_file(key_file)
        env["SECRET_KEY_FILE"] = str(key_file)
    return env, shown


def manage(env: Mapping[str, str], *args: str) -> None:
    """Run a manage.py command, stopping here (with its message) when it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=dict(env), check=False
    )
    if result.returncode != 0:
        raise SystemExit(result.returncode)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", default="8000")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    shown: list[str] = []
    if not is_loopback(args.host):
        env, shown = lan_env(args.host, env)
    manage(env, "migrate", "--noinput")
    if env.get("DEBUG", "").strip().lower() in FALSE_WORDS:
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    if shown:
        print("Game night on the local network (DEBUG off, plain HTTP). Open on the phones:")
        for address in shown:
            print(f"  http://{address}:{args.port}/")
    sys.stdout.flush()
    daphne = Path(sys.executable).parent / "daphne"
    command = [str(daphne), "-b", args.host, "-p", str(args.port), *DAPHNE_OPTIONS]
    os.chdir(ROOT)
    os.execve(daphne, [*command, "messengers.asgi:application"], env)


if __name__ == "__main__":
    main()
