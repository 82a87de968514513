"""``/healthz``: 200 when the database and the channel layer answer, 503 naming what failed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import AsyncClient

from game import health

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_healthy_process_answers_200() -> None:
    response = await AsyncClient().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "channel_layer": "ok"}
    assert "no-cache" in response["Cache-Control"]


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

    monkeypatch.setattr(health, "_query_database", broken)
    response = await AsyncClient().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "failed (OSError)", "channel_layer": "ok"}


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
