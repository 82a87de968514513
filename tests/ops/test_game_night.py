"""`make run HOST=0.0.0.0`: a game night on the local network (messengers/serve.py).

Other machines reach this server, so it must never show them a debug page, even when the shell
that started it says DEBUG=1; yet it works with no configuration and over plain HTTP, where a
browser would drop a Secure cookie and with it the player's seat. The test starts the same module
`make run` starts, bound to every address, and speaks to it only through the loopback address
with the Host header a phone would send.
"""

from __future__ import annotations

import http.client
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest

from messengers.serve import is_loopback
from tests import servers

pytestmark = pytest.mark.services


@dataclass
class GameNight:
    """The running game-night server: its port, the addresses it printed, where it keeps things."""

    port: int
    addresses: list[str]
    key_file: Path
    static_root: Path


def request(night: GameNight, path: str, host: str) -> http.client.HTTPResponse:
    """GET `path` through the loopback address, as a machine that knows the server as `host`."""
    connection = http.client.HTTPConnection("127.0.0.1", night.port, timeout=30)
    connection.request("GET", path, headers={"Host": f"{host}:{night.port}"})
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameNight]:
    tmp = tmp_path_factory.mktemp("game-night")
    key_file = tmp / "secret_key"
    env = servers.project_env(
        DEBUG="1",  # what a developer's shell may well say; the game night ignores it
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp / "static"),
        SECRET_KEY_FILE=str(key_file),
    )
    del env["ALLOWED_HOSTS"]  # the game night works out its own
    log_path = tmp / "serve.log"
    port = servers.free_port()
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "messengers.serve", "--host", "0.0.0.0", "--port", str(port)],
            cwd=servers.ROOT,
            env=servers.child_env(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        assert servers._wait_for_http(process, port), log_path.read_text()
        printed = re.findall(rf"http://(\S+):{port}/", log_path.read_text())
        yield GameNight(port, printed, key_file, tmp / "static")
    finally:
        servers._stop(process)


def test_it_prints_where_to_open_it(night: GameNight) -> None:
    assert night.addresses, "no address printed for the phones"
    assert not any(is_loopback(address) for address in night.addresses), night.addresses


def test_other_machines_never_see_a_debug_page(night: GameNight) -> None:
    for address in night.addresses:
        missing = request(night, "/no-such-page", address)
        assert missing.status == 404
        body = missing.body.decode()  # type: ignore[attr-defined]
        assert "DEBUG = True" not in body and "URLconf" not in body and "Traceback" not in body
    stranger = request(night, "/", "attacker.example")
    assert stranger.status == 400
    assert "ALLOWED_HOSTS" not in stranger.body.decode()  # type: ignore[attr-defined]


def test_seats_work_over_plain_http(night: GameNight) -> None:
    page = request(night, "/", night.addresses[0])
    assert page.status == 200, "plain HTTP must not be redirected to HTTPS on a home network"
    assert page.getheader("Strict-Transport-Security") is None
    cookies = page.headers.get_all("Set-Cookie") or []
    assert any(cookie.startswith("csrftoken=") for cookie in cookies), cookies
    assert not any("secure" in cookie.lower() for cookie in cookies), cookies
    # The static files were collected first and the page names them by their hashed names.
    body = page.body.decode()  # type: ignore[attr-defined]
    assert re.search(r"/static/css/site\.[0-9a-f]{12}\.css", body), body[:500]
    assert (night.static_root / "staticfiles.json").is_file()


def test_a_seat_taken_over_plain_http_is_kept(night: GameNight) -> None:
    """Creating a table from a phone: the form passes the CSRF check over plain HTTP and the
    seat's session cookie comes without Secure, which the phone's browser would drop."""
    host = f"{night.addresses[0]}:{night.port}"
    page = request(night, "/", night.addresses[0])
    cookie = next(c for c in page.headers.get_all("Set-Cookie") or [] if c.startswith("csrftoken"))
    csrf_cookie = cookie.split(";", 1)[0]
    body = page.body.decode()  # type: ignore[attr-defined]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)  # type: ignore[union-attr]
    form = urlencode(
        {
            "csrfmiddlewaretoken": token,
            "preset": "c2-hig",
            "mode": "board",
            "seats": "2",
            "name": "Ann",
            "colour": "blue",
        }
    )
    connection = http.client.HTTPConnection("127.0.0.1", night.port, timeout=30)
    connection.request(
        "POST",
        "/tables",
        body=form,
        headers={
            "Host": host,
            "Origin": f"http://{host}",
            "Cookie": csrf_cookie,
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    created = connection.getresponse()
    created.read()
    connection.close()
    assert created.status == 302, created.status
    assert re.fullmatch(r"/t/[a-z0-9]+", created.getheader("Location", "")), created.getheader(
        "Location"
    )
    session = [c for c in created.headers.get_all("Set-Cookie") or [] if c.startswith("sessionid")]
    assert session, created.headers
    assert "secure" not in session[0].lower() and "httponly" in session[0].lower(), session


def test_the_secret_key_is_kept_private(night: GameNight) -> None:
    key = night.key_file.read_text().strip()
    assert len(key) >= 50
    assert stat.S_IMODE(night.key_file.stat().st_mode) == 0o600
    page = request(night, "/", night.addresses[0])
    assert key not in page.body.decode()  # type: ignore[attr-defined]
