"""Base game: completion and scoring during play, majorities, and final scoring.

Every expected number is worked out by hand from rules/base-game.md. Coordinates: x grows east, y
grows south; rotations are clockwise. The start tile is a D at (0, 0): city N, road W–E, field {EL,
WR} between city and road (touches the city), field {ER, SL, SR, WL} south of the road.

Turned tiles used below (edges N E S W):
    E 180 = F F C F (city S)         E 90 = F C F F (city E)        E 270 = F F F C (city W)
    U 90  = F R F R (road W–E)       A 90 = F F F R (road W to the monastery)
    N 90  = C C F F (city N+E)       N 180 = F C C F (city E+S)     N 270 = F F C C (city S+W)
    V 0 = F F R R (road S–W)         V 90 = R F F R (road W–N)      V 180 = R R F F (road N–E)
    V 270 = F R R F (road E–S)       R 180 = F C C C (city E+S+W)   F 90 = C F C F (city N–S, coat)
    T 90 = C C C R (road W ends at the city)    S 270 = C R C C (road E ends at the city)
    J 180 = R F C R (city S, road W–N, field {WR NL} inside the curve touches no city)

Most games below use preset c2-hig with final_figure=meeple, so that the end of the game asks
nothing. No active player's figure lands on a dark space (a multiple of 5) in these games, so no
message is drawn.
"""

from __future__ import annotations

from collections import Counter

from tests.scenario import Game


def _game(tiles: list[str], players: tuple[str, ...] = ("Ann", "Bob")) -> Game:
    return Game("c2-hig", tiles=tiles, players=players, options={"final_figure": "meeple"})


def _expect_choice(g: Game, seat: int, points: int, reason: str) -> None:
    """The game asks ``seat`` which figure takes ``points`` scored for ``reason``."""
    asked = g.pending
    assert asked is not None
    assert asked["type"] == "choose_figure", asked
    assert (asked["seat"], asked["points"], asked["reason"]) == (seat, points, reason), asked


def _points(g: Game, reason: str | None = None) -> list[tuple[int, int]]:
    return [
        (event["seat"], event["points"])
        for event in g.of_type("points")
        if reason is None or event["reason"] == reason
    ]


def _completed(g: Game) -> list[tuple[str, int, int]]:
    return [(e["feature"], e["tiles"], e["points"]) for e in g.of_type("feature_completed")]


# Cities --------------------------------------------------------------------------------------


def test_follower_placed_on_a_city_this_turn_completes_scores_and_returns_at_once():
    """rules/base-game.md Rules, Completion and scoring: city 2 per tile; a follower placed this
    turn on a feature this turn completes scores and returns at once.

        (0,-1) E 180, Ann's knight: closes the start tile's city, 2 tiles = 4 points."""
    g = _game(["E", "U"])
    g.place(0, -1, 180).follower("city", "S")
    assert g.player(0).followers == 6
    _expect_choice(g, 0, 4, "city")
    g.figure("meeple")
    assert _completed(g) == [("city", 2, 4)]
    assert _points(g) == [(0, 4)]
    assert (g.player(0).meeple, g.player(0).messenger) == (4, 0)
    assert g.player(0).followers == 7
    (returned,) = g.of_type("follower_returned")
    assert (returned["seat"], returned["x"], returned["y"], returned["feature"]) == (
        0,
        0,
        -1,
        "city",
    )
    assert not g.state.board.followers()
    assert (g.pending["type"], g.pending["seat"]) == ("place_tile", 1)


