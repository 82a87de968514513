"""Saving what a command did: its log entries, the figure choices standing preferences answer at
once, the checkpoint, and the update published once the transaction commits.

A command, a preference that answers a waiting prompt and a correction all end here
(``save_applied``), so every change of a game is logged, checkpointed, cached and published in
one way: the ``update`` frame is serialised once per language of ``settings.LANGUAGES`` (the view
computed once from the state, then worded in each language), and every connection of the table
sends the text of its own language (``Applied.message``, game/live/consumers.py)."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import translation

from game.engine.commands import (
    ChooseFigure,
)
from game.engine.events import LoggedEvent
from game.engine.play import apply
from game.engine.state import GameState
from game.engine.views import pending
from game.models import Seat, Table
from game.ops import metrics
from game.services import limits, publish
from game.store import tables
from game.store.jsontext import dumps
from game.store.log import NewEntry, TableHead, append
from game.words.narration import Line, narrate
from game.words.views import public_view, view_json


@dataclass(frozen=True, slots=True)
class Applied:
    """What a successful command changed; published to the table's group after the commit."""

    code: str
    from_version: int
    version: int
    command_id: str
    seat: int
    events: list[LoggedEvent]
    texts: dict[str, str]
    """The ``update`` frame as JSON text, by language code (``settings.LANGUAGES``)."""
    finished: bool
    reopened: bool = False
    """An undo took back the end of a finished tabletop game."""
    publication: publish.Publication = field(
        default_factory=publish.Publication, compare=False, repr=False
    )
    """The update's publication, sent once the transaction commits."""

    def message(self) -> dict[str, Any]:
        """The group message: the ``update`` frame serialised once per language, the same text
        for every connection of a language (a page knows its own seat from its snapshot)."""
        return {
            "type": publish.UPDATE,
            "texts": self.texts,
            "finished": self.finished or self.reopened,
        }

    def text(self, language: str | None = None) -> str:
        """The ``update`` frame in ``language`` (default: the active one), else in
        ``settings.LANGUAGE_CODE``."""
        language = language or translation.get_language() or settings.LANGUAGE_CODE
        return self.texts.get(language) or self.texts[settings.LANGUAGE_CODE]

    @property
    def lines(self) -> list[Line]:
        """The update's lines in the active language."""
        lines: list[Line] = json.loads(self.text())["lines"]
        return lines

    @property
    def view_json(self) -> str:
        """The update's view in the active language, as JSON text."""
        return dumps(json.loads(self.text())["view"])


def new_entry(
    state: GameState,
    events: Sequence[LoggedEvent],
    command_id: str,
    *,
    automatic: bool,
    device: str = "",
) -> NewEntry:
    return NewEntry(
        index=state.version - 1,
        action=dict(state.log[-1]),
        events=events,
        command_id=command_id,
        automatic=automatic,
        turn=limits.turn_key(state),
        device=device,
    )


def answer_by_preference(table: TableHead, state: GameState, entries: list[NewEntry]) -> GameState:
    """Answer figure prompts of seats that set a standing preference, as they would have."""
    preferences: dict[int, str] | None = None
    while True:
        waiting = pending(state)
        if waiting is None or waiting["type"] != "choose_figure" or waiting["seat"] is None:
            return state
        if preferences is None:
            preferences = dict(
                Seat.objects.filter(table_id=table.id)
                .exclude(preference=Seat.Preference.ASK)
                .values_list("index", "preference")
            )
        figure = preferences.get(waiting["seat"])
        if figure is None:
            return state
        state, events = apply(state, waiting["seat"], ChooseFigure(figure))
        entries.append(new_entry(state, events, "", automatic=True))


def save_applied(
    table: TableHead, state: GameState, entries: list[NewEntry], command_id: str, seat: int
) -> Applied:
    append(table, entries, finished=state.finished)
    tables.save_checkpoint(table.id, table.version, state)
    transaction.on_commit(lambda: tables.remember((table.id, table.code), state))
    transaction.on_commit(functools.partial(metrics.count_decisions, len(entries)))
    events = [event for entry in entries for event in entry.events]
    head = {
        "type": "update",
        "from_version": table.version,
        "version": state.version,
        "id": command_id,
        "seat": seat,
        "events": events,
    }
    applied = Applied(
        code=table.code,
        from_version=table.version,
        version=state.version,
        command_id=command_id,
        seat=seat,
        events=events,
        texts=update_texts(head, entries, state),
        finished=state.finished,
        reopened=table.status == Table.Status.FINISHED and not state.finished,
    )
    publish.after_commit(table.code, applied.message, applied.publication)
    return applied


def update_texts(
    head: dict[str, Any], entries: Sequence[NewEntry], state: GameState
) -> dict[str, str]:
    """The ``update`` frame as JSON text in each language of ``settings.LANGUAGES``: ``head``
    with the entries' lines and the view, computed once from the state and worded in each
    language under ``translation.override`` (an entry's ``played_by`` names its seat's computer
    in its own lines only, so each entry is narrated on its own)."""
    names = [player.name for player in state.players]
    shared = public_view(state)
    texts = {}
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            lines = [
                line for entry in entries for line in narrate(entry.events, names, state.options)
            ]
            view = view_json(shared, state.options)
        texts[language] = dumps({**head, "lines": lines})[:-1] + ',"view":' + view + "}"
    return texts
