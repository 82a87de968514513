"""A browser's session keeps only its latest seats, so its signed cookie stays well under 4 KB."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, override_settings

from game.services.lobby import create_table

pytestmark = pytest.mark.django_db


def _join(client: Client, code: str) -> None:
    response = client.post(f"/t/{code}/join", {"name": "Bob", "colour": "orange"})
    assert response.status_code == 302


def test_a_browser_at_many_tables_keeps_its_latest_seats_in_a_small_cookie() -> None:
    codes = [
        create_table(preset="c3", name="Ann", colour="blue")[0].code
        for _ in range(settings.SESSION_SEATS + 10)
    ]
    bob = Client()
    for code in codes:
        _join(bob, code)
    seats = bob.session["seats"]
    assert list(seats) == codes[-settings.SESSION_SEATS :]
    cookie = bob.cookies[settings.SESSION_COOKIE_NAME].value
    assert len(cookie) < 3000
    assert bob.get(f"/t/{codes[-1]}").context["seat"] is not None
    assert bob.get(f"/t/{codes[0]}").context["seat"] is None


@override_settings(SESSION_SEATS=2)
def test_a_seat_used_again_becomes_the_most_recent() -> None:
    codes = [create_table(preset="c3", name="Ann", colour="blue")[0].code for _ in range(3)]
    bob = Client()
    _join(bob, codes[0])
    _join(bob, codes[1])
    token = bob.session["seats"][codes[0]]
    response = bob.post(f"/t/{codes[0]}/rejoin", {"token": token})
    assert response.status_code == 302
    _join(bob, codes[2])
    assert list(bob.session["seats"]) == [codes[0], codes[2]]