def test_city_with_a_coat_of_arms_scores_two_per_tile_and_two_per_coat():
    """rules/base-game.md Rules, Completion: city 2 per tile + 2 per coat of arms.

        (0,-2) E 180   closes the city (Bob)
        (0,-1) F 90    city N–S with a coat of arms, Ann's knight
        (0, 0) D       start city
    3 tiles and 1 coat: 2*3 + 2 = 8, scored by Ann in Bob's turn."""
    g = _game(["F", "E"])
    g.place(0, -1, 90).follower("city", "N")
    assert g.pending["seat"] == 1
    g.place(0, -2, 180).skip()
    _expect_choice(g, 0, 8, "city")
    g.figure("messenger")
    assert _completed(g) == [("city", 3, 8)]
    (scored,) = g.of_type("points")
    assert (scored["seat"], scored["points"], scored["figure"]) == (0, 8, "messenger")
    assert g.player(0).followers == 7
    # That was the last tile: at the end both figures merge on the meeple (final_figure=meeple).
    assert g.state.finished
    assert (g.player(0).meeple, g.player(0).messenger) == (8, 0)
    assert g.of_type("game_over")[-1]["scores"] == [8, 0]


def test_a_city_that_crosses_a_tile_twice_counts_that_tile_once():
    """rules/base-game.md Rules, Completion: a tile counts once per feature, even if the feature
    crosses it twice. Four tiles around a point; the I's two separate cities (N and W) are joined by
    the ring, so the city crosses the I twice:

        (0,1) N 180  --city--  (1,1) N 270
           |city                  |city
        (0,2) N 90   --city--  (1,2) I (cities N and W)

    4 tiles: 2*4 = 8 points (10 if the I counted twice)."""
    g = _game(["N", "N", "N", "I"])
    g.place(0, 1, 180).follower("city", "E")
    g.place(1, 1, 270).skip()
    g.place(0, 2, 90).skip()
    assert _completed(g) == []
    g.place(1, 2, 0).skip()
    _expect_choice(g, 0, 8, "city")
    g.figure("meeple")
    assert _completed(g) == [("city", 4, 8)]
    assert g.player(0).meeple == 8
    assert g.player(0).followers == 7


# Roads ---------------------------------------------------------------------------------------


def test_road_between_a_junction_and_a_monastery_scores_one_per_tile():
    """rules/base-game.md Rules, Completion: a road is complete when both ends end (junction,
    monastery); 1 point per tile.

        (-1,0) L 0 (junction)  ==  (0,0) D  ==  (1,0) A 90 (monastery), Ann's follower
    3 tiles = 3 points, for Ann in Bob's turn."""
    g = _game(["A", "L"])
    g.place(1, 0, 90).follower("road", "W")
    assert _completed(g) == []
    g.place(-1, 0, 0).skip()
    _expect_choice(g, 0, 3, "road")
    g.figure("meeple")
    assert _completed(g) == [("road", 3, 3)]
    assert g.player(0).meeple == 3
    assert g.player(0).followers == 7
    assert g.of_type("game_over")[-1]["scores"] == [3, 0]


def test_road_ending_at_two_cities_is_complete():
    """rules/base-game.md Rules, Completion: a road ending at a city on each side (S and T: the road
    ends at the city); 1 per tile.

        (-1,0) S 270 (road E ends at its city) == (0,0) D == (1,0) T 90, Ann's follower
    3 tiles = 3 points."""
    g = _game(["T", "S"])
    g.place(1, 0, 90).follower("road", "W")
    g.place(-1, 0, 270).skip()
    _expect_choice(g, 0, 3, "road")
    g.figure("meeple")
    assert _completed(g) == [("road", 3, 3)]
    assert g.player(0).followers == 7


def test_road_loop_is_complete():
    """rules/base-game.md Rules, Completion: a road that closes into a loop is complete; 1 per tile.

        (0,1) V 270  ==  (1,1) V 0
          ||               ||
        (0,2) V 180  ==  (1,2) V 90
    4 tiles = 4 points for Ann's follower, placed on the first curve."""
    g = _game(["V", "V", "V", "V"])
    g.place(0, 1, 270).follower("road", "E")
    g.place(1, 1, 0).skip()
    g.place(0, 2, 180).skip()
    assert _completed(g) == []
    g.place(1, 2, 90).skip()
    _expect_choice(g, 0, 4, "road")
    g.figure("meeple")
    assert _completed(g) == [("road", 4, 4)]
    assert g.player(0).meeple == 4
    assert g.player(0).followers == 7


