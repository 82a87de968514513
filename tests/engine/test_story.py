"""The story of a game (``game/engine/story.py``): score history per turn, points per category,
message statistics and the final ranking, from the actions that count.

Record-format rows proven here (rules/record-format.md, "Actions" and "Output of replay"):
``undo`` "cancels the latest action that still counts" (an undone entry tells no story);
``score`` "optional ``category``" (entered points count under their category); the ``points``
event's ``reason`` (``message``, ``final``, features) sorts points into categories.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from game.engine.autoplay import random_command
from game.engine.commands import parse_command
from game.engine.play import apply, new_game
from game.engine.record import replay
from game.engine.story import CATEGORIES, story
from tests.scenario import Game

RECORDS = Path(__file__).resolve().parent.parent / "records"
ORDER = [3, 1, 4, 5, 2, 6, 7, 8]


def evening() -> Game:
    """A short c2-hig tabletop game: Ann lands on a dark space and takes 2 points for message
    3; Bob scores a city, Ann an unnamed 3; an entry of 7 is undone; the game ends, the figures
    merge and the final points are entered."""
    g = Game("c2-hig", mode="tabletop", messages=ORDER)
    g.score(0, 5, "meeple", category="road").end_turn()
    g.resolve("points").figure("messenger")
    g.score(1, 4, "messenger", category="city").score(0, 3, "meeple").end_turn()
    g.score(0, 7, "meeple").undo()
    return g


def test_history_has_one_row_per_turn_with_both_figures_and_the_total():
    told = story(evening().state)
    rows = [(r.turn, r.seat, r.phase, r.open) for r in told.history]
    assert rows == [(0, None, "start", False), (1, 0, "turn", False), (2, 1, "turn", False)]
    ann_after_1, bob_after_1 = told.history[1].standings
    assert (ann_after_1.meeple, ann_after_1.messenger, ann_after_1.total) == (5, 2, 7)
    assert bob_after_1.total == 0
    ann_after_2, bob_after_2 = told.history[2].standings
    assert (ann_after_2.meeple, ann_after_2.total) == (8, 10)
    assert (bob_after_2.meeple, bob_after_2.messenger) == (0, 4)


def test_an_undone_entry_is_not_in_the_story():
    """Record-format ``undo``: the 7 Ann entered in turn 3 was taken back, so turn 3 has no row
    and her totals hold no 7."""
    g = evening()
    assert g.state.players[0].score == 10
    told = story(g.state)
    assert [row.turn for row in told.history] == [0, 1, 2]
    assert sum(told.categories[0].values()) == 10
    g.score(0, 6, "meeple")
    told = story(g.state)
    assert told.history[-1].open and told.history[-1].turn == 3
    assert told.history[-1].standings[0].meeple == 14


def test_categories_count_entered_points_under_their_category_and_others_under_during_play():
    told = story(evening().state)
    ann, bob = told.categories
    assert list(ann) == list(CATEGORIES)
    assert ann["road"] == 5 and ann["during_play"] == 3 and ann["message"] == 2
    assert bob["city"] == 4 and sum(bob.values()) == 4


def test_message_statistics_say_who_drew_what_and_what_it_gave():
    g = evening()
    told = story(g.state)
    assert len(told.messages) == 1
    drawn = told.messages[0]
    assert (drawn.turn, drawn.seat, drawn.message, drawn.action) == (1, 0, 3, "smallest_monastery")
    assert (drawn.choice, drawn.points) == ("points", 2)


def test_a_revealed_message_is_listed_unresolved():
    g = Game("c2-hig", mode="tabletop", messages=ORDER)
    g.score(0, 5, "meeple").end_turn()
    (drawn,) = story(g.state).messages
    assert (drawn.message, drawn.choice, drawn.points) == (3, None, None)


def test_the_final_row_and_ranking_once_the_game_is_over():
    g = evening()
    g.end_game().figure("meeple", 0).figure("messenger", 1)
    told = story(g.state)
    assert told.history[-1].phase == "final" and told.history[-1].open
    assert told.ranking is None
    g.score(0, 10, category="road").score(1, 16).finish()
    told = story(g.state)
    final = told.history[-1]
    assert (final.phase, final.open) == ("final", False)
    assert [s.total for s in final.standings] == [p.score for p in g.state.players] == [20, 20]
    assert (final.standings[0].meeple, final.standings[1].messenger) == (20, 20)
    assert told.categories[0]["final"] == 10 and told.categories[1]["final"] == 16
    assert told.ranking == ((1, 0), (1, 1))
    assert "turn" not in {row.phase for row in told.history[3:]}


def test_the_story_tells_nothing_of_the_undrawn_messages():
    """Two games alike but for the order of the messages not yet drawn tell the same story."""
    one = Game("c2-hig", mode="tabletop", messages=[3, 1, 4, 5, 2, 6, 7, 8])
    other = Game("c2-hig", mode="tabletop", messages=[3, 8, 7, 6, 5, 4, 2, 1])
    for g in (one, other):
        g.score(0, 5, "meeple").end_turn().resolve("points").figure("meeple")
        g.score(1, 2, "meeple").end_turn()
    assert json.dumps(story(one.state).to_json()) == json.dumps(story(other.state).to_json())
    assert set(story(one.state).to_json()) == {
        "players",
        "finished",
        "categories",
        "history",
        "totals",
        "messages",
        "ranking",
    }


@pytest.mark.parametrize("seed", [2, 9])
def test_a_board_game_story_adds_up(seed):
    """A whole board game played at random: one row per turn, totals never fall during play,
    the final row is the final score, every point is in exactly one category, and every drawn
    message is listed with its drawer and turn."""
    state, events = new_game(["Ann", "Bob", "Cy"], "c2-hig", seed=seed)
    rng = random.Random(seed)
    while not state.finished:
        seat, command = random_command(state, rng)
        state, new = apply(state, seat, command)
        events += new
    told = story(state)
    turns = [row for row in told.history if row.phase == "turn"]
    assert [row.turn for row in turns] == list(range(1, state.turn + 1))
    for before, after in zip(told.history[:-2], told.history[1:-1], strict=True):
        assert all(
            b.total <= a.total for b, a in zip(before.standings, after.standings, strict=True)
        )
    assert told.history[-1].phase == "final"
    assert [s.total for s in told.history[-1].standings] == [p.score for p in state.players]
    assert [sum(c.values()) for c in told.categories] == [p.score for p in state.players]
    drawn = [(e["seat"], e["message"]) for e in events if e["type"] == "message_drawn"]
    assert [(m.seat, m.message) for m in told.messages] == drawn
    assert all(m.choice in ("action", "points") for m in told.messages)
    scores = [p.score for p in state.players]
    assert told.ranking is not None
    assert [seat for _, seat in told.ranking] == sorted(range(3), key=lambda s: (-scores[s], s))


def test_a_recorded_board_game_with_every_message():
    """The worked record of c2-hig: every message resolved, its points in ``message``."""
    record = json.loads((RECORDS / "board-c2hig-all-messages.json").read_text())
    state = replay(record).state
    told = story(state)
    resolved = [m for m in told.messages if m.points is not None]
    assert resolved, "the record draws messages"
    by_seat = [0] * len(state.players)
    for m in resolved:
        by_seat[m.seat] += m.points
    assert [c["message"] for c in told.categories] == by_seat


def test_a_corrected_entry_and_an_adjustment_tell_the_story_as_corrected():
    """Corrections (docs/records.md, "Corrections"): the story replays each entry in its latest
    form, so Bob's 4 corrected to 9 counts 9 under city, and a signed adjustment of -2 on Ann's
    meeple counts under during play; the standings follow both."""
    g = evening()
    bob_city = next(
        index
        for index, action in enumerate(g.state.log)
        if action["type"] == "score" and action["seat"] == 1
    )
    replacement = {**g.state.log[bob_city], "points": 9}
    g.state, _ = apply(
        g.state,
        0,
        parse_command({"type": "correct", "entry": bob_city, "replacement": replacement}),
    )
    g.state, _ = apply(
        g.state, 0, parse_command({"type": "adjust", "points": -2, "figure": "meeple"})
    )
    told = story(g.state)
    ann, bob = told.categories
    assert bob["city"] == 9 and sum(bob.values()) == 9
    assert ann["during_play"] == 3 - 2 and sum(ann.values()) == 8
    assert told.history[-1].standings[0].meeple == 6
    assert told.history[-1].standings[1].messenger == 9
