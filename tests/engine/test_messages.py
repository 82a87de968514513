"""Scenario tests for rules/messengers.md §4: the eight messages of the three message sets.

This file holds the numbering of the sets, "2 points", the smallest road / city / monastery and
the 2-points-per-coat / knight / farmer messages, plus the helpers that the other
``test_messages_*.py`` files share (one more tile, score and return, tabletop mode).

Every expected number below is worked out by hand from rules/messengers.md and rules/base-game.md;
the layouts are drawn in the comments. Coordinates: x grows east, y grows south; the start tile is
a D at (0, 0): city N, road W-E.

How a message is drawn in these scenarios (board mode): Ann (seat 0) closes the start tile's city
as the last tile of a column, which scores 10 for her and puts a figure on space 10 (dark):

          x=0
    y=-3   E   turned 180: city S only (Ann's knight goes here, placing the tile closes the city)
    y=-2   G   turned 90: city N-S
    y=-1   F   turned 90: city N-S with a coat of arms
    y= 0   D   the start tile: city N, road W-E

    city = 4 tiles + 1 coat, completed: 2 x 4 + 2 x 1 = 10 points.

F's and G's two fields (east: half-edges EL ER, west: WL WR) each touch the column city and
nothing else while their east/west neighbours are empty, so once the city is closed a farmer on one
of them is worth 3 in final scoring (rules/messengers.md §4: a field scores 3 per completed city).
"""

from __future__ import annotations

from typing import Any

import pytest

from game.engine.errors import IllegalCommand
from tests.scenario import Game

# rules/messengers.md §4, "The eight messages per message set": action -> (c1, c2, c3) number.
TABLE_4: dict[str, tuple[int, int, int]] = {
    "smallest_road": (1, 1, 2),
    "smallest_city": (2, 2, 1),
    "smallest_monastery": (3, 3, 3),
    "coats_of_arms": (4, 5, 5),
    "knights": (5, 6, 6),
    "farmers": (6, 7, 7),
    "extra_tile": (7, 4, 4),
    "score_and_return": (8, 8, 8),
}
ACTIONS = tuple(TABLE_4)
PRESETS = ("c1-zmg", "c2-hig", "c2-zmg", "c3")
# rules/messengers.md §3, row message_set.
SET_COLUMN = {"c1-zmg": 0, "c2-hig": 1, "c2-zmg": 1, "c3": 2}
TWO_POINTS = {
    "choice": "points",
    "points": 2,
    "label": "Take 2 points",
    "command": {"type": "resolve_message", "choice": "points"},
}
SPARE = "U"
"""A last tile for Bob, so that the game does not end (and final scoring add points) right
after Ann's message; a straight road fits somewhere on every board below."""


# Helpers shared by the test_messages_*.py files ---------------------------------------------


def number(preset: str, action: str) -> int:
    """The number the preset's message set gives ``action`` (rules/messengers.md §4)."""
    return TABLE_4[action][SET_COLUMN[preset]]


def stack(preset: str, *actions: str) -> list[int]:
    """A message stack with ``actions`` on top (in that order), the others below by number."""
    top = [number(preset, action) for action in actions]
    return top + [n for n in range(1, 9) if n not in top]


def choose(g: Game, figure: str) -> Game:
    """Answer a choose_figure if one is asked (with per_turn the figure may already be fixed)."""
    if g.pending is not None and g.pending["type"] == "choose_figure":
        g.figure(figure)
    return g


def close_column(g: Game, figure: str = "meeple") -> Game:
    """Ann places E turned 180 at (0, -3) with a knight: the column city closes, 10 points."""
    g.place(0, -3, 180).follower("city", "S")
    return choose(g, figure)