def test_a_completed_road_without_followers_scores_nothing():
    """rules/base-game.md Rules, Completion: only players with followers on the feature score."""
    g = _game(["A", "L"])
    g.place(1, 0, 90).skip()
    g.place(-1, 0, 0).skip()
    assert _completed(g) == [("road", 3, 3)]
    assert _points(g) == []
    assert g.of_type("game_over")[-1]["scores"] == [0, 0]


# Monasteries ---------------------------------------------------------------------------------


def test_monastery_surrounded_by_the_last_tile_of_the_game_scores_nine():
    """rules/base-game.md Rules, Completion: a monastery is complete when all 8 surrounding tiles
    are placed; 9 points. Here the eighth neighbour is the last tile of the game: the monastery is
    scored as completed (once), the follower returns, and final scoring has nothing left.

        (-1,0) U 90   (0,0) D      (1,0) U 90
        (-1,1) E 270  (0,1) B *    (1,1) E 90        * Ann's monk
        (-1,2) E 270  (0,2) E 180  (1,2) E 90  <- last tile
    """
    g = _game(["B", "U", "U", "E", "E", "E", "E", "E"])
    g.place(0, 1, 0).follower("monastery")
    g.place(1, 0, 90).skip()
    g.place(-1, 0, 90).skip()
    g.place(1, 1, 90).skip()
    g.place(-1, 1, 270).skip()
    g.place(-1, 2, 270).skip()
    g.place(0, 2, 180).skip()
    assert _completed(g) == []  # seven neighbours
    g.place(1, 2, 90).skip()
    _expect_choice(g, 0, 9, "monastery")
    g.figure("meeple")
    assert _completed(g) == [("monastery", 1, 9)]
    assert _points(g) == [(0, 9)]
    assert g.player(0).followers == 7
    assert g.state.finished
    assert g.of_type("game_over")[-1]["scores"] == [9, 0]


def test_monastery_surrounded_during_play_scores_nine_and_play_goes_on():
    """rules/base-game.md Rules, Completion: monastery complete when all 8 surrounding tiles are
    placed, 9 points; the monk returns before the next turn (same layout as above, one more tile
    left: a U turned 90 at (2,0) continuing the road)."""
    g = _game(["B", "U", "U", "E", "E", "E", "E", "E", "U"])
    g.place(0, 1, 0).follower("monastery")
    for x, y, rotation in ((1, 0, 90), (-1, 0, 90), (1, 1, 90), (-1, 1, 270), (-1, 2, 270)):
        g.place(x, y, rotation).skip()
    g.place(0, 2, 180).skip()
    g.place(1, 2, 90).skip()
    _expect_choice(g, 0, 9, "monastery")
    g.figure("meeple")
    assert g.player(0).followers == 7
    assert not g.state.finished
    assert (g.pending["type"], g.pending["seat"], g.pending["tile"]) == ("place_tile", 0, "U")
    g.place(2, 0, 90).skip()
    assert _points(g) == [(0, 9)]
    assert g.of_type("game_over")[-1]["scores"] == [9, 0]


# Majorities ----------------------------------------------------------------------------------

# Three separate cities joined by one R turned 180 (cities W, S, E) at (1,-1):
#
#     (0,-1) N 180 [B]  (1,-1) R 180  (2,-1) N 270
#     (0, 0) D          (1, 0) K 0 [A] (2, 0) E 0 [A?]
#
# [A] Ann's knights, [B] Bob's knight. The joined city: K, D, N 180, E, N 270, R = 6 tiles, no
# coat of arms: 2*6 = 12 points.
CITY_TILES = ["K", "N", "E", "N", "R"]


def _three_cities(ann_on_the_third: bool) -> Game:
    g = _game(CITY_TILES)
    g.place(1, 0, 0).follower("city", "N")
    g.place(0, -1, 180).follower("city", "E")
    g.place(2, 0, 0)
    if ann_on_the_third:
        g.follower("city", "N")
    else:
        g.skip()
    g.place(2, -1, 270).skip()
    assert _completed(g) == []
    g.place(1, -1, 180).skip()
    return g


