"""Base game: the tile catalogue, rotation, tile placement, followers, and seats.

Everything here is checked against rules/base-game.md, transcribed by hand below (never copied from
the engine). Coordinates: x grows east, y grows south; rotations are clockwise.

The start tile is a D at (0, 0), rotation 0:

         city
      +-------+
      |  ___  |        N: city     E: road
    --+-------+--      S: field    W: road
      |       |        field {EL, WR} between city and road (touches the city)
      +-------+        field {ER, SL, SR, WL} south of the road
"""

from __future__ import annotations

from collections import Counter

import pytest

from game.engine import commands as cmd
from game.engine.errors import EngineError, IllegalCommand, MalformedCommand, NotYourDecision
from game.engine.play import apply, new_game
from game.engine.tiles import CATALOGUE, ORIENTED, facing_half_edge, rotate_location
from game.engine.views import pending, view
from tests.scenario import Game

# The catalogue of rules/base-game.md, transcribed independently. Each feature is written as
# "kind locations" with "+coat" for a coat of arms, and "> E1 E2" after a field naming (by one edge
# each) the cities it touches.
TABLE: dict[str, tuple[int, str, list[str]]] = {
    "A": (2, "FFRF", ["monastery", "road S", "field NL NR EL ER SL SR WL WR"]),
    "B": (4, "FFFF", ["monastery", "field NL NR EL ER SL SR WL WR"]),
    "C": (1, "CCCC", ["city N E S W +coat"]),
    "D": (4, "CRFR", ["city N", "road W E", "field EL WR > N", "field ER SL SR WL"]),
    "E": (5, "CFFF", ["city N", "field EL ER SL SR WL WR > N"]),
    "F": (2, "FCFC", ["city W E +coat", "field NL NR > W", "field SL SR > E"]),
    "G": (1, "FCFC", ["city W E", "field NL NR > W", "field SL SR > E"]),
    "H": (3, "FCFC", ["city E", "city W", "field NL NR SL SR > E W"]),
    "I": (2, "CFFC", ["city N", "city W", "field EL ER SL SR > N W"]),
    "J": (3, "CRRF", ["city N", "road E S", "field ER SL", "field EL SR WL WR > N"]),
    "K": (3, "CFRR", ["city N", "road S W", "field SR WL", "field EL ER SL WR > N"]),
    "L": (
        3,
        "CRRR",
        ["city N", "road E", "road S", "road W", "field EL WR > N", "field ER SL", "field SR WL"],
    ),
    "M": (2, "CFFC", ["city N W +coat", "field EL ER SL SR > N"]),
    "N": (3, "CFFC", ["city N W", "field EL ER SL SR > W"]),
    "O": (2, "CRRC", ["city N W +coat", "road E S", "field ER SL", "field EL SR > N"]),
    "P": (3, "CRRC", ["city N W", "road E S", "field ER SL", "field EL SR > W"]),
    "Q": (1, "CCFC", ["city N E W +coat", "field SL SR > E"]),
    "R": (3, "CCFC", ["city N E W", "field SL SR > N"]),
    "S": (2, "CCRC", ["city N E W +coat", "road S", "field SL > N", "field SR > W"]),
    "T": (1, "CCRC", ["city N E W", "road S", "field SL > E", "field SR > N"]),
    "U": (8, "RFRF", ["road N S", "field NR EL ER SL", "field SR WL WR NL"]),
    "V": (9, "FFRR", ["road S W", "field SR WL", "field NL NR EL ER SL WR"]),
    "W": (
        4,
        "FRRR",
        ["road E", "road S", "road W", "field WR NL NR EL", "field ER SL", "field SR WL"],
    ),
    "X": (
        1,
        "RRRR",
        [
            "road N",
            "road E",
            "road S",
            "road W",
            "field NR EL",
            "field ER SL",
            "field SR WL",
            "field WR NL",
        ],
    ),
}

