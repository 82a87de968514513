"""Property tests: random legal games in every preset and mode keep the engine's invariants.

Each example plays a whole game (2 to 6 players; board or tabletop; the full 71 tiles or a short
bag) with decisions drawn from what ``views.pending`` offers, and checks at every step:

* no command raises (every decision is one of the offered choices);
* each seat's score is the sum of its ``points`` events, and each figure carries the points put
  on it (until the figures merge at the end);
* every player has 7 followers, counting those on the board and those in supply
  (rules/base-game.md Rules, Followers);
* at sampled steps, no seat's view shows the order of the tile bag or of the message stack, and
  the view does not change when that hidden order is permuted; an illegal command raises an
  ``EngineError`` and leaves the state as it was;
* at the end, the exported record replays to the identical state and the same events
  (rules/record-format.md).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import commands as cmd
from game.engine import views
from game.engine.autoplay import random_command
from game.engine.errors import EngineError, GameOver, NotYourDecision
from game.engine.play import apply, new_game
from game.engine.record import export, replay
from game.engine.state import FOLLOWERS_PER_PLAYER, GameState
from game.engine.tiles import standard_bag

PRESETS = ("c1-zmg", "c2-hig", "c2-zmg", "c3")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
MAX_COMMANDS = 3000
FOLLOWER_SPOTS = (("city", "N"), ("road", "N"), ("monastery", None))
"""No tile offers all three: at least one is always refused."""

HIDDEN_KEYS = frozenset({"bag", "stack", "seed", "setup", "log", "agenda", "tiles_order"})
"""Keys a view must not have: the hidden orders, and what would let a seat recompute them."""


# Choosing decisions -------------------------------------------------------------------------


def _neighbours(state: GameState, x: int, y: int) -> int:
    assert state.board is not None
    tiles = state.board.tiles
    return sum((x + dx, y + dy) in tiles for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def choose(state: GameState, rng: random.Random, eager: float) -> tuple[int, cmd.Command]:
    """A legal decision drawn from ``views.pending``.

    With probability ``eager`` a choice is biased towards what makes messages frequent: tiles go
    where they touch the most tiles (features complete), followers avoid fields, points go on a
    figure that lands on a dark space, messages are resolved by their action. Otherwise the
    choice is ``autoplay.random_command``'s uniform one.
    """
    waiting = views.pending(state)
    assert waiting is not None
    seat, kind = waiting["seat"], waiting["type"]
    if rng.random() < eager:
        if kind == "place_tile":
            spots = waiting["placements"]
            best = max(_neighbours(state, s["x"], s["y"]) for s in spots)
            spot = rng.choice([s for s in spots if _neighbours(state, s["x"], s["y"]) == best])
            return seat, cmd.PlaceTile(spot["x"], spot["y"], rng.choice(spot["rotations"]))
        if kind == "place_follower":
            spots = [s for s in waiting["spots"] if s["feature"] != "field"]
            if spots:
                spot = rng.choice(spots)
                return seat, cmd.PlaceFollower(spot["feature"], spot.get("at"))
        if kind == "choose_figure" and not waiting.get("final"):
            dark = [option["figure"] for option in waiting["options"] if option["dark"]]
            if dark:
                return seat, cmd.ChooseFigure(rng.choice(dark))
        if kind == "resolve_message":
            actions = [c for c in waiting["choices"] if c["choice"] == "action"]
            if actions:
                choice = rng.choice(actions)
                if choice.get("entered_at_table"):
                    return seat, cmd.ResolveMessage("action", points=rng.randrange(0, 13))
                if "x" in choice:
                    return seat, cmd.ResolveMessage(
                        "action",
                        choice["x"],
                        choice["y"],
                        choice["feature"],
                        choice.get("at"),
                        score=not choice["score_optional"] or rng.random() < 0.5,
                    )
                return seat, cmd.ResolveMessage("action")
    return random_command(state, rng)


# Invariants ---------------------------------------------------------------------------------


class Ledger:
    """Points per seat and per figure, rebuilt from the events alone."""

    def __init__(self, players: int) -> None:
        self.totals = [0] * players
        self.figures = [{"meeple": 0, "messenger": 0} for _ in range(players)]

    def read(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["type"] == "points":
                assert event["points"] > 0, event
                seat = event["seat"]
                self.totals[seat] += event["points"]
                self.figures[seat][event["figure"]] += event["points"]
                assert event["total"] == self.figures[seat][event["figure"]], event
            elif event["type"] == "figures_merged":
                seat = event["seat"]
                assert event["points"] == self.totals[seat], event
                other = "messenger" if event["figure"] == "meeple" else "meeple"
                self.figures[seat] = {event["figure"]: self.totals[seat], other: 0}

    def check(self, state: GameState) -> None:
        for seat, player in enumerate(state.players):
            assert player.score == self.totals[seat]
            assert player.meeple == self.figures[seat]["meeple"]
            assert player.messenger == self.figures[seat]["messenger"]


def check_followers(state: GameState) -> None:
    """rules/base-game.md Rules, Followers: 7 per player, on the board or in supply."""
    on_board = [0] * len(state.players)
    if state.board is not None:
        for follower in state.board.followers():
            on_board[follower.seat] += 1
    for seat, player in enumerate(state.players):
        assert 0 <= player.followers <= FOLLOWERS_PER_PLAYER
        assert on_board[seat] + player.followers == FOLLOWERS_PER_PLAYER


def _walk(value: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair of a JSON-like value, lists included (key None)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield None, item
            yield from _walk(item)


def _hidden_permuted(state: GameState, rng: random.Random) -> GameState:
    """The same state with the not-yet-drawn tiles and messages in another order (where the
    order can differ at all). The messages trade places in the setup's initial order too (the
    stack is that order turned round by the draws so far, a public count): which message lies
    where is hidden, how far the stack has come round is not."""

    def other(order: tuple) -> tuple:
        if len(set(order)) < 2:
            return order
        changed = list(reversed(order))
        while tuple(changed) == order:
            rng.shuffle(changed)
        return tuple(changed)

    stack = other(state.stack)
    moved = dict(zip(state.stack, stack, strict=True))
    setup = replace(state.setup, messages=tuple(moved.get(m, m) for m in state.setup.messages))
    return replace(state, setup=setup, bag=other(state.bag), stack=stack)


def check_views(state: GameState, rng: random.Random) -> None:
    """No view carries the hidden orders, and permuting them changes no view."""
    hidden = [list(order) for order in (state.bag, state.stack) if len(order) >= 2]
    permuted = _hidden_permuted(state, rng)
    for seat in (None, *range(len(state.players))):
        shown = views.view(state, seat)
        text = json.dumps(shown)
        assert json.loads(text) == shown, "a view must be plain JSON"
        for key, value in _walk(shown):
            assert key not in HIDDEN_KEYS, key
            if isinstance(value, list):
                assert value not in hidden, (key, value)
        for order in hidden:
            assert json.dumps(order) not in text
        if state.board is not None:
            assert shown["tiles_left"] == len(state.bag)
            assert sum(shown["tiles_left_by_kind"].values()) == len(state.bag)
        assert shown["messages_in_stack"] == len(state.stack)
        assert 1 <= shown["messages_left"] <= len(state.setup.messages)
        assert json.dumps(views.view(permuted, seat)) == text


def snapshot(state: GameState) -> tuple:
    """The state's contents with every mutable mapping copied, to detect changes in place."""

    def frozen(value: Any) -> Any:
        if hasattr(value, "items"):
            return dict(value.items())
        return value

    board = state.board
    board_parts = (
        None if board is None else tuple(frozen(getattr(board, f.name)) for f in fields(board))
    )
    parts = tuple(
        tuple(dict(action) for action in state.log)
        if f.name == "log"
        else frozen(getattr(state, f.name))
        for f in fields(state)
        if f.name != "board"
    )
    return parts, board_parts


