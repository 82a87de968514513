"""The HTTP pages: creating a table, joining, rejoining, the projector and the record."""

from __future__ import annotations

import io
import json
import random

import pytest
from django.test import Client, override_settings

from game.engine import record
from game.engine.autoplay import random_command
from game.models import LogEntry, Seat, Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game
from game.store.tables import load_state
from game.web.forms import house_rules

pytestmark = pytest.mark.django_db


def create(client: Client, **fields: str) -> object:
    form = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Ann", "colour": "blue"}
    return client.post("/tables", {**form, **fields})


def test_creating_a_table_seats_the_creator_and_redirects() -> None:
    client = Client()
    response = create(client, opt_alone_rule="true", opt_messages_per_turn="1")
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}"
    assert table.overrides == {"alone_rule": True, "messages_per_turn": 1}
    assert client.session["seats"] == {table.code: table.seats.get().token}
    page = client.get(f"/t/{table.code}")
    assert page.status_code == 200
    assert page.context["seat"].name == "Ann" and not page.context["can_join"]


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"name": " "}, "your name"),
        ({"colour": "mauve"}, "colour"),
        ({"seats": "9"}, "2 to 6"),
        ({"seats": "two"}, "2 to 6"),
        ({"preset": "c4"}, "editions"),
        ({"opt_alone_rule": "maybe"}, "alone_rule"),
        ({"mode": "online"}, "on the board or at a game night"),
    ],
)
def test_a_bad_create_form_is_shown_again_with_the_reason(fields: dict, error: str) -> None:
    response = create(Client(), **fields)
    assert response.status_code == 400
    assert any(error in message for message in response.context["errors"])
    assert not Table.objects.exists()


def test_joining_takes_the_next_seat_and_refuses_taken_colours() -> None:
    create(Client())
    table = Table.objects.get()
    bob = Client()
    refused = bob.post(f"/t/{table.code}/join", {"name": "Bob", "colour": "blue"})
    assert refused.status_code == 400 and "colour is taken" in refused.context["join_error"]
    assert bob.get(f"/t/{table.code}").context["can_join"]

    joined = bob.post(f"/t/{table.code}/join", {"name": "Bob", "colour": "green"})
    assert joined.status_code == 302
    assert Seat.objects.get(token=bob.session["seats"][table.code]).index == 1

    late = Client()
    full = late.post(f"/t/{table.code}/join", {"name": "Cy", "colour": "pink"})
    assert full.status_code == 400 and "taken" in full.context["join_error"]
    assert late.get(f"/t/{table.code}").context["seat"] is None


def rejoin(client: Client, code: str, token: str) -> object:
    """What the rejoin page's script does with the token from the link's fragment."""
    return client.post(f"/t/{code}/rejoin", {"token": token})


def test_a_rejoin_link_brings_a_second_device_into_the_seat() -> None:
    """The token rides in the fragment (never sent, never logged); the page posts it."""
    create(Client())
    table = Table.objects.get()
    seat = table.seats.get()
    phone = Client(enforce_csrf_checks=True)
    page = phone.get(f"/t/{table.code}/rejoin")
    assert page.status_code == 200 and "rejoin.js" in page.content.decode()
    forged = rejoin(phone, table.code, seat.token)
    assert forged.status_code == 403 and phone.session.get("seats") is None
    csrf = phone.cookies["csrftoken"].value
    response = phone.post(
        f"/t/{table.code}/rejoin", {"token": seat.token, "csrfmiddlewaretoken": csrf}
    )
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}"
    assert phone.get(f"/t/{table.code}").context["seat"] == seat


@pytest.mark.parametrize("token", ["", "not.a.token", "x" * 5000, "a\x00b"])
def test_a_wrong_rejoin_token_changes_nothing_and_says_so(token: str) -> None:
    create(Client())
    table = Table.objects.get()
    stranger = Client()
    response = rejoin(stranger, table.code, token)
    if "\x00" in token:  # refused before any view runs (game/web/badtext.py)
        assert response.status_code == 400
    else:
        assert response.status_code == 404
        assert "not valid for this table" in response.content.decode()
    assert stranger.get(f"/t/{table.code}").context["seat"] is None