# Rotating 90 degrees clockwise, by hand: the north edge becomes the east edge, and the west half
# of the north edge (NL, at the north-west corner) becomes the north half of the east edge (EL).
CLOCKWISE_90 = {
    "N": "E",
    "E": "S",
    "S": "W",
    "W": "N",
    "NL": "EL",
    "NR": "ER",
    "EL": "SL",
    "ER": "SR",
    "SL": "WL",
    "SR": "WR",
    "WL": "NL",
    "WR": "NR",
}

Normalized = tuple[str, frozenset[str], bool, frozenset[frozenset[str]]]


def _turn(location: str, rotation: int) -> str:
    for _ in range(rotation // 90):
        location = CLOCKWISE_90[location]
    return location


def _table_features(letter: str, rotation: int = 0) -> Counter[Normalized]:
    """The features of a tile as rules/base-game.md lists them, turned by ``rotation``."""
    parsed = []
    for text in TABLE[letter][2]:
        words, _, touched = text.partition(">")
        kind, *locations = words.split()
        coat = "+coat" in locations
        locations = [location for location in locations if location != "+coat"]
        parsed.append((kind, locations, coat, touched.split()))
    cities = [set(locations) for kind, locations, _, _ in parsed if kind == "city"]
    result: Counter[Normalized] = Counter()
    for kind, locations, coat, touched in parsed:
        touches = set()
        for edge in touched:
            (city,) = [city for city in cities if edge in city]
            touches.add(frozenset(_turn(loc, rotation) for loc in city))
        turned = frozenset(_turn(loc, rotation) for loc in locations)
        result[(kind, turned, coat, frozenset(touches))] += 1
    return result


def _engine_features(letter: str, rotation: int = 0) -> Counter[Normalized]:
    tile = ORIENTED[letter][rotation]
    result: Counter[Normalized] = Counter()
    for feature in tile.features:
        touches = frozenset(frozenset(tile.features[i].locations) for i in feature.touches)
        key = (feature.kind.value, frozenset(feature.locations), feature.coat_of_arms, touches)
        result[key] += 1
    return result


def _turned_edges(edges: str, rotation: int) -> tuple[str, ...]:
    """Edge kinds N, E, S, W after turning: turning 90 brings the old west edge to the north."""
    for _ in range(rotation // 90):
        edges = edges[3] + edges[:3]
    return tuple(edges)


def _match_spots(spots: list[dict], expected: list[tuple[str, set[str]]]) -> None:
    """Each offered spot names exactly one expected feature, and every one is offered once.

    A spot names a feature by its kind and any one of its locations (none for a monastery)."""
    hits = []
    for spot in spots:
        matching = [
            index
            for index, (kind, locations) in enumerate(expected)
            if kind == spot["feature"]
            and (spot.get("at") in locations if locations else spot.get("at") is None)
        ]
        assert len(matching) == 1, (spot, expected)
        hits.append(matching[0])
    assert sorted(hits) == list(range(len(expected))), (spots, expected)


def _game(tiles: list[str], players: tuple[str, ...] = ("Ann", "Bob")) -> Game:
    return Game("c2-hig", tiles=tiles, players=players, options={"final_figure": "meeple"})


# Tile catalogue ------------------------------------------------------------------------------


def test_catalogue_has_72_tiles_with_the_counts_of_the_table():
    """rules/base-game.md Tile catalogue: 72 tiles, the count of each letter as in the table."""
    assert sum(count for count, _, _ in TABLE.values()) == 72
    assert set(CATALOGUE) == set(TABLE)
    for letter, (count, _, _) in TABLE.items():
        assert CATALOGUE[letter].count == count, letter


def test_a_shuffled_game_deals_the_71_tiles_other_than_the_start_tile():
    """rules/base-game.md Tile catalogue: the start tile D plus 71 shuffled tiles."""
    state, _ = new_game(["Ann", "Bob"], "c2-hig", seed=11)
    # The first tile has been drawn already and waits to be placed.
    dealt = Counter(state.bag) + Counter([state.tile])
    expected = Counter({letter: count for letter, (count, _, _) in TABLE.items()})
    expected["D"] -= 1
    assert dealt == expected
    assert sum(dealt.values()) == 71
    assert list(state.board.tiles) == [(0, 0)]
    start = state.board.tiles[(0, 0)]
    assert (start.letter, start.rotation) == ("D", 0)


@pytest.mark.parametrize(
    "tiles",
    [["U"] * 9, ["D"] * 4, ["C", "C"], ["Z"]],
    ids=["nine-U", "four-D-besides-the-start", "two-C", "unknown"],
)
def test_a_stack_holding_more_tiles_than_the_game_has_is_refused(tiles):
    """rules/base-game.md Tile catalogue: counts per letter (the start tile is one of the D)."""
    with pytest.raises(IllegalCommand):
        new_game(["Ann", "Bob"], "c2-hig", tiles=tiles)


def test_a_stack_with_every_remaining_tile_of_a_letter_is_accepted():
    """rules/base-game.md Tile catalogue: three D remain besides the start tile, and 9 V exist."""
    state, _ = new_game(["Ann", "Bob"], "c2-hig", tiles=["D"] * 3 + ["V"] * 9)
    assert state.tile == "D"


@pytest.mark.parametrize("letter", sorted(TABLE))
def test_tile_edges_and_features_in_canonical_orientation(letter):
    """rules/base-game.md Tile catalogue: edges N E S W and each feature (road, city with coat of
    arms, monastery, fields with the cities they touch) in canonical orientation."""
    assert ORIENTED[letter][0].edges == tuple(TABLE[letter][1])
    assert _engine_features(letter) == _table_features(letter)


@pytest.mark.parametrize("rotation", [90, 180, 270])
@pytest.mark.parametrize("letter", sorted(TABLE))
def test_tile_edges_and_features_after_rotation(letter, rotation):
    """rules/base-game.md Conventions, Rotation: clockwise, N→E→S→W and the half-edges with them."""
    assert ORIENTED[letter][rotation].edges == _turned_edges(TABLE[letter][1], rotation)
    assert _engine_features(letter, rotation) == _table_features(letter, rotation)


def test_rotation_of_edges_and_half_edges():
    """rules/base-game.md Conventions: turning 90° maps N→E, E→S, S→W, W→N and NL→EL, …"""
    for location, turned in CLOCKWISE_90.items():
        assert rotate_location(location, 90) == turned
        assert rotate_location(location, 0) == location
    # 180° swaps opposite edges and keeps the side; 270° is a quarter turn anticlockwise.
    assert [rotate_location(h, 180) for h in ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")] == [
        "SL",
        "SR",
        "WL",
        "WR",
        "NL",
        "NR",
        "EL",
        "ER",
    ]
    assert [rotate_location(h, 270) for h in ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")] == [
        "WL",
        "WR",
        "NL",
        "NR",
        "EL",
        "ER",
        "SL",
        "SR",
    ]


def test_facing_half_edges_swap_left_and_right():
    """rules/base-game.md Conventions, Half-edges: each half is named from its own tile's centre, so
    the west half of a north edge (NL) touches the west half of the neighbour's south edge (SR)."""
    assert facing_half_edge("NL") == "SR"
    assert facing_half_edge("NR") == "SL"
    assert facing_half_edge("EL") == "WR"
    assert facing_half_edge("ER") == "WL"
    assert facing_half_edge("SL") == "NR"
    assert facing_half_edge("WL") == "ER"


def test_a_rotated_tile_offers_its_features_at_the_rotated_locations():
    """rules/base-game.md Conventions, Rotation and Half-edges: a J turned 90° east of the start
    tile has its city E, its road S–W, the field inside the curve at {SR WL} and the other field at
    {SL WR NL NR}; features are named by a location in board orientation."""
    g = _game(["J"])
    g.place(1, 0, 90)
    spots = g.pending
    assert (spots["type"], spots["x"], spots["y"]) == ("place_follower", 1, 0)
    _match_spots(
        spots["spots"],
        [
            ("city", {"E"}),
            ("road", {"S", "W"}),
            ("field", {"SR", "WL"}),
            ("field", {"SL", "WR", "NL", "NR"}),
        ],
    )
    # The west half WL (inner field) and the north half of the west edge WR (outer field) are
    # different features; with a follower on the inner one, the outer one is still free.
    g.follower("field", "WL")
    (placed,) = g.of_type("follower_placed")
    assert (placed["x"], placed["y"], placed["feature"]) == (1, 0, "field")
    assert placed["at"] in {"SR", "WL"}


# Placement -----------------------------------------------------------------------------------

# Every legal (x, y, rotation) of a first tile next to the start tile, worked out by hand. The
# four open cells demand: (0,-1) a city on its S edge, (1,0) a road on W, (-1,0) a road on E,
# (0,1) a field on N. Turned edges N E S W: rotation 90 brings the old W edge to N.
NEXT_TO_START = {
    # C C C C: only north of the start tile, every rotation.
    "C": {(0, -1, 0), (0, -1, 90), (0, -1, 180), (0, -1, 270)},
    # F F F F: only south.
    "B": {(0, 1, 0), (0, 1, 90), (0, 1, 180), (0, 1, 270)},
    # R R R R: east and west, every rotation.
    "X": {(1, 0, r) for r in (0, 90, 180, 270)} | {(-1, 0, r) for r in (0, 90, 180, 270)},
    # C F F F -> 90: F C F F, 180: F F C F, 270: F F F C.
    "E": {(0, -1, 180), (0, 1, 90), (0, 1, 180), (0, 1, 270)},
    # R F R F -> 90 and 270: F R F R.
    "U": {(1, 0, 90), (1, 0, 270), (-1, 0, 90), (-1, 0, 270), (0, 1, 90), (0, 1, 270)},
    # F F R R -> 90: R F F R, 180: R R F F, 270: F R R F.
    "V": {(1, 0, 0), (1, 0, 90), (-1, 0, 180), (-1, 0, 270), (0, 1, 0), (0, 1, 270)},
    # C R F R -> 90: R C R F, 180: F R C R, 270: R F R C.
    "D": {(0, -1, 180), (1, 0, 0), (1, 0, 180), (-1, 0, 0), (-1, 0, 180), (0, 1, 180)},
    # C F R R -> 90: R C F R, 180: R R C F, 270: F R R C.
    "K": {(0, -1, 180), (1, 0, 0), (1, 0, 90), (-1, 0, 180), (-1, 0, 270), (0, 1, 270)},
    # C R R F -> 90: F C R R, 180: R F C R, 270: R R F C.
    "J": {(0, -1, 180), (1, 0, 90), (1, 0, 180), (-1, 0, 0), (-1, 0, 270), (0, 1, 90)},
    # F F R F -> 90: F F F R, 180: R F F F, 270: F R F F.
    "A": {(1, 0, 90), (-1, 0, 270), (0, 1, 0), (0, 1, 90), (0, 1, 270)},
    # C R R R -> 90: R C R R, 180: R R C R, 270: R R R C.
    "L": {(0, -1, 180), (1, 0, 0), (1, 0, 90), (1, 0, 180), (-1, 0, 0), (-1, 0, 180), (-1, 0, 270)},
    # F R R R -> 90: R F R R, 180: R R F R, 270: R R R F.
    "W": {(1, 0, 0), (1, 0, 90), (1, 0, 180), (-1, 0, 0), (-1, 0, 180), (-1, 0, 270), (0, 1, 0)},
    # F C F C -> 90 and 270: C F C F.
    "H": {(0, -1, 90), (0, -1, 270), (0, 1, 0), (0, 1, 180)},
    # C C F C -> 90: C C C F, 180: F C C C, 270: C F C C.
    "Q": {(0, -1, 90), (0, -1, 180), (0, -1, 270), (0, 1, 180)},
}


@pytest.mark.parametrize("letter", sorted(NEXT_TO_START))
def test_legal_placements_next_to_the_start_tile(letter):
    """rules/base-game.md Rules, Placing: a tile must touch a placed tile edge to edge and every
    touching edge must match; the four cells around the start tile × four rotations, by hand."""
    g = _game([letter])
    offered = g.pending
    assert offered["type"] == "place_tile" and offered["tile"] == letter
    listed = {(p["x"], p["y"], r) for p in offered["placements"] for r in p["rotations"]}
    assert listed == NEXT_TO_START[letter]
    for x, y in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        for rotation in (0, 90, 180, 270):
            command = cmd.PlaceTile(x, y, rotation)
            if (x, y, rotation) in NEXT_TO_START[letter]:
                state, _ = apply(g.state, 0, command)
                assert state.board.tiles[(x, y)].rotation == rotation
            else:
                with pytest.raises(IllegalCommand):
                    apply(g.state, 0, command)


def test_a_tile_must_touch_a_placed_tile_edge_to_edge():
    """rules/base-game.md Rules, Placing: a drawn tile must touch at least one placed tile edge to
    edge; a cell far away or touching only at a corner is refused, and nothing changes."""
    g = _game(["B"])
    before = g.state
    for x, y in ((5, 5), (1, 1), (-1, -1), (0, 2)):
        with pytest.raises(IllegalCommand):
            g.place(x, y, 0)
    assert g.state is before
    assert g.pending["type"] == "place_tile"
    g.place(0, 1, 0)
    assert g.state.board.tiles[(0, 1)].letter == "B"


def test_an_occupied_cell_is_refused():
    """rules/base-game.md Rules, Placing: a tile goes on an empty cell (not the start tile's)."""
    g = _game(["D"])
    with pytest.raises(IllegalCommand):
        g.place(0, 0, 0)
    assert (0, 0) not in {(p["x"], p["y"]) for p in g.pending["placements"]}


def test_an_occupied_cell_is_refused_for_a_later_tile():
    """rules/base-game.md Rules, Placing: a cell holding a tile is never offered nor accepted."""
    g = _game(["U", "U"])
    g.place(1, 0, 90).skip()
    assert g.pending["seat"] == 1
    with pytest.raises(IllegalCommand):
        g.place(1, 0, 90)
    cells = {(p["x"], p["y"]) for p in g.pending["placements"]}
    assert (1, 0) not in cells and (0, 0) not in cells
    # A straight road (turned 90: F R F R) fits west and east of the row, and on the field cells
    # above and below the first U; not north of the start tile, whose city edge faces (0,-1).
    assert cells == {(2, 0), (-1, 0), (0, 1), (1, 1), (1, -1)}


def test_every_touching_edge_must_match():
    """rules/base-game.md Rules, Placing: every touching edge must match, not only one of them.

    (0,-1) E 180    (1,-1) ?          the cell (1,-1) touches the field east edge of the E
    (0, 0) D        (1, 0) U 90       and the field north edge of the U: a V fits only when
                                      both its W and S edges are fields (rotation 180).
    """
    g = _game(["E", "U", "V"])
    g.place(0, -1, 180).skip()
    g.place(1, 0, 90).skip()
    assert g.pending["tile"] == "V"
    at_cell = [p["rotations"] for p in g.pending["placements"] if (p["x"], p["y"]) == (1, -1)]
    assert at_cell == [[180]]
    with pytest.raises(IllegalCommand):
        g.place(1, -1, 270)  # F R R F: west field matches, south road does not
    with pytest.raises(IllegalCommand):
        g.place(1, -1, 90)  # R F F R: south field matches, west road does not
    with pytest.raises(IllegalCommand):
        g.place(1, -1, 0)  # F F R R: neither matches
    g.place(1, -1, 180)
    assert g.state.board.tiles[(1, -1)].rotation == 180


def test_a_rotation_that_is_not_a_quarter_turn_is_refused():
    """rules/base-game.md Conventions, Rotation: 0, 90, 180 or 270 degrees only."""
    g = _game(["E"])
    with pytest.raises(MalformedCommand):
        cmd.parse_command({"type": "place_tile", "x": 0, "y": -1, "rotation": 45})
    with pytest.raises(MalformedCommand):
        cmd.parse_command({"type": "place_tile", "x": 0, "y": -1, "rotation": 360})
    for rotation in (45, 360, -90):
        with pytest.raises(EngineError):
            g.send(cmd.PlaceTile(0, -1, rotation))
    assert g.pending["type"] == "place_tile"
    # A quarter turn that does not fit is refused as well: E turned 0 has its city to the north.
    with pytest.raises(IllegalCommand):
        g.place(0, -1, 0)
    g.place(0, -1, 180)


def test_only_the_active_seat_places_its_tile():
    """rules/base-game.md Rules, Placing: the drawn tile is placed by the player who drew it."""
    g = _game(["U"])
    with pytest.raises(NotYourDecision):
        g.place(1, 0, 90, seat=1)
    g.place(1, 0, 90, seat=0)


def test_a_tile_that_fits_nowhere_is_discarded_and_the_next_drawn():
    """rules/base-game.md Rules, Placing: a tile that fits nowhere is discarded, another drawn.

    Once an E (turned 180) closes the start tile's city, no open cell demands only cities:

                 (0,-2) needs S field
        (-1,-1) needs E field  [E 180]  (1,-1) needs W field
        (-1, 0) needs E road   [D    ]  (1, 0) needs W road
                 (0, 1) needs N field

    so a C (city on all four edges) fits nowhere."""
    g = _game(["E", "C", "U"])
    g.place(0, -1, 180).skip()
    discarded = g.of_type("tile_discarded")
    assert [event["tile"] for event in discarded] == ["C"]
    drawn = g.of_type("tile_drawn")
    assert [(event["seat"], event["tile"]) for event in drawn] == [(0, "E"), (1, "U")]
    # The discard comes before Bob's draw, after Bob's turn began.
    order = [(e["type"], e.get("tile", e.get("seat"))) for e in g.events]
    assert order.index(("turn_started", 1)) < order.index(("tile_discarded", "C"))
    assert order.index(("tile_discarded", "C")) < order.index(("tile_drawn", "U"))
    assert g.pending["type"] == "place_tile"
    assert (g.pending["seat"], g.pending["tile"]) == (1, "U")
    assert g.state.bag == ()


def test_a_last_tile_that_fits_nowhere_ends_the_game():
    """rules/base-game.md Rules, Placing and End of game: a discarded last tile leaves nothing to
    draw, so the game ends (final scoring runs)."""
    g = _game(["E", "C"])
    g.place(0, -1, 180).skip()
    assert [event["tile"] for event in g.of_type("tile_discarded")] == ["C"]
    assert g.state.finished
    assert g.pending is None
    assert g.of_type("game_over")[-1]["scores"] == [0, 0]


# Followers -----------------------------------------------------------------------------------


def test_each_player_starts_with_seven_followers():
    """rules/base-game.md Rules, Followers: each player has 7 followers."""
    g = _game(["U"], players=("Ann", "Bob", "Cy"))
    assert [g.player(seat).followers for seat in range(3)] == [7, 7, 7]
    seen = view(g.state, 1)
    assert [player["followers"] for player in seen["players"]] == [7, 7, 7]


def test_the_spots_offered_are_the_features_of_the_tile_just_placed():
    """rules/base-game.md Rules, Followers: one follower on a feature of the tile just placed (road,
    city, monastery, field); the pending decision lists them."""
    g = _game(["U", "A"])
    g.place(1, 0, 90)
    offered = g.pending
    assert offered["type"] == "place_follower" and offered["seat"] == 0
    assert (offered["x"], offered["y"]) == (1, 0)
    assert offered["followers_in_supply"] == 7
    # U turned 90: road W–E, north field {WR NL NR EL}, south field {ER SL SR WL}.
    _match_spots(
        offered["spots"],
        [
            ("road", {"W", "E"}),
            ("field", {"WR", "NL", "NR", "EL"}),
            ("field", {"ER", "SL", "SR", "WL"}),
        ],
    )
    g.skip()
    # Bob's A below the start tile, turned 0: monastery, road S, one field.
    g.place(0, 1, 0)
    _match_spots(
        g.pending["spots"],
        [
            ("monastery", set()),
            ("road", {"S"}),
            ("field", {"NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"}),
        ],
    )
    g.follower("monastery")
    assert g.player(1).followers == 6
    (placed,) = g.of_type("follower_placed")
    assert (placed["seat"], placed["x"], placed["y"], placed["feature"]) == (1, 0, 1, "monastery")


def test_a_follower_goes_only_on_a_feature_of_the_tile_just_placed():
    """rules/base-game.md Rules, Followers: only on a feature of the tile just placed; a feature the
    tile does not have is refused, and the feature may be named by any of its locations."""
    g = _game(["U"])
    g.place(1, 0, 90)
    for feature, at in (("city", "N"), ("monastery", None), ("road", "N"), ("field", "XX")):
        with pytest.raises(EngineError):
            g.follower(feature, at)
    assert g.player(0).followers == 7
    g.follower("road", "W")  # the same road as "road E"
    (placed,) = g.of_type("follower_placed")
    assert (placed["x"], placed["y"], placed["feature"]) == (1, 0, "road")
    assert placed["at"] in {"W", "E"}
    assert g.player(0).followers == 6


def test_no_follower_on_a_road_already_occupied_on_another_tile():
    """rules/base-game.md Rules, Followers: only if no follower stands anywhere on the whole
    connected feature. Ann's follower on the road east of the start tile occupies the start tile's
    road, so Bob's straight road west of the start tile joins an occupied road."""
    g = _game(["U", "U"])
    g.place(1, 0, 90).follower("road", "E")
    g.place(-1, 0, 90)
    _match_spots(
        g.pending["spots"],
        [("field", {"WR", "NL", "NR", "EL"}), ("field", {"ER", "SL", "SR", "WL"})],
    )
    for at in ("E", "W"):
        with pytest.raises(IllegalCommand):
            g.follower("road", at)
    g.follower("field", "NL")
    assert g.player(1).followers == 6


def test_no_follower_on_a_field_already_occupied_on_another_tile():
    """rules/base-game.md Rules, Followers: fields join across tiles through matching half-edges.
    Ann's farmer north of the road at (1,0) stands on the start tile's field {EL, WR}, which Bob's
    straight road at (-1,0) continues on its north side; the south field is free."""
    g = _game(["U", "U"])
    g.place(1, 0, 90).follower("field", "NL")
    g.place(-1, 0, 90)
    _match_spots(g.pending["spots"], [("road", {"W", "E"}), ("field", {"ER", "SL", "SR", "WL"})])
    with pytest.raises(IllegalCommand):
        g.follower("field", "NR")
    g.follower("field", "SL")


def test_no_follower_on_a_city_already_occupied_on_another_tile():
    """rules/base-game.md Rules, Followers: a city joined across tiles. Ann's knight on the F north
    of the start tile; Bob's F above continues the same city, so only its fields are offered."""
    g = _game(["F", "F"])
    g.place(0, -1, 90).follower("city", "N")
    g.place(0, -2, 90)
    _match_spots(g.pending["spots"], [("field", {"EL", "ER"}), ("field", {"WL", "WR"})])
    with pytest.raises(IllegalCommand):
        g.follower("city", "S")
    g.skip()


def test_a_separate_city_on_the_same_tile_is_free():
    """rules/base-game.md Rules, Followers and Tile catalogue (H: two separate cities). Ann's knight
    on the F north of the start tile; Bob's H turned 90 above it has cities N and S: S joins Ann's
    city and is refused, N is a city of its own and is offered.

        (0,-2) H 90   city N | city S
        (0,-1) F 90   city N–S, Ann's knight
        (0, 0) D      city N
    """
    g = _game(["F", "H"])
    g.place(0, -1, 90).follower("city", "S")
    g.place(0, -2, 90)
    _match_spots(
        g.pending["spots"],
        [("city", {"N"}), ("field", {"EL", "ER", "WL", "WR"})],
    )
    with pytest.raises(IllegalCommand):
        g.follower("city", "S")
    g.follower("city", "N")
    assert g.player(1).followers == 6


def test_no_follower_when_the_supply_is_empty():
    """rules/base-game.md Rules, Followers: a follower comes from the supply of 7; with none left,
    no spot is offered and placing one is refused.

    A column of tiles going south from the start tile: Ann's straight roads (U turned 90) at odd
    y, each a separate road with one of her followers; Bob's tiles at even y (B, E turned 90)."""
    tiles = []
    for y in range(1, 16):
        if y % 2:
            tiles.append("U")
        else:
            tiles.append("B" if y <= 8 else "E")
    g = _game(tiles)
    for y in range(1, 15):
        if y % 2:
            g.place(0, y, 90).follower("road", "W")
        else:
            g.place(0, y, 90 if tiles[y - 1] == "E" else 0).skip()
    assert g.player(0).followers == 0
    assert g.player(1).followers == 7
    g.place(0, 15, 90)
    offered = g.pending
    assert offered["type"] == "place_follower"
    assert offered["spots"] == []
    assert offered["followers_in_supply"] == 0
    with pytest.raises(IllegalCommand):
        g.follower("road", "W")
    g.skip()
    # Final scoring: seven incomplete roads of one tile each, 1 point each.
    assert g.state.finished
    final = [e for e in g.of_type("points") if e["reason"] == "final"]
    assert [(e["seat"], e["points"]) for e in final] == [(0, 1)] * 7
    assert g.of_type("game_over")[-1]["scores"] == [7, 0]


# Seats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_two_to_six_players(count):
    """rules/base-game.md Rules: 2 to 5 players in the base game, up to 6 with the six messenger
    colours."""
    names = [f"P{seat}" for seat in range(count)]
    state, _ = new_game(names, "c2-hig", tiles=["U"])
    assert [player.name for player in state.players] == names
    assert pending(state)["seat"] == 0


@pytest.mark.parametrize("count", [0, 1, 7])
def test_fewer_than_two_or_more_than_six_players_are_refused(count):
    """rules/base-game.md Rules: 2 to 6 players."""
    with pytest.raises(IllegalCommand):
        new_game([f"P{seat}" for seat in range(count)], "c2-hig", tiles=["U"])


def test_seats_play_in_order_and_wrap_around():
    """rules/base-game.md Rules: seat 0 plays first, then each seat in order
    (rules/record-format.md, players: names in seat order)."""
    g = _game(["U", "U", "U", "U", "U"], players=("Ann", "Bob", "Cy"))
    moves = [(1, 0), (2, 0), (3, 0), (-1, 0), (-2, 0)]
    seats = []
    for x, y in moves:
        seats.append(g.pending["seat"])
        g.place(x, y, 90).skip()
    assert seats == [0, 1, 2, 0, 1]
    assert [e["seat"] for e in g.of_type("turn_started")] == [0, 1, 2, 0, 1]
    assert [e["seat"] for e in g.of_type("tile_placed")] == [0, 1, 2, 0, 1]
    assert g.state.finished