def column_game(
    preset: str,
    messages: list[int],
    *,
    ann_farmer: bool = False,
    bob_farmer: bool = False,
    more_tiles: tuple[str, ...] = (),
) -> Game:
    """Three tiles: Ann F (0,-1), Bob G (0,-2), Ann E (0,-3) closes the column: Ann 10 on her
    meeple, a message is drawn. Optionally Ann puts a farmer on F's east field and Bob one on
    G's east field (each worth 3 once the column city is closed)."""
    g = Game(preset, tiles=["F", "G", "E", *more_tiles], messages=messages)
    for x, y, farmer in ((0, -1, ann_farmer), (0, -2, bob_farmer)):
        g.place(x, y, 90)
        if farmer:
            g.follower("field", "EL")
        else:
            g.skip()
    return close_column(g)


PRESENTATION = ("label", "command", "mark", "skip")
"""A choice's words, command and board mark: tested in test_prompts.py; the rules here."""


def action_choices(g: Game) -> list[dict[str, Any]]:
    """The ``action`` choices offered for the revealed message, without their presentation."""
    assert g.pending is not None and g.pending["type"] == "resolve_message"
    return [
        {key: value for key, value in choice.items() if key not in PRESENTATION}
        for choice in g.pending["choices"]
        if choice["choice"] == "action"
    ]


def only_action(g: Game) -> dict[str, Any]:
    (choice,) = action_choices(g)
    return choice


def followers_on_board(g: Game) -> list[tuple]:
    """Every follower on the board as (seat, x, y, feature, at), sorted."""
    board = g.state.board
    assert board is not None
    found = []
    for follower in board.followers():
        described = board.describe(follower.segment)
        found.append(
            (
                follower.seat,
                described["x"],
                described["y"],
                described["feature"],
                described.get("at"),
            )
        )
    return sorted(found)


def act_and_check(g: Game, figure: str, *, paid: int, scores: tuple[int, int]) -> None:
    """Resolve the revealed message by its action onto ``figure``; check that it paid ``paid``,
    the two scores after it, and that every follower stayed where it was."""
    board_before = followers_on_board(g)
    g.resolve("action")
    choose(g, figure)
    assert (g.player(0).score, g.player(1).score) == scores
    assert_paid(g, paid)
    assert followers_on_board(g) == board_before