def test_a_token_of_another_table_does_not_open_this_one() -> None:
    create(Client())
    create(Client())
    table, other = Table.objects.order_by("id")
    assert rejoin(Client(), table.code, other.seats.get().token).status_code == 404


def test_old_rejoin_links_with_the_token_in_the_path_are_gone() -> None:
    create(Client())
    table = Table.objects.get()
    token = table.seats.get().token
    assert Client().get(f"/t/{table.code}/rejoin/{token}").status_code == 404
    assert Client().get(f"/t/{table.code}/rejoin/{token}/qr.svg").status_code == 404


def test_unknown_tables_are_404() -> None:
    assert Client().get("/t/zzzzzzzz").status_code == 404
    assert Client().get("/t/zzzzzzzz/projector").status_code == 404


def test_the_projector_shows_a_qr_code_of_the_join_link() -> None:
    create(Client())
    table = Table.objects.get()
    page = Client().get(f"/t/{table.code}/projector")
    assert page.status_code == 200
    assert page.context["join_url"] == f"http://testserver/t/{table.code}"
    assert "<svg" in page.context["qr_svg"]


def test_house_rules_are_named_in_words_where_they_differ_from_the_edition() -> None:
    """Only options that differ from the preset are house rules, in the create form's words and
    order; an override equal to the edition's value (c2-zmg has the alone rule) is none."""
    assert house_rules("c2-zmg", {"messages_per_turn": 1, "alone_rule": True}) == [
        "Messages per turn: 1"
    ]
    assert house_rules("c3", {"messages_per_turn": None, "chain": True}) == [
        "Chained messages: Yes",
        "Messages per turn: No cap",
    ]
    assert house_rules("c2-hig", {}) == []


def test_the_lobby_table_and_projector_pages_name_the_house_rules() -> None:
    client = Client()
    create(client, opt_alone_rule="true", opt_extra_tile="extra_turn")
    table = Table.objects.get()
    words = "Alone on the dark space: On · One more tile: Extra turn"
    for page in (client.get(f"/t/{table.code}"), Client().get(f"/t/{table.code}/projector")):
        assert page.context["house_rules"] == words.split(" · ")
        assert words in page.content.decode()
    plain = Client()
    create(plain)
    other = Table.objects.exclude(pk=table.pk).get()
    assert "House rules" not in plain.get(f"/t/{other.code}").content.decode()


@pytest.mark.parametrize(
    ("host", "allowed", "warning"),
    [
        ("127.0.0.1:8000", ["localhost", "127.0.0.1"], {"lan_url": None}),
        (
            "localhost:8000",
            ["localhost", "192.168.1.20", "[::1]"],
            {"lan_url": "http://192.168.1.20:8000/t/{code}/projector"},
        ),
        (
            "[::1]:8000",
            ["[::1]", "[fd00::7]"],
            {"lan_url": "http://[fd00::7]:8000/t/{code}/projector"},
        ),
        ("192.168.1.20:8000", ["192.168.1.20"], None),
        ("game.example.org", ["game.example.org"], None),
    ],
)
def test_the_projector_warns_when_its_address_only_works_on_this_computer(
    host: str, allowed: list[str], warning: dict | None
) -> None:
    """A QR code of localhost sends every phone to itself: the page says so, with the network
    address when the server allows one (a game night's `make run HOST=0.0.0.0`)."""
    create(Client())
    table = Table.objects.get()
    with override_settings(ALLOWED_HOSTS=allowed):
        page = Client().get(f"/t/{table.code}/projector", HTTP_HOST=host)
    assert page.status_code == 200
    if warning and warning["lan_url"]:
        warning = {"lan_url": warning["lan_url"].format(code=table.code)}
    assert page.context["qr_warning"] == warning
    assert ("Phones cannot open this address" in page.content.decode()) == (warning is not None)


