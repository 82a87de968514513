"""House rules on the create-table form: one select per option, "" meaning "as the edition says"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from game.engine.presets import PRESETS

_LABELS: Final = {
    "message_set": ("Message tiles", "Which printing's numbering of the eight messages."),
    "figure_choice": ("Figure choice", "When you choose which figure takes your points."),
    "trigger": ("Drawing a message", "When a dark space earns a message."),
    "chain": ("Chained messages", "Can a message's points earn another message?"),
    "alone_rule": ("Alone on the dark space", "No message where another player's figure stands."),
    "extra_tile": ("One more tile", "Place a tile at once, or take an extra turn afterwards."),
    "score_and_return": ("Message 8", "Which followers 'score a meeple and return it' may take."),
    "final_figure": ("Final figure", "Which figure carries your total at the end."),
    "messages_per_round": ("Messages per round", "At most this many from one round of scoring."),
    "messages_per_turn": ("Messages per turn", "A hard cap on messages in one turn."),
}

_CHOICES: Final[dict[str, list[tuple[str, str]]]] = {
    "message_set": [("c1", "1st edition"), ("c2", "2nd edition"), ("c3", "3rd edition")],
    "figure_choice": [
        ("per_scoring", "For each scoring"),
        ("per_turn", "Once per turn"),
    ],
    "trigger": [
        ("on_landing", "When a figure stops on one"),
        ("end_of_round", "When the round ends there"),
    ],
    "chain": [("true", "Yes"), ("false", "No")],
    "alone_rule": [("true", "On"), ("false", "Off")],
    "extra_tile": [("immediate", "Place a tile now"), ("extra_turn", "Extra turn")],
    "score_and_return": [
        ("majority_only", "Only where you have the majority"),
        ("any_meeple_score_if_majority", "Any follower; scores with the majority"),
        ("any_meeple_score_always", "Any follower; always scores"),
        ("majority_or_return_any", "Score your majority, or return any"),
    ],
    "final_figure": [("meeple", "The meeple"), ("player_choice", "Player's choice")],
    "messages_per_round": [("1", "1"), ("2", "2 (one per figure)")],
    "messages_per_turn": [("none", "No cap"), ("1", "1"), ("2", "2")],
}


def _form_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(getattr(value, "value", value))


OPTION_FIELDS: Final = [
    {
        "name": name,
        "label": label,
        "help": help_text,
        "choices": [list(choice) for choice in _CHOICES[name]],
        "defaults": {
            preset: _form_value(getattr(options, name)) for preset, options in PRESETS.items()
        },
    }
    for name, (label, help_text) in _LABELS.items()
]


def _option_value(name: str, text: str) -> Any:
    if name in ("chain", "alone_rule"):
        return {"true": True, "false": False}.get(text, text)
    if name == "messages_per_round":
        return int(text) if text.isdigit() else text
    if name == "messages_per_turn":
        return None if text == "none" else int(text) if text.isdigit() else text
    return text


def overrides_from_form(form: Mapping[str, str]) -> dict[str, Any]:
    """The options the form sets; the engine checks the values when the table is created."""
    overrides: dict[str, Any] = {}
    for name in _LABELS:
        text = form.get(f"opt_{name}", "")
        if text:
            overrides[name] = _option_value(name, text)
    return overrides


def house_rules(preset: str, overrides: Mapping[str, Any] | None) -> list[str]:
    """The options of a table that differ from its edition's preset, in the words of the form
    that set them ("Alone on the dark space: On"), for every page to show as they are: players
    must know the rules they play by, and the pages never work out rules themselves. An
    override equal to the preset's value is no house rule and is not listed.
    """
    if not overrides or preset not in PRESETS:
        return []
    edition = PRESETS[preset]
    rules = []
    for field in OPTION_FIELDS:
        name = str(field["name"])
        if name not in overrides:
            continue
        text = _form_value(overrides[name])
        if text != _form_value(getattr(edition, name)):
            words = {key: label for key, label in field["choices"]}.get(text, text)
            rules.append(f"{field['label']}: {words}")
    return rules
