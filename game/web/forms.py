"""The forms of the pages: creating a table (edition, house rules, mode, seats, name, colour),
joining one and rejoining a seat.

Each is a Django form used only to read and check what was posted: the templates draw the
fields themselves, so the pages' markup stays the designers'. A refused field is told in the
lobby's words (game/services/lobby.py), which checks the same again when it creates the table
or the seat. House rules are one select per option, "" meaning "as the edition says".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from django import forms
from django.utils.translation import gettext, gettext_lazy

from game.engine.errors import OptionError
from game.engine.presets import PRESETS, resolve_options
from game.engine.state import MAX_PLAYERS, MIN_PLAYERS
from game.services.lobby import (
    COLOUR_REFUSED,
    COLOURS,
    DEFAULT_MODE,
    DEFAULT_SEATS,
    EDITION_REFUSED,
    MODE_REFUSED,
    MODES,
    SEATS_REFUSED,
    LobbyError,
    clean_player_name,
)
from game.words.messages import preset_name

_LABELS: Final = {
    "message_set": (
        gettext_lazy("Message tiles"),
        gettext_lazy("Which printing's numbering of the eight messages."),
    ),
    "figure_choice": (
        gettext_lazy("Figure choice"),
        gettext_lazy("When you choose which figure takes your points."),
    ),
    "trigger": (
        gettext_lazy("Drawing a message"),
        gettext_lazy("When a dark space earns a message."),
    ),
    "chain": (
        gettext_lazy("Chained messages"),
        gettext_lazy("Can a message's points earn another message?"),
    ),
    "alone_rule": (
        gettext_lazy("Alone on the dark space"),
        gettext_lazy("No message where another player's figure stands."),
    ),
    "extra_tile": (
        gettext_lazy("One more tile"),
        gettext_lazy("Place a tile at once, or take an extra turn afterwards."),
    ),
    "score_and_return": (
        gettext_lazy("Message 8"),
        gettext_lazy("Which followers 'score a meeple and return it' may take."),
    ),
    "final_figure": (
        gettext_lazy("Final figure"),
        gettext_lazy("Which figure carries your total at the end."),
    ),
    "messages_per_round": (
        gettext_lazy("Messages per round"),
        gettext_lazy("At most this many from one round of scoring."),
    ),
    "messages_per_turn": (
        gettext_lazy("Messages per turn"),
        gettext_lazy("A hard cap on messages in one turn."),
    ),
}

_CHOICES: Final[dict[str, list[tuple[str, Any]]]] = {
    "message_set": [
        ("c1", gettext_lazy("1st edition")),
        ("c2", gettext_lazy("2nd edition")),
        ("c3", gettext_lazy("3rd edition")),
    ],
    "figure_choice": [
        ("per_scoring", gettext_lazy("For each scoring")),
        ("per_turn", gettext_lazy("Once per turn")),
    ],
    "trigger": [
        ("on_landing", gettext_lazy("When a figure stops on one")),
        ("end_of_round", gettext_lazy("When the round ends there")),
    ],
    # Translators: the values of the house rules "Chained messages" (Yes, No) and "Alone on the
    # dark space" (On, Off).
    "chain": [("true", gettext_lazy("Yes")), ("false", gettext_lazy("No"))],
    "alone_rule": [("true", gettext_lazy("On")), ("false", gettext_lazy("Off"))],
    "extra_tile": [
        ("immediate", gettext_lazy("Place a tile now")),
        ("extra_turn", gettext_lazy("Extra turn")),
    ],
    "score_and_return": [
        ("majority_only", gettext_lazy("Only where you have the majority")),
        ("any_meeple_score_if_majority", gettext_lazy("Any follower; scores with the majority")),
        ("any_meeple_score_always", gettext_lazy("Any follower; always scores")),
        ("majority_or_return_any", gettext_lazy("Score your majority, or return any")),
    ],
    "final_figure": [
        ("meeple", gettext_lazy("The meeple")),
        ("player_choice", gettext_lazy("Player's choice")),
    ],
    "messages_per_round": [("1", "1"), ("2", gettext_lazy("2 (one per figure)"))],
    "messages_per_turn": [
        ("none", gettext_lazy("No cap")),
        ("1", "1"),
        ("2", "2"),
    ],
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


_NUMBERS: Final = ("messages_per_round", "messages_per_turn")
_QUOTED: Final = 40
"""How much of a refused value a message repeats: enough to recognise it, never a page of it."""
_AS_EDITION: Final = ""
"""A house rule left at "as the edition says" (no option's value is an empty string)."""


def _option_value(name: str, text: str) -> Any:
    """The engine's value of one of the form's choices (``_CHOICES``) for option ``name``."""
    if name in ("chain", "alone_rule"):
        return text == "true"
    if name == "messages_per_turn" and text == "none":
        return None
    if name in _NUMBERS:
        return int(text)
    return text


def _refusal(name: str, text: str) -> str:
    """Why ``text`` is no choice for option ``name``: the engine's words when the engine refuses
    it too (as it did when it read the form's text itself), else the form's choices (a number of
    messages per turn that the engine would take but the form does not offer)."""
    shown = text if len(text) <= _QUOTED else text[:_QUOTED] + "…"
    offered = ", ".join(value for value, _ in _CHOICES[name])
    mine = f"House rules: option {name} must be one of {offered}, not {shown!r}"
    guess: Any = shown
    if name in _NUMBERS and text.isascii() and text.isdigit():
        if len(text) > _QUOTED:
            return mine
        guess = int(text)
    try:
        resolve_options(next(iter(PRESETS)), {name: guess})
    except OptionError as error:
        return f"House rules: {error}"
    return mine


class HouseRuleField(forms.TypedChoiceField):
    """One house rule's select: one of the form's choices as the engine's value, or
    ``_AS_EDITION``."""

    def __init__(self, name: str) -> None:
        self.option = name
        values = {text: _option_value(name, text) for text, _ in _CHOICES[name]}
        super().__init__(
            choices=[("", gettext_lazy("As the edition says")), *_CHOICES[name]],
            coerce=values.__getitem__,
            required=False,
            empty_value=_AS_EDITION,
        )

    def validate(self, value: Any) -> None:
        if value not in self.empty_values and not self.valid_value(value):
            raise forms.ValidationError(_refusal(self.option, str(value)), code="invalid_choice")
        super().validate(value)


def _refused(message: str) -> dict[str, str]:
    """The error messages of a choice field that says ``message`` whether the field is missing,
    empty or not one of its choices."""
    return {"required": message, "invalid_choice": message}


def _name(value: str) -> str:
    """A player's name as the table shows it, or the lobby's reason why not."""
    try:
        return clean_player_name(value)
    except LobbyError as error:
        raise forms.ValidationError(str(error), code="name") from None


_COLOUR_CHOICES: Final = [(colour.id, colour.label) for colour in COLOURS]


class _Messages(forms.Form):
    """A form whose refusals the page shows as they are, one sentence each."""

    def messages(self) -> list[str]:
        """Every refusal, in the order of the form's fields, for the page to list."""
        return [str(message) for errors in self.errors.values() for message in errors]


class CreateTableForm(_Messages):
    """The home page's form (``POST /tables``). Left out or empty, the mode is ``board`` and a
    table has four seats; ``cleaned_data["overrides"]`` holds the house rules chosen, by option
    name, as the engine's values."""

    preset = forms.ChoiceField(
        choices=lambda: [(preset, preset_name(preset)) for preset in PRESETS],
        error_messages=_refused(EDITION_REFUSED),
    )
    mode = forms.TypedChoiceField(
        choices=[(mode, mode) for mode in MODES],
        required=False,
        empty_value=DEFAULT_MODE,
        error_messages=_refused(MODE_REFUSED),
    )
    seats = forms.TypedChoiceField(
        choices=[(str(n), str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        required=False,
        empty_value=None,
        error_messages=_refused(SEATS_REFUSED),
    )
    name = forms.CharField(required=False, strip=False)
    colour = forms.ChoiceField(choices=_COLOUR_CHOICES, error_messages=_refused(COLOUR_REFUSED))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in _LABELS:
            self.fields[f"opt_{name}"] = HouseRuleField(name)
        # The lobby's order of checks: the edition and its house rules, then the table, then you.
        house = [f"opt_{name}" for name in _LABELS]
        self.order_fields(["preset", *house, "mode", "seats", "name", "colour"])

    def clean_seats(self) -> int:
        seats = self.cleaned_data["seats"]
        return DEFAULT_SEATS if seats is None else int(seats)

    def clean_name(self) -> str:
        return _name(self.cleaned_data["name"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["overrides"] = {
            name: cleaned[f"opt_{name}"]
            for name in _LABELS
            if cleaned.get(f"opt_{name}", _AS_EDITION) != _AS_EDITION
        }
        return cleaned

    def shown(self) -> dict[str, str]:
        """The fields as they were posted, for the page to show again: the template sets the
        radios and the name, the page's script the house rules (``posted-values``)."""
        names = ["preset", "mode", "seats", "name", "colour", *(f"opt_{name}" for name in _LABELS)]
        return {name: str(self.data.get(self.add_prefix(name), "")) for name in names}


class JoinForm(_Messages):
    """The table page's form to take a seat (``POST /t/<code>/join``); whether the colour is
    still free, the table open and the name unlike the others' is the lobby's to say."""

    name = forms.CharField(required=False, strip=False)
    colour = forms.ChoiceField(choices=_COLOUR_CHOICES, error_messages=_refused(COLOUR_REFUSED))

    def clean_name(self) -> str:
        return _name(self.cleaned_data["name"])


TOKEN: Final = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
"""The shape of a seat token (``secrets.token_urlsafe``); anything else is refused unread."""


class RejoinForm(forms.Form):
    """The token a personal link's page posts back (``POST /t/<code>/rejoin``)."""

    token = forms.RegexField(TOKEN, strip=False)


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
            # Translators: a house rule and its value, "Alone on the dark space: On".
            rules.append(gettext("%(rule)s: %(value)s") % {"rule": field["label"], "value": words})
    return rules
