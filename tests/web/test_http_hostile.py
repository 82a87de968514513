"""Hostile HTTP requests: NUL bytes, invalid text and malformed table codes answer 400 or 404.

Never 500: with DEBUG on, a server error page shows the settings (database host, Redis URL).
PostgreSQL refuses NUL in text mid-query, so the checks must happen before any view queries.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client

from game.models import Seat, Table
from game.services.lobby import create_table

pytestmark = pytest.mark.django_db

BAD_CODES = [
    "",
    "a",
    "abcdefg",
    "abcdefghj",
    "x" * 300,
    "ABCDEFGH",
    "abcdefg1",  # 1 is not in the alphabet
    "abcdéfgh",
    "abcdefg\x00",
    "\x00" * 8,
    "абвгдежз",
    "abc%20efgh",
    "..%2F..%2F",
    "abcdefgh/../x",
    "😀😀😀😀😀😀😀😀",
]
SUFFIXES = [
    "",
    "/join",
    "/projector",
    "/record.json",
    "/story",
    "/story.json",
    "/results.csv",
    "/rejoin/x",
    "/rejoin/x/qr.svg",
]
HOSTILE_TEXT = ["\x00", "Ann\x00", "\x00\x00\x00", "é\x00é", "\x00" * 90]
RAW_BODIES = [
    b"name=%00&colour=orange",
    b"name=%ED%A0%80&colour=orange",
    b"name=%FF%FE&colour=%00",
    b"%00=1&name=Bob&colour=orange",
    b"name=Bob&colour=orange&name=%00",
    b"\xff\xfe\x00\x00",
]


@pytest.fixture
def table() -> Table:
    table, _ = create_table(preset="c2-hig", name="Ann", colour="blue")
    return table


def _status(response: object) -> int:
    return response.status_code  # type: ignore[attr-defined]


def test_malformed_codes_answer_404_for_every_page() -> None:
    client = Client(raise_request_exception=False)
    for code in BAD_CODES:
        for suffix in SUFFIXES:
            path = "/t/" + quote(code, safe="/%") + suffix
            get = client.get(path)
            post = client.post(path, {"name": "Bob", "colour": "orange"})
            assert _status(get) in (400, 404), (path, _status(get))
            assert _status(post) in (400, 404, 405), (path, _status(post))


def test_nul_and_invalid_text_in_fields_answer_400_and_change_nothing(table: Table) -> None:
    client = Client(raise_request_exception=False)
    tables = Table.objects.count()
    for text in HOSTILE_TEXT:
        for form in (
            {"name": text, "colour": "orange"},
            {"name": "Bob", "colour": text},
            {text: "x", "name": "Bob", "colour": "orange"},
        ):
            joined = client.post(f"/t/{table.code}/join", form)
            assert _status(joined) == 400, (form, _status(joined))
            created = client.post("/tables", {"preset": "c2-hig", "seats": "2", **form})
            assert _status(created) == 400
        query = client.get(f"/t/{table.code}", {"q": text})
        assert _status(query) == 400
    assert Seat.objects.filter(table=table).count() == 1
    assert Table.objects.count() == tables


def test_raw_bodies_never_answer_500(table: Table) -> None:
    """Bytes a browser could send but a form could not: invalid UTF-8 is read as U+FFFD."""
    client = Client(raise_request_exception=False)
    for body in RAW_BODIES:
        for content_type in ("application/x-www-form-urlencoded", "multipart/form-data; b=x"):
            response = client.post(f"/t/{table.code}/join", body, content_type=content_type)
            assert _status(response) in (302, 400), (body, content_type, _status(response))
    names = list(Seat.objects.filter(table=table).values_list("name", flat=True))
    assert not any("\x00" in name for name in names)


def test_hostile_text_in_a_rejoin_token_is_refused(table: Table) -> None:
    client = Client(raise_request_exception=False)
    for token in ["%00", "a%00b", "%ED%A0%80", "x" * 500, "%C3%A9" * 40, "..%2F"]:
        for suffix in ("", "/qr.svg"):
            response = client.get(f"/t/{table.code}/rejoin/{token}{suffix}")
            assert _status(response) in (400, 404), (token, _status(response))
    assert "seats" not in client.session


def test_an_ordinary_join_still_works(table: Table) -> None:
    client = Client()
    response = client.post(f"/t/{table.code}/join", {"name": "Bob", "colour": "orange"})
    assert _status(response) == 302
    assert Seat.objects.filter(table=table).count() == 2
