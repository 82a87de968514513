"""Backups as the production host makes them: deploy/backup.sh and deploy/restore.sh, run.

A game (the plan of tests/browser/test_browser.py) is played part-way over websockets against a
Daphne whose database belongs to a role of its own, as on a production host. Then deploy/backup.sh
runs as messengers-backup.service runs it: as the unit's user, with the unit's settings, only the
folder and the database name put in for the test's (the unit's own folder is /var/backups), and
libpq's variables pointing at the private cluster (the unit connects through Debian's local socket
instead). It

* writes dumps that only their owner can read, from their first byte on (checked from inside a
  pg_dump that the script runs: its umask and the mode of the file it writes);
* keeps the newest MESSENGERS_BACKUP_KEEP dumps when run on KEEP + 2 nights (a faked clock), and
  leaves files of other names alone;
* on a failed dump (a database that does not exist) exits non-zero with one line, and every dump
  stays as it was.

deploy/restore.sh, run as root as docs/deployment.md says, refuses while a client is connected
to the database, then restores the newest dump as a fresh database of another role. A Daphne
connected as that role finishes the game from where the dump was taken (not from where the
original database went on to), with the plan's final scores.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pwd
import re
import shutil
import stat
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests import servers
from tests.browser.test_browser import FINAL_SCORES, MESSAGES, NAMES, PLAN, TILES, expected_view
from tests.deploy_stack import APP_DIR, UNITS, exec_start, unit_values
from tests.live.test_redis_two_daphne import _is_snapshot, _receive_until

pytestmark = pytest.mark.services

BACKUP_UNIT = UNITS / "messengers-backup.service"
BACKUP_SCRIPT = servers.ROOT / "deploy" / "backup.sh"
RESTORE_SCRIPT = servers.ROOT / "deploy" / "restore.sh"

DUMPED_AT = 15
"""Decisions made when the dumps are taken: a message has been drawn and resolved, and Bob is
about to place the tile of turn 6."""

PLAYED_AFTER = 3
"""Decisions the original database goes on to after the dumps, which the restore must not
bring back."""

DUMP_NAME = re.compile(r"messengers-\d{8}T\d{6}Z\.dump")

TIMEOUT = 120
"""Seconds a script may take; generous for a loaded 2-core machine."""


# --- the private cluster, as a production host's ----------------------------------------------


@dataclass(frozen=True)
class Cluster:
    """The session's private PostgreSQL, and what a client tool needs to reach it."""

    url: str

    def libpq_env(self) -> dict[str, str]:
        """libpq's variables for the cluster, and its own version of the client tools first on
        PATH (the unit relies on Debian's defaults: the local socket and /usr/bin)."""
        parts = urlsplit(self.url)
        return {
            "PGHOST": parts.hostname or "127.0.0.1",
            "PGPORT": str(parts.port),
            "PGUSER": parts.username or servers.POSTGRES_SUPERUSER,
            "PATH": f"{servers.postgres_bindir()}{os.pathsep}{os.environ['PATH']}",
        }

    def database_url(self, role: str, database: str) -> str:
        """The URL a server process uses: `database` as `role` (local connections are trusted)."""
        parts = urlsplit(self.url)
        return urlunsplit(
            parts._replace(netloc=f"{role}@{parts.netloc.split('@')[-1]}", path=f"/{database}")
        )

    def owned_database(self, prefix: str) -> tuple[str, str]:
        """A new login role and an empty database it owns, as docs/deployment.md makes them
        (`createuser`, `createdb --owner`); their names."""
        suffix = uuid.uuid4().hex[:12]
        role, database = f"{prefix}_role_{suffix}", f"{prefix}_{suffix}"
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE ROLE "{role}" LOGIN')
            connection.execute(f'CREATE DATABASE "{database}" OWNER "{role}"')
        return role, database

    def table_owners(self, database: str) -> set[str]:
        """The owners of the tables of `database`."""
        parts = urlsplit(self.url)
        with psycopg.connect(urlunsplit(parts._replace(path=f"/{database}"))) as connection:
            rows = connection.execute(
                "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        return {owner for (owner,) in rows}

    def databases(self) -> set[str]:
        """The names of the cluster's databases."""
        with psycopg.connect(self.url) as connection:
            rows = connection.execute("SELECT datname FROM pg_database").fetchall()
        return {name for (name,) in rows}


def run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a deployment script with `env` added, from a shell's usual umask (022): the script
    must not rely on its caller's."""
    return subprocess.run(
        argv,
        cwd="/",
        env=servers.child_env(env),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        umask=0o022,
    )


def output_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    """Everything a script printed, line by line."""
    return (result.stdout + result.stderr).strip().splitlines()


# --- the backup unit --------------------------------------------------------------------------


def unit_environment(unit: Path) -> dict[str, str]:
    """The unit's `Environment=KEY=value` settings."""
    settings = {}
    for assignment in unit_values(unit, "Environment"):
        key, _, value = assignment.partition("=")
        settings[key] = value
    return settings


@contextlib.contextmanager
def owned_folder(user: str | None) -> Iterator[Path]:
    """A private folder (mode 700) of `user` under /tmp, where that user can reach it."""
    path = Path(tempfile.mkdtemp(prefix="messengers-backup-", dir="/tmp"))
    try:
        if user is not None:
            shutil.chown(path, user, user)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


RECORDING_PG_DUMP = """#!/bin/sh
# Records how deploy/backup.sh runs pg_dump, then runs the real one.
for arg; do case "$arg" in --file=*) file=${arg#--file=} ;; esac; done
printf '%s %s %s\\n' "$(umask)" "$(stat -c %a "$file")" "$(basename "$file")" >> LOG
exec REAL "$@"
"""


@dataclass
class BackupUnit:
    """messengers-backup.service's command, run here: as the unit's user, with the unit's
    settings (the test's folder and database put in), a recording pg_dump in front of the
    real one."""

    folder: Path
    user: str | None
    """The unit's user, when the test can become it (as root); None runs as the test's user,
    who then also runs the private cluster."""
    settings: dict[str, str]
    env: dict[str, str]
    pg_dump_log: Path
    """One line per pg_dump the script ran: its umask, the mode and the name of its file."""

    def run(self, **settings: str) -> subprocess.CompletedProcess[str]:
        """The unit's ExecStart, with `settings` on top of the unit's."""
        argv = [str(BACKUP_SCRIPT)]
        if self.user is not None:
            argv = ["runuser", "-u", self.user, "--", *argv]
        return run(argv, {**self.env, **self.settings, **settings})

    def files(self) -> dict[str, tuple[int, int, str]]:
        """Every file in the folder, by name: its mode, its owner and a hash of its content."""
        found = {}
        for path in sorted(self.folder.iterdir()):
            info = path.stat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            found[path.name] = (stat.S_IMODE(info.st_mode), info.st_uid, digest)
        return found

    def pg_dumps(self) -> list[list[str]]:
        """What the recording pg_dump saw, one [umask, mode, file name] per run."""
        if not self.pg_dump_log.exists():
            return []
        return [line.split() for line in self.pg_dump_log.read_text().splitlines()]


@contextlib.contextmanager
def backup_unit(cluster: Cluster, database: str) -> Iterator[BackupUnit]:
    """The backup unit's command, set to dump `database` into a private folder of its user."""
    assert exec_start(BACKUP_UNIT) == [f"{APP_DIR}/deploy/backup.sh"]
    (unit_user,) = unit_values(BACKUP_UNIT, "User")
    user = unit_user if os.geteuid() == 0 else None
    if user is not None:
        try:
            pwd.getpwnam(user)
        except KeyError:
            servers.missing(f"the '{user}' system user of the backup unit")
    settings = unit_environment(BACKUP_UNIT)
    # The folder the test replaces is the one the unit may write to.
    assert unit_values(BACKUP_UNIT, "ReadWritePaths") == [f"-{settings['MESSENGERS_BACKUP_DIR']}"]
    with owned_folder(user) as folder, owned_folder(user) as tools:
        pg_dump = tools / "pg_dump"
        log = tools / "pg_dump.log"
        real = servers.postgres_bindir() / "pg_dump"
        pg_dump.write_text(RECORDING_PG_DUMP.replace("LOG", str(log)).replace("REAL", str(real)))
        pg_dump.chmod(0o755)
        env = cluster.libpq_env()
        env["PATH"] = f"{tools}{os.pathsep}{env['PATH']}"
        yield BackupUnit(
            folder=folder,
            user=user,
            settings={
                **settings,
                "MESSENGERS_BACKUP_DIR": str(folder),
                "MESSENGERS_BACKUP_DATABASE": database,
            },
            env=env,
            pg_dump_log=log,
        )


def night(index: int) -> str:
    """The time of the `index`-th night's backup, as `date -d` reads it (the faked clock)."""
    return f"2030-01-01 03:17:00 UTC + {index} days"


# --- the game ---------------------------------------------------------------------------------


async def open_seat(base: str, code: str, token: str) -> ClientConnection:
    """The table's websocket on `base`, seated by `token` (as a script connects)."""
    return await connect(
        f"ws://{base.removeprefix('http://')}/ws/t/{code}",
        additional_headers={"X-Seat-Token": token},
        origin=Origin(base),
        proxy=None,
        open_timeout=20,
    )


async def play(base: str, table: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Connect both seats, start the game if it is in the lobby, and play `actions` (record
    actions of the plan), each from its seat's socket. Returns what the creator's socket saw on
    connecting (`opened`, the game's snapshot) and the view after the last action (`view`)."""
    seats = [await open_seat(base, table["code"], token) for token in table["tokens"]]
    try:
        snapshot = await _receive_until(seats[0], lambda m: m.get("type") == "snapshot")
        if snapshot["table"]["status"] == "lobby":
            await seats[0].send(json.dumps({"type": "start"}))
            snapshot = await _receive_until(seats[0], _is_snapshot("playing"))
        version, view = snapshot["version"], snapshot["view"]
        for action in actions:
            command = {key: value for key, value in action.items() if key != "seat"}
            frame_id = uuid.uuid4().hex
            frame = {"type": "command", "version": version, "id": frame_id, "command": command}
            socket = seats[action["seat"]]
            await socket.send(json.dumps(frame))
            update = await _receive_until(socket, answer_to(frame_id))
            version, view = update["version"], update["view"]
        return {"opened": snapshot, "view": view}
    finally:
        for socket in seats:
            await socket.close()


def answer_to(frame_id: str) -> Callable[[dict[str, Any]], bool]:
    """Accepts the `update` that applied the command frame `frame_id`."""
    return lambda message: message.get("type") == "update" and message.get("id") == frame_id


def public(view: dict[str, Any]) -> dict[str, Any]:
    """A view without `you` (which seat it was sent to), to compare with the engine's."""
    return {key: value for key, value in view.items() if key != "you"}


# --- the tests --------------------------------------------------------------------------------


def test_a_bad_setting_stops_the_backup_with_one_line(postgres_url: str) -> None:
    """MESSENGERS_BACKUP_KEEP must be a count of 1 or more; anything else (0, a word, a number
    with a leading zero, which the shell would read as octal) stops before any dump."""
    with backup_unit(Cluster(postgres_url), "postgres") as unit:
        for keep in ("0", "two", "014", "-3"):
            result = unit.run(MESSENGERS_BACKUP_KEEP=keep)
            assert result.returncode != 0, keep
            assert output_lines(result) == [
                "messengers-backup: FAILED: MESSENGERS_BACKUP_KEEP must be a whole number of"
                f" dumps, 1 or more, got '{keep}'"
            ]
        assert unit.files() == {}
        assert unit.pg_dumps() == []


async def test_nightly_dumps_rotate_fail_safely_and_restore_a_game_that_goes_on(
    postgres_url: str,
) -> None:
    """The dumps of a game played part-way are private, rotated and never replaced by a failed
    one; the newest, restored by deploy/restore.sh as a fresh database of another role, serves
    the game from where the dump was taken to its end."""
    if os.geteuid() != 0:
        servers.missing("root (deploy/restore.sh runs as root, as docs/deployment.md says)")
    cluster = Cluster(postgres_url)
    role, database = cluster.owned_database("played")
    env = servers.project_env(
        DATABASE_URL=cluster.database_url(role, database),
        MESSENGERS_FIXED_TILES=",".join(TILES),
        MESSENGERS_FIXED_MESSAGES=",".join(str(m) for m in MESSAGES),
    )
    servers.migrate(env)
    table = servers.run_script(env, "tests.lobby_script", *NAMES)
    with servers.daphne_server(env) as base:
        at_dump = (await play(base, table, PLAN[:DUMPED_AT]))["view"]
        assert public(at_dump) == public(expected_view(DUMPED_AT))

        with backup_unit(cluster, database) as unit:
            keep = int(unit.settings["MESSENGERS_BACKUP_KEEP"])
            # An operator's own copy in the folder, which the rotation must leave alone.
            copy = unit.folder / "messengers-before-upgrade.dump"
            copy.write_bytes(b"kept by hand")
            if unit.user is not None:
                shutil.chown(copy, unit.user, unit.user)
            names = []
            for index in range(keep + 2):
                result = unit.run(MESSENGERS_BACKUP_TIME=night(index))
                assert result.returncode == 0, output_lines(result)
                (line,) = output_lines(result)
                written = re.search(r"wrote (\S+) \(", line)
                assert written, line
                names.append(Path(written.group(1)).name)
            assert all(DUMP_NAME.fullmatch(name) for name in names), names
            assert len(set(names)) == keep + 2

            files = unit.files()
            owner = pwd.getpwnam(unit.user).pw_uid if unit.user else os.geteuid()
            assert sorted(files) == sorted([*names[2:], copy.name])
            assert all(files[name][:2] == (0o600, owner) for name in names[2:]), files
            # pg_dump itself ran under umask 077, writing to a hidden file that was already 600.
            recorded = unit.pg_dumps()
            assert len(recorded) == keep + 2
            for (umask, mode, partial), name in zip(recorded, names, strict=True):
                assert (umask, mode) == ("0077", "600")
                assert partial.startswith(f".{name}.")

            result = unit.run(
                MESSENGERS_BACKUP_DATABASE=f"missing_{uuid.uuid4().hex[:8]}",
                MESSENGERS_BACKUP_TIME=night(keep + 2),
            )
            assert result.returncode != 0
            (line,) = output_lines(result)
            assert line.startswith("messengers-backup: FAILED: pg_dump of database 'missing_")
            assert "does not exist" in line
            assert unit.files() == files, "a failed dump changed the folder"
            newest = unit.folder / names[-1]

            # The original database goes on; the restore must not bring these decisions back.
            later = await play(base, table, PLAN[DUMPED_AT : DUMPED_AT + PLAYED_AFTER])
            assert later["view"]["version"] == at_dump["version"] + PLAYED_AFTER

            restored_role, restored = cluster.owned_database("restored")
            restore_env = cluster.libpq_env()
            restore = [str(RESTORE_SCRIPT), str(newest), restored]
            # Refused while any client is connected to the database it replaces.
            with psycopg.connect(cluster.database_url(restored_role, restored)):
                result = run(restore, restore_env)
            assert result.returncode != 0
            (line,) = output_lines(result)
            assert (
                f"database '{restored}' has 1 open connection(s), of role(s) {restored_role}:"
                in line
            )
            assert "nothing was restored" in line
            assert cluster.table_owners(restored) == set()

            result = run(restore, restore_env)
            assert result.returncode == 0, output_lines(result)
            told = "\n".join(output_lines(result))
    assert f"restored {newest} as database '{restored}' (owned by {restored_role})" in told
    assert "the open pages reconnect" in told
    # Every table belongs to the database's owner, the role the server connects as.
    assert cluster.table_owners(restored) == {restored_role}
    # The empty database it replaced is kept, under the name the script told.
    put_aside = re.search(r"kept as '([^']+)'", told)
    assert put_aside and put_aside.group(1) in cluster.databases()
    assert put_aside.group(1).startswith(f"{restored}_before_restore_")

    # No fixed tiles this time: the game's tiles and messages come from the restored database.
    restored_env = servers.project_env(DATABASE_URL=cluster.database_url(restored_role, restored))
    with servers.daphne_server(restored_env) as base:
        finished = await play(base, table, PLAN[DUMPED_AT:])
    opened = finished["opened"]
    assert opened["version"] == at_dump["version"]
    assert public(opened["view"]) == public(at_dump)
    final = finished["view"]
    assert public(final) == public(expected_view(len(PLAN)))
    assert final["finished"]
    assert {player["name"]: player["score"] for player in final["players"]} == FINAL_SCORES