def test_majority_scores_and_minority_scores_nothing():
    """rules/base-game.md Rules, Completion and scoring: the player with the most followers on a
    completed feature scores it; a minority scores nothing; all followers return."""
    g = _three_cities(ann_on_the_third=True)
    _expect_choice(g, 0, 12, "city")
    g.figure("meeple")
    assert _completed(g) == [("city", 6, 12)]
    assert _points(g) == [(0, 12)]
    assert [g.player(0).followers, g.player(1).followers] == [7, 7]
    returned = Counter(event["seat"] for event in g.of_type("follower_returned"))
    assert returned == {0: 2, 1: 1}
    assert g.of_type("game_over")[-1]["scores"] == [12, 0]


def test_tied_majority_both_score_in_full():
    """rules/base-game.md Rules, Completion and scoring: ties, all tied players score the full
    value; scoring seats are asked from the active seat on (Ann placed the joining tile)."""
    g = _three_cities(ann_on_the_third=False)
    _expect_choice(g, 0, 12, "city")
    g.figure("meeple")
    _expect_choice(g, 1, 12, "city")
    g.figure("messenger")
    assert _points(g) == [(0, 12), (1, 12)]
    assert [e["figure"] for e in g.of_type("points")] == ["meeple", "messenger"]
    assert [g.player(0).followers, g.player(1).followers] == [7, 7]
    assert g.of_type("game_over")[-1]["scores"] == [12, 12]


def test_tie_scored_in_the_other_players_turn_asks_the_active_seat_first():
    """rules/base-game.md Rules, Completion and scoring (ties) with rules/messengers.md §5: within a
    feature the scoring seats are asked from the active seat on. Same cities, but Bob places the
    joining R (a third tile for Bob at the start keeps the turns aligned)."""
    g = _game(["U", "K", "N", "E", "N", "R"])
    g.place(-1, 0, 90).skip()  # Ann
    g.place(1, 0, 0).follower("city", "N")  # Bob
    g.place(0, -1, 180).follower("city", "E")  # Ann
    g.place(2, 0, 0).skip()  # Bob
    g.place(2, -1, 270).skip()  # Ann
    g.place(1, -1, 180).skip()  # Bob joins: Bob 1, Ann 1
    _expect_choice(g, 1, 12, "city")
    g.figure("meeple")
    _expect_choice(g, 0, 12, "city")
    g.figure("meeple")
    assert _points(g) == [(1, 12), (0, 12)]


def test_one_tile_completing_a_road_and_a_city_scores_road_first():
    """rules/base-game.md Rules, Completion and scoring: several features completed by one tile are
    all scored (rules/messengers.md §5 / engine order: roads, then cities).

        (-1,-1) E 180 [A]   (0,-1) E 180 [B]
        (-1, 0) L 0         (0, 0) D ======== (1,0) A 90 [A on the road]

    Bob's E at (0,-1) closes the start city with his own knight: 4 points at once. Bob's L at
    (-1,0) then ends Ann's road at its junction (3 tiles: 3 points) and closes the city with Ann's
    E at (-1,-1) (2 tiles: 4 points)."""
    g = _game(["A", "E", "E", "L"])
    g.place(1, 0, 90).follower("road", "W")
    g.place(0, -1, 180).follower("city", "S")
    _expect_choice(g, 1, 4, "city")
    g.figure("meeple")
    g.place(-1, -1, 180).follower("city", "S")
    g.place(-1, 0, 0).skip()
    _expect_choice(g, 0, 3, "road")
    g.figure("meeple")
    _expect_choice(g, 0, 4, "city")
    g.figure("messenger")
    assert _completed(g) == [("city", 2, 4), ("road", 3, 3), ("city", 2, 4)]
    assert _points(g) == [(1, 4), (0, 3), (0, 4)]
    assert [e["figure"] for e in g.of_type("points")] == ["meeple", "meeple", "messenger"]
    returned = [(e["seat"], e["x"], e["y"], e["feature"]) for e in g.of_type("follower_returned")]
    assert returned == [(1, 0, -1, "city"), (0, 1, 0, "road"), (0, -1, -1, "city")]
    assert [g.player(0).followers, g.player(1).followers] == [7, 7]
    assert g.of_type("game_over")[-1]["scores"] == [7, 4]


