"""Scenario tests of The Messengers' scoreboard, triggers, caps and rulings: rules/messengers.md §1,
§3 (options and rulings), §5 and §6.

Two modes are used. Tabletop games enter points directly (``.score(seat, points, figure)``,
``.end_turn()``), which makes the trigger arithmetic exact. Board games use short tile stacks and
the layouts sketched next to their helpers. Every expected number is worked out by hand in the
comments. In a two-player game Ann (seat 0) plays the odd turns and Bob (seat 1) the even ones.
"""

from __future__ import annotations

import contextlib

import pytest

from game.engine.errors import EngineError, IllegalCommand, NotYourDecision
from game.engine.views import view
from tests.scenario import Game

PRESETS = ("c1-zmg", "c2-hig", "c2-zmg", "c3")
ON_LANDING = {"c1-zmg", "c2-zmg"}
PER_SCORING = ("c1-zmg", "c2-hig", "c2-zmg")
CHAINING = ("c1-zmg", "c2-hig", "c2-zmg")
ORDER = [1, 2, 3, 4, 5, 6, 7, 8]
EXTRA_TILE_MESSAGE = {"c1-zmg": 7, "c2-hig": 4, "c2-zmg": 4, "c3": 4}
"""The number of "one more tile / extra turn" in each preset's message set
(rules/messengers.md §4)."""


def table(preset: str = "c2-hig", messages=ORDER, **options) -> Game:
    """A tabletop game of Ann and Bob with the given house rules."""
    return Game(preset, mode="tabletop", messages=messages, options=options or None)


def kinds(g: Game) -> list[str]:
    return [event["type"] for event in g.events]


def totals(g: Game, seat: int = 0) -> list[int]:
    """The totals after each of ``seat``'s movements, in order."""
    return [event["total"] for event in g.of_type("points") if event["seat"] == seat]


def asked(g: Game) -> bool:
    return g.pending is not None and g.pending["type"] == "choose_figure"


def waits_for(g: Game) -> tuple[int | None, str] | None:
    return None if g.pending is None else (g.pending["seat"], g.pending["type"])


def settle(g: Game, figure: str) -> Game:
    """Answer a figure question if the game asks one (it does not under ``per_turn`` once the
    figure is fixed for the turn)."""
    if asked(g):
        g.figure(figure)
    return g


def pass_turn(g: Game) -> Game:
    """Tabletop: the active seat ends a turn in which nobody scored."""
    return g.end_turn()


# Board layouts ---------------------------------------------------------------------------------


def road_and_city_layout(preset: str, **options) -> Game:
    """Ann completes a 3-tile road and a 3-tile city with one tile, her meeple standing on 4.

    ::

                 x=-1              x=0               x=1
        y=-2   E r180 (T3 Ann,
               knight on city S)
        y=-1   G r90 (T2 Bob,    E r180 (T1 Ann:
               city N-S)         closes the start
                                 city: 4 points)
        y=0    L r0 (T7 Ann:     D start           A r90 (T5 Ann,
               city N, roads     road W-E          road W; her
               E S W end)                          highwayman)
        y=1                      B (T4 Bob)        B (T6 Bob)

    T1: 2-tile city = 2 x 2 = 4 points, to the meeple (asked of Ann in every preset: the first
    scoring of her turn). T7 completes the road (-1,0) (0,0) (1,0): 3 tiles = 3 points, and the
    city (-1,-2) (-1,-1) (-1,0): 3 tiles, no coat of arms = 6 points. The engine scores the road
    first. The game stops with the pending decision of that round.
    """
    g = Game(preset, tiles=["E", "G", "E", "B", "A", "B", "L"], options=options or None)
    g.place(0, -1, 180).follower("city", "S").figure("meeple")
    g.place(-1, -1, 90).skip()
    g.place(-1, -2, 180).follower("city", "S")
    g.place(0, 1, 0).skip()
    g.place(1, 0, 90).follower("road", "W")
    g.place(1, 1, 0).skip()
    g.place(-1, 0, 0).skip()
    return g


def road_of_five(preset: str, closer: str, extra=(), messages=ORDER, **options) -> Game:
    """Ann's highwayman on a road of five tiles, closed by Ann (turn 5) or Bob (turn 4).

    ::

                 x=-2        x=-1       x=0        x=1          x=2
        y=0    A r270  -   U r90   -  D start -  U r90    -   A r90
               (closer)    (T2 Bob)              (T1 Ann,     (T3 Ann)
                                                 highwayman)
        y=1                           B (T4 Bob, when Ann closes)

    A is a monastery whose road ends at it: the road (-2,0)..(2,0) is complete with 5 tiles,
    worth 5 points to Ann. The game stops at the decision after the closing placement.
    """
    tiles = ["U", "U", "A", *(["B"] if closer == "Ann" else []), "A", *extra]
    g = Game(preset, tiles=tiles, messages=messages, options=options or None)
    g.place(1, 0, 90).follower("road", "W")
    g.place(-1, 0, 90).skip()
    g.place(2, 0, 90).skip()
    if closer == "Ann":
        g.place(0, 1, 0).skip()
    g.place(-2, 0, 270).skip()
    return g


