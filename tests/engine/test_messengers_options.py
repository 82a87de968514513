"""The editions (presets) and their options: rules/messengers.md §2 and the table of §3.

The expected values are transcribed from the digest's tables by hand, independently of
``game/engine/presets.py``; the behaviour each option value selects is tested in
``test_messengers_rules.py``.
"""

from __future__ import annotations

import json

import pytest

from game.engine.errors import EngineError, OptionError
from game.engine.play import new_game
from game.engine.presets import resolve_options
from game.engine.record import export, replay
from game.engine.views import view
from game.words.views import public_view, public_view_json
from tests.scenario import Game

PRESETS = ("c1-zmg", "c2-hig", "c2-zmg", "c3")

# rules/messengers.md §3, one row per option, one column per preset (c1-zmg, c2-hig, c2-zmg, c3).
TABLE_3 = {
    "message_set": ("c1", "c2", "c2", "c3"),
    "figure_choice": ("per_scoring", "per_scoring", "per_scoring", "per_turn"),
    "trigger": ("on_landing", "end_of_round", "on_landing", "end_of_round"),
    "messages_per_round": (1, 1, 1, 1),
    "chain": (True, True, True, False),
    "messages_per_turn": (None, None, None, 1),
    "alone_rule": (False, False, True, False),
    "extra_tile": ("immediate", "immediate", "immediate", "extra_turn"),
    "score_and_return": (
        "majority_only",
        "any_meeple_score_if_majority",
        "any_meeple_score_always",
        "majority_or_return_any",
    ),
    "final_figure": ("meeple", "player_choice", "meeple", "meeple"),
}

# rules/messengers.md §2, "name shown".
NAMES_SHOWN = {
    "c1-zmg": "1st edition (2012), Z-Man English rules",
    "c2-hig": (
        "2nd edition (2017, Big Box 6), Hans im Glück rules with the publisher's clarifications"
    ),
    "c2-zmg": "2nd edition, Z-Man English printing",
    "c3": "3rd edition (2021, Big Box 7) and 3.1 (2025, Big Box 8)",
}


def expected_options(preset: str) -> dict:
    column = PRESETS.index(preset)
    return {option: values[column] for option, values in TABLE_3.items()}


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_resolves_to_the_table(preset):
    """rules/messengers.md §3 (every row): each preset is exactly its column of the table."""
    assert resolve_options(preset).to_json() == expected_options(preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_new_game_shows_the_resolved_options(preset):
    """rules/messengers.md §2: a table is created with one preset; every seat sees its options."""
    state, _ = new_game(["Ann", "Bob"], preset, seed=2)
    shown = view(state, 0)
    assert shown["preset"] == preset
    assert shown["options"] == expected_options(preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_name_shown(preset):
    """rules/messengers.md §2: the "name shown" of each preset."""
    state, _ = new_game(["Ann", "Bob"], preset, seed=2)
    assert public_view(state)["preset"] == preset
    assert json.loads(public_view_json(state))["preset_name"] == NAMES_SHOWN[preset]


def test_the_four_presets_are_the_only_ones():
    """rules/messengers.md §2: the presets are c1-zmg, c2-hig, c2-zmg and c3; another name is
    refused with a message naming it and the known presets."""
    for wrong in ("c4", "C2-HIG", "c2", ""):
        with pytest.raises(OptionError) as refused:
            new_game(["Ann", "Bob"], wrong)
        message = str(refused.value)
        assert repr(wrong) in message
        for preset in PRESETS:
            assert preset in message


def test_unknown_option_is_refused():
    """rules/messengers.md §2/§3: only the options of §3 can be overridden; an unknown one is
    refused with a message naming it."""
    with pytest.raises(OptionError) as refused:
        new_game(["Ann", "Bob"], "c2-hig", options={"messages_per_game": 3})
    assert "messages_per_game" in str(refused.value)
    assert "unknown option" in str(refused.value)


@pytest.mark.parametrize(
    ("option", "bad", "allowed"),
    [
        ("message_set", "c4", ("c1", "c2", "c3")),
        ("figure_choice", "per_game", ("per_scoring", "per_turn")),
        ("trigger", "sometimes", ("on_landing", "end_of_round")),
        ("extra_tile", "never", ("immediate", "extra_turn")),
        (
            "score_and_return",
            "always",
            (
                "majority_only",
                "any_meeple_score_if_majority",
                "any_meeple_score_always",
                "majority_or_return_any",
            ),
        ),
        ("final_figure", "courier", ("meeple", "player_choice")),
        ("chain", "yes", ("true", "false")),
        ("alone_rule", 1, ("true", "false")),
        ("messages_per_round", 3, ("1", "2")),
        ("messages_per_round", True, ("1", "2")),
        ("messages_per_turn", 0, ("none",)),
        ("messages_per_turn", "one", ("none",)),
    ],
)
def test_value_an_option_does_not_allow_is_refused(option, bad, allowed):
    """rules/messengers.md §3: each option takes only its listed values; a wrong value is refused
    with a message naming the option, the value and what is allowed."""
    with pytest.raises(OptionError) as refused:
        new_game(["Ann", "Bob"], "c1-zmg", options={option: bad})
    message = str(refused.value)
    assert option in message
    assert repr(bad) in message
    for value in allowed:
        assert value in message


def test_option_errors_are_engine_errors():
    """rules/messengers.md §2: a bad table setup is refused like any illegal input: no game."""
    with pytest.raises(EngineError):
        Game("c2-hig", options={"trigger": "later"})


def test_override_changes_one_option_only():
    """rules/messengers.md §2: the table creator may override single options ("house rules")."""
    state, _ = new_game(
        ["Ann", "Bob"], "c2-hig", options={"alone_rule": True, "messages_per_round": 2}
    )
    expected = expected_options("c2-hig") | {"alone_rule": True, "messages_per_round": 2}
    assert view(state)["options"] == expected
    # The preset itself is untouched by a house rule at another table.
    assert resolve_options("c2-hig").to_json() == expected_options("c2-hig")


def test_every_value_of_every_option_can_be_set():
    """rules/messengers.md §3: each value that appears in a preset can be chosen on any preset."""
    for option, values in TABLE_3.items():
        for value in set(values):
            for preset in PRESETS:
                resolved = resolve_options(preset, {option: value}).to_json()
                assert resolved == expected_options(preset) | {option: value}


def test_messages_per_turn_none_lifts_the_cap():
    """rules/messengers.md §3 messages_per_turn: "none" (no cap) can be set on c3 (cap 1)."""
    assert resolve_options("c3", {"messages_per_turn": "none"}).messages_per_turn is None
    assert resolve_options("c3", {"messages_per_turn": None}).messages_per_turn is None
    assert resolve_options("c1-zmg", {"messages_per_turn": 2}).messages_per_turn == 2


def test_record_stores_the_resolved_options():
    """rules/messengers.md §2: the game record stores the resolved options, not only the preset
    name; replaying it gives the same options."""
    g = Game("c3", options={"chain": True}, tiles=["E"])
    record = export(g.state)
    assert record["preset"] == "c3"
    assert record["options"] == expected_options("c3") | {"chain": True}
    assert replay(record).state.options == g.state.options
