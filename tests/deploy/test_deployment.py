"""The deployment of deploy/ and docs/deployment.md, run as configured.

Debian's nginx runs the shipped site file (deploy/nginx/messengers.conf, with only the host's
names, ports and paths changed as the file's header says) with a self-signed certificate, in
front of two Daphne processes started with the command line of the shipped systemd unit
(deploy/systemd/messengers@.service), a private PostgreSQL and Redis, and the environment a
production host has (DEBUG off, a generated secret key, ALLOWED_HOSTS holding the public name
only). The release step is deploy/release.sh itself. Then, over https and wss:

* a form posted through nginx passes the CSRF check and gets secure cookies;
* the per-address limits count the client's own address, which nginx passes on and a client
  cannot forge;
* http:// is redirected to https://; /metrics is not served from outside; static files come
  from STATIC_ROOT with the right caching;
* a check from the machine itself gets /healthz and /metrics from each Daphne although its
  Host (the address) is not in ALLOWED_HOSTS; a request naming another host never passes nginx,
  and one sent straight to a Daphne costs one log line;
* two players play a whole game in Chromium; the Daphne process that serves their table is
  killed with SIGKILL halfway, the pages reconnect through nginx to the other process, and the
  game goes on to the end with nothing lost: the downloaded record holds every decision once.

The unit files are checked with `systemd-analyze verify` where systemd is installed.
"""

from __future__ import annotations

import gzip
import http.client
import json
import re
import secrets
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine.record import replay
from messengers.version import VERSION
from tests import servers
from tests.browser.test_browser import (
    FINAL_SCORES,
    PERFORM,
    PLAN,
    RECONNECT_TIMEOUT_MS,
    ConsoleWatch,
    expected_view,
    open_table,
    place_tile,
)
from tests.deploy_stack import (
    APP_DIR,
    DAPHNE_UNIT,
    FOREIGN_HOST,
    FORM,
    HOST_NAME,
    HOUSEKEEPING_UNIT,
    LOOPBACK_CLIENTS,
    SITE,
    TABLES_PER_HOUR,
    UNITS,
    Deployment,
    exec_start,
    https,
    unit_values,
)

pytestmark = pytest.mark.services

# --- the unit files -------------------------------------------------------------------------


def test_units_run_daphne_on_loopback_with_proxy_headers_and_hardening() -> None:
    """The server unit binds 127.0.0.1 only (nobody else may send the headers that
    --proxy-headers trusts), restarts, reads the production environment, and is locked down."""
    argv = exec_start(DAPHNE_UNIT)
    assert argv[argv.index("-b") + 1] == "127.0.0.1"
    assert argv[argv.index("-p") + 1] == "%i"
    assert "--proxy-headers" in argv
    assert argv[argv.index("--websocket_connect_timeout") + 1] == "30"
    assert unit_values(DAPHNE_UNIT, "Restart") == ["always"]
    for unit in sorted(UNITS.glob("*.service")):
        # The backup runs as postgres (peer authentication, dumps out of the server's reach)
        # and needs nothing of the server's environment.
        if unit.name == "messengers-backup.service":
            assert unit_values(unit, "User") == ["postgres"], unit
            assert unit_values(unit, "EnvironmentFile") == [], unit
        else:
            assert unit_values(unit, "User") == ["messengers"], unit
            assert unit_values(unit, "EnvironmentFile") == ["/etc/messengers/production.env"], unit
        assert unit_values(unit, "WorkingDirectory") == [APP_DIR], unit
        for key, value in (
            ("NoNewPrivileges", "yes"),
            ("ProtectSystem", "strict"),
            ("PrivateTmp", "yes"),
        ):
            assert unit_values(unit, key) == [value], (unit, key)
    timer = UNITS / "messengers-housekeeping.timer"
    assert unit_values(timer, "OnCalendar") == ["hourly"]
    assert exec_start(HOUSEKEEPING_UNIT)[1:] == ["manage.py", "housekeeping"]


