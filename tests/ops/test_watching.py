"""Watching a process: a log line per player action, the metrics at /metrics and who may read them
(docs/deployment.md, "Watching")."""

from __future__ import annotations

import logging
import re
import secrets
import subprocess
import sys

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError
from django.test import Client as HttpClient
from django.test import override_settings
from prometheus_client.parser import text_string_to_metric_families

from game.models import Table
from game.ops import metrics
from game.ops.metrics import REGISTRY
from tests.live.test_consumers import Client, command, first_placement, started_table
from tests.servers import ROOT, child_env, project_env

ACTION_LINE = re.compile(
    r"action table=(?P<table>\S+) seat=(?P<seat>\S+) type=(?P<type>\S+) outcome=(?P<outcome>\S+)"
    r"(?: code=(?P<code>\S+))? version=(?P<version>\S+) ms=(?P<ms>\d+\.\d)$"
)
TOKEN = "a-metrics-token-of-some-length"
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
"""Scraped values by metric name and sorted labels."""


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _actions(records: list[logging.LogRecord]) -> list[dict[str, str]]:
    found = []
    for record in records:
        if record.name == "game.commands":
            match = ACTION_LINE.fullmatch(record.getMessage())
            assert match, record.getMessage()
            found.append(match.groupdict())
    return found


@pytest.mark.django_db(transaction=True)
async def test_an_applied_and_a_refused_command_log_one_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    ann, bob = Client(code, tokens[0], []), Client(code, tokens[1], [])
    view = (await ann.connect())["view"]
    await bob.connect()
    caplog.set_level(logging.INFO)
    caplog.clear()

    await ann.send(command(0, "a1", first_placement(view)))
    await ann.receive("update")
    await bob.receive("update")
    await bob.send(command(0, "b1", first_placement(view)))
    assert (await bob.receive("error"))["code"] == "stale"
    await bob.send({"type": "sync"})  # reads only: no line
    await bob.receive("snapshot")
    await ann.close()
    await bob.close()

    applied, refused = _actions(caplog.records)
    assert applied == {
        "table": code,
        "seat": "0",
        "type": "place_tile",
        "outcome": "applied",
        "code": None,
        "version": "1",
        "ms": applied["ms"],
    }
    assert refused == {
        "table": code,
        "seat": "1",
        "type": "place_tile",
        "outcome": "refused",
        "code": "stale",
        "version": "1",
        "ms": refused["ms"],
    }
    logged = caplog.text
    assert all(token not in logged for token in tokens)


