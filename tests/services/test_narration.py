"""The game log in words (game/words/narration.py), checked against the recorded games.

The records in tests/records are finished games whose every event is known (their README has the
ledger), so the lines asserted here are those a player reads for real events, not for events made
up to suit the wording.
"""

from __future__ import annotations

import json
import re
import typing
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from game.engine import events
from game.engine.record import replay
from game.words import narration
from game.words.narration import BREAKDOWN_KEYS, NARRATED_EVENTS, final_breakdown
from tests.scenario import Game

RECORDS = Path(__file__).resolve().parent.parent / "records"
NAMES = sorted(
    path.name.removesuffix(".json")
    for path in RECORDS.glob("*.json")
    if not path.name.endswith(".expected.json")
)


ISOLATES = str.maketrans("", "", "\u2068\u2069")


def narrate(events: Any, names: Any) -> list[str]:
    """The lines without the isolates around names, to keep the expected lines readable (the
    isolates have tests of their own at the end)."""
    return [line["text"].translate(ISOLATES) for line in narration.narrate(events, names)]


def narrate_event(event: Any, names: Any) -> str | None:
    line = narration.narrate_event(event, names)
    return None if line is None else line["text"].translate(ISOLATES)


@cache
def game(name: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The events and the players' names of a recorded game."""
    record = json.loads((RECORDS / f"{name}.json").read_text())
    return replay(record).events, record["players"]


@cache
def lines(name: str) -> list[str]:
    events, players = game(name)
    return narrate(events, players)


def turn(name: str, number: int) -> list[str]:
    """The lines of one turn: from its "Turn N" line up to the next turn or the end of the game."""
    log = lines(name)
    start = next(i for i, line in enumerate(log) if re.fullmatch(rf"Turn {number}: \w+", line))
    end = next(
        (
            i
            for i in range(start + 1, len(log))
            if log[i].startswith("Turn ") or log[i] == "The game ends: final scoring"
        ),
        len(log),
    )
    return log[start:end]


# Concrete lines of real games ----------------------------------------------------------------


def test_a_turn_with_a_completed_city_and_a_chain_of_messages():
    """c2-hig record, turn 13: Ann's E closes the start city (6 points, meeple 4 -> 10, dark),
    then messages 2, 3, 1, 8 and 6 are drawn one after another (README ledger)."""
    assert turn("board-c2hig-all-messages", 13) == [
        "Turn 13: Ann",
        "Ann draws tile E (9 left)",
        "Ann places tile E (2 tiles north of the start tile)",
        "Ann places a farmer on the field (north edge, west half)",
        "The city (2 tiles north of the start tile) is completed: 3 tiles, 6 points",
        "Ann scores 6 points for the city (2 tiles north of the start tile); the meeple lands on"
        " 10 (dark space)",
        "Ann's knight returns from the city (1 tile north of the start tile)",
        "Ann draws message 2: Score your smallest city",
        "Ann takes the action: 5 points for the city (3 tiles north and 1 tile east of the start"
        " tile)",
        "Ann scores 5 points for their smallest city (3 tiles north and 1 tile east of the start"
        " tile); "
        "the messenger lands on 5 (dark space)",
        "Ann draws message 3: Score your smallest monastery",
        "Ann takes the action: 5 points for the monastery (1 tile south of the start tile)",
        "Ann scores 5 points for their smallest monastery (1 tile south of the start tile); "
        "the meeple lands on 15 (dark space)",
        "Ann draws message 1: Score your smallest road",
        "Ann takes the action: 5 points for the road (2 tiles west of the start tile)",
        "Ann scores 5 points for their smallest road (2 tiles west of the start tile); "
        "the messenger lands on 10 (dark space)",
        "Ann draws message 8: Score a follower and return it",
        "Ann takes the action: 5 points for the road (1 tile west of the start tile), and the"
        " highwayman returns",
        "Ann scores 5 points for the message (Score a follower and return it); "
        "the meeple lands on 20 (dark space)",
        "Ann's highwayman returns from the road (1 tile west of the start tile)",
        "Ann draws message 6: 2 points per knight",
        "Ann takes the action: 2 points",
        "Ann scores 2 points for the message (2 points per knight); the messenger lands on 12",
    ]


def test_one_more_tile_then_two_points_instead_of_the_action():
    """c2-hig record: message 4 gives Ann one more tile in turn 19; in turn 21 she takes the
    2 points of message 5 instead of its action."""
    log = turn("board-c2hig-all-messages", 19)
    drawn = log.index("Ann draws message 4: Place one more tile")
    assert log[drawn : drawn + 4] == [
        "Ann draws message 4: Place one more tile",
        "Ann takes the action: one more tile",
        "Ann draws tile A (2 left)",
        "Ann places tile A (1 tile south and 3 tiles east of the start tile)",
    ]
    assert turn("board-c2hig-all-messages", 21)[-3:] == [
        "Ann draws message 5: 2 points per coat of arms in your cities",
        "Ann takes the 2 points instead of the action",
        "Ann scores 2 points for the message; the messenger lands on 17",
    ]


def test_the_end_of_a_board_game_with_laps_past_50():
    """c2-hig record: Ann merges 47 points on the messenger, then final scoring takes her past 50
    (space 2 on the second lap for 52)."""
    log = lines("board-c2hig-all-messages")
    assert log[log.index("The game ends: final scoring") :] == [
        "The game ends: final scoring",
        "Ann's figures merge: 47 points on the messenger",
        "Bob's figures merge: 0 points on the meeple",
        "Final scoring: Ann scores 5 points for the city (3 tiles north and 1 tile east of the"
        " start tile); "
        "the messenger lands on 2, lap 2 (52 in all)",
        "Final scoring: Bob scores 5 points for the monastery (1 tile south and 1 tile west of"
        " the start tile); "
        "the meeple lands on 5 (dark space)",
        "Final scoring: Ann scores 6 points for the monastery (1 tile south of the start tile); "
        "the messenger lands on 8, lap 2 (58 in all)",
        "Final scoring: Ann scores 3 points for the field (2 tiles north of the start tile); "
        "the messenger lands on 11, lap 2 (61 in all)",
        "Final ranking: 1. Ann 61, 2. Bob 5",
    ]


def test_message_8_returning_a_follower_without_scoring():
    """c2-zmg record, turn 3: Ann's farmer comes back through message 8 for no points."""
    assert turn("board-c2zmg-alone-rule", 3)[-3:] == [
        "Ann draws message 8: Score a follower and return it",
        "Ann takes the action: the farmer on the field (3 tiles north of the start tile) returns"
        " without scoring",
        "Ann's farmer returns from the field (3 tiles north of the start tile)",
    ]


def test_an_extra_turn_and_the_last_tile():
    """c3 record: message 4 under c3 rules gives Bob an extra turn, in which he draws and places
    the last tile; then the game ends."""
    assert turn("board-c3-all-messages", 16)[-3:] == [
        "Bob draws message 4: Place one more tile",
        "Bob takes the action: one more tile",
        "Bob plays an extra turn",
    ]
    assert turn("board-c3-all-messages", 17) == [
        "Turn 17: Bob",
        "Bob draws tile V (the last one)",
        "Bob places tile V (1 tile south and 4 tiles east of the start tile)",
    ]


def test_a_tabletop_game_in_words():
    """Tabletop record with three players: points entered at the table, the action's points
    counted at the table, and final points entered with no category."""
    assert turn("tabletop-c2hig-chain", 1) == [
        "Turn 1: Ann",
        "Ann scores 3 points at the table; the meeple lands on 3",
        "Bob scores 5 points at the table; the messenger lands on 5 (dark space)",
    ]
    assert turn("tabletop-c2hig-chain", 2)[1:] == [
        "Bob scores 5 points at the table; the meeple lands on 5 (dark space)",
        "Bob draws message 1: Score your smallest road",
        "Bob takes the action: 3 points",
        "Bob scores 3 points for the message (Score your smallest road); the messenger lands on 8",
    ]
    assert lines("tabletop-c2hig-chain")[-3:] == [
        "Final scoring: Ann scores 6 points at the table; the messenger lands on 15 (dark space)",
        "Final scoring: Bob scores 3 points at the table; the meeple lands on 16",
        "Final ranking: 1. Cy 17, 2. Bob 16, 3. Ann 15",
    ]


# Every event ---------------------------------------------------------------------------------


def engine_event_types() -> set[str]:
    """Every event type the engine can emit: the ``type`` of each shape in ``events.Event``
    (mypy checks that the engine builds no other)."""
    return {
        value
        for shape in typing.get_args(events.Event)
        for value in typing.get_args(typing.get_type_hints(shape)["type"])
    }


def test_every_event_type_of_the_engine_is_narrated():
    types = engine_event_types()
    assert {"turn_started", "points", "game_over"} <= types  # the source was read
    assert types <= NARRATED_EVENTS


@pytest.mark.parametrize("name", NAMES)
def test_every_event_of_a_record_gives_one_line(name):
    events, players = game(name)
    for event in events:
        line = narrate_event(event, players)
        assert line, event
        assert "{" not in line and "None" not in line and "_" not in line, line
    assert len(lines(name)) == len(events)


@pytest.mark.parametrize("name", NAMES)
def test_narrating_in_batches_gives_the_same_lines(name):
    """The protocol sends the lines of each batch of new events; wherever the batches split the
    game, their lines put together are the lines of the whole game."""
    events, players = game(name)
    for size in (1, 2, 3, 7):
        pieces = [events[i : i + size] for i in range(0, len(events), size)]
        joined = [line for piece in pieces for line in narrate(piece, players)]
        assert joined == lines(name)


def test_a_discarded_tile():
    """A C fits nowhere once the start city is closed (as in test_base_tiles)."""
    g = Game("c2-hig", tiles=["E", "C", "U"], options={"final_figure": "meeple"})
    g.place(0, -1, 180).skip()
    log = narrate(g.events, ["Ann", "Bob"])
    assert log[log.index("Turn 2: Bob") :] == [
        "Turn 2: Bob",
        "Tile C fits nowhere and is discarded",
        "Bob draws tile U (the last one)",
    ]


def test_a_message_refused_by_the_turn_cap():
    """c3 with two messages a round and a cap of one per turn: the second message is refused."""
    g = Game(
        "c3",
        mode="tabletop",
        options={"figure_choice": "per_scoring", "messages_per_round": 2, "messages_per_turn": 1},
    )
    g.score(0, 5, "meeple").score(0, 5, "messenger").end_turn()
    g.resolve("points").figure("meeple")
    log = narrate(g.events, ["Ann", "Bob"])
    assert "Ann earns another message but may draw only 1 per turn" in log


def test_a_completed_monastery_names_no_tile_count():
    event = {
        "type": "feature_completed",
        "feature": "monastery",
        "tiles": 9,
        "points": 9,
        "where": {"x": 0, "y": 1, "feature": "monastery"},
    }
    assert narrate([event], []) == [
        "The monastery (1 tile south of the start tile) is completed: 9 points"
    ]


def test_ties_share_a_place_in_the_ranking():
    event = {"type": "game_over", "scores": [41, 50, 50]}
    assert narrate([event], ["Ann", "Bob", "Cy"]) == [
        "Final ranking: 1. Bob 50, 1. Cy 50, 3. Ann 41"
    ]


def test_a_seat_without_a_name_is_called_by_its_number():
    assert narrate([{"type": "turn_started", "seat": 2, "turn": 3}], ["Ann", "Bob"]) == [
        "Turn 3: Seat 3"
    ]


def test_unknown_events_give_no_line():
    unknown = [{"type": "weather_changed", "seat": 0}, {"seat": 1}]
    assert narrate(unknown, ["Ann", "Bob"]) == []
    assert narrate_event(unknown[0], ["Ann", "Bob"]) is None


# Final scoring by category -------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_breakdown_adds_up_to_the_final_scores(name):
    events, players = game(name)
    (over,) = [event for event in events if event["type"] == "game_over"]
    breakdown = final_breakdown(events, len(players))
    assert [sum(row.values()) for row in breakdown] == over["scores"]
    assert all(tuple(row) == BREAKDOWN_KEYS for row in breakdown)


def test_the_breakdown_of_a_board_game():
    """c2-hig record: Ann 47 during play, then city 5, monastery 6 and field 3; Bob only his
    unfinished monastery's 5."""
    events, players = game("board-c2hig-all-messages")
    assert final_breakdown(events, len(players)) == [
        {"play": 47, "road": 0, "city": 5, "monastery": 6, "field": 3, "table": 0},
        {"play": 0, "road": 0, "city": 0, "monastery": 5, "field": 0, "table": 0},
    ]


def test_the_breakdown_of_a_tabletop_game():
    """Final points entered at the table carry no category: they go under ``table``."""
    events, players = game("tabletop-c2hig-chain")
    breakdown = final_breakdown(events, len(players))
    assert [(row["play"], row["table"]) for row in breakdown] == [(9, 6), (13, 3), (17, 0)]


def test_the_breakdown_refuses_a_seat_beyond_the_players():
    events, _ = game("board-c2hig-all-messages")
    with pytest.raises(ValueError):
        final_breakdown(events, 1)


# Names isolated ------------------------------------------------------------------------------


def test_every_name_in_a_line_is_isolated_so_an_override_cannot_reorder_the_line():
    """A name saved before names were checked may hold a right-to-left override; between FSI and
    PDI it cannot reach the words and numbers after it."""
    evil = "\u202eevil"
    scored = {"type": "points", "seat": 1, "points": 5, "figure": "meeple", "total": 5}
    line = narration.narrate_event(scored, ["Ann", evil])
    assert line is not None and line["text"].startswith(f"\u2068{evil}\u2069 scores 5")
    over = {"type": "game_over", "scores": [41, 50]}
    assert [line["text"] for line in narration.narrate([over], ["Ann", evil])] == [
        f"Final ranking: 1. \u2068{evil}\u2069 50, 2. \u2068Ann\u2069 41"
    ]


@pytest.mark.parametrize("name", NAMES)
def test_names_in_a_recorded_game_appear_only_isolated(name):
    events, players = game(name)
    for line in narration.narrate(events, players):
        bare = line["text"]
        for player in players:
            bare = bare.replace(f"\u2068{player}\u2069", "")
        assert not any(player in bare for player in players), line
