"""The pages' forms (game/web/forms.py): what they read from a post, the words they refuse in."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings

from game.engine.presets import PRESETS, resolve_options
from game.models import Table
from game.services.lobby import create_table
from game.web.forms import OPTION_FIELDS, CreateTableForm, JoinForm, RejoinForm

FORM = {"preset": "c2-hig", "mode": "board", "seats": "2", "name": "Ann", "colour": "blue"}


def test_a_valid_form_gives_the_lobby_typed_values_and_the_house_rules() -> None:
    form = CreateTableForm(
        {
            **FORM,
            "seats": "5",
            "mode": "tabletop",
            "name": "  Ann   Lee ",
            "opt_chain": "false",
            "opt_messages_per_turn": "none",
            "opt_messages_per_round": "2",
            "opt_extra_tile": "extra_turn",
            "opt_alone_rule": "",
        }
    )
    assert form.is_valid(), form.errors
    fields = form.cleaned_data
    assert (fields["preset"], fields["mode"], fields["seats"]) == ("c2-hig", "tabletop", 5)
    assert fields["name"] == "Ann Lee" and fields["colour"] == "blue"
    assert fields["overrides"] == {
        "chain": False,
        "extra_tile": "extra_turn",
        "messages_per_round": 2,
        "messages_per_turn": None,
    }


def test_mode_and_seats_left_out_are_a_board_game_for_four() -> None:
    form = CreateTableForm({"preset": "c3", "name": "Ann", "colour": "red"})
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["mode"], form.cleaned_data["seats"]) == ("board", 4)
    assert form.cleaned_data["overrides"] == {}


@pytest.mark.parametrize("field", OPTION_FIELDS, ids=lambda field: str(field["name"]))
def test_every_house_rule_the_form_offers_is_one_the_engine_takes(field: dict) -> None:
    name = str(field["name"])
    for value, _ in field["choices"]:
        form = CreateTableForm({**FORM, f"opt_{name}": value})
        assert form.is_valid(), form.errors
        [(option, typed)] = form.cleaned_data["overrides"].items()
        assert option == name
        for preset in PRESETS:
            assert resolve_options(preset, {name: typed}).to_json()[name] == typed


def test_every_refusal_is_listed_in_the_lobbys_order_and_words() -> None:
    form = CreateTableForm(
        {"preset": "c4", "opt_alone_rule": "maybe", "seats": "9", "name": "\u200b", "colour": "x"}
    )
    assert not form.is_valid()
    assert form.messages() == [
        "Please choose one of the four editions.",
        "The house rule alone_rule must be one of true, false, not 'maybe'.",
        "A table has 2 to 6 seats.",
        "Names cannot contain invisible or control characters (U+200B zero width space).",
        "Please choose a colour.",
    ]
    assert CreateTableForm({}).messages() == [
        "Please choose one of the four editions.",
        "Please enter your name.",
        "Please choose a colour.",
    ]


@pytest.mark.parametrize(
    ("option", "text", "message"),
    [
        ("trigger", "soon", "trigger must be one of on_landing, end_of_round, not 'soon'."),
        ("chain", "1", "chain must be one of true, false, not '1'."),
        ("messages_per_round", "3", "messages_per_round must be one of 1, 2, not 3."),
        ("messages_per_round", "\u00b2", "must be one of 1, 2, not '\u00b2'."),
        ("messages_per_turn", "0", "must be a positive whole number or none, not 0."),
        # The engine would take 3 or 10**60 messages a turn; the form offers none, 1 and 2.
        ("messages_per_turn", "3", "messages_per_turn must be one of none, 1, 2, not '3'."),
        ("messages_per_turn", "9" * 5000, "must be one of none, 1, 2, not '" + "9" * 40 + "…'."),
        ("trigger", "x" * 100_000, "not '" + "x" * 40 + "…'."),
    ],
)
def test_a_house_rule_the_form_does_not_offer_is_refused_in_the_engines_words(
    option: str, text: str, message: str
) -> None:
    form = CreateTableForm({**FORM, f"opt_{option}": text})
    assert not form.is_valid()
    [refusal] = form.messages()
    assert refusal.startswith("The house rule ") and refusal.endswith(message)
    assert len(refusal) < 200


@pytest.mark.parametrize(
    "seats", ["", "0", "1", "7", "-3", "3.0", " 3 ", "\u0663", "two", "9" * 5000, "1e1"]
)
def test_seats_are_one_of_the_numbers_the_page_offers(seats: str) -> None:
    form = CreateTableForm({**FORM, "seats": seats})
    if seats == "":
        assert form.is_valid() and form.cleaned_data["seats"] == 4
    else:
        assert form.messages() == ["A table has 2 to 6 seats."]


def test_the_join_form_says_what_the_lobby_would() -> None:
    assert JoinForm({}).messages() == ["Please enter your name.", "Please choose a colour."]
    assert JoinForm({"name": "x" * 21, "colour": "blue"}).messages() == [
        "Names have at most 20 characters."
    ]
    assert JoinForm({"name": "Bob", "colour": "mauve"}).messages() == ["Please choose a colour."]
    joined = JoinForm({"name": " Bob ", "colour": "orange"})
    assert joined.is_valid() and joined.cleaned_data == {"name": "Bob", "colour": "orange"}


@pytest.mark.parametrize("token", ["", " abc", "abc\n", "a.b", "x" * 65, "é"])
def test_a_rejoin_token_has_the_shape_of_one(token: str) -> None:
    assert not RejoinForm({"token": token}).is_valid()
    assert RejoinForm({"token": "Az09_-" * 10}).is_valid()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"opt_messages_per_turn": "9" * 5000},
        {"opt_messages_per_round": "\u00b2"},
        {"opt_messages_per_turn": "3"},
        {"seats": "\u0663"},
    ],
)
def test_odd_values_that_once_failed_or_slipped_through_are_refused_with_400(
    fields: dict,
) -> None:
    """Digits that ``int`` cannot read (over 4,300 of them, a superscript two) were a server
    error; numbers the page does not offer made a table."""
    response = Client(raise_request_exception=False).post("/tables", {**FORM, **fields})
    assert response.status_code == 400
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_refused_form_comes_back_as_it_was_posted() -> None:
    posted = {**FORM, "preset": "c3", "mode": "tabletop", "seats": "5", "name": "Ann\u202e"}
    posted |= {"colour": "green", "opt_extra_tile": "immediate"}
    response = Client().post("/tables", posted)
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'value="c3"\s+checked', page)
    assert re.search(r'value="tabletop" checked', page)
    assert re.search(r'value="5"\s+checked', page)
    assert re.search(r'value="green" required\s+checked', page)
    assert 'value="Ann\u202e"' in page
    shown = re.search(r'<script id="posted-values" type="application/json">(.*?)</script>', page)
    assert shown is not None
    values = json.loads(shown.group(1))
    assert values["opt_extra_tile"] == "immediate" and values["opt_chain"] == ""


@pytest.mark.django_db
@override_settings(TABLES_PER_HOUR=1)
def test_a_refused_form_counts_against_the_hourly_limit_as_before() -> None:
    """The limit is counted before the form is read: a flood of bad forms is a flood too."""
    client = Client()
    assert client.post("/tables", {**FORM, "seats": "9"}).status_code == 400
    refused = client.post("/tables", FORM)
    assert refused.status_code == 429 and not Table.objects.exists()
    assert refused.context["values"]["name"] == "Ann"


@pytest.mark.django_db
def test_joining_with_a_bad_form_shows_the_first_reason() -> None:
    table, _ = create_table(preset="c2-hig", name="Ann", colour="blue")
    response = Client().post(f"/t/{table.code}/join", {"name": "", "colour": "x"})
    assert response.status_code == 400
    assert response.context["join_error"] == "Please enter your name."
    assert table.seats.count() == 1
