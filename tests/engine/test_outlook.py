"""The figure outlook (``game/engine/outlook.py``): what a ``choose_figure`` option or a tabletop
preview promises about messages, checked against what the engine then does.

Each ``why_not`` has a scenario citing the rules/messengers.md row that stops the message, and each
scenario applies the choice to show that the promise and the outcome agree. Positions on the
track are set on the state just before the decision (as if earlier turns had put them there),
so that the arithmetic stays small: ``with_figures``.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from game.engine.agenda import Award, EndRound, ScoreFeature
from game.engine.autoplay import random_command
from game.engine.outlook import earned_now, figure_outlooks
from game.engine.play import apply, new_game
from game.engine.state import GameState
from game.engine.views import pending
from game.words.decisions import figure_note
from tests.engine.test_messengers_rules import road_and_city_layout
from tests.scenario import Game

ANN, BOB = 0, 1


def with_figures(g: Game, **figures: int) -> Game:
    """Set figures on the track: ``ann_meeple=6, bob_messenger=10``."""
    players = list(g.state.players)
    for key, points in figures.items():
        name, figure = key.split("_")
        seat = {"ann": ANN, "bob": BOB}[name]
        players[seat] = dataclasses.replace(players[seat], **{figure: points})
    g.state = dataclasses.replace(g.state, players=tuple(players))
    return g


def city_of_four(preset: str, **options: Any) -> Game:
    """Turn 1: Ann closes the start city with E (2 tiles: 4 points) and is asked for a figure
    (tests/scenario.py's example); more tiles keep the game going afterwards."""
    g = Game(preset, tiles=["E", "B", "B", "B"], options=options or None)
    g.place(0, -1, 180).follower("city", "S")
    assert g.pending["type"] == "choose_figure" and g.pending["points"] == 4
    return g


def option(g: Game, figure: str) -> dict[str, Any]:
    (found,) = [item for item in g.pending["options"] if item["figure"] == figure]
    return found


def draws(g: Game) -> list[int]:
    return g.drawn_messages()


def test_the_alone_rule_case_promises_no_message_and_none_comes() -> None:
    """rules/messengers.md §3 alone_rule (c2-zmg: on): "no draw when another player's figure (either
    kind) already stands on the dark space where the active player's figure lands". Board mode:
    Bob's messenger stands on 10; Ann's messenger on 6 takes the city's 4 and lands on 10."""
    g = with_figures(city_of_four("c2-zmg"), ann_messenger=6, bob_messenger=10)
    messenger = option(g, "messenger")
    assert (messenger["from"], messenger["to"], messenger["total"]) == (6, 10, 10)
    assert messenger["dark"] is True
    assert messenger["draws_message"] is False
    assert messenger["why_not"] == "alone_rule"
    assert messenger["note"] == "dark, but \u2068Bob\u2069's messenger stands there: no message"
    g.figure("messenger")
    assert draws(g) == []
    assert g.pending["type"] == "place_tile" and g.pending["seat"] == BOB


def test_without_the_other_figure_the_same_landing_draws() -> None:
    """The control case: nobody else on 10 (rules/messengers.md §1 dark spaces, §3 on_landing)."""
    g = with_figures(city_of_four("c2-zmg"), ann_messenger=6)
    messenger = option(g, "messenger")
    assert (messenger["draws_message"], messenger["maybe"], messenger["why_not"]) == (
        True,
        False,
        None,
    )
    assert messenger["note"] == "dark: draws a message"
    g.figure("messenger")
    assert draws(g) == [1]


def test_the_alone_rule_is_off_in_other_editions() -> None:
    """rules/messengers.md §3 alone_rule: off in c1-zmg, so Bob's messenger on 10 does not block."""
    g = with_figures(city_of_four("c1-zmg"), ann_messenger=6, bob_messenger=10)
    assert option(g, "messenger")["draws_message"] is True
    g.figure("messenger")
    assert draws(g) == [1]


def test_the_cap_promises_no_message_and_the_engine_caps() -> None:
    """rules/messengers.md §3 messages_per_turn (c3: 1): a second message in the turn is refused."""
    g = with_figures(city_of_four("c3"), ann_meeple=6)
    g.state = dataclasses.replace(g.state, messages_this_turn=1)
    meeple = option(g, "meeple")
    assert (meeple["to"], meeple["dark"], meeple["draws_message"]) == (10, True, False)
    assert meeple["why_not"] == "cap"
    assert meeple["note"] == "dark, but no more messages this turn"
    g.figure("meeple")
    assert draws(g) == []
    assert g.of_type("message_capped")


@pytest.mark.parametrize("chain", [False, True])
def test_points_from_a_message_draw_none_with_chain_off(chain: bool) -> None:
    """rules/messengers.md §3 chain: "points from resolving a message (action or 2 points) are a new
    round that can draw another message" where chain is yes; with chain = no (a house rule on
    c2-hig here) they cannot. Ann's messenger 1 + 4 = 5 draws message 1; she takes its 2
    points, which would put her meeple 3 on 5."""
    g = with_figures(city_of_four("c2-hig", chain=chain), ann_meeple=3, ann_messenger=1)
    assert option(g, "messenger")["draws_message"] is True
    g.figure("messenger").resolve("points")
    assert g.pending["type"] == "choose_figure" and g.pending["points"] == 2
    assert g.pending["for_what"] == "from a message"
    meeple = option(g, "meeple")
    assert (meeple["to"], meeple["dark"]) == (5, True)
    assert meeple["draws_message"] is chain
    assert meeple["why_not"] == (None if chain else "chain_off")
    if not chain:
        assert meeple["note"] == "dark, but points from a message draw no message in this edition"
    g.figure("meeple")
    assert draws(g) == ([1, 2] if chain else [1])


def test_only_the_active_player_draws() -> None:
    """rules/messengers.md §5 "Only the active player ever draws, even when other players' figures
    land on dark spaces during the active player's turn". Tabletop: Bob scores 4 during Ann's
    turn, his messenger 6 lands on 10, and Ann's turn ends without a message."""
    g = Game("c2-hig", mode="tabletop")
    with_figures(g, bob_messenger=6)
    outlook = {item["figure"]: item for item in figure_outlooks(g.state, BOB, 4)}
    assert outlook["messenger"]["dark"] is True
    assert outlook["messenger"]["why_not"] == "not_active"
    note = figure_note(outlook["messenger"], ["Ann", "Bob"], g.state.active)
    assert note == "dark, but only \u2068Ann\u2069 draws messages this turn"
    g.score(BOB, 4, "messenger")
    g.end_turn()
    assert draws(g) == []


def test_a_round_that_already_earns_its_message_earns_no_second() -> None:
    """rules/messengers.md §3 messages_per_round: "at most one message from one round of scoring,
    even if both figures qualify". c1-zmg tabletop: Ann's meeple lands on 5; her messenger
    would land on 5 too, which adds nothing."""
    g = Game("c1-zmg", mode="tabletop")
    g.score(ANN, 5, "meeple")
    assert earned_now(g.state) == 1
    outlook = {item["figure"]: item for item in figure_outlooks(g.state, ANN, 5)}
    assert outlook["messenger"]["dark"] is True
    assert outlook["messenger"]["draws_message"] is False
    assert outlook["messenger"]["why_not"] == "already_earned"
    g.score(ANN, 5, "messenger")
    g.end_turn()
    assert draws(g) == [1]


def test_the_final_merge_draws_no_message() -> None:
    """rules/messengers.md §3 final_figure (c2-hig: player_choice) and §5: messages come from rounds
    of scoring in a turn; the merge at the end draws none. One tile only: Ann's 4 + 6 = 10."""
    g = Game("c2-hig", tiles=["E"])
    g.place(0, -1, 180).follower("city", "S")
    with_figures(g, ann_messenger=6)
    g.figure("meeple")
    assert g.pending["type"] == "choose_figure" and g.pending.get("final") is True
    assert g.pending["for_what"] == "in the final scoring: all your points on one figure"
    meeple = option(g, "meeple")
    assert (meeple["from"], meeple["to"], meeple["total"], meeple["dark"]) == (4, 10, 10, True)
    assert (meeple["draws_message"], meeple["why_not"]) == (False, "final")
    g.figure("meeple")
    assert draws(g) == []


@pytest.mark.parametrize(("preset", "maybe"), [("c2-hig", True), ("c1-zmg", False)])
def test_maybe_when_the_figure_must_still_stand_there_at_the_end(preset: str, maybe: bool) -> None:
    """rules/messengers.md §3 trigger: end_of_round (c2-hig) judges the figure where it stands when
    the round ends, so a landing with more of the round to come is a "maybe"; on_landing
    (c1-zmg) keeps a landing even if the figure moves on. Ann's messenger 2 takes the road's 3
    (lands on 5), then the city's 6 moves it on to 11."""
    g = road_and_city_layout(preset)
    with_figures(g, ann_messenger=2)
    assert g.pending["points"] == 3 and g.pending["for_what"] == "for a road"
    messenger = option(g, "messenger")
    assert (messenger["to"], messenger["draws_message"], messenger["maybe"]) == (5, True, maybe)
    if maybe:
        assert messenger["note"] == (
            "dark: draws a message if it still stands there when the scoring ends"
        )
    g.figure("messenger").figure("messenger")
    assert draws(g) == ([] if maybe else [1])


def test_laps_count_the_passes_of_space_0() -> None:
    """rules/messengers.md §1: the track has 50 spaces and wraps; 48 + 4 passes space 0 once."""
    g = with_figures(city_of_four("c2-hig"), ann_meeple=48, ann_messenger=97)
    meeple, messenger = option(g, "meeple"), option(g, "messenger")
    assert (meeple["from"], meeple["to"], meeple["total"], meeple["laps"]) == (48, 2, 52, 1)
    assert (messenger["from"], messenger["to"], messenger["laps"]) == (47, 1, 2 - 1)


# Over random games: every promise agrees with the engine ---------------------------------------


def _round_end(state: GameState) -> EndRound | None:
    """The step that ends the round under way (the first ``EndRound`` of the agenda): the round
    has ended once this very step has left the agenda. None in the final scoring."""
    return next((step for step in state.agenda if isinstance(step, EndRound)), None)


def _ended(state: GameState, marker: EndRound | None) -> bool:
    return marker is None or state.finished or not any(step is marker for step in state.agenda)


def _last_move_of_round(state: GameState) -> bool:
    """Whether the award being decided is the round's last movement: no award or feature to
    score follows it before the round ends."""
    for step in state.agenda[1:]:
        if isinstance(step, EndRound):
            return True
        if isinstance(step, Award | ScoreFeature):
            return False
    return True


def _crowded(state: GameState, rng: random.Random, seat: int, points: int) -> GameState:
    """The state with every figure moved to a random space before ``seat`` chooses where its
    ``points`` go: often a dark one, and for the other seats often the very space one of
    ``seat``'s figures would land on, so that random play meets the alone rule, laps and dark
    landings far more often than its own slow scores would. Promise and outcome are judged on
    the same state, so the check stays exact."""

    def anywhere() -> int:
        return rng.choice((rng.randrange(10) * 5, rng.randrange(50), rng.randrange(50, 150)))

    players = list(state.players)
    own = dataclasses.replace(players[seat], meeple=anywhere(), messenger=anywhere())
    players[seat] = own
    landings = [own.meeple + points, own.messenger + points]
    for other in range(len(players)):
        if other != seat:
            players[other] = dataclasses.replace(
                players[other],
                meeple=rng.choice((anywhere(), anywhere(), anywhere(), rng.choice(landings))),
                messenger=rng.choice((anywhere(), anywhere(), anywhere(), rng.choice(landings))),
            )
    return dataclasses.replace(state, players=tuple(players))


@pytest.mark.parametrize("preset", ["c1-zmg", "c2-hig", "c2-zmg", "c3"])
def test_every_option_agrees_with_what_the_engine_then_does(preset: str) -> None:
    """Random board games of four players, the figures moved about before each figure choice
    (``_crowded``): take a random option and follow the round to its end. Then

    * an option promising a message without ``maybe`` is followed by a draw;
    * when the choice is the round's last movement and the round had earned nothing before it,
      a message is drawn exactly when the option said so (and ``maybe`` is false then).

    The second check covers every ``why_not``: a blocked or capped landing draws nothing."""
    checked: Counter[tuple[bool, str | None]] = Counter()
    for seed in range(30):
        rng = random.Random(seed)
        state, _ = new_game(["Ann", "Bob", "Cy", "Dee"], preset, seed=seed)
        watching: list[tuple[dict[str, Any], int, bool, EndRound | None]] = []
        while not state.finished:
            waiting = pending(state)
            if (
                waiting is not None
                and waiting["type"] == "choose_figure"
                and not waiting.get("final")
            ):
                state = _crowded(state, rng, state.agenda[0].seat, waiting["points"])
                waiting = pending(state)
            seat, command = random_command(state, rng)
            if waiting is not None and waiting["type"] == "choose_figure":
                chosen = next(o for o in waiting["options"] if o["figure"] == command.figure)
                watching.append(
                    (chosen, earned_now(state), _last_move_of_round(state), _round_end(state))
                )
            state, events = apply(state, seat, command)
            drawn = any(event["type"] == "message_drawn" for event in events)
            still = []
            for chosen, before, last, marker in watching:
                if not _ended(state, marker):
                    still.append((chosen, before, last, marker))
                    continue
                if chosen["draws_message"] and not chosen["maybe"]:
                    assert drawn, chosen
                if last and before == 0:
                    assert drawn == chosen["draws_message"], chosen
                    assert chosen["maybe"] is False
                    checked[chosen["draws_message"], chosen["why_not"]] += 1
            watching = still
    # The games reached promises both ways, and dark landings that drew nothing.
    assert checked[True, None] and checked[False, None]
    assert sum(count for (_, why), count in checked.items() if why is not None)
