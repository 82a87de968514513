"""A real Daphne with DEBUG off: the HTTPS settings, the hashed static files, refusing to start.

The server runs with the defaults of DEBUG off (HTTPS behind a proxy) and is spoken to over plain
HTTP on the loopback address, as the proxy and a health check would: plain requests are
redirected to HTTPS except /healthz, and requests the proxy marks as HTTPS get secure cookies and
HSTS. Static files come from a real `collectstatic`: hashed names are cached for good, plain
names are revalidated on every use.
"""

from __future__ import annotations

import http.client
import json
import posixpath
import re
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from messengers.serve import PLAIN_HTTP
from tests import servers

pytestmark = pytest.mark.services

HTTPS = {"X-Forwarded-Proto": "https"}
"""What the TLS-terminating proxy adds to every request it forwards."""


def get(base: str, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    """GET `path` from the server at `base`; the answer is read into `.body`."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Daphne with DEBUG off and every HTTPS setting at its default (an empty value is unset)."""
    database = tmp_path_factory.mktemp("production") / "db.sqlite3"
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{database}", **dict.fromkeys(PLAIN_HTTP, "")
    )
    servers.migrate(env)
    with servers.daphne_server(env) as url:
        yield url


def test_plain_http_is_redirected_but_the_health_check_is_not(server: str) -> None:
    response = get(server, "/")
    assert response.status == 301
    assert response.getheader("Location") == "https://127.0.0.1/"
    health = get(server, "/healthz")
    assert health.status == 200, health.body  # type: ignore[attr-defined]


def test_https_through_the_proxy_gets_secure_cookies_and_hsts(server: str) -> None:
    response = get(server, "/", HTTPS)
    assert response.status == 200
    hsts = response.getheader("Strict-Transport-Security")
    assert hsts == "max-age=31536000; includeSubDomains; preload"
    cookies = response.headers.get_all("Set-Cookie") or []
    csrf = [cookie for cookie in cookies if cookie.startswith("csrftoken=")]
    assert csrf and all("; Secure" in cookie for cookie in csrf), cookies


def test_error_pages_are_not_debug_pages(server: str) -> None:
    response = get(server, "/no-such-page", HTTPS)
    assert response.status == 404
    body = response.body.decode()  # type: ignore[attr-defined]
    assert "DEBUG = True" not in body and "Traceback" not in body and "URLconf" not in body
    wrong_host = get(server, "/", {**HTTPS, "Host": "evil.example"})
    assert wrong_host.status == 400
    assert "ALLOWED_HOSTS" not in wrong_host.body.decode()  # type: ignore[attr-defined]


def test_hashed_static_files_are_cached_for_good(server: str) -> None:
    manifest = json.loads((servers.collected_static() / "staticfiles.json").read_text())
    hashed = manifest["paths"]["game/table/table.js"]
    assert re.fullmatch(r"game/table/table\.[0-9a-f]{12}\.js", hashed), hashed

    response = get(server, f"/static/{hashed}", HTTPS)
    assert response.status == 200
    assert response.getheader("Cache-Control") == "max-age=315360000, public, immutable"
    assert "javascript" in response.getheader("Content-Type", "")
    # Its imports name the other modules by their hashed names too, those of its own folder
    # (`./table-dock.….js`) and those of the common one (`../common/board.….js`).
    body = response.body.decode()  # type: ignore[attr-defined]
    imported = re.findall(r'from "(\.\.?/[^"]+)"', body)
    assert any(name.startswith("./") for name in imported), imported
    assert any(name.startswith("../common/") for name in imported), imported
    assert all(re.fullmatch(r"[\w-]+\.[0-9a-f]{12}\.js", name.split("/")[-1]) for name in imported)
    resolved = {posixpath.normpath(f"game/table/{name}") for name in imported}
    assert resolved <= set(manifest["paths"].values())

    plain = get(server, "/static/game/table/table.js", HTTPS)
    assert plain.status == 200
    assert plain.getheader("Cache-Control") == "max-age=0, public"

    compressed = get(server, f"/static/{hashed}", {**HTTPS, "Accept-Encoding": "gzip"})
    assert compressed.getheader("Content-Encoding") == "gzip"


def start_daphne(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Start Daphne with `env` and wait for it to exit (it should refuse to start)."""
    return subprocess.run(
        [str(servers.venv_bin("daphne")), "-p", str(servers.free_port()), *servers.DAPHNE_OPTIONS]
        + ["messengers.asgi:application"],
        cwd=servers.ROOT,
        env=servers.child_env(env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_daphne_refuses_to_start_without_a_secret_key() -> None:
    result = start_daphne(servers.production_env(SECRET_KEY=""))
    assert result.returncode == 1
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off")


def test_daphne_refuses_to_start_without_collected_static_files() -> None:
    with tempfile.TemporaryDirectory() as empty:
        result = start_daphne(servers.production_env(STATIC_ROOT=empty))
    assert result.returncode == 1
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("ImproperlyConfigured: the static files are not collected")
    assert str(Path(empty) / "staticfiles.json") in lines[0]
    assert "collectstatic" in lines[0]
