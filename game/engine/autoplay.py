"""Random legal play, for property tests, benchmarks and filling a board in demos.

Every command is chosen from what ``views.pending`` offers, so random play exercises exactly the
choices a player has.
"""

from __future__ import annotations

import random

from . import commands as cmd
from .agenda import AwaitPlacement
from .events import Pending
from .state import GameState
from .views import pending

TABLETOP_POINTS = (1, 2, 3, 4, 5, 8, 10, 12)


def random_command(state: GameState, rng: random.Random) -> tuple[int, cmd.Command]:
    """A random legal (seat, command) for the decision the game waits for."""
    if state.agenda and type(state.agenda[0]) is AwaitPlacement:
        assert state.board is not None and state.tile is not None
        x, y, rotation = rng.choice(state.board.legal_placements(state.tile))
        return state.active, cmd.PlaceTile(x, y, rotation)
    waiting = pending(state)
    if waiting is None:
        raise ValueError("the game waits for nothing")
    # Only the tabletop's final scores wait for any seat (None); they name their seats below.
    seat = state.active if waiting["seat"] is None else waiting["seat"]
    if waiting["type"] == "place_tile":
        cell = rng.choice(waiting["placements"])
        return seat, cmd.PlaceTile(cell["x"], cell["y"], rng.choice(cell["rotations"]))
    if waiting["type"] == "place_follower":
        spots = waiting["spots"]
        if spots and rng.random() < 0.6:
            spot = rng.choice(spots)
            return seat, cmd.PlaceFollower(spot["feature"], spot.get("at"))
        return seat, cmd.SkipFollower()
    if waiting["type"] == "choose_figure":
        return seat, cmd.ChooseFigure(rng.choice(("meeple", "messenger")))
    if waiting["type"] == "resolve_message":
        choice = rng.choice(waiting["choices"])
        if choice["choice"] == "points":
            return seat, cmd.ResolveMessage("points")
        if choice.get("entered_at_table"):
            return seat, cmd.ResolveMessage("action", points=rng.choice((0, *TABLETOP_POINTS)))
        if "x" in choice:
            score = not choice["score_optional"] or rng.random() < 0.7
            return seat, cmd.ResolveMessage(
                "action",
                choice["x"],
                choice["y"],
                choice["feature"],
                choice.get("at"),
                score=score,
            )
        return seat, cmd.ResolveMessage("action")
    if waiting["type"] == "end_turn":
        roll = rng.random()
        if roll < 0.45:
            return rng.randrange(len(state.players)), cmd.Score(rng.choice(TABLETOP_POINTS))
        if waiting["may_end_game"] and state.turn > 40 and roll < 0.55:
            return seat, cmd.EndGame()
        return seat, cmd.EndTurn()
    if waiting["type"] == "finish":
        if rng.random() < 0.6:
            return rng.randrange(len(state.players)), cmd.Score(rng.choice(TABLETOP_POINTS))
        return 0, cmd.Finish()
    raise ValueError(f"unknown decision {waiting['type']!r}")


def legal_commands(waiting: Pending) -> list[cmd.Command]:
    """Every legal command for the decision ``waiting`` (a ``views.pending`` result), in the
    order ``pending`` lists the choices.

    Choices that take free input at a tabletop game (points counted at the table) are left out:
    ``end_turn`` offers only ending the turn, ``finish`` only finishing, and a message's action
    only where the app knows its points. ``message 8`` with optional scoring is listed both with
    and without scoring.
    """
    if waiting["type"] == "place_tile":
        return [
            cmd.PlaceTile(spot["x"], spot["y"], rotation)
            for spot in waiting["placements"]
            for rotation in spot["rotations"]
        ]
    if waiting["type"] == "place_follower":
        spots = [cmd.PlaceFollower(spot["feature"], spot.get("at")) for spot in waiting["spots"]]
        return [cmd.SkipFollower(), *spots]
    if waiting["type"] == "choose_figure":
        return [cmd.ChooseFigure(option["figure"]) for option in waiting["options"]]
    if waiting["type"] == "resolve_message":
        commands: list[cmd.Command] = []
        for choice in waiting["choices"]:
            if choice["choice"] == "points":
                commands.append(cmd.ResolveMessage("points"))
            elif choice.get("entered_at_table"):
                continue
            elif "x" in choice:
                where = (choice["x"], choice["y"], choice["feature"], choice.get("at"))
                commands.append(cmd.ResolveMessage("action", *where))
                if choice["score_optional"]:
                    commands.append(cmd.ResolveMessage("action", *where, score=False))
            else:
                commands.append(cmd.ResolveMessage("action"))
        return commands
    if waiting["type"] == "end_turn":
        return [cmd.EndTurn()]
    if waiting["type"] == "finish":
        return [cmd.Finish()]
    raise ValueError(f"unknown decision {waiting['type']!r}")
