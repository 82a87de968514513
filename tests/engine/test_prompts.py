"""The words and commands the server hands the pages (docs/protocol.md): each way of resolving
a message comes with its label, the exact command to send, its board mark and, where the
edition allows, the skip of message 8; an action that is not possible says why; the edition
names its messages once, for the card, the prompt, the reveal and the log alike.

The commands are the ones a page sends unchanged: every one is applied by the engine here.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from game.engine.autoplay import random_command
from game.engine.commands import Correct, parse_command
from game.engine.messengers import MessageAction
from game.engine.play import apply, new_game
from game.engine.presets import resolve_options
from game.engine.state import GameState
from game.engine.story import story
from game.engine.views import pending
from game.live.snapshots import snapshot
from game.services.lobby import create_table
from game.words.messages import message_names, message_text
from game.words.narration import narrate
from game.words.views import public_view_json
from tests.engine.test_messages import NOT_OFFERED, PRESETS, column_game, stack
from tests.engine.test_review import lone_highwayman_game, monk_game
from tests.scenario import Game


def applied(state: GameState, command: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of sending ``command`` exactly as given, for the seat the game waits for."""
    waiting = pending(state)
    assert waiting is not None
    seat = waiting["seat"] if waiting["seat"] is not None else state.active
    _, events = apply(state, seat, parse_command(command))
    return [dict(event) for event in events]


def resolved(events: list[dict[str, Any]]) -> dict[str, Any]:
    (event,) = [event for event in events if event["type"] == "message_resolved"]
    return event


def every_command(state: GameState) -> list[dict[str, Any]]:
    """Each choice's command and each skip's, from the pending ``resolve_message``."""
    waiting = pending(state)
    assert waiting is not None and waiting["type"] == "resolve_message"
    commands = []
    for choice in waiting["choices"]:
        commands.append(choice["command"])
        if "skip" in choice:
            commands.append(choice["skip"]["command"])
    return commands


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "action",
    ["smallest_city", "farmers", "knights", "coats_of_arms", "extra_tile", "score_and_return"],
)
def test_every_choice_command_is_applied_as_given(preset: str, action: str) -> None:
    """A page sends a choice's ``command`` unchanged; the engine takes each one and resolves
    the message the way the choice says (message 8: the follower it names)."""
    g = column_game(
        preset, stack(preset, action), ann_farmer=True, bob_farmer=True, more_tiles=("B", "B")
    )
    choices = g.pending["choices"]
    assert choices[0]["label"] == "Take 2 points"
    for choice in choices:
        event = resolved(applied(g.state, choice["command"]))
        assert event["choice"] == choice["choice"]
        if "x" in choice:
            assert event["follower"]["x"] == choice["x"]
            assert event["follower"]["feature"] == choice["feature"]
        if "skip" in choice:
            skipped = resolved(applied(g.state, choice["skip"]["command"]))
            assert skipped["points"] == 0
            assert skipped["follower"] == event["follower"]


