"""Positions where the right move is known, with the rule row each one follows.

States are the engine's own, with the scoreboard, the agenda or the board set to the position
(the engine then runs on as in play): every decision goes through ``seat_view`` and ``decide``,
and every command through ``apply``, which refuses illegal ones.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from game.engine import commands as cmd
from game.engine.agenda import AwaitMessage, Award, EndRound, EndTurn
from game.engine.events import Event
from game.engine.messengers import MESSAGE_SETS, Figure, MessageAction
from game.engine.play import apply, new_game
from game.engine.seat_view import seat_view
from game.engine.state import GameState, Revealed
from game.engine.views import pending
from game.players import decide
from game.players.figures import can_earn


def play_out(state: GameState, level: str, seat: int = 0) -> tuple[GameState, list[Event]]:
    """Let ``seat`` decide at ``level`` while the game waits for it; return all events."""
    events: list[Event] = []
    rng = random.Random(0)
    while (waiting := pending(state)) is not None and waiting["seat"] == seat:
        if waiting["type"] == "place_tile" and events:
            break
        command = decide(level, seat_view(state, seat), rng)
        state, new = apply(state, seat, cmd.parse_command(command))
        events.extend(new)
    return state, events


def scoreboard(state: GameState, *figures: tuple[int, int]) -> GameState:
    """``state`` with each seat's (meeple, messenger) points set."""
    players = tuple(
        dataclasses.replace(player, meeple=meeple, messenger=messenger)
        for player, (meeple, messenger) in zip(state.players, figures, strict=True)
    )
    return dataclasses.replace(state, players=players)


def awarding(preset: str, points: list[int], figures: list[tuple[int, int]]) -> GameState:
    """Seat 0, the active seat, is about to take ``points`` (one award each) in a round that may
    earn a message."""
    state, _ = new_game(["A", "B"], preset, seed=4)
    state = scoreboard(state, *figures)
    awards = tuple(Award(0, p, "city") for p in points)
    return dataclasses.replace(
        state, agenda=(*awards, EndRound(), EndTurn()), movements=(), round_can_draw=True
    )


def moves(events: list[Event], count: int) -> list[tuple[str, int]]:
    """(figure, total) of seat 0's first ``count`` points events: the round under test."""
    points = [e for e in events if e["type"] == "points" and e["seat"] == 0]
    return [(e["figure"], e["total"]) for e in points[:count]]


def drawn(events: list[Event], seat: int = 0) -> list[Event]:
    return [e for e in events if e["type"] == "message_drawn" and e["seat"] == seat]


def test_strong_closes_a_city_and_claims_it() -> None:
    """rules/base-game.md, Rules, "Completion and scoring": a follower placed this turn on a feature
    the turn completes scores at once. Tile E placed north of the start tile closes a 2-tile
    city: 4 points, the follower back."""
    state, _ = new_game(["A", "B"], "c2-hig", seed=1, tiles=["E", "U", "V", "K"])
    state, events = play_out(state, "strong")
    placed = next(e for e in events if e["type"] == "tile_placed")
    assert (placed["x"], placed["y"]) == (0, -1)
    points = [e for e in events if e["type"] == "points" and e["seat"] == 0]
    assert [(p["reason"], p["points"]) for p in points] == [("city", 4)]
    assert state.players[0].followers == 7


def test_strong_lands_on_a_dark_space_on_landing() -> None:
    """rules/messengers.md §3 trigger=on_landing (c1-zmg): meeple 3 + 2 stops on 5."""
    state = awarding("c1-zmg", [2], [(3, 1), (0, 0)])
    state, events = play_out(state, "strong")
    assert moves(events, 1) == [("meeple", 5)]
    assert len(drawn(events)) == 1


def test_strong_keeps_to_the_alone_rule() -> None:
    """rules/messengers.md §3 alone_rule=on (c2-zmg): another player's figure on 5 blocks landing
    there, so the 2 points go on the messenger, 8 to 10, which is free."""
    figures = [(3, 8), (5, 1)]
    state, events = play_out(awarding("c2-zmg", [2], figures), "strong")
    assert moves(events, 1) == [("messenger", 10)]
    assert len(drawn(events)) == 1
    # The easy player takes the first dark landing it sees, which the alone rule blocks.
    state, events = play_out(awarding("c2-zmg", [2], figures), "easy")
    assert moves(events, 1) == [("meeple", 5)]
    assert drawn(events) == []