def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    """`systemd-analyze verify` on the units installed in a root laid out as on the host.

    systemd checks that each ExecStart names an executable file, so the root holds this
    checkout's files at the production paths (copies: verify follows no link out of a root),
    and Debian's own units that every service depends on.
    """
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        servers.missing("systemd-analyze")
    root = tmp_path / "root"
    app = root / APP_DIR.lstrip("/")
    for name in (".venv/bin/daphne", ".venv/bin/python", "deploy/release.sh", "deploy/backup.sh"):
        (app / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(servers.ROOT / name, app / name)
    system_units = Path("/lib/systemd/system")
    shutil.copytree(system_units, root / "lib/systemd/system", symlinks=True)
    installed = root / "etc/systemd/system"
    installed.mkdir(parents=True)
    for unit in UNITS.iterdir():
        shutil.copy(unit, installed / unit.name)
    names = [
        "messengers@8001.service",
        "messengers@8002.service",
        "messengers-release.service",
        "messengers-housekeeping.service",
        "messengers-housekeeping.timer",
        "messengers-backup.service",
        "messengers-backup.timer",
    ]
    result = subprocess.run(
        [analyze, "verify", f"--root={root}", *names],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # verify exits 0 on unknown keys too, with a warning: any output is a finding.
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), (
        result.stdout + result.stderr
    )


def nginx_block(text: str, opening: str) -> str:
    """The directives of the block that starts with `opening` (e.g. `location /ws/ {`)."""
    start = text.index(opening) + len(opening)
    depth, end = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        end += 1
    return text[start : end - 1]


def nginx_seconds(block: str, directive: str) -> int:
    """The value of `directive` (written as `300s`) in `block`."""
    match = re.search(rf"^\s*{directive}\s+(\d+)s;", block, re.MULTILINE)
    assert match, f"{directive} is not set in seconds"
    return int(match.group(1))


def test_websockets_outlast_the_keepalive_in_nginx() -> None:
    """A quiet but live websocket is closed by the server's silence limit, never by nginx:
    its read and send timeouts on /ws/ are above WS_SILENCE_SECONDS (pages ping every 20 s)."""
    from django.conf import settings

    block = nginx_block(SITE.read_text(), "location /ws/ {")
    for directive in ("proxy_read_timeout", "proxy_send_timeout"):
        assert nginx_seconds(block, directive) > settings.WS_SILENCE_SECONDS, directive


# --- over https -----------------------------------------------------------------------------


@dataclass
class Posted:
    """What came back from posting the home page's form."""

    status: int
    headers: http.client.HTTPMessage
    csrf_cookie: str
    """The Set-Cookie header of the home page that carried the CSRF cookie."""


def create_table(deployment: Deployment, source: str, headers: dict[str, str]) -> Posted:
    """Load the home page and post its form from `source`, as a browser would."""
    connection = https(deployment, source)
    try:
        connection.request("GET", "/")
        home = connection.getresponse()
        body = home.read().decode()
        assert home.status == 200, body
        cookies = home.headers.get_all("Set-Cookie") or []
        csrf_cookie = next(c for c in cookies if c.startswith("csrftoken="))
        form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert form_token, "the home page has no CSRF token"
        connection.request(
            "POST",
            "/tables",
            body=urlencode({**FORM, "csrfmiddlewaretoken": form_token.group(1)}),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": csrf_cookie.split(";", 1)[0],
                "Origin": deployment.url,
                "Referer": f"{deployment.url}/",
                **headers,
            },
        )
        response = connection.getresponse()
        response.read()
        return Posted(response.status, response.headers, csrf_cookie)
    finally:
        connection.close()


def cookie_flags(set_cookie: str) -> set[str]:
    """The attribute names of a Set-Cookie header, lower-cased (`secure`, `httponly`, ...)."""
    return {part.split("=", 1)[0].strip().lower() for part in set_cookie.split(";")[1:]}


