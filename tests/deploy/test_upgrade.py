"""deploy/upgrade.sh on the deployment of deploy/, while two players play.

The host of docs/deployment.md is laid out in a temporary directory: a clone of this repository
as its `repo`, the previous commit installed by deploy/upgrade.sh itself (the first install:
release directory, virtualenv per lock, release step, app link), then the shipped nginx site
in front of two Daphnes started with the unit's command line from that app link
(tests/deploy_stack.py). The virtualenv directory is seeded with links to the test run's own
virtualenv under the hashes of both commits' locks, so nothing is downloaded. The restart command
is a request to the test, which stops the process as systemd does (SIGTERM) and starts it again
from the app link.

* An upgrade to the current commit during a game: it restarts both processes one at a time, the
  pages move to the other process and back, none of them shows "Reconnecting…" for more than
  RECONNECT_LIMIT_MS (measured in the pages), nginx answers no request with a 5xx, the game ends
  with every decision kept once, and the processes run the new release.
* An upgrade to a commit whose migration fails: upgrade.sh stops with one line naming the step,
  the link and the processes stay as they were, no page even reconnects, and the game goes on.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from game.engine.record import replay
from tests import servers
from tests.browser.test_browser import (
    FINAL_SCORES,
    PERFORM,
    PLAN,
    RECONNECT_TIMEOUT_MS,
    ConsoleWatch,
    Player,
    Table,
    expected_view,
    open_table,
    place_tile,
)
from tests.deploy_stack import DEPLOY, HOST_NAME, Deployment, running_deployment

pytestmark = pytest.mark.services

UPGRADE = DEPLOY / "upgrade.sh"

ARTIFACTS = servers.ROOT / "tests" / "artifacts" / "upgrade"
"""Where a failed decision leaves screenshots and the servers' logs (git-ignored)."""

RECONNECT_LIMIT_MS = 3000
"""The longest a page may show that it is reconnecting during an upgrade: a page retries after
about a second (connection.js), and the other process is there to take it."""

UPGRADE_AT = 4
"""Decisions made when the upgrade starts; the game goes on while it runs."""

RESTARTS_AT = (10, 20)
"""Decisions made when the game waits for the upgrade to restart the first process, then the
second: the decisions after them are made while that process restarts."""

UPGRADE_TIMEOUT = 600.0
"""Seconds the upgrade may take, on a loaded machine with two restarts of 11 s or more each."""

BROKEN_MIGRATION = """\
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("game", "{previous}")]
    operations = [migrations.RunSQL("SELECT this_function_does_not_exist()")]
"""

CONNECTION_WATCH = """
(() => {
  // How long this page showed that it was not connected, after it had been once (the table
  // pages' #conn, the projector's #pj-conn), measured as it happens.
  const watch = { longest: 0, since: null, drops: 0, wasLive: false };
  window.__connectionWatch = watch;
  const live = () => {
    const conn = document.getElementById("conn");
    if (conn) return conn.dataset.state === "live";
    const projector = document.getElementById("pj-conn");
    if (projector) return projector.dataset.state === "open";
    return null;
  };
  const check = () => {
    const now = performance.now();
    const state = live();
    if (state === true) {
      if (watch.since !== null) watch.longest = Math.max(watch.longest, now - watch.since);
      watch.since = null;
      watch.wasLive = true;
    } else if (state === false && watch.wasLive && watch.since === null) {
      watch.since = now;
      watch.drops += 1;
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const element = document.getElementById("conn") || document.getElementById("pj-conn");
    if (!element) return;
    new MutationObserver(check).observe(element, {
      attributes: true, childList: true, characterData: true, subtree: true,
    });
    check();
  });
})();
"""

READ_WATCH = """() => {
  const watch = window.__connectionWatch;
  const open = watch.since === null ? 0 : performance.now() - watch.since;
  return { longest: Math.max(watch.longest, open), drops: watch.drops };
}"""