@pytest.mark.parametrize("preset", PRESETS)
def test_message_8_labels_marks_and_the_skip_where_scoring_is_optional(preset: str) -> None:
    """rules/messengers.md §4 score_and_return: where scoring is optional (c2-zmg, c3) the monk's
    choice carries a skip "Return the monk without scoring", and only one choice per follower
    (no second "0 points" button); the choice's mark numbers it on the board."""
    g = monk_game(preset)
    _, monk = g.pending["choices"]
    assert monk["label"] == "Score 3 points and return the monk"
    assert monk["mark"] == 1
    assert monk["command"] == {
        "type": "resolve_message",
        "choice": "action",
        "x": 0,
        "y": 1,
        "feature": "monastery",
    }
    if preset in ("c2-zmg", "c3"):
        assert monk["skip"] == {
            "label": "Return the monk without scoring",
            "command": {**monk["command"], "score": False},
        }
    else:
        assert "skip" not in monk
    for command in every_command(g.state):
        applied(g.state, command)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_lone_highwaymans_choice_is_applied(preset: str) -> None:
    g = lone_highwayman_game(preset)
    for command in every_command(g.state):
        applied(g.state, command)
    assert [choice.get("mark") for choice in g.pending["choices"]][1:] == list(
        range(1, len(g.pending["choices"]))
    )


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("action", NOT_OFFERED)
def test_an_action_not_possible_says_why(preset: str, action: str) -> None:
    """rules/messengers.md §4 Rulings: an action without anything to score (or without tiles) is not
    offered; the prompt says why, in a code and in words naming the player."""
    g = column_game(preset, stack(preset, action), ann_farmer=True, bob_farmer=True)
    codes = {
        "smallest_road": ("no_follower_on_road", "\u2068Ann\u2069 has no follower on a road"),
        "smallest_city": ("no_follower_in_city", "\u2068Ann\u2069 has no follower in a city"),
        "smallest_monastery": (
            "no_follower_in_monastery",
            "\u2068Ann\u2069 has no follower in a monastery",
        ),
        "coats_of_arms": (
            "no_coat_of_arms",
            "\u2068Ann\u2069 has no knight in a city with a coat of arms",
        ),
        "knights": ("no_knight", "\u2068Ann\u2069 has no knight"),
        "extra_tile": ("no_tiles_left", "no land tiles are left"),
    }
    reason, text = codes[action]
    assert g.pending["unavailable"] == {"reason": reason, "text": text}


def test_an_offered_action_is_not_unavailable_and_its_feature_is_marked() -> None:
    g = column_game("c2-hig", stack("c2-hig", "farmers"), ann_farmer=True, more_tiles=("B",))
    assert g.pending["unavailable"] is None
    assert g.pending["choices"][1]["label"] == "2 points per farmer: 2 points"


@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_every_choice_command_is_applied(preset: str) -> None:
    """Over random board games, every command of every message choice is taken as given."""
    seen = 0
    for seed in range(12):
        rng = random.Random(seed)
        state, _ = new_game(["Ann", "Bob", "Cy"], preset, seed=seed)
        while not state.finished:
            waiting = pending(state)
            if waiting is not None and waiting["type"] == "resolve_message":
                for command in every_command(state):
                    applied(state, command)
                    seen += 1
            seat, command = random_command(state, rng)
            state, _ = apply(state, seat, command)
    assert seen


def test_tabletop_choices_are_applied_and_the_counted_action_takes_its_points() -> None:
    """At a tabletop game the action's points are counted at the table: its command is sent
    with the ``points`` the player enters; "2 points" and the extra tile are sent as given."""
    g = Game("c2-hig", mode="tabletop", messages=stack("c2-hig", "knights", "extra_tile"))
    g.score(0, 5, "meeple").end_turn()
    points, action = g.pending["choices"]
    assert action["label"] == "Carry out the action: points counted at the table"
    applied(g.state, points["command"])
    assert resolved(applied(g.state, {**action["command"], "points": 4}))["points"] == 4
    g.send(parse_command({**action["command"], "points": 0}))
    g.end_turn()  # Bob's turn
    g.score(0, 5, "meeple").end_turn()
    assert g.pending["action"] == "extra_tile"
    for command in every_command(g.state):
        applied(g.state, command)