def last_resolution(g: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The last message_resolved event and the points events with reason "message" that it
    produced (those before the next message is drawn or the next turn begins)."""
    index = max(i for i, event in enumerate(g.events) if event["type"] == "message_resolved")
    paid = []
    for event in g.events[index + 1 :]:
        if event["type"] in ("message_drawn", "turn_started", "game_ending"):
            break
        if event["type"] == "points" and event["reason"] == "message":
            paid.append(event)
    return g.events[index], paid


def assert_paid(g: Game, points: int, figure: str | None = None) -> None:
    """The last resolved message says ``points`` and exactly that many points were scored by its
    drawer with reason "message" (one points event, or none for 0)."""
    resolved, paid = last_resolution(g)
    assert resolved["points"] == points
    if points == 0:
        assert paid == []
        return
    assert len(paid) == 1
    assert paid[0]["seat"] == resolved["seat"]
    assert paid[0]["points"] == points
    if figure is not None:
        assert paid[0]["figure"] == figure


# Numbering ------------------------------------------------------------------------------------

NUMBERING_CASES = [
    (preset, action, number(preset, action)) for preset in PRESETS for action in ACTIONS
]


@pytest.mark.parametrize(("preset", "action", "message"), NUMBERING_CASES)
def test_message_number_maps_to_its_action(preset, action, message):
    """rules/messengers.md §4 table "The eight messages per message set": the message drawn with
    number n of the preset's set (c1 / c2 / c3) is announced with the action of that row."""
    rest = [n for n in range(1, 9) if n != message]
    g = column_game(preset, [message, *rest])
    assert g.of_type("message_drawn") == [
        {"type": "message_drawn", "seat": 0, "message": message, "action": action}
    ]
    assert g.pending["type"] == "resolve_message"
    assert (g.pending["seat"], g.pending["message"], g.pending["action"]) == (0, message, action)


# 2 points ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("message", range(1, 9))
def test_two_points_is_always_offered_and_pays_two(message):
    """rules/messengers.md §4 "Every message can instead be resolved as take 2 points": offered for
    each of the 8 messages, also when the action is offered too; it pays 2 on the figure the
    player picks (per_scoring) and is reported as a message's points."""
    rest = [n for n in range(1, 9) if n != message]
    # Ann has a farmer (worth 3 in final scoring), so farmers and message 8 have an action too.
    g = column_game(
        "c2-hig", [message, *rest], ann_farmer=True, bob_farmer=True, more_tiles=(SPARE,)
    )
    assert g.pending["choices"][0] == TWO_POINTS
    g.resolve("points")
    assert g.pending["type"] == "choose_figure"
    assert (g.pending["seat"], g.pending["points"]) == (0, 2)
    g.figure("messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (10, 2)
    resolved, paid = last_resolution(g)
    assert resolved["choice"] == "points" and resolved["message"] == message
    assert_paid(g, 2, "messenger")
    assert paid[0]["total"] == 2
    # Nobody else is paid, and the follower on the board stayed (only the action moves them).
    assert g.player(1).score == 0
    assert followers_on_board(g) == [(0, 0, -1, "field", "EL"), (1, 0, -2, "field", "EL")]


def test_two_points_with_per_turn_go_on_the_figure_of_the_turn():
    """rules/messengers.md §4 "take 2 points" with c3 (figure_choice per_turn): the 2 points go on
    the figure already chosen this turn (the meeple, which took the 10), without asking."""
    g = column_game("c3", stack("c3", "knights"), more_tiles=(SPARE,))
    g.resolve("points")
    assert g.pending["type"] == "place_tile" and g.pending["seat"] == 1
    assert (g.player(0).meeple, g.player(0).messenger) == (12, 0)
    assert_paid(g, 2, "meeple")


# Not offered -----------------------------------------------------------------------------------

NOT_OFFERED = (
    "smallest_road",
    "smallest_city",
    "smallest_monastery",
    "coats_of_arms",
    "knights",
    "extra_tile",
)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("action", NOT_OFFERED)
def test_action_not_offered_without_anything_to_score(preset, action):
    """rules/messengers.md §4 Rulings: "with no candidate, the action is not offered; only 2 points
    is. Likewise for coats of arms, knights and farmers when the action would give 0 points" and
    "if no land tiles remain to be drawn, [one more tile / extra turn] is not offered".

    After the column closes Ann's only follower is a farmer (her knight came back with the
    city); Bob has a farmer too; the three land tiles are used up. So Ann has no road, city
    or monastery of hers, no knight, and no tile is left."""
    g = column_game(preset, stack(preset, action), ann_farmer=True, bob_farmer=True)
    assert g.pending["action"] == action
    assert g.pending["choices"] == [TWO_POINTS]
    before = g.state
    with pytest.raises(IllegalCommand):
        g.resolve("action")
    assert g.state is before
    g.resolve("points")
    choose(g, "messenger")
    assert_paid(g, 2)


@pytest.mark.parametrize("preset", PRESETS)
def test_farmers_offered_on_the_same_board(preset):
    """rules/messengers.md §4 "2 points per farmer", the control case of the test above: on the same
    board Ann's one farmer is worth 2 x 1 = 2; Bob's farmer is not hers and does not count."""
    g = column_game(preset, stack(preset, "farmers"), ann_farmer=True, bob_farmer=True)
    assert action_choices(g) == [{"choice": "action", "points": 2}]


# Smallest road ---------------------------------------------------------------------------------


def two_roads_game(preset: str) -> Game:
    """Ann has followers on two incomplete roads, 3 tiles and 1 tile:

              x=-1        x=0        x=1
        y=-1              F
        y= 0  W (jct) ==  D  ======  U      road A: (-1,0) (0,0) (1,0), ends at the junction
              ||                            of W, open east: 3 tiles, Ann's follower on U
        y= 1  (open)                        road B: W's south road, 1 tile, open: Ann's follower

    Turns: Ann U (1,0) turned 90 + follower on the road; Bob F (0,-1); Ann W (-1,0) turned 0
    (roads E, S, W end at its junction) + follower on the south road; Bob G (0,-2); Ann closes
    the column (10)."""
    g = Game(
        preset, tiles=["U", "F", "W", "G", "E", SPARE], messages=stack(preset, "smallest_road")
    )
    g.place(1, 0, 90).follower("road", "E")
    g.place(0, -1, 90).skip()
    g.place(-1, 0, 0).follower("road", "S")
    g.place(0, -2, 90).skip()
    return close_column(g)


@pytest.mark.parametrize("preset", PRESETS)
def test_smallest_road_lowest_value_is_forced(preset):
    """rules/messengers.md §4 Smallest road: the candidates are Ann's roads (3 and 1 tiles,
    incomplete: 1 point per tile), the lowest is forced: the offer shows the 1-tile road and 1
    point, and exactly that is scored; Ann's followers stay."""
    g = two_roads_game(preset)
    assert g.pending["action"] == "smallest_road"
    offer = only_action(g)
    assert offer == {
        "choice": "action",
        "points": 1,
        "feature": {"x": -1, "y": 0, "feature": "road", "at": "S"},
    }
    board_before = followers_on_board(g)
    assert board_before == [(0, -1, 0, "road", "S"), (0, 1, 0, "road", "E")]
    supply_before = g.player(0).followers
    g.resolve("action")
    choose(g, "messenger")
    assert g.player(0).score == 10 + 1
    assert g.player(1).score == 0
    assert_paid(g, offer["points"])
    resolved, _ = last_resolution(g)
    assert resolved["feature"] == offer["feature"]
    assert followers_on_board(g) == board_before
    assert g.player(0).followers == supply_before
    assert g.of_type("follower_returned")[-1]["y"] == -3  # only the knight of the column


def six_tile_road_game(preset: str, messages: list[int], *, ann_farmer: bool = True) -> Game:
    """A road of 6 tiles, incomplete, with one follower of Ann and two of Bob:

                   x=-1       x=0        x=1       x=2
        y=-2                   G
        y=-1                   F (Ann's farmer on its east field)
        y= 0        .----------D----------.        B (filler)
                    |                     |
        y= 1   -----'          .----------'
            (open W)           |
                            (open S)

        (-1,0) V road E-S; (-1,1) V road N-W, Bob's follower; (1,0) V road W-S, Ann's
        follower; (1,1) V road N-W; (0,1) V road E-S, Bob's follower. (-1,1) and (0,1) share
        an edge but meet with fields there.

    The road runs: W end of (-1,1) [open] - (-1,1) - (-1,0) - (0,0) - (1,0) - (1,1) - (0,1) -
    S end of (0,1) [open]: 6 tiles, value 6 (1 per tile, incomplete). Ann 1 follower (on (1,0)),
    Bob 2 (on (0,1) and (-1,1)): Bob holds the majority.

    Turns: 1 Ann V (1,0) turned 0 (road W-S) + road; 2 Bob V (0,1) turned 270 (road E-S) + road;
    3 Ann F (0,-1) + farmer (optional); 4 Bob V (-1,1) turned 90 (road W-N) + road; 5 Ann V (-1,0)
    turned 270 (road E-S) joins the start road with Bob's (-1,1); 6 Bob V (1,1) turned 90 (road
    W-N) joins (1,0) with (0,1); 7 Ann G (0,-2); 8 Bob B (2,0); 9 Ann closes the column (10).
    """
    g = Game(preset, tiles=["V", "V", "F", "V", "V", "V", "G", "B", "E", SPARE], messages=messages)
    g.place(1, 0, 0).follower("road", "W")
    g.place(0, 1, 270).follower("road", "E")
    g.place(0, -1, 90)
    if ann_farmer:
        g.follower("field", "EL")
    else:
        g.skip()
    g.place(-1, 1, 90).follower("road", "N")
    g.place(-1, 0, 270).skip()
    g.place(1, 1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(2, 0, 0).skip()
    return close_column(g)


ROAD6_TILES = {(-1, 1), (-1, 0), (0, 0), (1, 0), (1, 1), (0, 1)}


def test_smallest_road_majority_does_not_matter():
    """rules/messengers.md §4 Smallest road: a road with at least one of Ann's followers is a
    candidate even though Bob has more followers on it; Ann alone scores its value (6 tiles,
    incomplete: 6), Bob scores nothing, and all three followers stay."""
    g = six_tile_road_game("c2-hig", stack("c2-hig", "smallest_road"), ann_farmer=False)
    offer = only_action(g)
    assert offer["points"] == 6
    assert offer["feature"]["feature"] == "road"
    assert (offer["feature"]["x"], offer["feature"]["y"]) in ROAD6_TILES
    board_before = followers_on_board(g)
    assert board_before == [(0, 1, 0, "road", "S"), (1, -1, 1, "road", "N"), (1, 0, 1, "road", "E")]
    g.resolve("action").figure("messenger")
    assert (g.player(0).meeple, g.player(0).messenger) == (10, 6)
    assert g.player(1).score == 0
    assert_paid(g, 6, "messenger")
    assert followers_on_board(g) == board_before


# Smallest city ---------------------------------------------------------------------------------


def two_cities_game(preset: str, messages: list[int]) -> Game:
    """Ann has knights on two incomplete cities:

              x=-2      x=-1      x=0       x=1
        y=-3                      E
        y=-2   (open N)           G
        y=-1   N ====== N         F
               (city E-N)(city S-W)
        y= 0            D ======  D  ====== O (Ann)    X: O turned 90, city N+E with a coat
                      (Ann)                            of arms, 1 tile: 1 + 1 = 2
                                                       Y: D (-1,0) city N + N (-1,-1) + N
                                                       (-2,-1), open north: 3 tiles, no coat: 3

    Turns: 1 Ann O (1,0) turned 90 (city N+E, road S-W) + knight; 2 Bob F (0,-1); 3 Ann D (-1,0)
    + knight on its city N; 4 Bob N (-1,-1) turned 270 (city S+W); 5 Ann N (-2,-1) turned 90
    (city E+N); 6 Bob G (0,-2); 7 Ann closes the column (10).
    """
    g = Game(preset, tiles=["O", "F", "D", "N", "N", "G", "E", SPARE], messages=messages)
    g.place(1, 0, 90).follower("city", "N")
    g.place(0, -1, 90).skip()
    g.place(-1, 0, 0).follower("city", "N")
    g.place(-1, -1, 270).skip()
    g.place(-2, -1, 90).skip()
    g.place(0, -2, 90).skip()
    return close_column(g)


@pytest.mark.parametrize("preset", PRESETS)
def test_smallest_city_lowest_value_counts_coats(preset):
    """rules/messengers.md §4 Smallest city: candidates X (1 tile + 1 coat = 2) and Y (3 tiles = 3),
    incomplete, valued as in final scoring (1 per tile + 1 per coat); the lowest, X, is forced and
    scored by Ann alone: 2 (1 if coats were ignored, 3 if the largest were taken). Knights stay."""
    g = two_cities_game(preset, stack(preset, "smallest_city"))
    offer = only_action(g)
    assert offer == {
        "choice": "action",
        "points": 2,
        "feature": {"x": 1, "y": 0, "feature": "city", "at": "N"},
    }
    board_before = followers_on_board(g)
    assert board_before == [(0, -1, 0, "city", "N"), (0, 1, 0, "city", "N")]
    g.resolve("action")
    choose(g, "messenger")
    assert g.player(0).score == 12
    assert_paid(g, 2)
    assert last_resolution(g)[0]["feature"] == offer["feature"]
    assert followers_on_board(g) == board_before


# Smallest monastery ----------------------------------------------------------------------------


def two_monasteries_game(preset: str) -> Game:
    """Ann has monks on two incomplete monasteries:

              x=-1      x=0
        y=-1            F
        y= 0  A  ====== D        A turned 270: monastery, road E (ends the start road)
        y= 1            B        B: monastery

    At the message: A (-1,0) has 3 neighbours ((0,-1), (0,0), (0,1)): 1 + 3 = 4;
    B (0,1) has 2 neighbours ((-1,0), (0,0)): 1 + 2 = 3. The lowest is B, 3.

    Turns: 1 Ann A (-1,0) + monk; 2 Bob F (0,-1); 3 Ann B (0,1) + monk; 4 Bob G (0,-2);
    5 Ann closes the column (10)."""
    g = Game(
        preset, tiles=["A", "F", "B", "G", "E", SPARE], messages=stack(preset, "smallest_monastery")
    )
    g.place(-1, 0, 270).follower("monastery")
    g.place(0, -1, 90).skip()
    g.place(0, 1, 0).follower("monastery")
    g.place(0, -2, 90).skip()
    return close_column(g)


@pytest.mark.parametrize("preset", PRESETS)
def test_smallest_monastery_lowest_value_is_forced(preset):
    """rules/messengers.md §4 Smallest monastery: value 1 + tiles around it; candidates 4 and 3; the
    lowest (B at (0,1), 3) is forced, shown before choosing and scored; monks stay."""
    g = two_monasteries_game(preset)
    offer = only_action(g)
    assert offer == {
        "choice": "action",
        "points": 3,
        "feature": {"x": 0, "y": 1, "feature": "monastery"},
    }
    board_before = followers_on_board(g)
    g.resolve("action")
    choose(g, "messenger")
    assert g.player(0).score == 13
    assert_paid(g, 3)
    assert last_resolution(g)[0]["feature"] == offer["feature"]
    assert (
        followers_on_board(g)
        == board_before
        == [
            (0, -1, 0, "monastery", None),
            (0, 0, 1, "monastery", None),
        ]
    )


# Coats of arms and knights ---------------------------------------------------------------------


def coats_game(preset: str, messages: list[int]) -> Game:
    """Ann has two knights in one incomplete city with two coats; Bob has a knight alone in a
    city with one coat:

              x=-1        x=0       x=1
        y=-3              E
        y=-2              G         E (Ann)     city S
        y=-1              F         F           city N-S, coat
        y= 0  S (Bob) === D ======  O (Ann)     city N+E, coat; open east
              coat, road E

    Ann's city: (1,-2) (1,-1) (1,0), coats on F and O: 2 coats, knights on (1,0) and (1,-2).
    Bob's city: S at (-1,0) turned 270 (city N, S, W with a coat; road E ends at it).

    Turns: 1 Ann O (1,0) turned 90 + knight; 2 Bob S (-1,0) turned 270 + knight; 3 Ann F (0,-1);
    4 Bob G (0,-2); 5 Ann E (1,-2) turned 180 + knight; 6 Bob F (1,-1) turned 90 joins the two;
    7 Ann closes the column (10).
    """
    g = Game(preset, tiles=["O", "S", "F", "G", "E", "F", "E", SPARE], messages=messages)
    g.place(1, 0, 90).follower("city", "N")
    g.place(-1, 0, 270).follower("city", "N")
    g.place(0, -1, 90).skip()
    g.place(0, -2, 90).skip()
    g.place(1, -2, 180).follower("city", "S")
    g.place(1, -1, 90).skip()
    return close_column(g)


@pytest.mark.parametrize("preset", PRESETS)
def test_coats_of_arms_each_city_once(preset):
    """rules/messengers.md §4 2 points per coat of arms: 2 x the coats in cities holding at least
    one of Ann's knights, each city once: Ann's city has 2 coats -> 4 (not 8 for two knights, not 6
    with Bob's city); knights stay."""
    g = coats_game(preset, stack(preset, "coats_of_arms"))
    assert only_action(g) == {"choice": "action", "points": 4}
    act_and_check(g, "messenger", paid=4, scores=(14, 0))


@pytest.mark.parametrize("preset", PRESETS)
def test_coats_of_arms_count_cities_of_any_size(preset):
    """rules/messengers.md §4 2 points per coat of arms, on the two-cities board: X has 1 coat,
    Y none: 2 x 1 = 2."""
    g = two_cities_game(preset, stack(preset, "coats_of_arms"))
    assert only_action(g) == {"choice": "action", "points": 2}
    g.resolve("action")
    choose(g, "meeple")
    assert g.player(0).score == 12
    assert_paid(g, 2)


@pytest.mark.parametrize("preset", PRESETS)
def test_coats_of_arms_not_offered_at_zero(preset):
    """rules/messengers.md §4 Ruling: coats of arms is not offered when it would give 0: Ann's only
    knight is in a city without a coat (D at (-1,0), city N). Knights is offered there (2)."""

    def game(action: str) -> Game:
        # 1 Ann D (-1,0) + knight; 2 Bob F (0,-1); 3 Ann G (0,-2); 4 Bob B (0,1); 5 Ann closes.
        g = Game(preset, tiles=["D", "F", "G", "B", "E", SPARE], messages=stack(preset, action))
        g.place(-1, 0, 0).follower("city", "N")
        g.place(0, -1, 90).skip()
        g.place(0, -2, 90).skip()
        g.place(0, 1, 0).skip()
        return close_column(g)

    g = game("coats_of_arms")
    assert g.pending["choices"] == [TWO_POINTS]
    with pytest.raises(IllegalCommand):
        g.resolve("action")
    assert only_action(game("knights")) == {"choice": "action", "points": 2}


@pytest.mark.parametrize("preset", PRESETS)
def test_knights_count_followers_not_cities(preset):
    """rules/messengers.md §4 2 points per knight: 2 x Ann's followers in cities: her two knights in
    one city -> 4 (Bob's knight does not count); they stay."""
    g = coats_game(preset, stack(preset, "knights"))
    assert only_action(g) == {"choice": "action", "points": 4}
    supply = g.player(0).followers
    act_and_check(g, "messenger", paid=4, scores=(14, 0))
    assert g.player(0).followers == supply


@pytest.mark.parametrize("preset", PRESETS)
def test_knights_in_two_cities(preset):
    """rules/messengers.md §4 2 points per knight, on the two-cities board: one knight in X, one in
    Y: 2 x 2 = 4."""
    g = two_cities_game(preset, stack(preset, "knights"))
    assert only_action(g) == {"choice": "action", "points": 4}
    g.resolve("action")
    choose(g, "messenger")
    assert g.player(0).score == 14
    assert_paid(g, 4)


# Farmers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_farmers_count_every_farmer_of_yours(preset):
    """rules/messengers.md §4 2 points per farmer: 2 x Ann's followers in fields anywhere: 2 farmers
    -> 4; Bob's two farmers do not count; all stay.

              x=-1        x=0        x=1
        y=-2              G (Bob's farmer, east field)
        y=-1              F (Ann's farmer, east field)
        y= 0  U ========= D ======== U (Ann's farmer, north field)
            (Bob's farmer, south field)

    Turns: 1 Ann F + farmer; 2 Bob G + farmer; 3 Ann U (1,0) turned 90 + farmer on its north
    field; 4 Bob U (-1,0) turned 90 + farmer on its south field (the start tile's south field,
    still free); 5 Ann closes the column (10)."""
    g = Game(preset, tiles=["F", "G", "U", "U", "E", SPARE], messages=stack(preset, "farmers"))
    g.place(0, -1, 90).follower("field", "EL")
    g.place(0, -2, 90).follower("field", "EL")
    g.place(1, 0, 90).follower("field", "NL")
    g.place(-1, 0, 90).follower("field", "SL")
    close_column(g)
    assert only_action(g) == {"choice": "action", "points": 4}
    assert [seat for seat, *_ in followers_on_board(g)].count(0) == 2
    act_and_check(g, "messenger", paid=4, scores=(14, 0))


@pytest.mark.parametrize("preset", PRESETS)
def test_farmers_not_offered_without_farmers(preset):
    """rules/messengers.md §4 Ruling: 2 points per farmer is not offered at 0 points (Ann has no
    follower at all after the column closes)."""
    g = column_game(preset, stack(preset, "farmers"))
    assert g.pending["choices"] == [TWO_POINTS]
    with pytest.raises(IllegalCommand):
        g.resolve("action")
