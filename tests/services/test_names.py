"""Player names (game/services/names.py and the lobby's checks): one clean form, nothing invisible,
no two names at a table that could be taken for each other."""

from __future__ import annotations

import pytest
from django.test import Client

from game.models import Seat, Table
from game.services.lobby import LobbyError, add_player, create_table, join_table
from game.services.names import (
    CONFUSABLES_FILE,
    BadName,
    alike,
    clean_name,
    isolate,
    read_confusables,
    skeleton,
)

MAX = 20


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("Ann", "Ann"),
        ("  Ann \t\n  Lee ", "Ann Lee"),  # whitespace of every kind collapses
        ("Ann\u00a0Lee", "Ann Lee"),  # a no-break space is a space (NFKC)
        ("Ann\u2028Lee", "Ann Lee"),  # so is a line separator
        ("\ufb01ona", "fiona"),  # the fi ligature becomes two letters (NFKC)
        ("\uff21nn", "Ann"),  # a fullwidth A is an A (NFKC)
        ("Zoe\u0301", "Zo\u00e9"),  # a combining accent joins its letter (NFKC)
        ("שרה", "שרה"),  # right-to-left scripts are welcome; they are isolated when shown
        ("?!", "?!"),
    ],
)
def test_names_are_normalised(typed: str, shown: str) -> None:
    assert clean_name(typed, MAX) == shown


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("Ann\u200b", "U+200B zero width space"),
        ("\u202eAnn", "U+202E right-to-left override"),
        ("Ann\u2066", "U+2066 left-to-right isolate"),
        ("A\u200dnn", "U+200D zero width joiner"),
        ("Ann\x00", "U+0000"),
        ("Ann\x07", "U+0007"),
        ("Ann\ud800", "U+D800"),  # a lone surrogate, as a JSON frame can carry
        ("Ann\ue000", "U+E000"),  # private use
        ("Ann\U000e0041", "U+E0041 tag latin capital letter a"),
        ("\u3164", "U+1160 hangul jungseong filler"),  # a "letter" drawn as nothing
        ("\u2800", "U+2800 braille pattern blank"),
        ("Ann\u0378", "U+0378"),  # unassigned
    ],
)
def test_invisible_and_control_characters_are_refused_by_name(typed: str, message: str) -> None:
    with pytest.raises(BadName, match="invisible or control characters") as refused:
        clean_name(typed, MAX)
    assert message in str(refused.value)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Please enter your name."),
        (" \t ", "Please enter your name."),
        (None, "Please enter your name."),
        (["Ann"], "Please enter your name."),
        ("\u0301\u0302", "at least one visible letter"),
        ("x" * 21, "at most 20 characters"),
        ("x" * 10_000, "at most 20 characters"),
    ],
)
def test_empty_invisible_and_long_names_are_refused(typed: object, message: str) -> None:
    with pytest.raises(BadName, match=message):
        clean_name(typed, MAX)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Ann", "ann"),
        ("Ann", "ANN"),
        ("\u0410nn", "Ann"),  # Cyrillic capital A
        ("\u0430nn", "Ann"),  # Cyrillic small a
        ("lvan", "Ivan"),  # small L and capital I
        ("Mo", "rno"),  # m and r n
        ("Bob 2", "Bob \uff12"),
        ("Bop", "\u0412\u043e\u0440"),  # Cyrillic capital VE, small O and small ER
        ("Sasha", "\u0405\u0430\u0455\u04bb\u0430"),  # Cyrillic DZE, A, DZE, SHHA, A
        ("KATE", "\u039a\u0391\u03a4\u0395"),  # Greek capital KAPPA, ALPHA, TAU, EPSILON
        ("Kate", "\u039a\u03b1te"),  # Greek small ALPHA
        ("Bob", "\uff22\uff4f\uff42"),  # fullwidth letters (NFKC)
        ("Bob", "\U0001d401\U0001d428\U0001d41b"),  # mathematical bold letters
        ("Bob", "\U0001d505\U0001d52c\U0001d51f"),  # mathematical fraktur letters
        ("Bob", "B\u0585b"),  # Armenian small OH
        ("Zoe", "\u0396o\u0435"),  # Greek capital ZETA, Cyrillic small IE
    ],
)
def test_look_alike_names_are_alike(name: str, other: str) -> None:
    assert alike(clean_name(name, MAX), ["Cy", clean_name(other, MAX)]) == clean_name(other, MAX)


