"""A table's story (``engine/story.py``) as served to the pages: JSON and CSV, computed once per
table version and kept in a small per-process cache without words (docs/protocol.md, "The
story"); the drawn messages' names are added per request, in its language.

The story is public: the same for every visitor, players, spectators and the projector alike.
It tells scores, categories and drawn messages only, never the bag or the stack's order.
"""

from __future__ import annotations

import csv
import io
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

from django.conf import settings
from django.utils.translation import pgettext

from game.engine.messengers import MessageAction
from game.engine.presets import resolve_options
from game.engine.story import CATEGORIES, story
from game.models import Table
from game.services.lobby import COLOURS
from game.store.tables import load_state
from game.words.messages import message_text

CSV_COLUMNS: Final = (
    "section",
    "turn",
    "seat",
    "name",
    "colour",
    "rank",
    "meeple",
    "messenger",
    "total",
    *CATEGORIES,
    "message_number",
    "message_name",
    "message_choice",
    "message_points",
)
"""The columns of ``results.csv``, in order: one table, three kinds of rows (``section``):
``result`` (one per player: rank once finished, figures, total, points per category),
``history`` (one per player per turn: figures and total after it; turn ``0`` is the start,
``final`` the end) and ``message`` (one per drawn message: turn, who drew it, its number, name,
the choice made, ``action`` or ``points``, and the points it gave). The category ``message``
holds the points a player's messages gave in all. The file is for people (a spreadsheet): its
header, sections, colours, the end's turn and the choices are words in the reader's language
(``_HEADERS``, ``_WORDS``), in this order of columns."""

_HEADERS: Final[dict[str, Callable[[], str]]] = {
    "section": lambda: pgettext("results table column", "Section"),
    "turn": lambda: pgettext("results table column", "Turn"),
    "seat": lambda: pgettext("results table column", "Seat"),
    "name": lambda: pgettext("results table column", "Name"),
    "colour": lambda: pgettext("results table column", "Colour"),
    "rank": lambda: pgettext("results table column", "Rank"),
    "meeple": lambda: pgettext("results table column", "Meeple"),
    "messenger": lambda: pgettext("results table column", "Messenger"),
    "total": lambda: pgettext("results table column", "Total"),
    "road": lambda: pgettext("results table column", "Road"),
    "city": lambda: pgettext("results table column", "City"),
    "monastery": lambda: pgettext("results table column", "Monastery"),
    "field": lambda: pgettext("results table column", "Field"),
    "during_play": lambda: pgettext("results table column", "Other points in play"),
    "message": lambda: pgettext("results table column", "Messages"),
    "final": lambda: pgettext("results table column", "Final scoring"),
    "message_number": lambda: pgettext("results table column", "Message number"),
    "message_name": lambda: pgettext("results table column", "Message"),
    "message_choice": lambda: pgettext("results table column", "Choice"),
    "message_points": lambda: pgettext("results table column", "Message points"),
}
_WORDS: Final[dict[str, Callable[[], str]]] = {
    "result": lambda: pgettext("results table section", "Result"),
    "history": lambda: pgettext("results table section", "History"),
    "message": lambda: pgettext("results table section", "Message"),
    "final": lambda: pgettext("results table turn", "End"),
    "action": lambda: pgettext("results table choice", "Action"),
    "points": lambda: pgettext("results table choice", "2 points"),
}
_COLOUR_NAMES: Final = {colour.id: colour.label for colour in COLOURS}
_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


class _Cache:
    """The latest story JSON of recently asked tables, keyed by id, code and version."""

    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[int, str], tuple[int, dict[str, Any]]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, table: Table) -> dict[str, Any] | None:
        with self.lock:
            entry = self.entries.get((table.pk, table.code))
            if entry is None or entry[0] != table.version:
                return None
            self.entries.move_to_end((table.pk, table.code))
            return entry[1]

    def put(self, table: Table, told: dict[str, Any]) -> None:
        with self.lock:
            self.entries[(table.pk, table.code)] = (table.version, told)
            self.entries.move_to_end((table.pk, table.code))
            while len(self.entries) > settings.STORY_CACHE_TABLES:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


CACHE = _Cache()


def story_json(table: Table) -> dict[str, Any]:
    """The story of a started table at its current version, with each seat's colour and each
    drawn message's ``name`` in the active language (the cache keeps the story without words,
    the same for every language)."""
    told = CACHE.get(table)
    if told is None:
        told = story(load_state(table)).to_json()
        told["code"] = table.code
        told["colours"] = [seat.colour for seat in table.seats.order_by("index")]
        CACHE.put(table, told)
    options = resolve_options(table.preset, table.overrides)
    return told | {
        "messages": [
            message | {"name": message_text(options, MessageAction(message["action"]))}
            for message in told["messages"]
        ]
    }


def _cell(value: Any) -> Any:
    """A names' cell that a spreadsheet would not run as a formula."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def results_csv(told: dict[str, Any]) -> str:
    """``results.csv`` from a story's JSON (columns: ``CSV_COLUMNS``), in the active language."""
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\r\n")
    writer.writerow({column: _HEADERS[column]() for column in CSV_COLUMNS})
    names, colours = told["players"], told["colours"]
    word = {key: said() for key, said in _WORDS.items()}

    def who(seat: int) -> dict[str, Any]:
        colour = colours[seat] if seat < len(colours) else ""
        return {
            "seat": seat,
            "name": _cell(names[seat]),
            "colour": str(_COLOUR_NAMES.get(colour, colour)),
        }

    places = {entry["seat"]: entry["place"] for entry in told["ranking"] or []}
    last = told["history"][-1]["players"]
    order = sorted(range(len(names)), key=lambda seat: (-last[seat]["total"], seat))
    for seat in order:
        writer.writerow(
            {
                "section": word["result"],
                **who(seat),
                "rank": places.get(seat, ""),
                **last[seat],
                **told["totals"][seat],
            }
        )
    for row in told["history"]:
        turn = word["final"] if row["phase"] == "final" else row["turn"]
        for seat, standing in enumerate(row["players"]):
            writer.writerow({"section": word["history"], "turn": turn, **who(seat), **standing})
    for message in told["messages"]:
        writer.writerow(
            {
                "section": word["message"],
                "turn": message["turn"],
                **who(message["seat"]),
                "message_number": message["message"],
                "message_name": message["name"],
                "message_choice": word.get(message["choice"] or "", message["choice"] or ""),
                "message_points": "" if message["points"] is None else message["points"],
            }
        )
    return out.getvalue()
