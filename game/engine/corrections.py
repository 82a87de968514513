"""Corrections at a tabletop game: ``adjust`` (a signed change of one figure, now) and
``correct`` (change or delete an earlier entry, and rebuild the game).

A tabletop game's log only grows: a correction is one more action, so the record keeps what was
entered first and what it was corrected to, and an ``undo`` takes a correction back like any
other action. What the game consists of is the *plays*: the actions that still count
(``state.effective``), with each corrected entry in its latest form, without deleted entries,
without the ``correct`` actions themselves, and without the entries a correction made *lapse*.

A ``correct`` replaces (or drops) one play and replays the plays after it from the state before
it. A later play that no longer applies there lapses: it is skipped, and listed in the
``corrected`` event so that the table is told, never silently. A play lapses when the engine
refuses it at its new point, or when it resolves a message and the message waiting at that point
is not the one it resolved, drawn in the same turn (a resolution is a decision about one draw,
not about whichever comes up). The game is rebuilt from its setup, so the message stack keeps its
order.

A ``correct`` with ``insert`` adds a forgotten entry instead: a play placed just before the end of
turn it names (so the round of scoring that end closes counts it), named by the correction's own
log index, and replayed with the plays after it the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import commands as cmd
from .errors import EngineError, IllegalCommand
from .events import Adjusted, Corrected, Event, Lapsed
from .messengers import Figure, is_dark, space
from .play import apply, fresh, started
from .state import GameState, Mode, effective
from .views import pending

Play = tuple[int, Mapping[str, Any]]
"""A log index and the action that counts for it (the entry's latest corrected form)."""


@dataclass(frozen=True, slots=True)
class Amendments:
    """What the ``correct`` actions of a log changed.

    ``replaced``: (entry index, its latest form, or None once deleted), by index. ``lapsed``:
    the entries a correction skipped because they no longer applied.
    """

    replaced: tuple[tuple[int, Mapping[str, Any] | None], ...] = ()
    lapsed: frozenset[int] = frozenset()


NONE = Amendments()


def plays(state: GameState) -> list[Play]:
    """The actions the game consists of, in order (see the module's docstring). An entry
    added by a ``correct`` with ``insert`` is a play named by that correction's log index,
    placed just before the entry it names."""
    amendments = state.amendments or NONE
    replaced = dict(amendments.replaced)
    kept = effective(state.log)
    added: dict[int, list[int]] = {}
    for index in kept:
        action = state.log[index]
        if action.get("type") == cmd.Correct.type and action.get("insert"):
            added.setdefault(action["entry"], []).append(index)
    result: list[Play] = []

    def play(index: int, action: Mapping[str, Any]) -> None:
        for before in added.get(index, ()):
            play(before, state.log[before]["replacement"])
        if index in amendments.lapsed:
            return
        current = replaced.get(index, action)
        if current is not None:
            result.append((index, current))

    for index in kept:
        action = state.log[index]
        if action.get("type") != cmd.Correct.type:
            play(index, action)
    return result


def _apply_play(state: GameState, action: Mapping[str, Any]) -> tuple[GameState, list[Event]]:
    return apply(state, action["seat"], cmd.parse_command(action))


def _replay(state: GameState, played: Sequence[Play]) -> GameState:
    for _, action in played:
        state, _ = _apply_play(state, action)
    return state


def correctable_plays(state: GameState) -> list[Play]:
    """The plays a ``correct`` may name, oldest first: those with points (a message's
    resolution only when it gave points)."""
    return [
        (index, action)
        for index, action in plays(state)
        if action.get("type") in cmd.CORRECTABLE
        and (action.get("type") != cmd.ResolveMessage.type or action.get("points") is not None)
    ]


@dataclass(frozen=True, slots=True)
class Window:
    """How far back corrections reach: the newest ``entries`` plays with points, and of those
    only the ones among the log's newest ``reach`` entries.

    A correction replays every play after the entry it names, twice (as it was and as
    corrected), so the entry's distance from the end of the log is its cost; the window bounds
    that distance whatever the game looks like (a long run of turns without points included).
    """

    entries: int
    reach: int

    def plays(self, state: GameState) -> list[Play]:
        """The plays a ``correct`` may name now, oldest first."""
        oldest = len(state.log) - self.reach
        return [play for play in correctable_plays(state) if play[0] >= oldest][-self.entries :]

    def oldest(self, state: GameState) -> int:
        """The lowest log index a ``correct`` may name now: a play older than every one it may
        name is out of reach (``TooOld``)."""
        oldest = len(state.log) - self.reach
        found = correctable_plays(state)
        if len(found) > self.entries:
            oldest = max(oldest, found[-self.entries][0])
        return max(oldest, 0)


class TooOld(IllegalCommand):
    """A ``correct`` naming an entry beyond the correction window."""


def check_window(state: GameState, entry: int, window: Window) -> None:
    """Raise ``TooOld`` if ``entry`` lies before every entry ``window`` lets a ``correct`` name."""
    oldest = window.oldest(state)
    if entry < oldest:
        raise TooOld(
            f"entry {entry} is too old to correct: corrections reach back over the latest"
            f" {window.entries} entries with points within the latest {window.reach} entries"
            f" of the log (here back to entry {oldest}); adjust the points instead",
            "too_old",
            entry=entry,
            entries=window.entries,
            reach=window.reach,
            oldest=oldest,
        )


# Adjust ---------------------------------------------------------------------------------------


def adjust(state: GameState, seat: int, command: cmd.Adjust) -> tuple[GameState, list[Event]]:
    """Add ``command.points`` (signed) to one figure of ``seat``, now.

    It bypasses the agenda: nothing waits for it and it starts nothing, so it draws no message
    and may come between any two decisions. A figure never goes below 0; once the figures have
    merged, only the figure that carries the total may change.
    """
    if state.mode is not Mode.TABLETOP:
        raise IllegalCommand("points are adjusted only at a tabletop game", "adjust_not_tabletop")
    player = state.players[seat]
    figure = Figure(command.figure)
    if player.carrier is not None and figure is not player.carrier:
        raise IllegalCommand(
            f"{player.name}'s points are all on the {player.carrier.value} now",
            "points_on_carrier",
            name=player.name,
            figure=player.carrier.value,
        )
    start = player.points_on(figure)
    total = start + command.points
    if total < 0:
        raise IllegalCommand(
            f"{player.name}'s {figure.value} has {start} points; it cannot lose {-command.points}",
            "adjust_below_zero",
            name=player.name,
            figure=figure.value,
            points=start,
            loss=-command.points,
        )
    if figure is Figure.MEEPLE:
        changed = dataclasses.replace(player, meeple=total)
    else:
        changed = dataclasses.replace(player, messenger=total)
    players = (*state.players[:seat], changed, *state.players[seat + 1 :])
    new = dataclasses.replace(state, players=players, log=(*state.log, command.to_action(seat)))
    event: Adjusted = {
        "type": "adjusted",
        "seat": seat,
        "points": command.points,
        "figure": figure.value,
        "total": total,
        "space": space(total),
        "dark": is_dark(total),
    }
    return new, [event]


# Correct --------------------------------------------------------------------------------------


def correct(
    state: GameState, seat: int, command: cmd.Correct, starts: Iterable[GameState] = ()
) -> tuple[GameState, list[Event]]:
    """Change or delete entry ``command.entry`` and rebuild the game after it.

    ``starts``: states the caller already has (the server's states at some log indices, from
    its checkpoints); the first whose plays begin the plays before the corrected entry is
    replayed from, so that only the plays after it are applied again. Without one that fits
    the game is replayed from its setup. The result is the same either way.
    """
    if state.mode is not Mode.TABLETOP:
        raise IllegalCommand(
            "entries are corrected only at a tabletop game", "correct_not_tabletop"
        )
    played = plays(state)
    position = next((p for p, (index, _) in enumerate(played) if index == command.entry), None)
    if position is None:
        raise _no_entry(state, command.entry)
    original = played[position][1]
    replacement = command.replacement
    if command.insert:
        _check_insert(state, original, replacement)
    else:
        _check_replacement(state, original, replacement)
    base = _start(state, played[:position], starts)
    try:
        new = base if replacement is None else _apply_play(base, replacement)[0]
    except EngineError as error:
        raise IllegalCommand(
            f"the corrected entry would not be accepted there: {error}",
            "correction_refused",
            reason=error,
        ) from None
    # An added entry goes before the entry named, which is replayed after it like the rest.
    after = position if command.insert else position + 1
    _check_figure_named(new, played[after : after + 1])
    old = base if command.insert else _apply_play(base, original)[0]
    kept: list[Play] = []
    lapsed: list[Lapsed] = []
    for index, action in played[after:]:
        was, turn = old.revealed, old.turn
        old, _ = _apply_play(old, action)
        if action.get("type") == cmd.ResolveMessage.type and (
            was is None
            or new.revealed is None
            or (new.revealed.message, new.turn) != (was.message, turn)
        ):
            lapsed.append(_lapsed(index, action, was))
            continue
        try:
            new, _ = _apply_play(new, action)
        except EngineError:
            lapsed.append(_lapsed(index, action, was if was is not None else None))
            continue
        kept.append((index, action))
    amendments = state.amendments or NONE
    replaced = dict(amendments.replaced)
    if not command.insert:
        replaced[command.entry] = replacement
    result = dataclasses.replace(
        new,
        log=(*state.log, command.to_action(seat)),
        amendments=Amendments(
            tuple(sorted(replaced.items(), key=lambda item: item[0])),
            amendments.lapsed | {event["entry"] for event in lapsed},
        ),
    )
    corrected: Corrected = {
        "type": "corrected",
        "seat": seat,
        "entry": command.entry,
        "action": dict(original),
        "replacement": None if replacement is None else dict(replacement),
        "lapsed": [event["entry"] for event in lapsed],
        "before": _scores(state),
        "scores": _scores(result),
    }
    if command.insert:
        corrected["inserted"] = True
        corrected["turn"] = base.turn
    events: list[Event] = [
        corrected,
        *lapsed,
    ]
    waiting = state.revealed
    if waiting is not None and result.revealed != waiting:
        # A message drawn and still waiting to be decided is in no entry, so it cannot lapse
        # like one; it is said all the same, never dropped silently.
        events.append(
            {
                "type": "undrawn",
                "seat": waiting.seat,
                "message": waiting.message,
                "action": waiting.action.value,
            }
        )
    revealed = result.revealed
    if revealed is not None and revealed != state.revealed:
        events.append(
            {
                "type": "message_drawn",
                "seat": revealed.seat,
                "message": revealed.message,
                "action": revealed.action.value,
            }
        )
    return result, events


def _no_entry(state: GameState, entry: int) -> IllegalCommand:
    if entry >= len(state.log):
        return IllegalCommand(
            f"there is no entry {entry}: the log has {len(state.log)}",
            "no_entry",
            entry=entry,
            count=len(state.log),
        )
    action = state.log[entry]
    if action.get("type") not in cmd.CORRECTABLE:
        return _not_scoring(action)
    return IllegalCommand(
        f"entry {entry} no longer counts (undone, deleted or lapsed)", "entry_lapsed", entry=entry
    )


def _not_scoring(action: Mapping[str, Any]) -> IllegalCommand:
    kinds = ", ".join(sorted(cmd.CORRECTABLE))
    kind = action.get("type")
    return IllegalCommand(
        f"only entries with points ({kinds}) can be corrected, not {kind}",
        "not_scoring",
        kind=str(kind),
    )


def _check_replacement(
    state: GameState, original: Mapping[str, Any], replacement: Mapping[str, Any] | None
) -> None:
    kind = original.get("type")
    if kind not in cmd.CORRECTABLE or (
        kind == cmd.ResolveMessage.type and original.get("points") is None
    ):
        raise _not_scoring(original)
    if replacement is None:
        if kind == cmd.ResolveMessage.type:
            raise IllegalCommand(
                "a message's resolution cannot be deleted (the message would wait again); "
                "correct its points instead",
                "resolution_not_deletable",
            )
        return
    if replacement["type"] != kind:
        raise IllegalCommand(
            f"the entry is a {kind}: its replacement must be one too",
            "replacement_kind",
            kind=str(kind),
        )
    if not 0 <= replacement["seat"] < len(state.players):
        raise IllegalCommand(
            f"there is no seat {replacement['seat']} at this table",
            "no_seat",
            seat=replacement["seat"],
        )
    if kind == cmd.ResolveMessage.type and replacement.get("choice") != original.get("choice"):
        raise IllegalCommand(
            "a message's resolution keeps its choice; only its points change",
            "resolution_keeps_choice",
        )
    if dict(replacement) == dict(cmd.parse_command(original).to_action(original["seat"])):
        raise IllegalCommand("the replacement is the same as the entry", "replacement_same")


def _check_insert(
    state: GameState, before: Mapping[str, Any], added: Mapping[str, Any] | None
) -> None:
    """A forgotten entry is added at the end of a turn: just before its ``end_turn``, so that
    the round of scoring the end of the turn closes counts it (and draws what it draws)."""
    if before.get("type") != cmd.EndTurn.type:
        raise IllegalCommand(
            "a forgotten entry is added before an end of turn that still counts", "insert_before"
        )
    assert added is not None
    if not 0 <= added["seat"] < len(state.players):
        raise IllegalCommand(
            f"there is no seat {added['seat']} at this table", "no_seat", seat=added["seat"]
        )


def _check_figure_named(new: GameState, following: Sequence[Play]) -> None:
    """Refuse a corrected entry that leaves the game asking which figure takes its points when
    no figure choice follows it in the log: every later entry would lapse behind the question.
    The host names the figure in the replacement instead."""
    waiting = pending(new)
    if waiting is None or waiting["type"] != "choose_figure" or waiting["seat"] is None:
        return
    seat = waiting["seat"]
    answer = following[0][1] if following else {}
    if answer.get("type") == cmd.ChooseFigure.type and answer.get("seat") == seat:
        return
    name = new.players[seat].name
    raise IllegalCommand(
        f"name the figure that takes {name}'s corrected points", "figure_unnamed", name=name
    )


def added_in_turn(state: GameState, index: int) -> int | None:
    """The turn of the entry added by the correction at log index ``index`` (the turn of the
    entry it was added before), or None when it is no longer part of the game."""
    played = plays(state)
    position = next((p for p, (at, _) in enumerate(played) if at == index), None)
    if position is None:
        return None
    return _start(state, played[:position], ()).turn


def _start(state: GameState, before: Sequence[Play], starts: Iterable[GameState]) -> GameState:
    """The state after the plays ``before``, from the first of ``starts`` whose plays begin
    them (a state is the plays applied in order from the setup, so equal plays mean an equal
    game), else from the setup."""
    wanted = [(index, dict(action)) for index, action in before]
    for start in starts:
        if start.setup != state.setup:
            continue
        have = [(index, dict(action)) for index, action in plays(start)]
        if have == wanted[: len(have)]:
            return _replay(start, before[len(have) :])
    return _replay(fresh(state.setup), before)


def play_events(state: GameState) -> list[Event]:
    """The events of the game as it stands: its setup's, then each play's, replayed from the
    setup (the events stored with corrected or lapsed entries no longer tell it)."""
    game, events = started(state.setup)
    for _, action in plays(state):
        game, new_events = _apply_play(game, action)
        events.extend(new_events)
    return events


def _lapsed(index: int, action: Mapping[str, Any], revealed: Any) -> Lapsed:
    event: Lapsed = {"type": "lapsed", "entry": index, "action": dict(action)}
    if action.get("type") == cmd.ResolveMessage.type and revealed is not None:
        event["message"] = revealed.message
        event["message_action"] = revealed.action.value
    return event


def _scores(state: GameState) -> list[dict[str, int]]:
    return [{"meeple": p.meeple, "messenger": p.messenger} for p in state.players]


def correction_target(state: GameState, entry: int) -> Mapping[str, Any]:
    """The latest form of entry ``entry`` if a ``correct`` may name it; ``IllegalCommand``
    otherwise (the web layer's preview says why before anything is sent)."""
    for index, action in plays(state):
        if index == entry:
            return action
    raise _no_entry(state, entry)
