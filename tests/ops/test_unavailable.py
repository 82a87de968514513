"""PostgreSQL or Redis unreachable: a clear 503 page with Retry-After, never a bare 500
(game/ops/unavailable.py). Here in-process, with the failures raised where the services are used;
tests/ops/test_unavailable_services.py stops real servers under a running Daphne."""

from __future__ import annotations

import logging

import pytest
from django.db import IntegrityError, InternalError, OperationalError
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError

from game.ops.unavailable import Service, unreachable_service
from game.web import views

pytestmark = pytest.mark.django_db

FORM = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Ann", "colour": "blue"}
DATABASE_WORDS = "The game server cannot reach its database right now; try again in a moment."
REDIS_WORDS = "The game server cannot reach Redis right now; try again in a moment."


class _ReadOnly(Exception):
    sqlstate = "25006"


def test_only_unreachable_services_are_named() -> None:
    assert unreachable_service(OperationalError("connection refused")) is Service.DATABASE
    assert unreachable_service(RedisConnectionError("Error 111")) is Service.REDIS
    read_only = InternalError("cannot execute INSERT in a read-only transaction")
    read_only.__cause__ = _ReadOnly()
    assert unreachable_service(read_only) is Service.DATABASE
    assert unreachable_service(InternalError("something else")) is None
    assert unreachable_service(IntegrityError("duplicate key")) is None
    assert unreachable_service(ValueError("a bug")) is None


def test_redis_unreachable_during_a_request_answers_503(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """No page needs Redis today (the hourly limits count in the database), but a request that
    meets Redis away still gets the 503 page and one line, never a traceback."""

    def refused(**fields: object) -> object:
        raise RedisConnectionError("Error 111 connecting to redis.internal:6379")

    monkeypatch.setattr(views, "create_table", refused)
    caplog.set_level(logging.INFO)
    response = Client().post("/tables", FORM)
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    page = response.content.decode()
    assert REDIS_WORDS in page
    assert "redis.internal" not in page
    [line] = [r.getMessage() for r in caplog.records if r.name == "game.ops.unavailable"]
    assert line == "503 to a POST request: redis unreachable (ConnectionError)"
    assert not any(record.exc_info for record in caplog.records)


def test_database_down_answers_creating_a_table_with_503(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(**fields: object) -> object:
        raise OperationalError("connection to server at db.internal failed")

    monkeypatch.setattr(views, "create_table", refused)
    response = Client().post("/tables", FORM)
    assert response.status_code == 503
    assert DATABASE_WORDS in response.content.decode()


def test_any_other_error_stays_a_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**fields: object) -> object:
        raise ValueError("a bug")

    monkeypatch.setattr(views, "create_table", broken)
    response = Client(raise_request_exception=False).post("/tables", FORM)
    assert response.status_code == 500
