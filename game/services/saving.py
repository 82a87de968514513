"""Saving what a command did: its log entries, the figure choices standing preferences answer at
once, the checkpoint, and the update published once the transaction commits.

A command, a preference that answers a waiting prompt and a correction all end here
(``save_applied``), so every change of a game is logged, checkpointed, cached and published in
one way: the ``update`` frame is serialised once (``Applied.message``) and every connection of
the table sends that same text."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

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
from game.services.narration import narrate, public_view_json
from game.store import tables
from game.store.jsontext import dumps
from game.store.log import NewEntry, TableHead, append


@dataclass(frozen=True, slots=True)
class Applied:
    """What a successful command changed; published to the table's group after the commit."""

    code: str
    from_version: int
    version: int
    command_id: str
    seat: int
    events: list[LoggedEvent]
    lines: list[str]
    view_json: str
    finished: bool
    reopened: bool = False
    """An undo took back the end of a finished tabletop game."""
    publication: publish.Publication = field(
        default_factory=publish.Publication, compare=False, repr=False
    )
    """The update's publication, sent once the transaction commits."""

    def message(self) -> dict[str, Any]:
        """The group message: the ``update`` frame serialised once, the same text for every
        connection of the table (a page knows its own seat from its snapshot)."""
        head = {
            "type": "update",
            "from_version": self.from_version,
            "version": self.version,
            "id": self.command_id,
            "seat": self.seat,
            "events": self.events,
            "lines": self.lines,
        }
        return {
            "type": publish.UPDATE,
            "text": dumps(head)[:-1] + ',"view":' + self.view_json + "}",
            "finished": self.finished or self.reopened,
        }


def new_entry(
    state: GameState, events: Sequence[LoggedEvent], command_id: str, *, automatic: bool
) -> NewEntry:
    return NewEntry(
        index=state.version - 1,
        action=dict(state.log[-1]),
        events=events,
        command_id=command_id,
        automatic=automatic,
        turn=limits.turn_key(state),
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
    applied = Applied(
        code=table.code,
        from_version=table.version,
        version=state.version,
        command_id=command_id,
        seat=seat,
        events=events,
        lines=[
            line
            for entry in entries
            for line in narrate(
                entry.events, [player.name for player in state.players], state.options
            )
        ],
        view_json=public_view_json(state),
        finished=state.finished,
        reopened=table.status == Table.Status.FINISHED and not state.finished,
    )
    publish.after_commit(table.code, applied.message, applied.publication)
    return applied