def road_and_monastery_layout(preset: str, **options) -> Game:
    """Ann closes a road of five (5 points) while her monk stands on a monastery worth 5.

    ::

                 x=-2        x=-1       x=0          x=1          x=2
        y=0    A r270  -   U r90   -  D start  -  U r90    -    A r90
               (T7 Ann)    (T2 Bob)               (T1 Ann,      (T4 Bob)
                                                  highwayman)
        y=1                           B (T3 Ann,  B (T5 Ann)    B (T6 Bob)
                                      her monk)

    T7: road (-2,0)..(2,0), 5 tiles = 5 points, to Ann's meeple: 0 -> 5, a dark space. The
    monastery at (0,1) has 4 of its 8 neighbours, (-1,0) (0,0) (1,0) (1,1), so "score your
    smallest monastery" (message 3 in every set) gives 1 + 4 = 5 points: meeple 5 -> 10, dark
    again. The message stack is 3, 1, 2, ... The game stops at the first resolve_message.
    """
    g = Game(
        preset,
        tiles=["U", "U", "B", "A", "B", "B", "A", "B"],
        messages=[3, 1, 2, 4, 5, 6, 7, 8],
        options=options or None,
    )
    g.place(1, 0, 90).follower("road", "W")
    g.place(-1, 0, 90).skip()
    g.place(0, 1, 0).follower("monastery")
    g.place(2, 0, 90).skip()
    g.place(1, 1, 0).skip()
    g.place(2, 1, 0).skip()
    g.place(-2, 0, 270).skip()
    settle(g, "meeple")
    return g


def shared_city_layout(preset: str, **options) -> Game:
    """Ann and Bob, one knight each, share a city that Ann closes in turn 3: 10 points each.

    ::

                 x=0                    x=1
        y=-1   M r180: city S+E,      N r270: city W+S
               coat (T1 Ann's knight) (T3 Ann closes)
        y=0    D start: city N        D r0: city N (T2 Bob's knight)

    City (0,0) (0,-1) (1,-1) (1,0): 4 tiles x 2 + 1 coat of arms x 2 = 10 points. Both have one
    knight: a shared majority, both score 10. Ann (the active seat) scores first, then Bob. The
    game stops at Ann's figure question.
    """
    g = Game(preset, tiles=["M", "D", "N", "B"], options=options or None)
    g.place(0, -1, 180).follower("city", "S")
    g.place(1, 0, 0).follower("city", "N")
    g.place(1, -1, 270).skip()
    return g


# §1 What the expansion adds ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_each_player_has_two_figures_on_zero(preset):
    """rules/messengers.md §1: each player gets a messenger beside the score meeple, both on space
    0; the score is the sum of both."""
    g = Game(preset, players=("Ann", "Bob", "Cy"), tiles=["E"])
    for seat in range(3):
        assert (g.player(seat).meeple, g.player(seat).messenger, g.player(seat).score) == (0, 0, 0)
    for shown in view(g.state, 1)["players"]:
        assert (shown["meeple_space"], shown["messenger_space"], shown["score"]) == (0, 0, 0)


def test_score_is_the_sum_of_both_figures():
    """rules/messengers.md §1: a player's score is the sum of both figures."""
    g = table().score(0, 3, "meeple").score(0, 4, "messenger")
    assert (g.player(0).meeple, g.player(0).messenger, g.player(0).score) == (3, 4, 7)
    assert view(g.state)["players"][0]["score"] == 7
    g.end_turn()  # 3 and 4 are light spaces: no message
    assert g.drawn_messages() == []


@pytest.mark.parametrize("preset", PRESETS)
def test_scoreboard_wraps_after_49(preset):
    """rules/messengers.md §1: the track has 50 spaces and wraps: a figure on 48 moving 7 carries 55
    points and stands on space 5, which is dark, so the active player draws."""
    g = table(preset).score(0, 48, "meeple").end_turn()  # 48: light, no message
    assert g.drawn_messages() == []
    pass_turn(g)  # Bob
    g.score(0, 7, "meeple")
    last = g.of_type("points")[-1]
    assert (last["total"], last["space"], last["dark"]) == (55, 5, True)
    assert view(g.state)["players"][0]["meeple_space"] == 5
    assert g.player(0).score == 55
    g.end_turn()
    assert g.drawn_messages() == [1]


@pytest.mark.parametrize("points", range(1, 51))
def test_dark_spaces_are_the_multiples_of_5(points):
    """rules/messengers.md §1: dark spaces are 0, 5, ..., 45; a figure's space is its points % 50.
    Ann moves one figure from 0 by ``points``: she draws exactly when it ends on a dark space."""
    g = table("c2-hig").score(0, points, "meeple")
    moved = g.of_type("points")[-1]
    assert moved["space"] == points % 50
    assert moved["dark"] is (points % 5 == 0)
    g.end_turn()
    assert g.drawn_messages() == ([1] if points % 5 == 0 else [])


@pytest.mark.parametrize("preset", PRESETS)
def test_message_goes_to_the_bottom_and_the_stack_cycles(preset):
    """rules/messengers.md §1: a resolved message goes face down to the bottom of the stack, so the
    stack cycles in a fixed order: the 9th message drawn is the 1st again.

    Ann's meeple lands on 5, 10, ..., 45 in her nine turns (+5, then +3 each turn after taking
    the message's 2 points on the meeple: 5 -> 7 -> 10 -> 12 -> 15 ...; 7, 12, ... are light).
    """
    stack = [6, 3, 8, 1, 5, 2, 7, 4]
    g = table(preset, messages=stack)
    for turn in range(9):
        g.score(0, 5 if turn == 0 else 3, "meeple").end_turn()
        assert g.drawn_messages()[-1] == stack[turn % 8]
        g.resolve("points")
        settle(g, "meeple")
        if turn == 0:
            assert g.state.stack == (*stack[1:], stack[0])
        pass_turn(g)  # Bob
    assert g.drawn_messages() == [*stack, stack[0]]
    assert g.player(0).meeple == 45 + 2


def test_message_resolved_by_its_action_also_goes_to_the_bottom():
    """rules/messengers.md §1: either way (action or 2 points) the tile goes to the bottom."""
    g = table("c2-hig").score(0, 5, "meeple").end_turn()
    g.resolve("action", points=3).figure("messenger")
    assert g.state.stack == (2, 3, 4, 5, 6, 7, 8, 1)


# §3 figure_choice --------------------------------------------------------------------------------