def test_a_form_posted_over_https_passes_csrf_with_secure_cookies(
    deployment: Deployment,
) -> None:
    """Creating a table through nginx: the CSRF check passes, and both cookies are Secure."""
    response = create_table(deployment, "127.0.0.1", {})
    assert response.status == 302, response.status
    assert re.fullmatch(r"/t/[a-z0-9]{8}", response.headers["Location"])
    assert "secure" in cookie_flags(response.csrf_cookie)
    session = next(c for c in response.headers.get_all("Set-Cookie") if c.startswith("sessionid="))
    assert "secure" in cookie_flags(session)


def test_limits_count_the_client_address_that_nginx_passes_on(deployment: Deployment) -> None:
    """TABLES_PER_HOUR is reached from one client address and not from another, and a client
    cannot escape it by sending its own X-Forwarded-For: nginx replaces that header.

    Without Daphne's --proxy-headers every request would come from nginx's address and all
    clients would share one count; with nginx appending to a forged header, the forged address
    would be counted instead.
    """
    clients = iter(LOOPBACK_CLIENTS)
    while True:
        # The counts are per clock hour: a run that straddles the hour starts again afresh.
        hour = int(time.time()) // 3600
        limited, other = next(clients), next(clients)
        statuses = [
            create_table(deployment, limited, {}).status for _ in range(TABLES_PER_HOUR + 1)
        ]
        forged = create_table(deployment, limited, {"X-Forwarded-For": "198.51.100.7"}).status
        fresh = create_table(deployment, other, {}).status
        if int(time.time()) // 3600 == hour:
            break
    assert statuses == [302] * TABLES_PER_HOUR + [429], statuses
    assert forged == 429
    assert fresh == 302


def test_plain_http_is_redirected_to_https(deployment: Deployment) -> None:
    """http:// on the public port 80 and on the https port itself both redirect to https://."""
    connection = http.client.HTTPConnection("127.0.0.1", deployment.http_port, timeout=30)
    connection.request("GET", "/t/abcdefgh?x=1", headers={"Host": HOST_NAME})
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 301
    assert response.headers["Location"] == f"https://{HOST_NAME}/t/abcdefgh?x=1"

    site = f"{HOST_NAME}:{deployment.https_port}"
    connection = http.client.HTTPConnection("127.0.0.1", deployment.https_port, timeout=30)
    connection.request("GET", "/healthz", headers={"Host": site})
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 301
    assert response.headers["Location"] == f"https://{site}/healthz"


def get(deployment: Deployment, path: str) -> tuple[int, http.client.HTTPMessage, bytes]:
    """GET `path` over https: status, headers and body."""
    connection = https(deployment)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def test_health_static_files_and_no_metrics_from_outside(deployment: Deployment) -> None:
    """/healthz answers through nginx; static files come from STATIC_ROOT, hashed names
    cached for good and others revalidated; /metrics never reaches a process."""
    status, _, body = get(deployment, "/healthz")
    assert status == 200, body
    assert b'"database": "ok"' in body and b'"channel_layer": "ok"' in body

    status, headers, body = get(deployment, "/static/game/table/table.js")
    assert status == 200
    assert body == (deployment.static_root / "game" / "table" / "table.js").read_bytes()
    assert headers["Content-Type"] == "application/javascript"
    assert headers["Cache-Control"] == "no-cache"
    # A name as manifest storage writes it: the file's content hash before the extension.
    hashed = deployment.static_root / "game" / "table" / "table.0123456789ab.js"
    shutil.copy(deployment.static_root / "game" / "table" / "table.js", hashed)
    status, headers, _ = get(deployment, "/static/game/table/table.0123456789ab.js")
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"

    status, _, _ = get(deployment, "/metrics")
    assert status == 404
    assert not any("/metrics" in log for log in deployment.logs())