def git(repo: Path, *args: str, env: dict[str, str] | None = None, text: str = "") -> str:
    """A git command's output in `repo`, stripped."""
    result = subprocess.run(
        ["git", "-C", str(repo), *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"
    return result.stdout.strip()


# --- the host -----------------------------------------------------------------------------------


@dataclass
class Host:
    """The host's directory as docs/deployment.md lays it out, and how upgrade.sh reaches it."""

    home: Path
    env_file: Path
    deployment: Deployment | None = None
    restart_url: str = ""

    @property
    def repo(self) -> Path:
        """The clone upgrade.sh takes the releases from."""
        return self.home / "repo"

    @property
    def app(self) -> Path:
        """The link to the release being served."""
        return self.home / "app"

    def serving(self) -> str:
        """The commit the app link points at."""
        return Path(os.readlink(self.app)).name

    def environment(self) -> dict[str, str]:
        """upgrade.sh's settings for this host: no systemd, no fetch, no other user."""
        env = {
            "PATH": os.environ["PATH"],
            "MESSENGERS_HOME": str(self.home),
            "MESSENGERS_FETCH": "0",
            "MESSENGERS_ENV_FILE": str(self.env_file),
            "MESSENGERS_USER": "",
            "MESSENGERS_UNIT_DIR": str(self.home / "units"),
            "MESSENGERS_DAEMON_RELOAD": "true",
        }
        if self.deployment is not None:
            ports = " ".join(str(daphne.port) for daphne in self.deployment.daphnes)
            env |= {
                "MESSENGERS_INSTANCES": ports,
                "MESSENGERS_RESTART": f"curl -fsS -X POST {self.restart_url}/%i",
                "MESSENGERS_NGINX_SITE": str(self.deployment.site),
                "MESSENGERS_PUBLIC_URL": self.deployment.url,
                # The public name resolves to the machine itself, as on a host with it in DNS.
                "MESSENGERS_RESOLVE": f"{HOST_NAME}:{self.deployment.https_port}:127.0.0.1",
            }
        return env

    def upgrade(self, revision: str) -> subprocess.Popen[str]:
        """deploy/upgrade.sh REVISION, started; its output goes to files beside the log."""
        out = (self.home / "upgrade.out").open("w")
        err = (self.home / "upgrade.err").open("w")
        with out, err:
            return subprocess.Popen(
                [str(UPGRADE), revision],
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                text=True,
            )

    def output(self) -> tuple[str, str]:
        """What the last upgrade printed: stdout, stderr."""
        return (self.home / "upgrade.out").read_text(), (self.home / "upgrade.err").read_text()

    def log(self) -> str:
        """upgrade.sh's log (the steps' own output)."""
        return (self.home / "upgrade.log").read_text(errors="replace")


def lock_hash(repo: Path, commit: str) -> str:
    """sha256 of the commit's runtime lock: the name of its virtualenv under venvs/.

    The lock is requirements.txt, or requirements/runtime.txt in a commit from before it moved
    (deploy/upgrade.sh reads either).
    """
    for path in ("requirements.txt", "requirements/runtime.txt"):
        shown = subprocess.run(
            ["git", "-C", str(repo), "show", f"{commit}:{path}"],
            capture_output=True,
            timeout=60,
            check=False,
        )
        if shown.returncode == 0:
            return hashlib.sha256(shown.stdout).hexdigest()
    raise AssertionError(f"commit {commit} has no runtime lock")


def install_previous_commit(tmp: Path, env: dict[str, str]) -> Path:
    """The host of docs/deployment.md in `tmp`, with the previous commit installed by
    deploy/upgrade.sh; returns its app link."""
    home = tmp / "home"
    home.mkdir()
    git(servers.ROOT, "clone", "--quiet", str(servers.ROOT), str(home / "repo"))
    previous = git(servers.ROOT, "rev-parse", "HEAD~1")
    current = git(servers.ROOT, "rev-parse", "HEAD")
    env_file = home / "production.env"
    env_file.write_text("".join(f"{key}={value}\n" for key, value in env.items()))
    (home / "units").mkdir()
    # The test run's virtualenv stands for both locks' virtualenvs: nothing to download.
    venvs = home / "venvs"
    venvs.mkdir()
    venv = Path(sys.prefix)
    for commit in (previous, current):
        name = lock_hash(home / "repo", commit)
        if not (venvs / name).exists():
            (venvs / name).symlink_to(venv)
            (venvs / f"{name}.installed").write_text("seeded by the test\n")
    host = Host(home, env_file)
    first = host.upgrade(previous)
    assert first.wait(timeout=UPGRADE_TIMEOUT) == 0, host.output()[1] + host.log()
    assert host.serving() == previous
    return host.app


class RestartRequests(http.server.BaseHTTPRequestHandler):
    """POST /PORT restarts that Daphne as `systemctl restart` does: SIGTERM (killed after the
    unit's TimeoutStopSec), then a new process from the app link."""

    daphnes: dict[int, servers.RestartableDaphne] = {}

    def do_POST(self) -> None:  # noqa: N802 (the http.server's name)
        daphne = self.daphnes.get(int(self.path.strip("/")))
        if daphne is None:
            self.send_error(404)
            return
        try:
            daphne.stop()
            daphne.start()
        except RuntimeError as error:
            self.send_error(500, str(error).splitlines()[0])
            return
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: upgrade.sh's log has the restarts."""


@contextlib.contextmanager
def restart_service(deployment: Deployment) -> Iterator[str]:
    """An HTTP service on loopback that restarts the deployment's Daphnes; yields its URL."""
    handler = type(
        "Restarts",
        (RestartRequests,),
        {"daphnes": {daphne.port: daphne for daphne in deployment.daphnes}},
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def host(postgres_url: str, redis_url: str) -> Iterator[Host]:
    """The deployment, serving the previous commit as deploy/upgrade.sh installed it."""
    if not git(servers.ROOT, "rev-parse", "--verify", "--quiet", "HEAD~1^{commit}"):
        pytest.fail("the test needs the previous commit (a clone with its history)")
    with running_deployment(postgres_url, redis_url, install_previous_commit) as deployment:
        home = deployment.app.parent
        with restart_service(deployment) as url:
            yield Host(home, home / "production.env", deployment, url)


# --- the game -----------------------------------------------------------------------------------


@dataclass
class Traffic:
    """What one page's websockets did, in order: ("open", socket), ("sent", socket, command id),
    ("received", socket, type, version, id), ("closed", socket); sockets are numbered from 1."""

    events: list[tuple[Any, ...]] = field(default_factory=list)
    sockets: int = 0

    def watch(self, socket: Any) -> None:
        """Record the frames of a new websocket of the page."""
        self.sockets += 1
        number = self.sockets
        self.events.append(("open", number))
        socket.on("framesent", lambda payload: self._sent(number, payload))
        socket.on("framereceived", lambda payload: self._received(number, payload))
        socket.on("close", lambda _socket: self.events.append(("closed", number)))

    def _sent(self, number: int, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "command":
            self.events.append(("sent", number, message.get("id")))

    def _received(self, number: int, payload: str | bytes) -> None:
        message = json.loads(payload)
        kind = message.get("type")
        if kind in ("snapshot", "update", "error"):
            self.events.append(
                ("received", number, kind, message.get("version"), message.get("id"))
            )

    def lost(self, since: int, before: int) -> bool:
        """Whether the decision made after event `since` is lost: no command went out (the page
        was not connected), or it went out on a socket that closed unanswered; and the page
        has been resynchronised since with the state before it."""
        events = self.events[since:]
        sent = [i for i, event in enumerate(events) if event[0] == "sent"]
        start = 0
        if sent:
            number, command = events[sent[-1]][1:]
            later = events[sent[-1] + 1 :]
            if any(e[0] == "received" and e[4] == command for e in later):
                return False
            if ("closed", number) not in later:
                return False  # still in flight: its answer comes
            start = sent[-1] + 1 + later.index(("closed", number))
        return any(e[0] == "received" and e[2:4] == ("snapshot", before) for e in events[start:])


class Watched:
    """A browser whose pages measure how long they show that they are reconnecting, and record
    their websockets' traffic from the start."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.traffic: dict[Page, Traffic] = {}

    def new_context(self, **options: Any) -> BrowserContext:
        """Browser.new_context, with the connection watch in every page."""
        context = self.browser.new_context(**options)
        context.add_init_script(CONNECTION_WATCH)
        context.on("page", self._page)
        return context

    def _page(self, page: Page) -> None:
        traffic = self.traffic[page] = Traffic()
        page.on("websocket", traffic.watch)


@dataclass
class Game:
    """The table of tests/browser/test_browser.py over the deployment, and what its pages sent and
    received."""

    table: Table
    console: ConsoleWatch
    watched: Watched
    deployment: Deployment
    sockets_before: dict[str, int] = field(default_factory=dict)
    """Websockets each page had opened when the game started."""
    made: int = 0
    """Decisions of the plan made so far."""

    @property
    def pages(self) -> dict[str, Page]:
        """Every page of the table by who looks at it."""
        table = self.table
        return {"Ann": table.ann.page, "Bob": table.bob.page, "projector": table.projector}

    @property
    def opened(self) -> dict[str, int]:
        """Websockets each page opened since the game started: its reconnections."""
        return {
            who: self.watched.traffic[page].sockets - self.sockets_before[who]
            for who, page in self.pages.items()
        }

    @classmethod
    def start(cls, browser: Browser, deployment: Deployment) -> Game:
        """Ann creates the table, Bob joins, the game starts; every page is live."""
        console = ConsoleWatch()
        watched = Watched(browser)
        table = open_table(watched, deployment, console)  # type: ignore[arg-type]
        game = cls(table, console, watched, deployment)
        table.expect_all(expected_view(0))
        game.sockets_before = {
            who: watched.traffic[page].sockets for who, page in game.pages.items()
        }
        return game

    def play(self, until: int) -> None:
        """Make the plan's decisions up to `until`, each once every page is live."""
        while self.made < until:
            self.decide()

    def decide(self) -> None:
        """Make the next decision of the plan, as its player would.

        A decision made just as its process stops may be lost: the page was not connected when
        the player pressed, or the command went with the socket. The page then comes back with
        the state before it, and the player decides again; so does one whose page was redrawn
        from a snapshot while the player was still choosing (a tile tried on the board is gone
        then). The command's version makes a second copy impossible (the server refuses a stale
        one).
        """
        index = self.made
        action = PLAN[index]
        before, after = expected_view(index)["version"], expected_view(index + 1)["version"]
        player = self.table.players[action["seat"]]
        traffic = self.watched.traffic[player.page]
        try:
            for _attempt in range(3):
                self.table.expect_live(timeout=RECONNECT_TIMEOUT_MS)
                since = len(traffic.events)
                try:
                    perform(player, action, expected_view(index)["pending"])
                except (AssertionError, PlaywrightError):
                    if not traffic.lost(since, before):
                        raise
                    continue  # the page was redrawn from a snapshot halfway through
                if self._arrives(player, after, before, since):
                    break
            else:
                raise AssertionError(f"decision {index} was lost three times")
        except Exception as error:
            self.keep_evidence(f"decision-{index}")
            raise AssertionError(f"decision {index} ({action}) failed: {error}") from error
        self.made += 1
        self.table.expect_all(expected_view(self.made))

    def keep_evidence(self, name: str) -> None:
        """Screenshots of every page and the servers' logs, in tests/artifacts/upgrade/."""
        folder = ARTIFACTS / name
        folder.mkdir(parents=True, exist_ok=True)
        for who, page in self.pages.items():
            with contextlib.suppress(Exception):
                page.screenshot(path=str(folder / f"{who}.png"))
        for index, log in enumerate(self.deployment.logs()):
            (folder / f"daphne-{index}.log").write_text(log)
        for path in (self.deployment.access_log, self.deployment.access_log.with_name("error.log")):
            (folder / f"nginx-{path.name}").write_bytes(path.read_bytes())
        for who, page in self.pages.items():
            events = "\n".join(map(repr, self.watched.traffic[page].events))
            (folder / f"{who}-websockets.txt").write_text(events)

    def _arrives(self, player: Player, after: int, before: int, since: int) -> bool:
        """Wait until the page shows version `after` (True), or the decision is lost (False)."""
        page = player.page
        traffic = self.watched.traffic[page]
        deadline = time.monotonic() + RECONNECT_TIMEOUT_MS / 1000
        while time.monotonic() < deadline:
            # A round trip to the page: the frames it sent before are recorded by now.
            shown = page.locator("#table-page").get_attribute("data-version")
            if shown == str(after):
                return True
            if shown == str(before) and traffic.lost(since, before):
                return False
            page.wait_for_timeout(100)
        raise AssertionError(f"{player.name}'s page shows neither version {after} nor {before}")

    def wait_for(
        self, upgrade: subprocess.Popen[str], line: str = "", host: Host | None = None
    ) -> int | None:
        """Let the pages live until the upgrade has printed `line` (with `host`), or until it
        has ended when no line is given; its exit status if it has ended."""
        page = self.table.ann.page
        deadline = time.monotonic() + UPGRADE_TIMEOUT
        while upgrade.poll() is None:
            if host is not None and line in host.output()[0]:
                break
            assert time.monotonic() < deadline, f"the upgrade did not get to {line or 'its end'}"
            page.wait_for_timeout(200)
        return upgrade.poll()

    def reconnections(self) -> dict[str, dict[str, float]]:
        """Each page's longest time shown as reconnecting (ms) and how often it dropped."""
        return {who: page.evaluate(READ_WATCH) for who, page in self.pages.items()}

    def finish(self) -> None:
        """The game is over: the record holds the plan once, the scores are the plan's."""
        assert self.made == len(PLAN)
        ann = self.table.ann.page
        for player in self.table.players:
            expect(player.page.locator("#dock h3").first).to_have_text("Game over")
        with ann.expect_download() as download:
            ann.locator("#dock a[download]").click()
        record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        assert record["actions"] == PLAN
        final = replay(record).state
        assert {p.name: p.score for p in final.players} == FINAL_SCORES
        assert not self.console.errors, "\n".join(self.console.errors)
        for page in self.pages.values():
            page.context.close()


def perform(player: Player, action: dict[str, Any], pending: dict[str, Any]) -> None:
    """The player makes `action` through the page."""
    if action["type"] == "place_tile":
        place_tile(player, action, pending)
    else:
        PERFORM[action["type"]](player, action, pending)


def server_errors(deployment: Deployment, since: int) -> list[str]:
    """nginx's access log lines with a 5xx status, after byte `since`."""
    with deployment.access_log.open("rb") as log:
        log.seek(since)
        lines = log.read().decode(errors="replace").splitlines()
    return [line for line in lines if re.search(r'" 5\d\d ', line)]


def diagnosis(deployment: Deployment, since: int) -> str:
    """What nginx and the processes logged about the websockets, to explain a slow reconnection."""
    with deployment.access_log.open("rb") as log:
        log.seek(since)
        access = [
            line for line in log.read().decode(errors="replace").splitlines() if "/ws/" in line
        ]
    errors = deployment.access_log.with_name("error.log").read_text(errors="replace")
    daphnes = [
        "\n".join(line for line in text.splitlines() if "WS" in line or "daphne" in line)
        for text in deployment.logs()
    ]
    return "\n".join(["--- nginx", *access, errors[-3000:], *daphnes])


def process_directories(deployment: Deployment) -> list[Path]:
    """The directory each Daphne runs in (its working directory, the release it started from)."""
    directories = []
    for daphne in deployment.daphnes:
        assert daphne.process is not None
        directories.append(Path(os.readlink(f"/proc/{daphne.process.pid}/cwd")))
    return directories


# --- the tests ----------------------------------------------------------------------------------


def test_an_upgrade_during_a_game_drops_nothing(tls_browser: Browser, host: Host) -> None:
    """upgrade.sh to the current commit while a game goes on: every step passes, the processes
    restart one at a time into the new release, no page shows "Reconnecting…" for more than
    RECONNECT_LIMIT_MS, nginx answers no 5xx, and the game ends with every decision kept."""
    deployment = host.deployment
    assert deployment is not None
    current = git(servers.ROOT, "rev-parse", "HEAD")
    previous = host.serving()
    assert previous == git(servers.ROOT, "rev-parse", "HEAD~1")
    assert process_directories(deployment) == [host.home / "releases" / previous] * 2
    since = deployment.access_log.stat().st_size

    game = Game.start(tls_browser, deployment)
    game.play(until=UPGRADE_AT)
    upgrade = host.upgrade(current)
    # The players go on deciding while each process restarts.
    for decisions, daphne in zip(RESTARTS_AT, deployment.daphnes, strict=True):
        game.play(until=decisions)
        game.wait_for(upgrade, f"upgrade: restarting port {daphne.port}\n", host)
    game.play(until=len(PLAN) - 1)
    status = game.wait_for(upgrade)
    out, err = host.output()
    assert status == 0, err + host.log()
    game.play(until=len(PLAN))

    assert host.serving() == current
    assert process_directories(deployment) == [host.home / "releases" / current] * 2
    assert not err, err
    assert f"upgrade: done: serving {current}" in out, out
    # Both processes restarted during the game: every page moved at least once, and none of
    # them showed that it was reconnecting for long.
    reconnections = game.reconnections()
    assert all(game.opened[who] >= 1 for who in game.pages), game.opened
    assert all(r["drops"] >= 1 for r in reconnections.values()), reconnections
    assert all(r["longest"] <= RECONNECT_LIMIT_MS for r in reconnections.values()), (
        f"{reconnections}\n{diagnosis(deployment, since)}"
    )
    assert not server_errors(deployment, since), diagnosis(deployment, since)
    game.finish()
    # The lock did not change between the commits' virtualenvs: nothing was installed.
    assert "installing the runtime lock" not in out


def test_a_failed_migration_stops_the_upgrade_and_the_game_goes_on(
    tls_browser: Browser, host: Host
) -> None:
    """upgrade.sh to a commit whose migration fails: it stops with one line that names the step,
    the link and the processes stay as they were (no page even reconnects), nothing answers
    5xx, and the game goes on to the end."""
    deployment = host.deployment
    assert deployment is not None
    serving = host.serving()
    broken = commit_with_broken_migration(host.repo, serving)
    processes = [daphne.process.pid for daphne in deployment.daphnes if daphne.process]
    since = deployment.access_log.stat().st_size

    game = Game.start(tls_browser, deployment)
    game.play(until=UPGRADE_AT)
    upgrade = host.upgrade(broken)
    game.play(until=len(PLAN) - 1)
    status = game.wait_for(upgrade)
    game.play(until=len(PLAN))

    out, err = host.output()
    assert status != 0, out
    (line,) = err.splitlines()
    assert line.startswith("upgrade: FAILED: manage.py migrate"), line
    assert f"see {host.home / 'upgrade.log'}; still serving {serving}" in line, line
    assert "this_function_does_not_exist" in host.log()
    assert host.serving() == serving
    assert [daphne.process.pid for daphne in deployment.daphnes if daphne.process] == processes
    assert game.opened == dict.fromkeys(game.pages, 0), game.opened
    assert not server_errors(deployment, since)
    game.finish()


def commit_with_broken_migration(repo: Path, parent: str) -> str:
    """A commit on top of `parent` that adds a migration PostgreSQL refuses."""
    names = git(repo, "ls-tree", "--name-only", f"{parent}:game/migrations").splitlines()
    previous = max(name.removesuffix(".py") for name in names if re.match(r"\d{4}_", name))
    blob = git(
        repo, "hash-object", "-w", "--stdin", text=BROKEN_MIGRATION.format(previous=previous)
    )
    index = {"GIT_INDEX_FILE": str(repo / ".git" / "broken-index")}
    git(repo, "read-tree", parent, env=index)
    path = "game/migrations/9999_broken_on_purpose.py"
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=index)
    tree = git(repo, "write-tree", env=index)
    author = {
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.org",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.org",
    }
    return git(repo, "commit-tree", tree, "-p", parent, "-m", "A migration that fails", env=author)


# --- what upgrade.sh refuses --------------------------------------------------------------------


def run_upgrade(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """deploy/upgrade.sh with `args` and the environment `env`, to its end."""
    return subprocess.run(
        [str(UPGRADE), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def bare_host(tmp_path: Path) -> Host:
    """A host directory with a clone of this repository and an environment file, nothing
    installed."""
    home = tmp_path / "home"
    home.mkdir()
    git(servers.ROOT, "clone", "--quiet", str(servers.ROOT), str(home / "repo"))
    env_file = home / "production.env"
    env_file.write_text("DEBUG=0\n")
    return Host(home, env_file)


def test_a_bad_setting_or_revision_stops_with_one_line(bare_host: Host) -> None:
    """A setting that cannot be used, or a revision the repository does not have, stops the
    upgrade before it changes anything, with one line that says what is wrong."""
    env = bare_host.environment()
    usage = run_upgrade(env)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: "), usage.stderr

    bad = run_upgrade({**env, "MESSENGERS_HEALTH_TIMEOUT": "soon"}, "HEAD")
    assert bad.returncode == 2
    assert bad.stderr == (
        "upgrade: MESSENGERS_HEALTH_TIMEOUT must be a number of seconds, got 'soon'\n"
    )
    bad = run_upgrade({**env, "MESSENGERS_INSTANCES": "8001 eight"}, "HEAD")
    assert bad.returncode == 2
    assert "MESSENGERS_INSTANCES must be ports separated by spaces" in bad.stderr

    unknown = run_upgrade(env, "no-such-tag")
    assert unknown.returncode == 1, unknown.stderr
    (line,) = unknown.stderr.splitlines()
    assert line.startswith("upgrade: FAILED: no-such-tag is no commit of"), line
    assert line.endswith("still serving nothing yet"), line
    assert not (bare_host.home / "releases").exists()
    assert not bare_host.app.exists()
