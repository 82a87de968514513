"""Computer players never read hidden orders: a seat's view carries the tile bag and the message
stack only as sorted multisets, and two games that differ only in those orders (and in the seed
they came from) give the same decision at every level, from many positions."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from game.engine import commands as cmd
from game.engine.autoplay import random_command
from game.engine.play import apply, new_game
from game.engine.presets import PRESETS
from game.engine.seat_view import redacted, seat_view
from game.engine.state import GameState
from game.engine.views import pending
from game.players import LEVELS, decide

POSITIONS_PER_PRESET = 40


def reordered(state: GameState, rng: random.Random) -> GameState:
    """The same game with the undrawn tiles, the message stack, the initial orders and the seed
    changed: what a seat cannot know. The next tile and the next message differ where they can."""
    bag = list(state.bag)
    stack = list(state.stack)
    while len(set(bag)) > 1 and bag == list(state.bag):
        rng.shuffle(bag)
    while len(stack) > 1 and stack == list(state.stack):
        rng.shuffle(stack)
    tiles = list(state.setup.tiles)
    messages = list(state.setup.messages)
    rng.shuffle(tiles)
    rng.shuffle(messages)
    setup = dataclasses.replace(
        state.setup, seed=state.setup.seed + 1, tiles=tuple(tiles), messages=tuple(messages)
    )
    return dataclasses.replace(state, setup=setup, bag=tuple(bag), stack=tuple(stack))


def positions(preset: str, count: int) -> list[GameState]:
    """Positions from random games, at every kind of decision, the first turns and the last."""
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state, _ = new_game(["A", "B", "C"][: 2 + seed % 2], preset, seed=seed)
        stops = {rng.randrange(300) for _ in range(6)}
        for step in range(400):
            if state.finished:
                break
            if step in stops or state.revealed is not None:
                found.append(state)
            seat, command = random_command(state, rng)
            state, _ = apply(state, seat, command)
        seed += 1
    return found[:count]


def test_the_view_holds_no_order() -> None:
    state, _ = new_game(["A", "B"], "c2-hig", seed=2**130 + 99)
    seen = seat_view(state, 0)
    hidden_free = seen.state
    assert hidden_free.bag == tuple(sorted(state.bag)) and hidden_free.bag != state.bag
    assert hidden_free.stack == tuple(sorted(state.stack)) and hidden_free.stack != state.stack
    assert hidden_free.setup.tiles == tuple(sorted(state.setup.tiles))
    assert hidden_free.setup.messages == tuple(sorted(state.setup.messages))
    assert hidden_free.setup.seed == 0
    assert seen.pending == pending(state)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_decisions_do_not_depend_on_hidden_orders(preset: str) -> None:
    rng = random.Random(preset)
    checked = 0
    kinds = set()
    for state in positions(preset, POSITIONS_PER_PRESET):
        waiting = pending(state)
        assert waiting is not None
        seat = waiting["seat"]
        kinds.add(waiting["type"])
        twin = reordered(state, rng)
        assert twin.bag != state.bag or len(set(state.bag)) <= 1
        assert redacted(twin) == redacted(state)
        for level in LEVELS:
            ours = decide(level, seat_view(state, seat), random.Random(11))
            theirs = decide(level, seat_view(twin, seat), random.Random(11))
            assert ours == theirs, (level, waiting["type"])
            apply(state, seat, cmd.parse_command(ours))
            checked += 1
    assert checked == POSITIONS_PER_PRESET * len(LEVELS)
    assert kinds >= {"place_tile", "place_follower", "resolve_message"}


def test_a_view_sent_to_a_thinking_process_decides_the_same() -> None:
    """The server hands a seat's view to a worker process (game/services/computers.py): pickled and
    read back, it is equal and gives the same decision, and it still holds no order."""
    checked = 0
    for state in positions("c2-hig", 12):
        waiting = pending(state)
        if waiting is None or waiting.get("seat") is None:
            continue
        checked += 1
        seen = seat_view(state, waiting["seat"])
        copy = pickle.loads(pickle.dumps(seen))
        assert copy == seen
        assert list(copy.state.bag) == sorted(copy.state.bag)
        for level in LEVELS:
            assert decide(level, copy, random.Random(5)) == decide(level, seen, random.Random(5))
    assert checked >= 6