def illegal_commands(state: GameState) -> list[tuple[int, cmd.Command, type[EngineError]]]:
    """Commands that the rules refuse now, with the error each must raise."""
    players = len(state.players)
    if state.finished:
        return [
            (0, cmd.PlaceTile(0, -1, 0), GameOver),
            (1, cmd.EndTurn(), GameOver),
            (0, cmd.ResolveMessage("points"), GameOver),
        ]
    waiting = views.pending(state)
    assert waiting is not None
    seat = waiting["seat"]
    kind = waiting["type"]
    wrong: list[tuple[int, cmd.Command, type[EngineError]]] = [
        (players, cmd.SkipFollower(), NotYourDecision),
        (-1, cmd.ChooseFigure("meeple"), NotYourDecision),
    ]
    if kind != "place_tile":
        wrong.append((state.active, cmd.PlaceTile(0, -1, 0), EngineError))
    else:
        wrong.append((seat, cmd.PlaceTile(1000, 1000, 0), EngineError))
        wrong.append((seat, cmd.PlaceTile(0, 0, 0), EngineError))
        spot = waiting["placements"][0]
        other = (seat + 1) % players
        legal = cmd.PlaceTile(spot["x"], spot["y"], spot["rotations"][0])
        wrong.append((other, legal, NotYourDecision))
    if kind != "resolve_message":
        wrong.append((state.active, cmd.ResolveMessage("points"), EngineError))
    else:
        wrong.append(((seat + 1) % players, cmd.ResolveMessage("points"), NotYourDecision))
    if kind not in ("end_turn", "finish"):
        wrong.append((state.active, cmd.Score(3), EngineError))
        wrong.append((state.active, cmd.Finish(), EngineError))
    if kind == "end_turn":
        wrong.append(((state.active + 1) % players, cmd.EndTurn(), NotYourDecision))
    if kind == "choose_figure":
        wrong.append(((seat + 1) % players, cmd.ChooseFigure("meeple"), NotYourDecision))
        wrong.append((seat, cmd.SkipFollower(), EngineError))
    if kind == "place_follower":
        wrong.append(((seat + 1) % players, cmd.SkipFollower(), NotYourDecision))
        offered = {(spot["feature"], spot.get("at")) for spot in waiting["spots"]}
        refused = [spot for spot in FOLLOWER_SPOTS if spot not in offered]
        wrong.append((seat, cmd.PlaceFollower(*refused[0]), EngineError))
        wrong.append((seat, cmd.ChooseFigure("meeple"), EngineError))
    return wrong


