"""How many entries a tabletop game's log may take, per turn and in all.

A tabletop game has no tile bag to run out, and its entries (points typed at the table, undos)
cost nothing to send, so without limits one player could grow a log without end and with it the
work of every load and undo. A turn may add ``TABLETOP_ENTRIES_PER_TURN`` entries; a game,
``GAME_MAX_ENTRIES``. Either limit refuses only the entries that could repeat without end
(``score``, ``undo``; at the game's limit also the start of another turn); whatever finishes the
turn, or ends the game, stays possible, so no limit can leave a game stuck. The game's ending
(final scoring) counts as a turn of its own.
"""

from __future__ import annotations

from typing import Final

from django.conf import settings
from django.utils.translation import ngettext

from game.engine import commands as cmd
from game.engine.agenda import (
    AwaitFinalScores,
    AwaitScores,
    CloseGame,
    EndGame,
    FinalScoring,
    MergeFigures,
)
from game.engine.state import GameState, Mode
from game.models import LogEntry

ENDING_TURN: Final = 0
"""``LogEntry.turn`` of the entries made while the game is ending (turns are numbered from 1)."""

_ENDING_STEPS: Final = (AwaitFinalScores, MergeFigures, FinalScoring, CloseGame, EndGame)
_REPEATABLE: Final = (cmd.Score, cmd.ScoreShared, cmd.Undo, cmd.Adjust, cmd.Correct)
_FORWARD: Final = (cmd.EndTurn, cmd.ResolveMessage, cmd.ChooseFigure)


class LimitReached(Exception):
    """A command refused by a limit; the message says which and what still may be done."""


def turn_key(state: GameState) -> int:
    """The turn an entry leading to ``state`` is counted in (``LogEntry.turn``)."""
    if state.finished or any(isinstance(step, _ENDING_STEPS) for step in state.agenda):
        return ENDING_TURN
    return state.turn


def check(state: GameState, table_id: int, version: int, command: cmd.Command) -> None:
    """Raise ``LimitReached`` if ``command`` would take the game past a limit."""
    if state.mode is not Mode.TABLETOP:
        return
    ending = turn_key(state) == ENDING_TURN
    if version >= settings.GAME_MAX_ENTRIES and not ending:
        if _between_turns(state):
            if not isinstance(command, cmd.EndGame):
                raise LimitReached(
                    ngettext(
                        "This game has %(count)s entry, the most a game may have (%(most)s);"
                        " the host can only end it now.",
                        "This game has %(count)s entries, the most a game may have"
                        " (%(most)s); the host can only end it now.",
                        version,
                    )
                    % {"count": version, "most": settings.GAME_MAX_ENTRIES}
                )
        elif not isinstance(command, _FORWARD):
            raise LimitReached(
                ngettext(
                    "This game has %(count)s entry, the most a game may have (%(most)s);"
                    " finish this turn, then the host ends the game.",
                    "This game has %(count)s entries, the most a game may have (%(most)s);"
                    " finish this turn, then the host ends the game.",
                    version,
                )
                % {"count": version, "most": settings.GAME_MAX_ENTRIES}
            )
    if not isinstance(command, _REPEATABLE):
        return
    limit = settings.TABLETOP_ENTRIES_PER_TURN
    if LogEntry.objects.filter(table_id=table_id, turn=turn_key(state)).count() >= limit:
        if ending:
            text = ngettext(
                "This turn already has %(count)s entry, the most one turn may have; finish the"
                " game.",
                "This turn already has %(count)s entries, the most one turn may have; finish"
                " the game.",
                limit,
            )
        else:
            text = ngettext(
                "This turn already has %(count)s entry, the most one turn may have; end the"
                " turn to go on.",
                "This turn already has %(count)s entries, the most one turn may have; end the"
                " turn to go on.",
                limit,
            )
        raise LimitReached(text % {"count": limit})


def _between_turns(state: GameState) -> bool:
    """Whether the engine would take ``end_game`` now: a turn's scoring round not yet begun."""
    head = state.agenda[0] if state.agenda else None
    return isinstance(head, AwaitScores) and not head.extra and not state.movements