@pytest.mark.parametrize(
    ("name", "other"),
    [("Ann", "Anne"), ("Ann", "Ana"), ("Bob", "Rob"), ("Zoe", "Zo\u00eb"), ("Ivan", "Iван")],
)
def test_different_names_are_not_alike(name: str, other: str) -> None:
    assert alike(name, [other]) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\u0430", "a"),  # Cyrillic small A
        ("\u0391", "A"),  # Greek capital ALPHA
        ("\u03bf", "o"),  # Greek small OMICRON
        ("\U0001d5ba", "a"),  # mathematical sans-serif small A
        ("m", "rn"),  # a prototype can be longer than its source
        ("I", "l"),
        ("\u00e9", "e\u0301"),  # NFD before and after the mapping
        ("\u0430\u0301", "a\u0301"),  # a mark stays on the letter it was typed on
    ],
)
def test_the_skeleton_maps_characters_to_their_unicode_prototypes(text: str, expected: str) -> None:
    assert skeleton(text) == expected


def test_the_confusables_are_unicodes_17_0_0_file_and_one_pass_maps_a_string() -> None:
    text = CONFUSABLES_FILE.read_text(encoding="utf-8-sig")
    assert "# Version: 17.0.0" in text.splitlines()[:12]
    prototypes = read_confusables(text)
    assert len(prototypes) == int(text.rsplit("# total:", 1)[1])
    assert all(len(source) == 1 for source in prototypes)
    assert not {char for prototype in prototypes.values() for char in prototype} & prototypes.keys()


def test_isolate_puts_a_name_between_first_strong_isolate_and_pop_directional_isolate() -> None:
    assert isolate("שרה") == "\u2068שרה\u2069"


@pytest.mark.django_db
def test_a_look_alike_cannot_join_and_the_refusal_quotes_both_names_isolated() -> None:
    table, _ = create_table(preset="c2-hig", seats=4, name="Ann", colour="blue")
    for typed in ("ann", "\u0410nn", "Ann\u200b", " Ann "):
        with pytest.raises(LobbyError):
            join_table(table.code, name=typed, colour="orange")
    with pytest.raises(LobbyError) as refused:
        join_table(table.code, name="\u0410nn", colour="orange")
    assert str(refused.value).startswith("\u2068\u0410nn\u2069 looks too much like \u2068Ann\u2069")
    assert Seat.objects.filter(table=table).count() == 1
    assert join_table(table.code, name="Anne", colour="orange").name == "Anne"


@pytest.mark.django_db
def test_the_host_cannot_add_a_look_alike_or_an_invisible_name() -> None:
    table, host = create_table(preset="c2-hig", mode="tabletop", seats=4, name="Ann", colour="blue")
    for typed in ("\u0430nn", "\u200b", "Bob\u202e"):
        with pytest.raises(LobbyError):
            add_player(table.code, host.token, name=typed, colour="orange")
    assert add_player(table.code, host.token, name="Bob", colour="orange").index == 1


@pytest.mark.django_db
def test_the_forms_refuse_bad_names_with_their_message_and_change_nothing() -> None:
    form = {"preset": "c2-hig", "mode": "board", "seats": "2", "colour": "blue"}
    response = Client().post("/tables", {**form, "name": "Ann\u202e"})
    assert response.status_code == 400 and Table.objects.count() == 0
    assert "U+202E right-to-left override" in response.content.decode()
    Client().post("/tables", {**form, "name": "Ann"})
    table = Table.objects.get()
    response = Client().post(f"/t/{table.code}/join", {"name": "\u0410NN", "colour": "orange"})
    assert response.status_code == 400 and table.seats.count() == 1
    assert "looks too much like" in response.content.decode()
