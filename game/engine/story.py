"""The story of a game: score history per turn, points per category, message statistics and
the final ranking, for the charts and downloads shown during and after a game.

Computed by replaying, from the setup, the actions that still count (``counted_actions``: the
one place that says which; an undone entry, for instance, tells no story), and reading the
events each one produces. The story holds public facts only: the scores, the messages already
drawn and what they gave; nothing about the tile bag or the messages still in the stack.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from .commands import parse_command
from .corrections import plays
from .events import Event, MessageDrawn, MessageResolved, Points
from .messengers import MessageAction
from .play import apply, started
from .presets import Options
from .state import GameState

CATEGORIES: Final = ("road", "city", "monastery", "field", "during_play", "message", "final")
"""Where points came from. ``during_play``: points entered at a tabletop game without saying
what for, and signed adjustments; entered points that name a category count under it."""
_FEATURES: Final = frozenset({"road", "city", "monastery", "field"})
_QUIET: Final = frozenset({"turn_started", "tile_drawn", "tile_discarded"})
"""Events that do not make a turn worth a row of its own (the empty turn in which a tabletop
game is ended)."""


class StoryError(ValueError):
    """The log does not replay from the setup (a corrupt log: the story cannot be told)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's two figures at one moment."""

    meeple: int
    messenger: int

    @property
    def total(self) -> int:
        return self.meeple + self.messenger


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """The standings after a turn.

    ``phase``: ``start`` (before the first turn), ``turn``, or ``final`` (after the figures
    merged and the final scoring); ``open``: the turn (or final scoring) is still going on, so
    the row shows the standings so far.
    """

    turn: int
    seat: int | None
    phase: str
    open: bool
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class MessageStat:
    """One drawn message: who drew it in which turn, and what it gave. ``choice`` and
    ``points`` are None while it waits to be resolved."""

    turn: int
    seat: int
    message: int
    action: str
    choice: str | None
    points: int | None


@dataclass(frozen=True, slots=True)
class Story:
    """Everything the story shows; ``ranking`` (place, seat), best first, once finished."""

    players: tuple[str, ...]
    finished: bool
    history: tuple[HistoryRow, ...]
    categories: tuple[Mapping[str, int], ...]
    messages: tuple[MessageStat, ...]
    ranking: tuple[tuple[int, int], ...] | None

    def to_json(self) -> dict[str, Any]:
        """The story as JSON-ready values (docs/protocol.md, "The story")."""
        return {
            "players": list(self.players),
            "finished": self.finished,
            "categories": list(CATEGORIES),
            "history": [
                {
                    "turn": row.turn,
                    "seat": row.seat,
                    "phase": row.phase,
                    "open": row.open,
                    "players": [
                        {"meeple": s.meeple, "messenger": s.messenger, "total": s.total}
                        for s in row.standings
                    ],
                }
                for row in self.history
            ],
            "totals": [dict(totals) for totals in self.categories],
            "messages": [
                {
                    "turn": m.turn,
                    "seat": m.seat,
                    "message": m.message,
                    "action": m.action,
                    "choice": m.choice,
                    "points": m.points,
                }
                for m in self.messages
            ],
            "ranking": None
            if self.ranking is None
            else [{"place": place, "seat": seat} for place, seat in self.ranking],
        }


def counted_actions(state: GameState) -> list[Mapping[str, Any]]:
    """The actions of ``state.log`` that still count, in order, each in its latest corrected
    form: what the story replays (``corrections.plays`` decides: undone, deleted and lapsed
    entries tell no story)."""
    return [action for _, action in plays(state)]


def story(state: GameState) -> Story:
    """The story of ``state``'s game so far.

    Raises ``StoryError`` if the log does not replay (it always does for a state built by
    ``apply``)."""
    setup = state.setup
    try:
        replayed, events = started(setup)
        teller = _Teller(len(setup.players), setup.options)
        teller.read(events)
        for action in counted_actions(state):
            replayed, events = apply(replayed, action["seat"], parse_command(action))
            teller.read(events)
    except ValueError as error:
        raise StoryError(f"the game's log does not replay: {error}") from None
    return teller.told(setup.players, replayed)


