"""The Cross-Origin-Opener-Policy is sent only where a browser heeds it: over HTTPS and on the
machine itself. Over plain HTTP on the local network (a game night's `make run HOST=0.0.0.0`) a
browser ignores it and logs an error in the console of every page, so it is not sent there."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

HEADER = "Cross-Origin-Opener-Policy"
PAGES = ["/", "/static/game/common/ui.js"]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("host", ["192.168.1.20:8000", "games.example.org", "10.0.0.7"])
@override_settings(ALLOWED_HOSTS=["*"])
def test_plain_http_on_the_network_gets_no_opener_policy(path: str, host: str) -> None:
    response = Client().get(path, HTTP_HOST=host)
    assert response.status_code == 200
    assert HEADER not in response.headers


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize(
    "host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "table.localhost", "127.0.1.1"]
)
@override_settings(ALLOWED_HOSTS=["*"])
def test_the_machine_itself_gets_the_opener_policy(path: str, host: str) -> None:
    response = Client().get(path, HTTP_HOST=host)
    assert response.status_code == 200
    assert response.headers[HEADER] == "same-origin"


@pytest.mark.parametrize("path", PAGES)
@override_settings(ALLOWED_HOSTS=["*"])
def test_https_gets_the_opener_policy(path: str) -> None:
    response = Client().get(path, HTTP_HOST="192.168.1.20", secure=True)
    assert response.status_code == 200
    assert response.headers[HEADER] == "same-origin"


@override_settings(ALLOWED_HOSTS=["*"])
def test_a_hostile_host_header_is_only_compared() -> None:
    response = Client().get("/", HTTP_HOST="localhost\x00.evil:80")
    assert HEADER not in response.headers