def test_c3_message_4_is_an_extra_turn_everywhere() -> None:
    """rules/messengers.md §4 extra_tile = extra_turn (C3, 002 #4): message 4 is "Play an extra
    turn" on the reveal, the prompt, the table's names and the log; with extra_tile = immediate it
    stays "Place one more tile"."""
    g = Game("c3", mode="tabletop", messages=stack("c3", "extra_tile"))
    g.score(0, 5, "meeple").end_turn()
    shown = json.loads(public_view_json(g.state))
    assert shown["revealed"]["text"] == "Play an extra turn"
    assert shown["pending"]["text"] == "Play an extra turn"
    assert shown["pending"]["choices"][1]["label"] == "Play an extra turn"
    assert message_names(g.state.options)["4"] == "Play an extra turn"
    drawn = [event for event in g.events if event["type"] == "message_drawn"]
    assert [line["text"] for line in narrate(drawn, ["Ann", "Bob"], g.state.options)] == [
        "\u2068Ann\u2069 draws message 4: Play an extra turn"
    ]
    g.resolve("action")
    (line,) = narrate(g.of_type("message_resolved"), ["Ann", "Bob"], g.state.options)
    assert line["text"] == "\u2068Ann\u2069 takes the action: play an extra turn"
    immediate = resolve_options("c3", {"extra_tile": "immediate"})
    assert message_names(immediate)["4"] == "Place one more tile"
    assert message_names(resolve_options("c2-hig", None))["4"] == "Place one more tile"


@pytest.mark.django_db
def test_the_snapshot_names_the_messages_the_track_and_the_rule_from_the_lobby_on() -> None:
    table, creator = create_table(preset="c3", name="Ann", colour="blue")
    info = json.loads(snapshot(table.code, 0))["table"]
    assert info["message_names"]["4"] == "Play an extra turn"
    assert info["message_names"]["1"] == "Score your smallest city"
    assert info["track"] == {"spaces": 50, "dark": list(range(0, 50, 5))}
    assert info["message_rule"] == (
        "A figure that ends the turn's scoring on a dark space draws a message; only the player"
        " whose turn it is draws. One message per scoring. At most 1 message per turn. Points from"
        " a message draw no message."
    )
    zmg, _ = create_table(preset="c2-zmg", name="Ann", colour="blue")
    rule = json.loads(snapshot(zmg.code, 0))["table"]["message_rule"]
    assert rule.startswith("A figure that lands on a dark space draws a message")
    assert "No message where another player's figure already stands." in rule


def test_undo_text_names_the_entry_an_undo_takes_back() -> None:
    """A tabletop view says which entry an undo would take back, in the log's words."""
    g = Game("c2-hig", mode="tabletop")
    assert json.loads(public_view_json(g.state))["undo_text"] is None
    g.score(0, 4, "meeple")
    assert json.loads(public_view_json(g.state))["undo_text"] == (
        "\u2068Ann\u2069 scores 4 points with the meeple"
    )
    g.end_turn()
    assert json.loads(public_view_json(g.state))["undo_text"] == "\u2068Ann\u2069 ends the turn"
    g.score(1, 3, "meeple").end_turn(1)
    # A forgotten entry the host adds is said as added, with the turn it belongs to.
    forgotten = {"seat": 1, "type": "score", "points": 2, "figure": "meeple"}
    g.send(Correct(entry=1, replacement=forgotten, insert=True), 0)
    assert json.loads(public_view_json(g.state))["undo_text"] == (
        "the host's added entry: \u2068Bob\u2069's 2 points (meeple), forgotten in turn 1"
    )
    board = Game("c2-hig", tiles=["E"])
    assert "undo_text" not in json.loads(public_view_json(board.state))


def test_for_what_names_the_points_without_coordinates() -> None:
    """A figure prompt says what its points are for; at a tabletop game, the entry's category."""
    g = Game("c2-hig", mode="tabletop")
    g.send(parse_command({"type": "score", "points": 4, "category": "city"}))
    assert g.pending["type"] == "choose_figure"
    assert g.pending["for_what"] == "for a city"
    g.figure("meeple")
    g.score(0, 3)
    assert g.pending["for_what"] == ""


def test_the_story_names_c3_message_4_as_the_edition_does() -> None:
    g = Game("c3", mode="tabletop", messages=stack("c3", "extra_tile"))
    g.score(0, 5, "meeple").end_turn()
    (drawn,) = story(g.state).messages
    assert (drawn.message, drawn.action) == (4, "extra_tile")
    assert message_text(g.state.options, MessageAction(drawn.action)) == "Play an extra turn"