# Final scoring -------------------------------------------------------------------------------


def test_final_scoring_of_incomplete_road_city_and_monastery():
    """rules/base-game.md Rules, End of game: incomplete road 1 per tile; city 1 per tile + 1 per
    coat of arms; monastery 1 + number of surrounding tiles. With c2-hig
    (final_figure=player_choice) each seat first chooses the figure that carries its total.

        (-1,0) U 90    (0,-1) F 90 [A, coat]
                       (0, 0) D        (1,0) U 90 [A on the road]
                       (0, 1) B [Bob's monk]

    Road (-1,0)-(0,0)-(1,0): 3. City D + F: 2 tiles + 1 coat = 3. Monastery at (0,1): its
    neighbours (-1,0), (0,0), (1,0): 1 + 3 = 4."""
    g = Game("c2-hig", tiles=["F", "B", "U", "U"])
    g.place(0, -1, 90).follower("city", "N")
    g.place(0, 1, 0).follower("monastery")
    g.place(1, 0, 90).follower("road", "W")
    g.place(-1, 0, 90).skip()
    assert _points(g) == []
    asked = g.pending
    assert (asked["type"], asked["seat"], asked.get("final")) == ("choose_figure", 0, True)
    g.figure("meeple")
    asked = g.pending
    assert (asked["type"], asked["seat"], asked.get("final")) == ("choose_figure", 1, True)
    g.figure("messenger")
    assert g.state.finished
    final = [(e["seat"], e["points"], e["category"]) for e in g.of_type("points")]
    assert final == [(0, 3, "road"), (0, 3, "city"), (1, 4, "monastery")]
    assert {e["reason"] for e in g.of_type("points")} == {"final"}
    assert (g.player(0).meeple, g.player(0).messenger) == (6, 0)
    assert (g.player(1).meeple, g.player(1).messenger) == (0, 4)
    assert g.of_type("game_over")[-1]["scores"] == [6, 4]


def test_field_scores_three_per_completed_city_each_city_once():
    """rules/base-game.md Rules, End of game, Fields: 3 points per completed city touching the
    field; a field touching several cities; an incomplete city is not counted; a city the field
    touches on two tiles counts once.

        (0,-1) E 180   (1,-2) E 180           city 1: D + (0,-1), complete
                       (1,-1) E 0    (2,-1) E 0   city 2: (1,-1) + (1,-2), complete
        (0, 0) D       (1, 0) U 90 [A, north field]   city 3: (2,-1), incomplete

    Ann's field: D {EL, WR}, the U's north field, the fields of (0,-1), (1,-1) and (2,-1). It
    touches city 1 (on D and on (0,-1)), city 2 and city 3: 3 * 2 = 6."""
    g = _game(["U", "E", "E", "E", "E"])
    g.place(1, 0, 90).follower("field", "NL")
    g.place(0, -1, 180).skip()
    g.place(1, -1, 0).skip()
    g.place(1, -2, 180).skip()
    g.place(2, -1, 0).skip()
    assert [c[0] for c in _completed(g)] == ["city", "city"]
    assert g.state.finished
    assert _points(g) == [(0, 6)]
    (scored,) = g.of_type("points")
    assert (scored["reason"], scored["category"]) == ("final", "field")
    assert g.of_type("game_over")[-1]["scores"] == [6, 0]


