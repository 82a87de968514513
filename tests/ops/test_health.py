"""``/healthz``: 200 when the database takes a write, the channel layer answers and the static
files' manifest is there; 503 naming what failed. tests/ops/test_health_services.py makes a real
PostgreSQL read-only under a Daphne."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import AsyncClient, override_settings

from game.models import HealthCheck
from game.ops import health
from messengers.version import VERSION

HEALTHY = {"database": "ok", "channel_layer": "ok", "static_files": "ok", "version": VERSION}

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_healthy_process_answers_200() -> None:
    response = await AsyncClient().get("/healthz")
    assert response.status_code == 200
    assert response.json() == HEALTHY
    assert "no-cache" in response["Cache-Control"]


async def test_each_check_commits_a_write() -> None:
    await AsyncClient().get("/healthz")
    first = await HealthCheck.objects.aget()
    await AsyncClient().get("/healthz")
    second = await HealthCheck.objects.aget()
    assert first.pk == second.pk == health.ROW
    assert second.checked > first.checked


class _DeadLayer:
    async def new_channel(self, prefix: str = "") -> str:
        raise ConnectionError("Error 111 connecting to redis.internal:6379")


async def test_a_dead_channel_layer_answers_503_naming_it(monkeypatch: Any) -> None:
    monkeypatch.setattr(health, "get_channel_layer", lambda: _DeadLayer())
    response = await AsyncClient().get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["channel_layer"] == "failed (ConnectionError)"
    assert "redis.internal" not in response.content.decode()


async def test_a_failing_database_answers_503_naming_it(monkeypatch: Any) -> None:
    def broken() -> None:
        raise OSError("could not connect to server at db.internal")

    monkeypatch.setattr(health, "_write_database", broken)
    response = await AsyncClient().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {**HEALTHY, "database": "failed (OSError)"}
    assert "db.internal" not in response.content.decode()


async def test_a_missing_static_manifest_answers_503_naming_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """With DEBUG off and hashed static files, STATIC_ROOT/staticfiles.json must be there (a
    release step that failed halfway, or a cleaned folder, leaves every page without its files)."""
    hashed = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "messengers.staticfiles.HashedStaticFiles"},
    }
    with override_settings(DEBUG=False, STORAGES=hashed, STATIC_ROOT=tmp_path):
        caplog.set_level(logging.WARNING)
        response = await AsyncClient().get("/healthz")
        assert response.status_code == 503
        assert response.json() == {**HEALTHY, "static_files": "missing (staticfiles.json)"}
        assert caplog.messages == ["health check static_files: missing (staticfiles.json)"]

        (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": {}, "version": "1.1"}))
        response = await AsyncClient().get("/healthz")
        assert response.status_code == 200, response.json()


async def test_a_check_that_hangs_counts_as_failed(monkeypatch: Any) -> None:
    class _SilentLayer:
        async def new_channel(self, prefix: str = "") -> str:
            return "healthz.x"

        async def send(self, channel: str, message: dict[str, Any]) -> None:
            return None

        async def receive(self, channel: str) -> dict[str, Any]:
            import asyncio

            await asyncio.sleep(60)
            return {}

    monkeypatch.setattr(health, "get_channel_layer", lambda: _SilentLayer())
    monkeypatch.setattr(health, "CHECK_SECONDS", 0.2)
    response = await AsyncClient().get("/healthz")
    assert response.status_code == 503
    assert response.json()["channel_layer"] == "no answer within 0.2 s"