def test_strong_plans_the_whole_round_at_end_of_round() -> None:
    """rules/messengers.md §3 trigger=end_of_round (c2-hig): only where figures stand when the round
    ends counts. 2 then 3 points from meeple 3 and messenger 8: 2 on the meeple (5) and 3 on the
    messenger (11), or 2 on the messenger (10) and 3 on the meeple (6), end on a dark space; the
    easy player stops on 5 first, then moves on to 8."""
    state, events = play_out(awarding("c2-hig", [2, 3], [(3, 8), (0, 0)]), "strong")
    assert moves(events, 2) in (
        [("meeple", 5), ("messenger", 11)],
        [("messenger", 10), ("meeple", 6)],
    )
    assert len(drawn(events)) == 1
    state, events = play_out(awarding("c2-hig", [2, 3], [(3, 8), (0, 0)]), "easy")
    assert drawn(events) == []


def test_figure_per_turn_and_message_cap() -> None:
    """rules/messengers.md §3 figure_choice=per_turn and messages_per_turn=1 (c3): once the meeple
    is the turn's figure only it can land; once a message was drawn this turn no other is."""
    state = awarding("c3", [2], [(3, 9), (0, 0)])
    assert can_earn(state, 0, [2])
    messenger_turn = dataclasses.replace(state, turn_figures={0: Figure.MESSENGER})
    assert not can_earn(messenger_turn, 0, [2])
    meeple_turn = dataclasses.replace(state, turn_figures={0: Figure.MEEPLE})
    assert can_earn(meeple_turn, 0, [2])
    capped = dataclasses.replace(meeple_turn, messages_this_turn=1)
    assert not can_earn(capped, 0, [2])
    assert not can_earn(state, 1, [2]), "only the active player draws (rules/messengers.md §5)"


def revealed(
    preset: str,
    action: MessageAction,
    figures: list[tuple[int, int]],
    segments: tuple[int, ...] = (2, 3),
) -> GameState:
    """Seat 0 has drawn the message with ``action``; followers of seat 0 stand on the start
    tile's features numbered ``segments`` (0 city, 1 road, 2 and 3 fields)."""
    state, _ = new_game(["A", "B"], preset, seed=4)
    state = scoreboard(state, *figures)
    number = next(n for n, a in MESSAGE_SETS[state.options.message_set].items() if a is action)
    assert state.board is not None
    board = state.board
    for index in segments:
        board = board.with_follower(0, (0, 0, index))
    supply = 7 - len(segments)
    players = (dataclasses.replace(state.players[0], followers=supply), state.players[1])
    return dataclasses.replace(
        state,
        board=board,
        players=players,
        stack=tuple(n for n in state.stack if n != number),
        revealed=Revealed(0, number, action),
        agenda=(AwaitMessage(), EndTurn()),
        movements=None,
    )


def resolved(events: list[Event]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "message_resolved")


def test_strong_takes_the_action_when_it_pays_more() -> None:
    """rules/messengers.md §4, 2 points per farmer: two farmers give 4, more than the 2 points."""
    state, events = play_out(revealed("c1-zmg", MessageAction.FARMERS, [(2, 2), (0, 0)]), "strong")
    assert (resolved(events)["choice"], resolved(events)["points"]) == ("action", 4)
    assert state.players[0].score == 8


def test_strong_takes_two_points_when_the_action_pays_less() -> None:
    """rules/messengers.md §4, smallest road: a one-tile road gives 1 point, less than the 2 points
    (neither lands on a dark space from 2 and 2)."""
    state, events = play_out(
        revealed("c1-zmg", MessageAction.SMALLEST_ROAD, [(2, 2), (0, 0)], (1,)), "strong"
    )
    assert (resolved(events)["choice"], resolved(events)["points"]) == ("points", 2)


def test_strong_blocks_a_dark_space_in_another_players_turn() -> None:
    """rules/messengers.md §3 alone_rule=on (c2-zmg), §5: points another player scores in the active
    player's turn never draw, but a figure left on a dark space blocks the active player's
    landing there. Seat 1 takes 2 points from meeple 0 and messenger 3: the messenger to 5."""
    state = awarding("c2-zmg", [], [(0, 0), (0, 3)])
    state = dataclasses.replace(state, agenda=(Award(1, 2, "city"), *state.agenda))
    state, events = play_out(state, "strong", seat=1)
    points = [e for e in events if e["type"] == "points"]
    assert [(e["seat"], e["figure"], e["total"]) for e in points] == [(1, "messenger", 5)]
    assert drawn(events, seat=1) == []
    # Without the alone rule nothing is blocked: the figures are spread instead (2 and 3).
    state = awarding("c2-hig", [], [(0, 0), (0, 3)])
    state = dataclasses.replace(state, agenda=(Award(1, 2, "city"), *state.agenda))
    state, events = play_out(state, "strong", seat=1)
    assert state.players[1].meeple == 2