@pytest.mark.django_db(transaction=True)
async def test_lobby_actions_are_logged_with_their_frame_type(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from tests.live.test_consumers import make_table

    code, tokens = await make_table(["Ann", "Bob"], seats=3)
    bob = Client(code, tokens[1], [])
    await bob.connect()
    caplog.set_level(logging.INFO)
    await bob.send({"type": "start"})
    assert (await bob.receive("error"))["code"] == "not_creator"
    await bob.send({"type": "command", "version": 0, "id": "x", "command": {"type": "fly"}})
    assert (await bob.receive("error"))["code"] == "malformed"
    await bob.close()
    lines = _actions(caplog.records)
    assert [(line["type"], line["outcome"], line["code"]) for line in lines] == [
        ("start", "refused", "not_creator"),
        ("invalid", "refused", "malformed"),
    ]


def _scrape(
    client: HttpClient, **headers: str
) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/plain")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


@pytest.mark.django_db(transaction=True)
async def test_metrics_count_actions_latency_websockets_and_tables() -> None:
    applied = {"outcome": "applied", "code": "", "type": "place_tile"}
    refused = {"outcome": "refused", "code": "stale", "type": "place_tile"}
    before = {
        "applied": _sample("messengers_commands_total", **applied),
        "refused": _sample("messengers_commands_total", **refused),
        "latencies": _sample("messengers_command_seconds_count"),
        "open": _sample("messengers_open_websockets"),
    }
    code, tokens = await started_table(["Ann", "Bob"])
    await database_sync_to_async(Table.objects.create)(code="lobbyonly", preset="c2-hig")
    ann, bob = Client(code, tokens[0], []), Client(code, tokens[1], [])
    view = (await ann.connect())["view"]
    await bob.connect()
    await ann.send(command(0, "a1", first_placement(view)))
    await ann.receive("update")
    await bob.receive("update")
    await bob.send(command(0, "b1", first_placement(view)))
    await bob.receive("error")

    samples = await database_sync_to_async(_scrape)(HttpClient())
    assert samples[("messengers_commands_total", tuple(sorted(applied.items())))] == (
        before["applied"] + 1
    )
    assert samples[("messengers_commands_total", tuple(sorted(refused.items())))] == (
        before["refused"] + 1
    )
    assert samples[("messengers_command_seconds_count", ())] == before["latencies"] + 2
    assert samples[("messengers_open_websockets", ())] == before["open"] + 2
    assert samples[("messengers_tables", (("status", "playing"),))] == 1
    assert samples[("messengers_tables", (("status", "lobby"),))] == 1
    assert samples[("messengers_tables", (("status", "finished"),))] == 0
    assert ("process_cpu_seconds_total", ()) in samples

    await ann.close()
    await bob.close()
    assert _sample("messengers_open_websockets") == before["open"]


def _old_playing_table_with_a_computer() -> None:
    """A game abandoned an hour ago: playing, one seat handed to a computer, no decision since."""
    from datetime import timedelta

    from django.utils import timezone

    from game.models import Seat

    old = Table.objects.create(code="abandond", preset="c2-hig", status=Table.Status.PLAYING)
    Seat.objects.create(table=old, index=0, name="Cy", colour="red", token="t-old", computer="easy")
    Table.objects.filter(pk=old.pk).update(updated=timezone.now() - timedelta(hours=1))


@pytest.mark.django_db(transaction=True)
async def test_metrics_count_active_tables_connected_seats_computers_and_decisions() -> None:
    """Active tables are those played with a decision in the last ACTIVE_TABLE_MINUTES (an
    abandoned game stays "playing" but is not active); connected players are seats, however
    many sockets they hold; decisions count the committed log entries."""
    from game.models import Seat

    decisions = _sample("messengers_decisions_total")
    code, tokens = await started_table(["Ann", "Bob"])
    await database_sync_to_async(_old_playing_table_with_a_computer)()
    await database_sync_to_async(Seat.objects.filter(table__code=code, index=1).update)(
        computer="easy"
    )
    ann, ann_again = Client(code, tokens[0], []), Client(code, tokens[0], [])
    spectator = Client(code, None, [])
    view = (await ann.connect())["view"]
    await ann_again.connect()
    await spectator.connect()
    await ann.send(command(0, "a1", first_placement(view)))
    await ann.receive("update")

    samples = await database_sync_to_async(_scrape)(HttpClient())
    assert samples[("messengers_tables", (("status", "playing"),))] == 2
    assert samples[("messengers_active_tables", ())] == 1
    assert samples[("messengers_computer_players", ())] == 1
    assert samples[("messengers_connected_players", ())] == 1
    assert samples[("messengers_decisions_total", ())] == decisions + 1

    with override_settings(ACTIVE_TABLE_MINUTES=120):
        samples = await database_sync_to_async(_scrape)(HttpClient())
    assert samples[("messengers_active_tables", ())] == 2
    assert samples[("messengers_computer_players", ())] == 2
    for client in (ann, ann_again, spectator):
        await client.close()


@pytest.mark.django_db
def test_server_errors_of_actions_and_http_are_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.ops import observe
    from game.web import views

    before = {
        source: _sample("messengers_errors_total", source=source) for source in ("command", "http")
    }
    frame = {"type": "command", "command": {"type": "place_tile"}}
    with pytest.raises(RuntimeError), observe.action("abcdefgh", 0, frame):
        raise RuntimeError("a bug")

    def broken(*args: object) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "_home_context", broken)
    assert HttpClient(raise_request_exception=False).get("/").status_code == 500
    assert HttpClient().get("/healthz").status_code == 200
    assert HttpClient().get("/no-such-page").status_code == 404
    samples = _scrape(HttpClient())
    assert samples[("messengers_errors_total", (("source", "command"),))] == before["command"] + 1
    assert samples[("messengers_errors_total", (("source", "http"),))] == before["http"] + 1


@pytest.mark.django_db
def test_a_missing_page_is_not_logged_with_its_path(caplog: pytest.LogCaptureFixture) -> None:
    """An old seat link (the token in the path) answers 404 without writing the path anywhere."""
    caplog.set_level(logging.DEBUG)
    token = "Zr5Qx0cH3a1GkQ2m7yWv9A"
    assert HttpClient().get(f"/t/abcdefgh/rejoin/{token}").status_code == 404
    assert token not in caplog.text