def test_per_scoring_asks_for_each_scoring():
    """rules/messengers.md §3 figure_choice=per_scoring: for each scoring the scoring player picks
    the figure that takes all of its points."""
    g = table("c2-hig").score(0, 3)
    assert g.pending["type"] == "choose_figure" and g.pending["points"] == 3
    g.figure("meeple").score(0, 4)
    assert g.pending["type"] == "choose_figure" and g.pending["points"] == 4
    g.figure("messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (3, 4)


def test_per_turn_first_scoring_fixes_the_figure():
    """rules/messengers.md §3 figure_choice=per_turn: all of a player's points in a turn go on one
    figure; after the first scoring nobody asks, and the other figure is refused."""
    g = table("c2-hig", figure_choice="per_turn").score(0, 3)
    assert g.pending["type"] == "choose_figure"
    g.figure("meeple").score(0, 4)
    assert g.pending["type"] == "end_turn"
    assert (g.player(0).meeple, g.player(0).messenger) == (7, 0)
    before = g.state
    with pytest.raises(IllegalCommand):
        g.score(0, 2, "messenger")
    assert g.state is before


@pytest.mark.parametrize("preset", PRESETS)
def test_figure_choice_on_the_board(preset):
    """rules/messengers.md §3 figure_choice: a tile completes a road (3) and a city (6) of Ann's.
    per_scoring asks twice, so she can split: road on the messenger (0 -> 3), city on the meeple
    (4 -> 10: dark at the end of the round, she draws). per_turn asks once: the city follows the
    road to the messenger (3 -> 9), the meeple stays on 4, no message."""
    g = road_and_city_layout(preset)
    assert g.pending["type"] == "choose_figure" and g.pending["reason"] == "road"
    g.figure("messenger")
    if preset == "c3":
        assert not asked(g)
        expected = [("meeple", 4), ("messenger", 3), ("messenger", 9)]
        assert g.drawn_messages() == []
    else:
        assert g.pending["type"] == "choose_figure" and g.pending["reason"] == "city"
        g.figure("meeple")
        expected = [("meeple", 4), ("messenger", 3), ("meeple", 10)]
        assert g.drawn_messages() == [1]
    assert [(e["figure"], e["total"]) for e in g.of_type("points")] == expected


@pytest.mark.parametrize(("preset", "per_turn"), [("c3", True), ("c2-hig", False)])
def test_per_turn_binds_players_who_are_not_active(preset, per_turn):
    """rules/messengers.md §3 Ruling (per_turn for other players): every player, not only the active
    one, advances at most one figure per turn; their first scoring fixes it."""
    g = table(preset).score(1, 3, "messenger").score(1, 4)
    if per_turn:
        assert g.pending["type"] == "end_turn"
        assert g.player(1).messenger == 7
        with pytest.raises(IllegalCommand):
            g.score(1, 2, "meeple")
    else:
        assert waits_for(g) == (1, "choose_figure")
        g.figure("meeple")
        assert (g.player(1).meeple, g.player(1).messenger) == (4, 3)


def test_per_turn_is_chosen_afresh_each_turn():
    """rules/messengers.md §3 figure_choice=per_turn: the fixing lasts one turn; in the next turn
    the player chooses again (here Ann, scoring in Bob's turn)."""
    g = table("c3").score(0, 3, "meeple").end_turn()
    g.score(0, 4)  # turn 2, Bob's
    assert waits_for(g) == (0, "choose_figure")
    g.figure("messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (3, 4)


def test_c3_extra_turn_is_a_new_turn():
    """rules/messengers.md §3 Ruling (per_turn for other players): a C3 extra turn is a new turn:
    the figure is chosen afresh and the message cap starts again.

    Turn 1: Ann's meeple 0 -> 5, she draws message 4 (extra turn in the c3 set) and takes the
    action. Turn 2 is hers again: her messenger 0 -> 5 is allowed, and she draws again although
    she already drew one message in turn 1 (cap 1)."""
    g = table("c3", messages=[4, 1, 2, 3, 5, 6, 7, 8]).score(0, 5, "meeple").end_turn()
    g.resolve("action")
    assert g.of_type("extra_turn") and g.state.active == 0 and g.state.turn == 2
    g.score(0, 5, "messenger").end_turn()
    assert g.drawn_messages() == [4, 1]
    assert (g.player(0).meeple, g.player(0).messenger) == (5, 5)


# §3 trigger ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_trigger_passing_through_a_dark_space(preset):
    """rules/messengers.md §3 trigger: Ann's meeple moves 0 -> 5 (dark) -> 8 in one round.
    on_landing (c1-zmg, c2-zmg): a movement ended on a dark space, she draws. end_of_round
    (c2-hig, c3): the figure ends the round on 8, no message."""
    g = table(preset).score(0, 5, "meeple").score(0, 3, "meeple").end_turn()
    assert totals(g) == [5, 8]
    assert g.drawn_messages() == ([1] if preset in ON_LANDING else [])


@pytest.mark.parametrize(
    ("preset", "trigger", "draws"),
    [
        ("c2-hig", "on_landing", True),
        ("c2-hig", "end_of_round", False),
        ("c1-zmg", "end_of_round", False),
        ("c1-zmg", "on_landing", True),
    ],
)
def test_trigger_override(preset, trigger, draws):
    """rules/messengers.md §3 trigger: the same round (0 -> 5 -> 8) under both values, one
    preset at a time."""
    g = table(preset, trigger=trigger).score(0, 5, "meeple").score(0, 3, "meeple").end_turn()
    assert g.drawn_messages() == ([1] if draws else [])


@pytest.mark.parametrize("preset", PRESETS)
def test_tabletop_order_of_score_entries(preset):
    """rules/messengers.md §3 Ruling (on_landing within one round): in tabletop mode the order of
    the score entries is the order of scoring. 3 then 5 stops on 3 and 8: no message in any preset;
    5 then 3 stops on 5: a message under on_landing."""
    late = table(preset).score(0, 3, "meeple").score(0, 5, "meeple").end_turn()
    assert totals(late) == [3, 8]
    assert late.drawn_messages() == []
    early = table(preset).score(0, 5, "meeple").score(0, 3, "meeple").end_turn()
    assert early.drawn_messages() == ([1] if preset in ON_LANDING else [])


@pytest.mark.parametrize("preset", PRESETS)
def test_figure_ending_the_round_on_dark_draws(preset):
    """rules/messengers.md §3 trigger (both values): a figure that moved and ends the round on a
    dark space (0 -> 3 -> 5) qualifies."""
    g = table(preset).score(0, 3, "meeple").score(0, 2, "meeple").end_turn()
    assert g.drawn_messages() == [1]


@pytest.mark.parametrize("preset", PRESETS)
def test_figure_on_dark_that_did_not_move_does_not_trigger(preset):
    """rules/messengers.md §3 trigger=end_of_round ("a figure that moved in this round") and
    on_landing: Ann's messenger already stands on 5 (scored in Bob's turn); in her turn only her
    meeple moves (0 -> 3): no message. Moving the messenger 5 -> 10 instead draws."""

    def setup() -> Game:
        g = pass_turn(table(preset))  # turn 1, Ann
        g.score(0, 5, "messenger").end_turn()  # turn 2, Bob's: Ann is not active
        assert g.drawn_messages() == []
        return g

    still = setup().score(0, 3, "meeple").end_turn()
    assert (still.player(0).meeple, still.player(0).messenger) == (3, 5)
    assert still.drawn_messages() == []
    moved = setup().score(0, 5, "messenger").end_turn()
    assert moved.drawn_messages() == [1]


@pytest.mark.parametrize("preset", PRESETS)
def test_board_some_order_of_scoring_hits_a_dark_space(preset):
    """rules/messengers.md §3 Ruling (on_landing within one round), board mode: the player may score
    the round's features in any order, so the round qualifies if some subset of a figure's
    movements taken first ends on a dark space. Ann's meeple on 4 takes the road (3) and the
    city (6): the engine's order stops on 7 and 13, both light, but the city first would stop on
    10. on_landing draws; end_of_round (the meeple ends on 13) does not."""
    g = road_and_city_layout(preset)
    settle(g, "meeple")
    settle(g, "meeple")
    assert totals(g) == [4, 7, 13]
    assert not any(event["dark"] for event in g.of_type("points"))
    assert g.drawn_messages() == ([1] if preset in ON_LANDING else [])


@pytest.mark.parametrize(
    ("preset", "trigger", "draws"),
    [("c2-hig", "on_landing", True), ("c1-zmg", "end_of_round", False)],
)
def test_board_some_order_trigger_override(preset, trigger, draws):
    """rules/messengers.md §3 trigger, board mode: the road-and-city round (4 -> 7 -> 13, 10
    reachable in another order) under the other value of the option."""
    g = road_and_city_layout(preset, trigger=trigger)
    settle(g, "meeple")
    settle(g, "meeple")
    assert g.drawn_messages() == ([1] if draws else [])


def test_message_is_drawn_when_the_round_ends():
    """rules/messengers.md §3 Ruling (trigger): with either value the message is drawn when the
    round of scoring ends, after all of its points have moved and its followers have returned."""
    g = road_and_city_layout("c1-zmg").figure("meeple").figure("meeple")
    order = kinds(g)
    drawn = order.index("message_drawn")
    last_points = max(i for i, kind in enumerate(order) if kind == "points")
    last_return = max(i for i, kind in enumerate(order) if kind == "follower_returned")
    assert drawn > last_points and drawn > last_return
    assert g.player(0).followers == 7  # the knight and the highwayman are back in supply


def test_message_is_drawn_after_other_players_points():
    """rules/messengers.md §3 Ruling (trigger) and §5: in a shared city Bob's points move too before
    Ann's message is drawn."""
    g = shared_city_layout("c2-hig").figure("meeple")
    assert g.drawn_messages() == []
    assert waits_for(g) == (1, "choose_figure")
    g.figure("messenger")
    assert g.drawn_messages() == [1]
    order = kinds(g)
    assert order.index("message_drawn") > max(i for i, k in enumerate(order) if k == "points")


# §3 messages_per_round -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", PER_SCORING)
def test_one_message_per_round_even_if_both_figures_qualify(preset):
    """rules/messengers.md §3 messages_per_round=1: both of Ann's figures end on 5; she draws one
    message only. Its 2 points go on the meeple (5 -> 7), then Bob's turn begins."""
    g = table(preset).score(0, 5, "meeple").score(0, 5, "messenger").end_turn()
    assert g.drawn_messages() == [1]
    g.resolve("points").figure("meeple")
    assert g.drawn_messages() == [1]
    assert waits_for(g) == (1, "end_turn")
    assert (g.player(0).meeple, g.player(0).messenger) == (7, 5)


def test_two_messages_per_round_house_rule():
    """rules/messengers.md §3 messages_per_round=2 (house rule): each qualifying figure draws one.
    Message 1's 2 points go on the meeple (5 -> 7), message 2's on the messenger (5 -> 7)."""
    g = table("c2-hig", messages_per_round=2)
    g.score(0, 5, "meeple").score(0, 5, "messenger").end_turn()
    g.resolve("points").figure("meeple")
    assert g.drawn_messages() == [1, 2]
    g.resolve("points").figure("messenger")
    assert waits_for(g) == (1, "end_turn")
    assert (g.player(0).meeple, g.player(0).messenger) == (7, 7)


@pytest.mark.parametrize(("per_turn_cap", "drawn"), [(1, [1]), (None, [1, 2])])
def test_c3_messages_per_round_two_meets_the_turn_cap(per_turn_cap, drawn):
    """rules/messengers.md §3 messages_per_round and messages_per_turn: under c3 rules with the
    house rules for two figures and two messages a round, the turn cap of 1 stops the second."""
    g = table(
        "c3",
        figure_choice="per_scoring",
        messages_per_round=2,
        messages_per_turn=per_turn_cap,
    )
    g.score(0, 5, "meeple").score(0, 5, "messenger").end_turn()
    g.resolve("points").figure("meeple")  # 5 -> 7; chain off in c3 anyway
    if len(drawn) == 2:
        g.resolve("points").figure("messenger")
    assert g.drawn_messages() == drawn
    assert bool(g.of_type("message_capped")) is (per_turn_cap == 1)


# §3 chain --------------------------------------------------------------------------------------


def land_and_act(g: Game, action_points: int = 5) -> Game:
    """Tabletop, turn 1: Ann's meeple 0 -> 5 draws message 1; she takes its action, counted at
    the table as ``action_points``, on the meeple (5 -> 10 for 5 points)."""
    g.score(0, 5, "meeple").end_turn()
    g.resolve("action", points=action_points)
    return settle(g, "meeple")


@pytest.mark.parametrize("preset", PRESETS)
def test_chain_points_of_a_message_can_draw_another(preset):
    """rules/messengers.md §3 chain: points from resolving a message are a new round that can draw
    another message (yes: c1-zmg, c2-hig, c2-zmg; no: c3). The action's 5 points move Ann's
    meeple 5 -> 10, a dark space."""
    g = land_and_act(table(preset))
    assert g.player(0).meeple == 10
    if preset in CHAINING:
        assert g.drawn_messages() == [1, 2]
        assert waits_for(g) == (0, "resolve_message")
    else:
        assert g.drawn_messages() == [1]
        assert waits_for(g) == (1, "end_turn")


@pytest.mark.parametrize(
    ("preset", "options", "drawn"),
    [
        ("c2-hig", {"chain": False}, [1]),
        ("c2-hig", {"chain": True}, [1, 2]),
        ("c3", {"chain": True, "messages_per_turn": None}, [1, 2]),
        ("c3", {"chain": False, "messages_per_turn": None}, [1]),
    ],
)
def test_chain_override(preset, options, drawn):
    """rules/messengers.md §3 chain: the same chained landing (meeple 5 -> 10) under both values."""
    g = land_and_act(table(preset, **options))
    assert g.drawn_messages() == drawn


@pytest.mark.parametrize(
    ("preset", "chain"), [(p, True) for p in PER_SCORING] + [("c2-hig", False)]
)
def test_chain_from_the_two_points(preset, chain):
    """rules/messengers.md §3 chain: "take 2 points" is a new round too. Ann's messenger stands on 3
    (scored in Bob's turn); in turn 3 her meeple lands on 5, she takes 2 points on the messenger
    (3 -> 5, dark) and draws again when chain is yes."""
    g = table(preset, chain=chain)
    pass_turn(g)
    g.score(0, 3, "messenger").end_turn()  # Bob's turn
    g.score(0, 5, "meeple").end_turn()
    g.resolve("points").figure("messenger")
    assert g.player(0).messenger == 5
    assert g.drawn_messages() == ([1, 2] if chain else [1])


def test_chained_draws_are_always_drawn_and_unlimited():
    """rules/messengers.md §3 Ruling (chained draws): a chained message is always drawn (nobody is
    asked whether to draw it), and chains have no limit: meeple 5 -> 10 -> 15 draws three
    messages; the 2 points of the third (15 -> 17) end it."""
    g = table("c2-hig").score(0, 5, "meeple").end_turn()
    for message in (1, 2):
        assert g.pending["type"] == "resolve_message" and g.pending["message"] == message
        g.resolve("action", points=5).figure("meeple")
    assert g.pending["type"] == "resolve_message" and g.pending["message"] == 3
    g.resolve("points").figure("meeple")
    assert g.drawn_messages() == [1, 2, 3]
    assert totals(g) == [5, 10, 15, 17]
    assert waits_for(g) == (1, "end_turn")


@pytest.mark.parametrize("preset", PRESETS)
def test_chain_on_the_board(preset):
    """rules/messengers.md §3 chain, board mode: Ann's road of 5 puts her meeple on 5; message 3
    (smallest monastery) scores her monastery for 5: meeple 10, dark again. With chain she draws
    message 1 at once; c3 (no chain, cap 1) does not."""
    g = road_and_monastery_layout(preset)
    assert g.player(0).meeple == 5
    choices = {choice["choice"]: choice["points"] for choice in g.pending["choices"]}
    assert choices == {"points": 2, "action": 5}
    g.resolve("action")
    settle(g, "meeple")
    assert g.player(0).meeple == 10
    assert g.drawn_messages() == ([3, 1] if preset in CHAINING else [3])


@pytest.mark.parametrize(
    ("options", "drawn", "capped"),
    [
        ({}, [3, 1], False),
        ({"chain": False}, [3], False),
        ({"messages_per_turn": 1}, [3], True),
    ],
)
def test_chain_and_cap_on_the_board_overrides(options, drawn, capped):
    """rules/messengers.md §3 chain and messages_per_turn, board mode: c2-hig's chained landing on
    10 with chain no, or with a cap of one message a turn, yields one message only."""
    g = road_and_monastery_layout("c2-hig", **options)
    g.resolve("action").figure("meeple")
    assert g.drawn_messages() == drawn
    assert bool(g.of_type("message_capped")) is capped


# §3 messages_per_turn -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cap", "drawn", "moves"),
    [(None, [1, 2, 3], [5, 10, 15, 17]), (1, [1], [5, 10]), (2, [1, 2], [5, 10, 15])],
)
def test_messages_per_turn_cap(cap, drawn, moves):
    """rules/messengers.md §3 messages_per_turn: a hard cap on messages in one turn. Ann's chain
    lands on 5, 10 and 15 (c2-hig, chain yes: actions worth 5, then 2 points that end it on 17); the
    cap stops it after 1 or 2 messages."""
    g = table("c2-hig", messages_per_turn=cap).score(0, 5, "meeple").end_turn()
    for _ in range(2):
        if g.pending["type"] == "resolve_message":
            g.resolve("action", points=5).figure("meeple")
    if g.pending["type"] == "resolve_message":
        g.resolve("points").figure("meeple")
    assert totals(g) == moves
    assert g.drawn_messages() == drawn
    assert bool(g.of_type("message_capped")) is (cap is not None)
    assert waits_for(g) == (1, "end_turn")


@pytest.mark.parametrize(("cap", "drawn"), [(1, [1]), (None, [1, 2])])
def test_c3_turn_cap_with_chain(cap, drawn):
    """rules/messengers.md §3 messages_per_turn (c3: 1): with chaining allowed as a house rule, the
    c3 cap still stops the chained message; lifting the cap lets it through."""
    g = land_and_act(table("c3", chain=True, messages_per_turn=cap))
    assert g.drawn_messages() == drawn


def test_turn_cap_starts_again_next_turn():
    """rules/messengers.md §3 messages_per_turn: the cap counts one turn: Ann, capped in turn 1,
    draws again in turn 3."""
    g = land_and_act(table("c2-hig", messages_per_turn=1))  # meeple 10, chained draw capped
    assert g.drawn_messages() == [1]
    pass_turn(g)  # Bob
    g.score(0, 5, "meeple").end_turn()  # 10 -> 15
    assert g.drawn_messages() == [1, 2]


# §3 alone_rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_alone_rule_blocks_a_space_taken_by_another_player(preset):
    """rules/messengers.md §3 alone_rule: no draw when another player's figure stands on the dark
    space where the active player's figure lands (on: c2-zmg). In Ann's turn Bob's meeple moves
    to 5, then Ann's meeple lands on 5."""
    g = table(preset).score(1, 5, "meeple").score(0, 5, "meeple").end_turn()
    assert g.drawn_messages() == ([] if preset == "c2-zmg" else [1])


@pytest.mark.parametrize(
    ("preset", "alone", "draws"),
    [("c2-hig", True, False), ("c2-zmg", False, True), ("c3", True, False)],
)
def test_alone_rule_override(preset, alone, draws):
    """rules/messengers.md §3 alone_rule: the same landing on Bob's space under the other value, on
    presets of both trigger values."""
    g = table(preset, alone_rule=alone).score(1, 5, "messenger").score(0, 5, "meeple").end_turn()
    assert g.drawn_messages() == ([1] if draws else [])


def test_alone_rule_ignores_the_players_own_figure():
    """rules/messengers.md §3 Ruling (alone_rule): only other players' figures block; Ann's meeple
    landing on 5 beside her own messenger (moved there in Bob's turn) draws."""
    g = pass_turn(table("c2-zmg"))
    g.score(0, 5, "messenger").end_turn()  # Bob's turn
    g.score(0, 5, "meeple").end_turn()
    assert (g.player(0).meeple, g.player(0).messenger) == (5, 5)
    assert g.drawn_messages() == [1]


@pytest.mark.parametrize(("preset", "options"), [("c2-zmg", {}), ("c2-hig", {"alone_rule": True})])
def test_alone_rule_judged_when_the_round_ends(preset, options):
    """rules/messengers.md §3 Ruling (alone_rule timing): the landing is judged against the other
    players' figures as they stand when the round ends. Bob on 5 before Ann lands there but on
    8 at the end: she draws. Bob reaching 5 after her landing, in the same round: she does not."""
    left = table(preset, **options).score(1, 5, "meeple").score(0, 5, "meeple")
    left.score(1, 3, "meeple").end_turn()
    assert left.player(1).meeple == 8
    assert left.drawn_messages() == [1]
    arrived = table(preset, **options).score(0, 5, "meeple").score(1, 5, "meeple").end_turn()
    assert arrived.drawn_messages() == []


@pytest.mark.parametrize("preset", PRESETS)
def test_alone_rule_on_the_board(preset):
    """rules/messengers.md §3 alone_rule and its timing ruling, board mode: Ann and Bob share a city
    worth 10; Ann's meeple lands on 10, then Bob's meeple does too, before the round ends. Under
    c2-zmg she does not draw; in every other preset she does."""
    g = shared_city_layout(preset).figure("meeple")
    assert waits_for(g) == (1, "choose_figure")
    g.figure("meeple")
    assert [(e["seat"], e["total"]) for e in g.of_type("points")] == [(0, 10), (1, 10)]
    assert g.drawn_messages() == ([] if preset == "c2-zmg" else [1])


def test_alone_rule_on_the_start_space():
    """rules/messengers.md §3 alone_rule and §1 wrap: Ann's meeple carrying 50 stands on space 0,
    where Bob's figures have stood since the start. They are other players' figures on that dark
    space, so c2-zmg blocks the draw; c2-hig (no alone rule) draws."""
    blocked = table("c2-zmg").score(0, 50, "meeple").end_turn()
    assert blocked.drawn_messages() == []
    free = table("c2-hig").score(0, 50, "meeple").end_turn()
    assert free.drawn_messages() == [1]


# §3 extra_tile (turn flow only) --------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_extra_tile_flow_tabletop(preset):
    """rules/messengers.md §3 extra_tile: immediate (c1, c2) = the same turn goes on with one more
    tile's scores; extra_turn (c3) = the player takes a whole new turn after this one."""
    number = EXTRA_TILE_MESSAGE[preset]
    stack = [number, *(m for m in ORDER if m != number)]
    g = table(preset, messages=stack).score(0, 5, "meeple").end_turn()
    assert g.drawn_messages() == [number]
    g.resolve("action")
    if preset == "c3":
        assert g.of_type("extra_turn")
        assert (g.state.active, g.state.turn) == (0, 2)
        assert g.pending == {**g.pending, "seat": 0, "type": "end_turn", "extra_tile": False}
        g.end_turn()
        assert (g.state.active, g.state.turn) == (1, 3)
    else:
        assert not g.of_type("extra_turn")
        assert (g.state.active, g.state.turn) == (0, 1)
        assert g.pending == {**g.pending, "seat": 0, "type": "end_turn", "extra_tile": True}
        g.end_turn()
        assert (g.state.active, g.state.turn) == (1, 2)
    assert [e["seat"] for e in g.of_type("turn_started")] == (
        [0, 0, 1] if preset == "c3" else [0, 1]
    )


@pytest.mark.parametrize(("preset", "value"), [("c2-hig", "extra_turn"), ("c3", "immediate")])
def test_extra_tile_override_tabletop(preset, value):
    """rules/messengers.md §3 extra_tile: each preset's flow swaps with the other value."""
    g = table(preset, messages=[4, 1, 2, 3, 5, 6, 7, 8], extra_tile=value)
    g.score(0, 5, "meeple").end_turn().resolve("action")
    if value == "extra_turn":
        assert (g.state.active, g.state.turn, g.pending["extra_tile"]) == (0, 2, False)
    else:
        assert (g.state.active, g.state.turn, g.pending["extra_tile"]) == (0, 1, True)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("override", [None, "immediate", "extra_turn"])
def test_extra_tile_flow_on_the_board(preset, override):
    """rules/messengers.md §3 extra_tile, board mode: Ann closes her road of 5 in turn 5 (meeple on
    5) and takes "one more tile". immediate: she places another tile in the same turn 5, then Bob
    plays turn 6. extra_turn: turn 6 is hers, Bob plays turn 7."""
    number = EXTRA_TILE_MESSAGE[preset]
    stack = [number, *(m for m in ORDER if m != number)]
    options = {} if override is None else {"extra_tile": override}
    g = road_of_five(preset, "Ann", extra=["B", "B"], messages=stack, **options)
    settle(g, "meeple")
    assert g.player(0).meeple == 5
    assert g.drawn_messages() == [number]
    g.resolve("action")
    value = override or ("extra_turn" if preset == "c3" else "immediate")
    assert waits_for(g) == (0, "place_tile")
    if value == "immediate":
        assert g.state.turn == 5
        g.place(1, 1, 0).skip()
        assert (g.state.active, g.state.turn) == (1, 6)
    else:
        assert g.state.turn == 6 and g.of_type("extra_turn")
        g.place(1, 1, 0).skip()
        assert (g.state.active, g.state.turn) == (1, 7)
    assert waits_for(g) == (1, "place_tile")


# §5 Turn structure ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_only_the_active_player_draws_tabletop(preset):
    """rules/messengers.md §5: only the active player ever draws; points other players score in the
    active player's turn never draw. Bob's meeple lands on 5 in Ann's turn: nothing; in his own
    next turn it has not moved: nothing either."""
    g = table(preset).score(1, 5, "meeple").end_turn()
    assert g.drawn_messages() == []
    g.end_turn()  # Bob's turn, nobody scores
    assert g.drawn_messages() == []
    assert waits_for(g) == (0, "end_turn")


@pytest.mark.parametrize("preset", PRESETS)
def test_only_the_active_player_draws_on_the_board(preset):
    """rules/messengers.md §5: Bob closes Ann's road of 5 in his turn 4: Ann's meeple lands on 5 and
    she draws nothing, nor does Bob, whose figures did not move. When Ann closes the same road
    herself in turn 5, she draws."""
    g = road_of_five(preset, "Bob", extra=["B"])
    assert waits_for(g) == (0, "choose_figure")
    g.figure("meeple")
    assert g.player(0).meeple == 5
    assert g.drawn_messages() == []
    assert waits_for(g) == (0, "place_tile")
    own = road_of_five(preset, "Ann", extra=["B"])
    settle(own, "meeple")
    assert own.player(0).meeple == 5
    assert own.drawn_messages() == [1]


@pytest.mark.parametrize("preset", PRESETS)
def test_other_players_choose_their_own_figure(preset):
    """rules/messengers.md §5: points other players score in the active player's turn move their
    figures as they choose: Bob is asked, not Ann."""
    g = shared_city_layout(preset).figure("meeple")
    assert waits_for(g) == (1, "choose_figure")
    with pytest.raises(NotYourDecision):
        g.figure("meeple", seat=0)
    g.figure("messenger")
    assert (g.player(1).meeple, g.player(1).messenger) == (0, 10)


@pytest.mark.parametrize("preset", CHAINING)
def test_zero_points_never_trigger(preset):
    """rules/messengers.md §3 Ruling (zero points): a message action worth 0 moves no figure, so the
    chained round cannot draw, though Ann's meeple stands on the dark space 5 (compare the chain
    tests, where the same action worth 5 draws again)."""
    g = land_and_act(table(preset), action_points=0)
    assert (g.player(0).meeple, g.player(0).messenger) == (5, 0)
    assert g.drawn_messages() == [1]
    assert waits_for(g) == (1, "end_turn")


@pytest.mark.parametrize("preset", PRESETS)
def test_zero_points_entered_at_the_table_never_trigger(preset):
    """rules/messengers.md §3 Ruling (zero points) and Ruling (start): a score of 0 moves no figure;
    Ann's meeple stays on the start space 0 and she draws nothing (the entry may also be
    refused)."""
    g = table(preset)
    with contextlib.suppress(EngineError):
        g.score(0, 0, "meeple")
    g.end_turn()
    assert g.drawn_messages() == []


@pytest.mark.parametrize("preset", PRESETS)
def test_standing_on_the_start_space_never_triggers(preset):
    """rules/messengers.md §3 Ruling (start): both figures start on 0, a dark space; standing there
    without having moved never triggers. A turn without scoring, and a turn where only the meeple
    moves (0 -> 3) while the messenger stays on 0, draw nothing; nor does a board turn without
    scoring."""
    g = pass_turn(table(preset))
    assert g.drawn_messages() == []
    pass_turn(g)
    g.score(0, 3, "meeple").end_turn()
    assert g.player(0).messenger == 0
    assert g.drawn_messages() == []
    board = Game(preset, tiles=["U", "U"]).place(1, 0, 90).skip()
    assert board.drawn_messages() == []
    assert waits_for(board) == (1, "place_tile")


# §6 End of the game --------------------------------------------------------------------------


def final_layout(preset: str, **options) -> Game:
    """Ann's city (4, on her messenger) and her monk, scored at the end for 6: 10 in all.

    ::

                 x=-1         x=0               x=1
        y=-2                  B (T7 Ann)
        y=-1                  E r180 (T1 Ann:
                              city 4 points)
        y=0    U r90 (T4 Bob) D start           U r90 (T2 Bob)
        y=1    B (T6 Bob)     B (T3 Ann's monk) B (T5 Ann)

    T1: 2-tile city = 4 points on Ann's messenger. At the end, the monastery at (0,1) has 5
    neighbours, (-1,0) (0,0) (1,0) (-1,1) (1,1): 1 + 5 = 6 points. Ann placed the last tile.
    """
    g = Game(preset, tiles=["E", "U", "B", "U", "B", "B", "B"], options=options or None)
    g.place(0, -1, 180).follower("city", "S").figure("messenger")
    g.place(1, 0, 90).skip()
    g.place(0, 1, 0).follower("monastery")
    g.place(-1, 0, 90).skip()
    g.place(1, 1, 0).skip()
    g.place(-1, 1, 0).skip()
    g.place(0, -2, 0).skip()
    return g


@pytest.mark.parametrize("preset", PRESETS)
def test_final_figure(preset):
    """rules/messengers.md §3 final_figure and §6: at the end both figures' points are added onto
    one figure (meeple; player_choice in c2-hig: each seat is asked, in seat order), then final
    scoring runs. Ann's 4 go onto the chosen figure, her monastery's 6 follow: 10, a dark space,
    and no message is drawn during final scoring."""
    g = final_layout(preset)
    if preset == "c2-hig":
        assert g.pending["type"] == "choose_figure" and g.pending["final"] is True
        assert (g.pending["seat"], g.pending["points"]) == (0, 4)
        g.figure("messenger")
        assert waits_for(g) == (1, "choose_figure") and g.pending["final"] is True
        g.figure("meeple")
        carrier = "messenger"
    else:
        carrier = "meeple"
    assert g.pending is None and g.state.finished
    merged = g.of_type("figures_merged")
    assert [(e["seat"], e["figure"], e["points"]) for e in merged] == [
        (0, carrier, 4),
        (1, "meeple", 0),
    ]
    final = [e for e in g.of_type("points") if e["reason"] == "final"]
    assert [(e["seat"], e["figure"], e["points"], e["total"], e["dark"]) for e in final] == [
        (0, carrier, 6, 10, True)
    ]
    assert g.drawn_messages() == []
    ann = g.player(0)
    assert (ann.meeple, ann.messenger, ann.score) == (
        (10, 0, 10) if carrier == "meeple" else (0, 10, 10)
    )
    assert g.of_type("game_over")[-1]["scores"] == [10, 0]


@pytest.mark.parametrize(
    ("preset", "value", "asks"),
    [("c1-zmg", "player_choice", True), ("c2-hig", "meeple", False), ("c3", "player_choice", True)],
)
def test_final_figure_override(preset, value, asks):
    """rules/messengers.md §3 final_figure: the same end of game under the other value."""
    g = final_layout(preset, final_figure=value)
    if asks:
        assert waits_for(g) == (0, "choose_figure")
        g.figure("messenger").figure("messenger")
        assert (g.player(0).meeple, g.player(0).messenger) == (0, 10)
    else:
        assert g.state.finished
        assert (g.player(0).meeple, g.player(0).messenger) == (10, 0)


@pytest.mark.parametrize("preset", PRESETS)
def test_final_scoring_at_the_table(preset):
    """rules/messengers.md §6, tabletop mode: the figures merge (Ann: meeple 3 + messenger 4 = 7; in
    c2-hig she puts them on the messenger), final points go onto the carrier without asking
    (7 -> 10, dark) and draw no message."""
    g = table(preset)
    if preset == "c3":
        g.score(0, 3, "meeple").end_turn()
        g.score(0, 4, "messenger").end_turn()  # Bob's turn: Ann's figure is free again
    else:
        g.score(0, 3, "meeple").score(0, 4, "messenger").end_turn()
    assert g.drawn_messages() == []
    g.end_game()  # between turns
    if preset == "c2-hig":
        assert waits_for(g) == (0, "choose_figure")
        g.figure("messenger").figure("meeple")
        carrier, other = "messenger", "meeple"
    else:
        carrier, other = "meeple", "messenger"
    ann = g.player(0)
    assert (getattr(ann, carrier), getattr(ann, other)) == (7, 0)
    assert waits_for(g) == (None, "finish")
    with pytest.raises(IllegalCommand):
        g.score(0, 3, other)
    g.score(0, 3).finish()
    assert g.state.finished
    assert getattr(g.player(0), carrier) == 10
    assert g.of_type("points")[-1]["dark"] is True
    assert g.drawn_messages() == []


def test_last_turn_messages_come_before_the_end():
    """rules/messengers.md §6: the game ends when the last tile's turn, with any message it brings,
    is over. Ann's last tile L (road-and-city layout, c1-zmg) yields a message; the game ends only
    once it is resolved."""
    g = road_and_city_layout("c1-zmg").figure("meeple").figure("meeple")
    assert waits_for(g) == (0, "resolve_message")
    assert not g.of_type("game_ending")
    g.resolve("points").figure("meeple")  # 13 -> 15: dark, chain: message 2
    assert g.drawn_messages() == [1, 2]
    assert not g.of_type("game_ending")
    g.resolve("points").figure("messenger")  # 0 -> 2
    assert g.state.finished
    order = kinds(g)
    assert order.index("game_ending") > max(
        i for i, kind in enumerate(order) if kind == "message_resolved"
    )
    assert g.of_type("game_over")[-1]["scores"] == [17, 0]