class _Teller:
    """Follows the events of a replay: the figures, the categories, the messages."""

    def __init__(self, seats: int, options: Options) -> None:
        self.options = options
        self.figures = [{"meeple": 0, "messenger": 0} for _ in range(seats)]
        self.totals: list[dict[str, int]] = [dict.fromkeys(CATEGORIES, 0) for _ in range(seats)]
        self.messages: list[MessageStat] = []
        self.history: list[HistoryRow] = [self.row(0, None, "start", open=False)]
        self.turn = 0
        self.seat: int | None = None
        self.eventful = False
        self.ending = False
        self.over = False

    def standings(self) -> tuple[Standing, ...]:
        return tuple(Standing(f["meeple"], f["messenger"]) for f in self.figures)

    def row(self, turn: int, seat: int | None, phase: str, *, open: bool) -> HistoryRow:
        return HistoryRow(turn, seat, phase, open, self.standings())

    def close_turn(self) -> None:
        """The row of the turn just played, if a turn was played since the last row."""
        if self.turn and self.eventful:
            self.history.append(self.row(self.turn, self.seat, "turn", open=False))
        self.eventful = False

    def read(self, happened: Sequence[Event]) -> None:
        for event in happened:
            kind = event["type"]
            if event["type"] == "turn_started":
                self.close_turn()
                self.turn, self.seat = event["turn"], event["seat"]
                continue
            if event["type"] == "game_ending":
                self.close_turn()
                self.ending = True
                continue
            if kind not in _QUIET:
                self.eventful = True
            if event["type"] == "points":
                self.points(event)
            elif event["type"] == "adjusted":
                self.figures[event["seat"]][event["figure"]] = event["total"]
                self.totals[event["seat"]]["during_play"] += event["points"]
            elif event["type"] == "figures_merged":
                merged = self.figures[event["seat"]]
                merged["meeple"] = merged["messenger"] = 0
                merged[event["figure"]] = event["points"]
            elif event["type"] == "message_drawn":
                self.drawn(event)
            elif event["type"] == "message_resolved":
                self.resolved(event)
            elif event["type"] == "game_over":
                self.over = True

    def points(self, event: Points) -> None:
        seat = event["seat"]
        self.figures[seat][event["figure"]] = event["total"]
        reason = event["reason"]
        if reason == "tabletop":
            category = event.get("category")
            reason = category if category in _FEATURES else "during_play"
        elif reason not in CATEGORIES:
            reason = "during_play"
        self.totals[seat][reason] += event["points"]

    def drawn(self, event: MessageDrawn) -> None:
        action = MessageAction(event["action"])
        self.messages.append(
            MessageStat(
                self.turn,
                event["seat"],
                event["message"],
                action.value,
                None,
                None,
            )
        )

    def resolved(self, event: MessageResolved) -> None:
        for index in range(len(self.messages) - 1, -1, -1):
            stat = self.messages[index]
            if stat.message == event["message"] and stat.choice is None:
                self.messages[index] = MessageStat(
                    stat.turn,
                    stat.seat,
                    stat.message,
                    stat.action,
                    event["choice"],
                    event["points"],
                )
                return

    def told(self, players: Sequence[str], state: GameState) -> Story:
        history = list(self.history)
        if self.ending or self.over:
            history.append(self.row(self.turn, None, "final", open=not self.over))
        elif self.turn and self.eventful:
            history.append(self.row(self.turn, self.seat, "turn", open=True))
        ranking = None
        if state.finished:
            totals = [standing.total for standing in self.standings()]
            order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
            ranking = tuple(
                (1 + sum(other > totals[seat] for other in totals), seat) for seat in order
            )
        return Story(
            players=tuple(players),
            finished=state.finished,
            history=tuple(history),
            categories=tuple(MappingProxyType(dict(totals)) for totals in self.totals),
            messages=tuple(self.messages),
            ranking=ranking,
        )
