"""A private Redis or PostgreSQL stopped under a running Daphne (DEBUG off): creating a table,
joining and a table page answer the 503 page with Retry-After, the log holds no server error,
and everything works again once the service is back (game/ops/unavailable.py)."""

from __future__ import annotations

import http.client
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

import pytest

from tests import servers

pytestmark = pytest.mark.services

FORM = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Ann", "colour": "blue"}
JOIN = {"name": "Bob", "colour": "red"}
DATABASE_WORDS = "The game server cannot reach its database right now; try again in a moment."


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: str


@dataclass
class Visitor:
    """A browser without JavaScript: keeps its cookies, posts forms with their CSRF token."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode({**form, "csrfmiddlewaretoken": self.cookies["csrftoken"]})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            answer = Answer(response.status, response.headers, response.read().decode())
        finally:
            connection.close()
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return answer

    def create_table(self) -> Answer:
        self.request("GET", "/")  # the CSRF cookie
        return self.request("POST", "/tables", FORM)

    def join(self, code: str) -> Answer:
        self.request("GET", "/")  # the CSRF cookie, from a page that needs no database
        return self.request("POST", f"/t/{code}/join", JOIN)


def created_code(answer: Answer) -> str:
    assert answer.status == 302, (answer.status, answer.body)
    match = re.fullmatch(r"/t/([a-z0-9]+)", answer.headers["Location"])
    assert match, answer.headers["Location"]
    return match.group(1)


def assert_unavailable(answer: Answer, words: str) -> None:
    assert answer.status == 503, (answer.status, answer.body)
    assert answer.headers["Retry-After"] == "10"
    assert words in answer.body
    assert "<h1>Try again in a moment</h1>" in answer.body


def assert_no_server_error(log: str) -> None:
    assert "Traceback" not in log, log
    assert not re.search(r'" 500 \d+', log), log
    assert "ERROR django.request" not in log, log


def test_redis_down_never_stops_a_table_being_made_or_a_seat_taken(postgres_url: str) -> None:
    """The hourly limits per address count in the database: with Redis down, at the process's
    start and later, a table is still made, its page still shown and a seat still taken (the
    page's socket waits for Redis); the lobby's publication that cannot go out is one warning
    line, and nothing answers 500."""
    with servers.restartable_redis() as redis:
        env = servers.production_env(
            DATABASE_URL=servers.create_database(postgres_url, "unavailable"),
            REDIS_URL=redis.url,
        )
        servers.migrate(env)
        redis.stop()
        with servers.restartable_daphne(env) as daphne:
            assert daphne.port is not None
            ann = Visitor(daphne.port)
            code = created_code(ann.create_table())
            assert ann.request("GET", f"/t/{code}").status == 200

            redis.start()
            created_code(ann.create_table())

            redis.stop()
            bob = Visitor(daphne.port)
            assert bob.join(code).status == 302
            created_code(ann.create_table())
            redis.start()
            log = daphne.log_path.read_text(errors="replace")

    assert_no_server_error(log)
    assert f"Publishing table.changed to table {code} failed: Redis unreachable" in log, log


def test_postgres_down_answers_503_until_it_returns(redis_url: str) -> None:
    with servers.restartable_postgres() as postgres:
        env = servers.production_env(
            DATABASE_URL=servers.create_database(postgres.url, "unavailable"),
            REDIS_URL=redis_url,
        )
        servers.migrate(env)
        with servers.restartable_daphne(env) as daphne:
            assert daphne.port is not None
            ann = Visitor(daphne.port)
            code = created_code(ann.create_table())

            postgres.stop()
            assert_unavailable(ann.request("GET", f"/t/{code}"), DATABASE_WORDS)
            assert_unavailable(ann.create_table(), DATABASE_WORDS)
            assert_unavailable(Visitor(daphne.port).join(code), DATABASE_WORDS)

            postgres.start()
            assert ann.request("GET", f"/t/{code}").status == 200
            assert Visitor(daphne.port).join(code).status == 302
            log = daphne.log_path.read_text(errors="replace")

    assert_no_server_error(log)
    assert "WARNING game.ops.unavailable 503 to a GET request: database unreachable" in log