@pytest.mark.django_db
def test_metrics_leave_out_the_tables_while_the_database_fails(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def unreachable() -> metrics.Activity:
        raise OperationalError("connection to server at db.internal failed")

    monkeypatch.setattr(metrics, "count_activity", unreachable)
    samples = _scrape(HttpClient())
    assert not any(name == "messengers_tables" for name, _ in samples)
    assert ("messengers_open_websockets", ()) in samples
    assert "counting tables for /metrics failed" in caplog.text


@pytest.mark.django_db
def test_metrics_answer_loopback_by_default() -> None:
    assert HttpClient().get("/metrics").status_code == 200
    assert HttpClient(REMOTE_ADDR="::1").get("/metrics").status_code == 200
    assert HttpClient(REMOTE_ADDR="::ffff:127.0.0.1").get("/metrics").status_code == 200


@pytest.mark.django_db
def test_metrics_are_a_missing_page_to_other_addresses_and_wrong_tokens() -> None:
    outside = HttpClient(REMOTE_ADDR="203.0.113.9")
    assert outside.get("/metrics").status_code == 404
    with override_settings(METRICS_TOKEN=TOKEN):
        assert outside.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 404
        assert outside.get("/metrics", headers={"Authorization": TOKEN}).status_code == 404
        right = outside.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert right.status_code == 200
        assert b"messengers_open_websockets" in right.content
    with override_settings(METRICS_ALLOWED_ADDRESSES=["203.0.113.0/24"]):
        assert outside.get("/metrics").status_code == 200
        assert HttpClient().get("/metrics").status_code == 404
    with override_settings(METRICS_ENABLED=False):
        assert HttpClient().get("/metrics").status_code == 404


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ({"METRICS_ALLOWED_ADDRESSES": "localhost"}, "METRICS_ALLOWED_ADDRESSES must list IP"),
        ({"METRICS_TOKEN": "short"}, "METRICS_TOKEN must be at least 16 characters"),
        ({"METRICS_ALLOWED_ADDRESSES": "none"}, "nobody could read /metrics"),
        (
            {"METRICS_ENABLED": "maybe"},
            "METRICS_ENABLED must be one of 1/true/yes/on or 0/false/no/off",
        ),
    ],
)
def test_bad_watching_settings_stop_the_start_with_one_line(
    env: dict[str, str], message: str
) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=child_env(project_env(**env)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    [line] = result.stderr.strip().splitlines()
    assert message in line


def test_good_watching_settings_are_read() -> None:
    env = {
        "LOG_LEVEL": "warning",
        "METRICS_ALLOWED_ADDRESSES": "10.0.0.0/8, ::1",
        "METRICS_TOKEN": TOKEN,
    }
    script = (
        "from django.conf import settings; import django, logging; django.setup();"
        "print(settings.LOG_LEVEL, settings.METRICS_ALLOWED_ADDRESSES,"
        " logging.getLogger().level == logging.WARNING)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=child_env(project_env(**env)),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.strip() == "WARNING ['10.0.0.0/8', '::1/128'] True"


@pytest.mark.django_db
def test_metrics_and_health_answer_whatever_the_host_header_names() -> None:
    """A check on the machine itself names the address, which ALLOWED_HOSTS need not hold: both
    pages answer it (game/ops/probes.py); /metrics still only to an allowed address or the token,
    and other pages still refuse the host."""
    foreign = HttpClient(HTTP_HOST="127.0.0.9:8001")
    with override_settings(ALLOWED_HOSTS=["play.example.org"]):
        assert foreign.get("/metrics").status_code == 200
        assert foreign.get("/healthz").status_code == 200
        assert foreign.get("/").status_code == 400
        outside = HttpClient(HTTP_HOST="127.0.0.9:8001", REMOTE_ADDR="203.0.113.9")
        assert outside.get("/metrics").status_code == 400


@pytest.mark.parametrize(("level", "lines"), [("INFO", 0), ("DEBUG", 1)])
def test_a_disallowed_host_is_logged_without_a_traceback(level: str, lines: int) -> None:
    """Django reports a Host outside ALLOWED_HOSTS with some thirty lines of traceback: left
    out (Daphne's access line is the request's one line), or one line at LOG_LEVEL=DEBUG."""
    script = (
        "import django; django.setup(); from django.test import Client;"
        "print(Client(HTTP_HOST='scanner.example.net').get('/').status_code)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=child_env(
            project_env(
                DEBUG="0",
                SECRET_KEY=secrets.token_urlsafe(50),
                LOG_LEVEL=level,
                ALLOWED_HOSTS="play.example.org",
            )
        ),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    output = result.stdout + result.stderr
    assert result.stdout.strip().endswith("400")
    reported = [line for line in output.splitlines() if "DisallowedHost" in line]
    assert len(reported) == lines, output
    assert "Traceback" not in output