@override_settings(FIXED_TILES=["E", "U"], FIXED_MESSAGES=[str(m) for m in range(1, 9)])
def test_the_record_is_offered_only_once_the_game_is_over() -> None:
    ann = Client()
    create(ann)
    table = Table.objects.get()
    Client().post(f"/t/{table.code}/join", {"name": "Bob", "colour": "green"})
    start_game(table.code, table.seats.get(index=0).token)
    assert ann.get(f"/t/{table.code}/record.json").status_code == 409

    version = 0
    table.refresh_from_db()
    while True:
        state = load_state(table)
        if state.finished:
            break
        seat, command = random_command(state, random.Random(version))
        submit_command(table.code, seat, version, f"c{version}", command.to_message())
        table.refresh_from_db()
        version = table.version
    assert table.status == Table.Status.FINISHED

    response = ann.get(f"/t/{table.code}/record.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    game = json.loads(response.content)
    assert game["tiles"] == ["E", "U"] and len(game["actions"]) == LogEntry.objects.count()
    assert record.replay(game).state.players == state.players


def test_a_started_tabletop_game_serves_the_scoreboard_console() -> None:
    table, ann = create_table(preset="c3", mode="tabletop", name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    lobby = Client().get(f"/t/{table.code}").content.decode()
    assert "table.js" in lobby and "console.js" not in lobby
    start_game(table.code, ann.token)
    host = Client()
    rejoin(host, table.code, ann.token)
    page = host.get(f"/t/{table.code}").content.decode()
    assert "console.js" in page and "table.js" not in page
    assert "Host console" in page
    watcher = Client().get(f"/t/{table.code}").content.decode()
    assert "console.js" in watcher and "Host console" not in watcher


def test_the_console_is_told_the_bound_of_plausible_points_from_the_setting() -> None:
    """The console asks before an entry above MESSENGERS_IMPLAUSIBLE_POINTS (default 30)."""
    table, ann = create_table(preset="c3", mode="tabletop", name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    assert 'data-implausible="30"' in Client().get(f"/t/{table.code}").content.decode()
    with override_settings(IMPLAUSIBLE_POINTS=45):
        page = Client().get(f"/t/{table.code}").content.decode()
    assert 'data-implausible="45"' in page


def test_a_seat_link_as_a_qr_code_only_for_that_seat_or_the_host() -> None:
    """The QR code encodes the absolute link with the token in the fragment; its own URL names
    the seat only, and it is served to that seat's browser or the host's, never cached."""
    import segno

    table, ann = create_table(preset="c3", mode="tabletop", name="Ann", colour="blue")
    bob = join_table(table.code, name="Bob", colour="orange")
    join_table(table.code, name="Cy", colour="green")
    host, bobs, cys = Client(), Client(), Client()
    rejoin(host, table.code, ann.token)
    rejoin(bobs, table.code, bob.token)
    rejoin(cys, table.code, table.seats.get(index=2).token)
    url = f"/t/{table.code}/seats/1/qr.svg"
    for client in (host, bobs):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "image/svg+xml"
        assert response["Cache-Control"] == "private, no-store"
        svg = response.content.decode()
        assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
        expected = segno.make(f"http://testserver/t/{table.code}/rejoin#{bob.token}", error="m")
        out = io.BytesIO()
        expected.save(out, kind="svg", xmldecl=False, scale=8, dark="#111", light="#fff")
        assert response.content == out.getvalue()
    assert cys.get(url).status_code == 404  # another player
    assert Client().get(url).status_code == 404  # a spectator
    assert host.get(f"/t/{table.code}/seats/7/qr.svg").status_code == 404
    assert host.get(f"/t/{table.code}/seats/{10**30}/qr.svg").status_code == 404
    assert cys.get(f"/t/{table.code}/seats/2/qr.svg").status_code == 200


def test_the_host_of_a_board_game_gets_every_seats_qr_code_and_players_only_their_own() -> None:
    """The host hands out any seat's link (a player who lost theirs, someone admitted)."""
    table, ann = create_table(preset="c3", mode="board", name="Ann", colour="blue")
    bob = join_table(table.code, name="Bob", colour="orange")
    host, bobs = Client(), Client()
    rejoin(host, table.code, ann.token)
    rejoin(bobs, table.code, bob.token)
    assert host.get(f"/t/{table.code}/seats/1/qr.svg").status_code == 200
    assert host.get(f"/t/{table.code}/seats/0/qr.svg").status_code == 200
    assert bobs.get(f"/t/{table.code}/seats/0/qr.svg").status_code == 404
    assert bobs.get(f"/t/{table.code}/seats/1/qr.svg").status_code == 200