def test_field_touching_only_incomplete_cities_scores_nothing():
    """rules/base-game.md Rules, End of game, Fields: only completed cities count."""
    g = _game(["U", "E"])
    g.place(1, 0, 90).follower("field", "NL")
    g.place(1, -1, 0).skip()  # the field touches the start city and this E's city, both open
    assert g.state.finished
    assert _points(g) == []
    assert g.of_type("game_over")[-1]["scores"] == [0, 0]


def test_field_inside_a_curve_touches_no_city():
    """rules/base-game.md Tile catalogue: a field the table does not mark as touching a city touches
    none (J: field inside the curve). Ann's farmer inside the curve of a J turned 180 that closes
    the start city; Bob's farmer on the E next to it joins the J's other field, which touches the
    completed city.

        (0,-1) J 180 [A inside the curve {WR NL}]   (1,-1) E 0 [B]
        (0, 0) D
    """
    g = _game(["J", "E"])
    g.place(0, -1, 180).follower("field", "NL")
    assert _completed(g) == [("city", 2, 4)]
    assert _points(g) == []  # no knight on the city
    g.place(1, -1, 0).follower("field", "WL")
    assert g.state.finished
    assert _points(g) == [(1, 3)]
    assert g.of_type("game_over")[-1]["scores"] == [0, 3]


# Fields around the start city, used by the next three tests:
#
#     (0,-1) E 180 [B]   (1,-1) (B: joins)   (2,-1) E 180 [A?]
#     (0, 0) D           (1, 0) U 90 [A]     (2, 0) L 0
#                        (0, 1) B (a filler, Bob)
#
# City 1: D + (0,-1), complete. City 2: L 0 + (2,-1), complete.
# Ann's field A: D {EL, WR}, U's north field, L's {EL, WR}: touches cities 1 and 2.
# Bob's field B: the field of (0,-1): touches city 1.
# Field C: the field of (2,-1): touches city 2.
FIELD_TILES = ["U", "E", "L", "B", "E", "B"]


def _fields(ann_on_c: bool, join: bool) -> Game:
    g = _game(FIELD_TILES if join else FIELD_TILES[:-1])
    g.place(1, 0, 90).follower("field", "NL")
    g.place(0, -1, 180).follower("field", "NL")
    g.place(2, 0, 0).skip()
    g.place(0, 1, 0).skip()
    g.place(2, -1, 180)
    if ann_on_c:
        g.follower("field", "NL")
    else:
        g.skip()
    if join:
        g.place(1, -1, 0).skip()
    assert g.state.finished
    assert _completed(g) == [("city", 2, 4), ("city", 2, 4)]
    return g


def test_a_city_counts_for_every_field_that_touches_it():
    """rules/base-game.md Rules, End of game, Fields: each city counts for every field that touches
    it. City 1 counts for Ann's field A (with city 2: 6) and Bob's field B (3); city 2 counts for A
    and for Ann's field C (3): Ann 6 + 3 = 9, Bob 3."""
    g = _fields(ann_on_c=True, join=False)
    assert Counter(_points(g)) == Counter([(0, 6), (0, 3), (1, 3)])
    assert g.of_type("game_over")[-1]["scores"] == [9, 3]


def test_field_majority_takes_the_field_and_the_minority_nothing():
    """rules/base-game.md Rules, End of game, Fields: the majority holder(s) score. The B at (1,-1)
    joins fields A, B and C into one field (Ann 2 farmers, Bob 1) touching cities 1 and 2: Ann 6."""
    g = _fields(ann_on_c=True, join=True)
    assert _points(g) == [(0, 6)]
    assert g.of_type("game_over")[-1]["scores"] == [6, 0]


def test_tied_field_both_score_in_full():
    """rules/base-game.md Rules, End of game, Fields, and Completion (ties): Ann 1 farmer and Bob 1
    on the joined field touching cities 1 and 2: both score 6."""
    g = _fields(ann_on_c=False, join=True)
    assert Counter(_points(g)) == Counter([(0, 6), (1, 6)])
    assert g.of_type("game_over")[-1]["scores"] == [6, 6]