def direct(
    daphne: servers.RestartableDaphne, path: str, host: str | None = None
) -> tuple[int, bytes]:
    """GET `path` from a Daphne's own port, as a check on the machine itself does (its Host is
    the address and port, unless `host` is given)."""
    connection = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=30)
    try:
        connection.request("GET", path, headers={"Host": host} if host else {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_machine_itself_gets_health_and_metrics_with_the_public_name_only(
    deployment: Deployment,
) -> None:
    """curl http://127.0.0.1:8001/healthz and a Prometheus on the host get their answers from
    every process, although ALLOWED_HOSTS holds only the public name, and leave no error in the
    log; any other page asked for by the address is still refused."""
    assert deployment.env["ALLOWED_HOSTS"] == HOST_NAME
    for daphne in deployment.daphnes:
        status, body = direct(daphne, "/healthz")
        assert status == 200, body
        assert json.loads(body)["database"] == "ok"
        status, body = direct(daphne, "/metrics")
        assert status == 200, body
        assert b"messengers_tables" in body
        status, _ = direct(daphne, "/")
        assert status == 400
    for log in deployment.logs():
        assert "Traceback" not in log
        assert "DisallowedHost" not in log


def test_health_names_a_static_manifest_gone_after_the_start(deployment: Deployment) -> None:
    """A release step that failed halfway, or a cleaned STATIC_ROOT, leaves the running
    processes without the manifest their pages name files by: /healthz says so."""
    daphne = deployment.daphnes[0]
    manifest = deployment.static_root / "staticfiles.json"
    moved = manifest.with_name("staticfiles.json.moved")
    manifest.rename(moved)
    try:
        status, body = direct(daphne, "/healthz")
    finally:
        moved.rename(manifest)
    assert status == 503, body
    assert json.loads(body) == {
        "database": "ok",
        "channel_layer": "ok",
        "static_files": "missing (staticfiles.json)",
        "version": VERSION,
    }
    assert direct(daphne, "/healthz")[0] == 200


def unique_path() -> str:
    """A path no other request of the run asks for, to find a request's lines in the logs."""
    return f"/probe-{secrets.token_hex(6)}"


def test_a_foreign_host_never_passes_nginx(deployment: Deployment) -> None:
    """A request naming another host reaches nginx's catch-all servers, never a Daphne: port 80
    closes the connection unanswered, port 443 refuses the handshake for an unknown name and
    closes a request whose Host is another after the site's handshake."""
    paths = [unique_path() for _ in range(3)]
    plain = http.client.HTTPConnection("127.0.0.1", deployment.http_port, timeout=30)
    with pytest.raises(http.client.RemoteDisconnected):
        plain.request("GET", paths[0], headers={"Host": FOREIGN_HOST})
        plain.getresponse()
    plain.close()

    unknown = https(deployment, host=FOREIGN_HOST)
    with pytest.raises(ssl.SSLError, match="UNRECOGNIZED_NAME"):
        unknown.request("GET", paths[1])
    unknown.close()

    misdirected = https(deployment)
    with pytest.raises(http.client.RemoteDisconnected):
        misdirected.request("GET", paths[2], headers={"Host": FOREIGN_HOST})
        misdirected.getresponse()
    misdirected.close()

    access = deployment.access_log.read_text()
    assert re.search(rf'"GET {paths[0]} HTTP/1.1" 444 ', access), access
    assert re.search(rf'"GET {paths[2]} HTTP/1.1" 444 ', access), access
    for log in deployment.logs():
        assert not any(path in log for path in paths)


def test_a_foreign_host_straight_at_a_daphne_costs_one_log_line(deployment: Deployment) -> None:
    """Sent to a Daphne's own port, bypassing nginx, a request naming another host is refused
    with 400 and leaves Daphne's access line only: no traceback, no second line."""
    daphne = deployment.daphnes[0]
    before = daphne.log_path.read_text(errors="replace").splitlines()
    path = unique_path()
    status, _ = direct(daphne, path, host=FOREIGN_HOST)
    assert status == 400
    deadline = time.monotonic() + 30
    while path not in daphne.log_path.read_text(errors="replace"):
        assert time.monotonic() < deadline, "Daphne wrote no access line"
        time.sleep(0.05)
    after = daphne.log_path.read_text(errors="replace").splitlines()
    added = after[len(before) :]
    assert len(added) == 1, added
    assert re.search(rf'"GET {path}" 400 \d+$', added[0]), added


def test_housekeeping_runs_as_its_unit_says(deployment: Deployment) -> None:
    """The timer's service runs `manage.py housekeeping` against the production database."""
    argv = exec_start(HOUSEKEEPING_UNIT)
    assert argv[0] == f"{APP_DIR}/.venv/bin/python"
    result = subprocess.run(
        [sys.executable, *argv[1:]],
        cwd=servers.ROOT,
        env=servers.child_env(deployment.env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("removed: 0 stale connection(s)"), result.stdout


# --- a game in the browser ------------------------------------------------------------------


KILL_AT = 15
"""Decisions made when the table's process is killed: Bob is about to place the tile of turn 6,
after a message was drawn and resolved."""


def serving_process(deployment: Deployment, code: str) -> int:
    """Which Daphne serves the table `code`: the only one whose access log names it.

    All its pages, its seat QR codes and its websockets went to that one process, since nginx
    hashes on the code.
    """
    logs = deployment.logs()
    serving = [i for i, log in enumerate(logs) if f"WSCONNECT /ws/t/{code}" in log]
    assert len(serving) == 1, f"the table's websockets went to processes {serving}"
    (index,) = serving
    assert f"GET /t/{code}" in logs[index]
    others = [log for i, log in enumerate(logs) if i != index]
    assert not any(f"/t/{code}" in log for log in others), "a request of the table went elsewhere"
    return index


def wait_until(page: Page, condition: Callable[[], bool], timeout_ms: int, what: str) -> None:
    """Let `page` handle its events until `condition()` holds (Playwright's sync API delivers
    events only while it waits), or fail naming `what`."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen"
        page.wait_for_timeout(100)


def test_a_game_goes_on_when_its_process_is_killed(
    tls_browser: Browser, deployment: Deployment
) -> None:
    """Two players and a projector play a whole game over https and wss through nginx. Halfway,
    the Daphne process serving their table is killed with SIGKILL: every page reconnects through
    nginx to the other process, shows the same state, and the game goes on to the end. The
    downloaded record holds every decision exactly once."""
    console = ConsoleWatch()
    table = open_table(tls_browser, deployment, console)  # only its .url is used
    assert table.ann.page.url.startswith(f"{deployment.url}/t/")
    code = table.ann.page.url.rsplit("/", 1)[1]
    table.expect_all(expected_view(0))
    pages = {"Ann": table.ann.page, "Bob": table.bob.page, "projector": table.projector}
    opened = dict.fromkeys(pages, 0)
    for who, page in pages.items():
        page.on("websocket", lambda _socket, who=who: opened.__setitem__(who, opened[who] + 1))

    for index, action in enumerate(PLAN):
        pending = expected_view(index)["pending"]
        player = table.players[action["seat"]]
        if action["type"] == "place_tile":
            place_tile(player, action, pending)
        else:
            PERFORM[action["type"]](player, action, pending)
        view = expected_view(index + 1)
        table.expect_all(view)
        if index + 1 != KILL_AT:
            continue

        victim = serving_process(deployment, code)
        survivor = deployment.daphnes[1 - victim]
        deployment.daphnes[victim].kill()
        for who, page in pages.items():
            wait_until(
                page, lambda who=who: opened[who] > 0, RECONNECT_TIMEOUT_MS, f"{who} reconnecting"
            )
        table.expect_live(timeout=RECONNECT_TIMEOUT_MS)
        assert f"WSCONNECT /ws/t/{code}" in survivor.log_path.read_text(errors="replace")
        # nginx passed the first request that found the killed process on to the other one
        # (proxy_next_upstream): no page ever got an error.
        failed = [
            line
            for line in deployment.access_log.read_text().splitlines()
            if re.search(r'" 5\d\d ', line)
        ]
        assert not failed, failed
        # Everything acknowledged before the kill is still there: same version, same game.
        table.expect_all(view)

    assert view["finished"]
    for player in table.players:
        expect(player.page.locator("#dock h3").first).to_have_text("Game over")
    link = table.ann.page.locator("#dock a[download]")
    with table.ann.page.expect_download() as download:
        link.click()
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["actions"] == PLAN
    final = replay(record).state
    assert {p.name: p.score for p in final.players} == FINAL_SCORES
    assert not console.errors, "\n".join(console.errors)
    for page in pages.values():
        page.context.close()

    # The seats' secrets reached no log on the way (personal links carry them in the fragment).
    tokens = seat_tokens(deployment, code)
    assert len(tokens) == 2
    nginx_logs = (deployment.access_log, deployment.access_log.with_name("error.log"))
    logs = [*deployment.logs(), deployment.nginx_log.read_text()]
    logs += [path.read_text() for path in nginx_logs]
    assert not [token for token in tokens if any(token in log for log in logs)]


def seat_tokens(deployment: Deployment, code: str) -> list[str]:
    """The secret tokens of the seats at table `code`, read from the database."""
    import psycopg

    with psycopg.connect(deployment.env["DATABASE_URL"]) as connection:
        rows = connection.execute(
            "SELECT seat.token FROM game_seat seat JOIN game_table t ON t.id = seat.table_id"
            " WHERE t.code = %s",
            (code,),
        ).fetchall()
    return [token for (token,) in rows]


def test_scripts_and_styles_go_out_compressed(deployment: Deployment) -> None:
    """nginx sends collectstatic's gzip copy to a browser that accepts gzip: about a third of
    the bytes, for every script and style sheet."""
    plain = (deployment.static_root / "game" / "table" / "table.js").read_bytes()
    connection = https(deployment)
    try:
        connection.request(
            "GET", "/static/game/table/table.js", headers={"Accept-Encoding": "gzip"}
        )
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    assert response.status == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in (response.headers["Vary"] or "")
    assert gzip.decompress(body) == plain
    assert len(body) < len(plain) / 2


ADMIN_CLIENT = "127.0.0.9"
"""The address that tries the admin's login (no other test uses it)."""


def admin_login(deployment: Deployment, source: str, password: str) -> int:
    """Load the admin's login page and post the form from `source`; the answer's status."""
    connection = https(deployment, source)
    try:
        connection.request("GET", "/admin/login/")
        page = connection.getresponse()
        body = page.read().decode()
        if page.status != 200:
            return page.status
        cookie = next(c for c in page.headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert token, "the login page has no CSRF token"
        connection.request(
            "POST",
            "/admin/login/",
            body=urlencode(
                {"username": "admin", "password": password, "csrfmiddlewaretoken": token[1]}
            ),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": cookie.split(";", 1)[0],
                "Origin": deployment.url,
                "Referer": f"{deployment.url}/admin/login/",
            },
        )
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def test_an_admin_made_as_documented_logs_in_and_guessers_are_slowed(
    deployment: Deployment,
) -> None:
    """docs/deployment.md, step 10: the admin account made with `createsuperuser` (here
    `--noinput`) with the units' environment logs in over https; a burst of guesses from one
    address gets 429 from nginx, while another address still reaches the login."""
    password = secrets.token_urlsafe(24)
    made = subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput"],
        cwd=servers.ROOT,
        env=servers.child_env(
            {
                **deployment.env,
                "DJANGO_SUPERUSER_USERNAME": "admin",
                "DJANGO_SUPERUSER_EMAIL": "admin@example.org",
                "DJANGO_SUPERUSER_PASSWORD": password,
            }
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    # Logged in: redirected to the admin's index.
    assert admin_login(deployment, "127.0.0.1", password) == 302
    # Each try is two requests (the page, the form): a burst soon meets the limit.
    guesses = [admin_login(deployment, ADMIN_CLIENT, "wrong") for _ in range(10)]
    assert guesses[0] == 200, guesses  # a wrong password is answered with the form again
    assert 429 in guesses, guesses
    assert admin_login(deployment, "127.0.0.8", "wrong") == 200
