"""Message 8's card says how the edition reads it ("score a follower and return it" leaves open
which follower and when it scores): the revealed message of the view carries the edition's
reading as ``detail``, in the reader's language; the other messages carry none."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from game.words.views import public_view_json
from tests.scenario import Game

EIGHT_FIRST = [8, 1, 2, 3, 4, 5, 6, 7]

READING = {
    "c1-zmg": "Only where you have the majority",
    "c2-hig": "Any follower; scores with the majority",
    "c2-zmg": "Any follower; always scores",
    "c3": "Score your majority, or return any",
}


def revealed(preset: str, messages: list[int], language: str = "en") -> dict[str, str]:
    """The revealed message of the view after Ann lands on 5 and ends her turn."""
    g = Game(preset, mode="tabletop", messages=messages).score(0, 5, "meeple").end_turn()
    with translation.override(language):
        shown = json.loads(public_view_json(g.state))["revealed"]
    assert shown is not None
    return shown


@pytest.mark.parametrize("preset", sorted(READING))
def test_message_8_carries_the_editions_reading(preset: str) -> None:
    shown = revealed(preset, EIGHT_FIRST)
    assert shown["message"] == 8
    assert shown["detail"] == READING[preset]


def test_the_reading_in_german_and_czech() -> None:
    assert (
        revealed("c2-hig", EIGHT_FIRST, "de")["detail"] == "Jeder Gefolgsmann; wertet mit Mehrheit"
    )
    assert revealed("c1-zmg", EIGHT_FIRST, "cs")["detail"] not in ("", READING["c1-zmg"])


def test_other_messages_need_no_reading() -> None:
    assert revealed("c2-hig", [1, 2, 3, 4, 5, 6, 7, 8])["detail"] == ""