def check_illegal(state: GameState) -> None:
    """An illegal command raises an EngineError and changes nothing."""
    before = snapshot(state)
    for seat, command, error in illegal_commands(state):
        try:
            apply(state, seat, command)
        except error:
            pass
        else:
            raise AssertionError(f"{command!r} from seat {seat} was accepted at {state!r}")
        assert snapshot(state) == before


# The games ----------------------------------------------------------------------------------


@st.composite
def setups(draw: st.DrawFn, mode: str) -> dict[str, Any]:
    players = draw(st.integers(min_value=2, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    setup: dict[str, Any] = {
        "players": NAMES[:players],
        "preset": draw(st.sampled_from(PRESETS)),
        "mode": mode,
        "seed": seed,
        "eager": draw(st.sampled_from((0.0, 0.6, 0.9))),
        "sample": draw(st.sampled_from((0.05, 0.2))),
    }
    if mode == "board" and draw(st.booleans()):
        bag = standard_bag()
        random.Random(seed).shuffle(bag)
        setup["tiles"] = bag[: draw(st.integers(min_value=0, max_value=25))]
    return setup


def play_and_check(setup: dict[str, Any]) -> None:
    rng = random.Random(setup["seed"])
    state, events = new_game(
        setup["players"],
        setup["preset"],
        mode=setup["mode"],
        seed=setup["seed"],
        tiles=setup.get("tiles"),
    )
    ledger = Ledger(len(state.players))
    ledger.read(events)
    middle: tuple[GameState, list] | None = None
    for step in range(MAX_COMMANDS):
        ledger.check(state)
        check_followers(state)
        if step == 0 or rng.random() < setup["sample"]:
            check_views(state, rng)
            check_illegal(state)
            if middle is None and step:
                middle = (state, list(events))
        if state.finished:
            break
        seat, command = choose(state, rng, setup["eager"])
        state, new_events = apply(state, seat, command)
        ledger.read(new_events)
        events.extend(new_events)
    assert state.finished, "the game did not end"
    assert views.pending(state) is None
    assert events[-1]["type"] == "game_over"
    assert events[-1]["scores"] == ledger.totals
    check_views(state, rng)
    check_illegal(state)
    for reached, seen in (middle, (state, events)) if middle else ((state, events),):
        record = json.loads(json.dumps(export(reached)))
        replayed = replay(record)
        assert replayed.state == reached
        assert replayed.events == seen


SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=False,
)


@SETTINGS
@given(setups("board"))
def test_random_board_games_keep_the_invariants(setup: dict[str, Any]) -> None:
    """rules/messengers.md §1 and rules/base-game.md Rules: random legal board games, every
    preset."""
    play_and_check(setup)


@settings(SETTINGS, max_examples=60)
@given(setups("tabletop"))
def test_random_tabletop_games_keep_the_invariants(setup: dict[str, Any]) -> None:
    """rules/record-format.md, tabletop turn flow: random legal tabletop games in every preset."""
    play_and_check(setup)


@settings(SETTINGS, max_examples=4)
@given(
    st.sampled_from(PRESETS),
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_views_at_every_step_hide_the_orders(preset: str, players: int, seed: int) -> None:
    """views.py: at every step of a board game, every seat's view hides both hidden orders."""
    rng = random.Random(seed)
    state, _ = new_game(NAMES[:players], preset, seed=seed, tiles=None)
    while not state.finished:
        check_views(state, rng)
        seat, command = choose(state, rng, 0.6)
        state, _ = apply(state, seat, command)
    check_views(state, rng)


def test_the_view_check_catches_a_leak(monkeypatch) -> None:
    """``check_views`` fails for a view that shows the next tile, or the bag as a list."""
    state, _ = new_game(NAMES[:3], "c2-hig", seed=5)
    rng = random.Random(5)
    check_views(state, rng)
    original = views.view
    leaks = (
        lambda state, seat=None: original(state, seat) | {"next": state.bag[0]},
        lambda state, seat=None: original(state, seat) | {"coming": list(state.stack)},
        lambda state, seat=None: original(state, seat) | {"bag": len(state.bag)},
    )
    for leaky in leaks:
        monkeypatch.setattr(views, "view", leaky)
        with pytest.raises(AssertionError):
            check_views(state, rng)


def test_the_illegal_command_check_catches_a_change(monkeypatch) -> None:
    """``check_illegal`` fails if a refused command changed the state in place."""
    state, _ = new_game(NAMES[:2], "c1-zmg", seed=9)
    check_illegal(state)
    original = apply

    def careless(state: GameState, seat: int, command: cmd.Command):
        assert state.board is not None
        state.board.open_cells.clear()  # type: ignore[attr-defined]
        return original(state, seat, command)

    monkeypatch.setattr(sys.modules[__name__], "apply", careless)
    with pytest.raises(AssertionError):
        check_illegal(state)
