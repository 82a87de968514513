"""The view every seat and spectator shares, worded and serialised: the facts once from the
state (``public_view``), then their words in the active language (``view_json``)."""

from __future__ import annotations

import copy
from typing import Any

from game.engine.commands import Correct
from game.engine.corrections import added_in_turn
from game.engine.presets import Options
from game.engine.state import GameState, effective
from game.engine.views import view
from game.store.jsontext import dumps
from game.words.decisions import word_view


def public_view(state: GameState) -> dict[str, Any]:
    """The shared view's facts, with no words and no ``you``: a page learns its seat from its
    snapshot's ``table.you``. The same for every language: word it with ``view_json``. When an
    undo would take back an entry the host added, ``undoable_turn`` is the turn it was added to.
    """
    shared = view(state, None)
    del shared["you"]
    undoable = shared.get("undoable")
    if undoable is not None and undoable.get("type") == Correct.type and undoable.get("insert"):
        shared["undoable_turn"] = added_in_turn(state, effective(state.log)[-1])
    return shared


def view_json(shared: dict[str, Any], options: Options) -> str:
    """``shared`` (``public_view``) worded in the active language, as JSON text. ``shared``
    itself stays without words, so one view serves each language in turn."""
    worded = dict(shared)
    for key in ("pending", "revealed"):
        if worded.get(key) is not None:
            worded[key] = copy.deepcopy(worded[key])
    return dumps(word_view(worded, options))


def public_view_json(state: GameState) -> str:
    """The shared view in the active language, as JSON text."""
    return view_json(public_view(state), state.options)
