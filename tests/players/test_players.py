"""Computer players: whole games with only legal commands in every edition and house rule, every
kind of decision answered, and the levels' limits (rules/messengers.md, rules/base-game.md)."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from game.engine import commands as cmd
from game.engine.autoplay import legal_commands
from game.engine.play import apply, new_game
from game.engine.presets import PRESETS
from game.engine.seat_view import seat_view
from game.engine.state import GameState
from game.engine.views import pending
from game.players import LEVELS, NotThisSeatsDecision, UnknownLevel, decide
from game.players.match import play_game

WEB_PACKAGES = frozenset({"django", "channels", "daphne", "redis", "channels_redis"})
BOARD_DECISIONS = {"place_tile", "place_follower", "choose_figure", "resolve_message"}
TABLETOP_DECISIONS = {"end_turn", "finish", "choose_figure", "resolve_message"}

HOUSE_RULES: list[dict[str, Any]] = [
    {"message_set": "c1"},
    {"message_set": "c3"},
    {"figure_choice": "per_turn"},
    {"trigger": "on_landing"},
    {"chain": False},
    {"alone_rule": True},
    {"extra_tile": "extra_turn"},
    {"score_and_return": "majority_only"},
    {"score_and_return": "any_meeple_score_always"},
    {"score_and_return": "majority_or_return_any"},
    {"final_figure": "meeple"},
    {"messages_per_round": 2},
    {"messages_per_turn": 1},
    {"messages_per_turn": 2, "figure_choice": "per_turn", "alone_rule": True},
]
"""Every option value that the c2-hig preset does not already have (rules/messengers.md §3)."""


def decision_kinds(levels: list[str], preset: str, seed: int, **options: Any) -> set[str]:
    """Play a whole game; every command goes through the engine, which refuses illegal ones
    (``apply`` raises, failing the test). Return the kinds of decisions the game asked for."""
    played = play_game(levels, preset, seed, options=options or None)
    assert played.state.finished
    assert played.events[-1]["type"] == "game_over"
    kinds = set()
    for action in played.state.log:
        kinds.add(action["type"])
    return kinds


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_games_in_every_preset(level: str, preset: str) -> None:
    kinds: set[str] = set()
    for seed in range(2):
        kinds |= decision_kinds([level, level], preset, seed)
    kinds |= decision_kinds([level, "random", "easy"], preset, 7)
    assert kinds >= {"place_tile", "place_follower", "skip_follower"}


@pytest.mark.parametrize(
    "options", HOUSE_RULES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_every_house_rule_is_played_legally(options: dict[str, Any]) -> None:
    decision_kinds(["strong", "easy", "random"], "c2-hig", 3, **options)
    decision_kinds(["random", "strong"], "c2-hig", 4, **options)


def test_every_board_decision_kind_is_answered() -> None:
    """Over a few games, the seats are asked every kind of board-mode decision (the final
    figure choice of c2-hig included) and answer each through ``decide``."""
    asked: set[str] = set()
    for seed in range(6):
        state, _ = new_game(["A", "B"], "c2-hig", seed=seed)
        rngs = [random.Random(seed), random.Random(seed + 100)]
        levels = ["strong", "easy"] if seed % 2 else ["easy", "strong"]
        while not state.finished:
            waiting = pending(state)
            assert waiting is not None
            asked.add(waiting["type"] + (":final" if waiting.get("final") else ""))
            seat = waiting["seat"]
            command = decide(levels[seat], seat_view(state, seat), rngs[seat])
            state, _ = apply(state, seat, cmd.parse_command(command))
    assert asked == BOARD_DECISIONS | {"choose_figure:final"}


@pytest.mark.parametrize("level", LEVELS)
def test_tabletop_decisions_are_answered(level: str) -> None:
    """At a tabletop game the people count the points; a computer seat still answers what it is
    asked: which figure takes its points, the message, ending its turn, the final figure,
    finishing. Points are entered here as a person at the table would."""
    state, _ = new_game(["A", "B"], "c2-hig", mode="tabletop", seed=5)
    rng = random.Random(1)
    entered = random.Random(2)
    asked: set[str] = set()

    def answer(state: GameState) -> GameState:
        """Let the computer seats decide until the next turn waits for points (or the end)."""
        turn = state.turn
        while (waiting := pending(state)) is not None:
            if waiting["type"] == "end_turn" and state.turn != turn:
                break
            seat = state.active if waiting["seat"] is None else waiting["seat"]
            asked.add(waiting["type"])
            command = decide(level, seat_view(state, seat), rng)
            state, _ = apply(state, seat, cmd.parse_command(command))
        return state

    for _ in range(24):
        waiting = pending(state)
        assert waiting is not None and waiting["type"] == "end_turn"
        state, _ = apply(state, state.active, cmd.Score(entered.choice((2, 3, 4, 5, 10))))
        state = answer(state)
    state, _ = apply(state, 0, cmd.EndGame())
    state = answer(state)
    assert state.finished
    assert asked == TABLETOP_DECISIONS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_listed_command_is_legal(preset: str) -> None:
    """``autoplay.legal_commands`` lists only commands the engine accepts, at every decision of
    a random game (the random level picks among them)."""
    rng = random.Random(preset)
    state, _ = new_game(["A", "B", "C"], preset, seed=9)
    while not state.finished:
        waiting = pending(state)
        assert waiting is not None
        listed = legal_commands(waiting)
        assert listed
        for command in listed:
            apply(state, waiting["seat"], command)
        state, _ = apply(state, waiting["seat"], rng.choice(listed))


def test_unknown_level_and_other_seats_decision_are_refused() -> None:
    state, _ = new_game(["A", "B"], "c3", seed=1)
    with pytest.raises(UnknownLevel, match="unknown level 'hard'"):
        decide("hard", seat_view(state, 0), random.Random(0))
    with pytest.raises(NotThisSeatsDecision):
        decide("strong", seat_view(state, 1), random.Random(0))


def test_a_decision_is_the_json_a_browser_sends() -> None:
    state, _ = new_game(["A", "B"], "c3", seed=1)
    command = decide("strong", seat_view(state, 0), random.Random(0))
    assert command["type"] == "place_tile"
    assert set(command) == {"type", "x", "y", "rotation"}
    assert cmd.parse_command(command).to_action(0) == {"seat": 0, **command}


def test_players_import_only_the_engine() -> None:
    """Like the import-linter contract in pyproject.toml, for where it does not run: game.players
    imports the standard library and game.engine, nothing of the web layer."""
    root = Path(__file__).resolve().parents[2]
    problems = []
    for path in sorted((root / "game" / "players").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                top = name.split(".", 1)[0]
                inside = name.startswith(("game.engine", "game.players"))
                if top in WEB_PACKAGES or (top == "game" and not inside):
                    problems.append(f"{path.name}:{node.lineno} imports {name}")
    assert problems == []
