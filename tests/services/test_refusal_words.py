"""Engine errors: a code and its facts for programs, and words for people in their language.

Every code the engine can raise is collected from its source (each ``raise`` of an engine error
names its code as the second argument) and must have a wording in game/words/refusals.py that
reads in English, German and Czech with the parameters its raise sites give.
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from game.engine import commands, errors, record
from game.engine.errors import EngineError, IllegalCommand, MalformedCommand, NotYourDecision
from game.engine.play import apply, new_game
from game.engine.presets import resolve_options
from game.words.refusals import WORDINGS, engine_words

GAME = Path(__file__).resolve().parents[2] / "game"
ERROR_CLASSES = {
    name
    for name, value in vars(errors).items()
    if isinstance(value, type) and issubclass(value, EngineError)
} | {"TooOld"}
LANGUAGES = ("en", "de", "cs")


def raise_sites() -> dict[str, set[str]]:
    """Each code raised by the engine (and the store, which raises the engine's errors), with
    the names of the parameters its raise sites give."""
    found: dict[str, set[str]] = {}
    for path in [*(GAME / "engine").glob("*.py"), *(GAME / "store").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ERROR_CLASSES:
                continue
            assert len(node.args) >= 2, f"{path.name}:{node.lineno} raises without a code"
            code = node.args[1]
            assert isinstance(code, ast.Constant) and isinstance(code.value, str), (
                f"{path.name}:{node.lineno}: the code must be a string literal"
            )
            names = {keyword.arg for keyword in node.keywords if keyword.arg is not None}
            found.setdefault(code.value, set()).update(names)
    return found


SAMPLES: dict[str, Any] = {
    "seat": 1,
    "x": 0,
    "y": -1,
    "count": 2,
    "least": 1,
    "most": 99,
    "points": 3,
    "loss": 5,
    "turn": 2,
    "current": 3,
    "entry": 4,
    "entries": 10,
    "reach": 30,
    "oldest": 2,
    "message": 3,
    "rotation": 90,
    "index": 0,
    "share": True,
    "keys": ["colour", "size"],
    "allowed": ["city", "road"],
    "known": ["c1-zmg", "c3"],
    "waiting": ["end_turn", "score", "score_shared"],
    "command": "place_tile",
    "figure": "messenger",
    "feature": "city",
    "at": "N",
    "kind": "score",
    "key": "points",
    "tile": "D",
    "mode": "online",
    "name": "Ann",
    "sender": "Bob",
    "option": "chain",
    "value": "'maybe'",
    "preset": "c9",
    "format": "messengers-record-1",
    "detail": "Expecting value: line 1 column 1 (char 0)",
    "reason": IllegalCommand("there is nothing to undo", "nothing_to_undo"),
}


def test_the_engine_raises_codes_and_each_has_a_wording() -> None:
    sites = raise_sites()
    assert len(sites) > 80
    assert sorted(set(sites) - set(WORDINGS)) == []
    assert sorted(set(WORDINGS) - set(sites)) == [], "a wording for a code nobody raises"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_wording_reads_in_every_language(language: str) -> None:
    for code, names in raise_sites().items():
        params = {name: SAMPLES[name] for name in names if name != "field"}
        for figure in ("meeple", "messenger"):
            if "figure" in params:
                params["figure"] = figure
            error = EngineError("English", code, **params)
            with translation.override(language):
                text = engine_words(error)
            assert text and "%(" not in text and text != "English", (code, text)
            assert text[0] == text[0].upper() or text[0] in "('", (code, text)


def english(error: EngineError) -> str:
    with translation.override("en"):
        return engine_words(error)


def test_a_refusal_names_its_code_and_facts() -> None:
    state, _ = new_game(["Ann", "Bob"], "c2-hig", seed=1)
    with pytest.raises(NotYourDecision) as refused:
        apply(state, 1, commands.PlaceTile(0, 1, 0))
    assert (refused.value.code, refused.value.params) == (
        "not_your_decision",
        {"name": "Ann", "sender": "Bob"},
    )
    assert str(refused.value) == "it is Ann's decision, not Bob's"  # logs keep the English
    assert english(refused.value) == "It is Ann's decision, not Bob's."
    with pytest.raises(IllegalCommand) as refused:
        apply(state, 0, commands.PlaceTile(5, 5, 0))
    assert (refused.value.code, refused.value.params) == ("not_open_cell", {"x": 5, "y": 5})


def test_malformed_commands_name_the_key() -> None:
    with pytest.raises(MalformedCommand) as refused:
        commands.parse_command({"type": "place_tile", "x": 0, "y": 0, "rotation": 45})
    assert (refused.value.code, refused.value.params) == ("bad_rotation", {"key": "rotation"})
    with pytest.raises(MalformedCommand) as refused:
        commands.parse_command({"type": "skip_follower", "colour": "red"})
    error = refused.value
    assert (error.code, error.field) == ("unknown_key", "colour")
    assert error.params == {"command": "skip_follower", "keys": ["colour"]}
    assert english(error) == "A skip_follower command takes no 'colour'."


def test_options_and_records_have_codes() -> None:
    with pytest.raises(errors.OptionError) as refused:
        resolve_options("c2-hig", {"chain": "maybe"})
    assert refused.value.code == "option_value"
    assert refused.value.params["option"] == "chain"
    with pytest.raises(errors.RecordError) as broken:
        record.load("{")
    assert broken.value.code == "record_not_json"


def test_a_wrapped_reason_is_worded_inside() -> None:
    game = {"format": record.FORMAT, "players": ["Ann", "Bob"], "preset": "c2-hig", "seed": 1}
    game["actions"] = [{"type": "place_tile", "seat": 1, "x": 0, "y": 1, "rotation": 0}]
    with pytest.raises(errors.RecordError) as refused:
        record.replay(game)
    error = refused.value
    assert (error.code, error.index, error.params["kind"]) == ("record_action", 0, "place_tile")
    assert error.params["reason"].code == "not_your_decision"
    with translation.override("cs"):
        worded = engine_words(error)
    assert worded == ("Akce 0 záznamu (place_tile) byla odmítnuta: Teď rozhoduje Ann, ne Bob.")


def test_an_engine_error_in_czech_and_german() -> None:
    error = IllegalCommand("x", "no_follower_left", name="Dan")
    with translation.override("cs"):
        assert engine_words(error) == "Dan už nemá v zásobě žádného družiníka."
    with translation.override("de"):
        assert engine_words(error) == "Dan hat keinen Gefolgsmann mehr im Vorrat."
    plural = IllegalCommand("x", "too_many_tiles", tile="D", count=5)
    with translation.override("cs"):
        assert engine_words(plural) == "Hra má jen 5 kartiček D."


def test_an_engine_error_survives_a_trip_to_another_process() -> None:
    """A computer player thinks in another process: its errors come back pickled."""
    error = errors.RecordError(
        "r", "record_action", index=3, kind="score", reason=SAMPLES["reason"]
    )
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), str(back), back.code, back.index) == (
        errors.RecordError,
        "r",
        "record_action",
        3,
    )
    assert english(back) == english(error)


def test_names_are_shown_as_the_caller_asks_also_inside_a_wrapped_reason() -> None:
    inner = NotYourDecision("x", "not_your_decision", name="Ann", sender="Bob")
    error = IllegalCommand("y", "correction_refused", reason=inner)
    with translation.override("en"):
        worded = engine_words(error, lambda name: f"[{name}]")
    assert worded == (
        "The corrected entry would not be accepted there: It is [Ann]'s decision, not [Bob]'s."
    )
