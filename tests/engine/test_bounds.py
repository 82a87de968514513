"""The most points one entry of a category can be worth at a tabletop game, from the catalogue
and the tiles that can be on the table (game/engine/bounds.py)."""

from __future__ import annotations

from game.engine.bounds import most_points, tiles_placed
from game.engine.record import replay
from game.engine.tiles import TOTAL_TILES


def test_bounds_follow_the_catalogue_and_the_tiles_placed() -> None:
    # Two tiles: the best for cities give 2 each (a city with a coat of arms, or a tile with
    # two separate cities), at 2 points each during play and 1 in the final scoring; the best
    # for roads are the crossing (4) and a junction (3).
    assert most_points(2, final=False) == {"road": 7, "city": 8, "monastery": 4, "field": 12}
    assert most_points(2, final=True)["city"] == 4
    # One tile: no completed city yet, so no field points; a monastery alone is worth 1.
    assert most_points(1, final=True) == {"road": 4, "city": 2, "monastery": 1, "field": 0}
    every = most_points(TOTAL_TILES, final=True)
    assert every["monastery"] == 6 * 9
    assert most_points(500, final=True) == every
    for tiles in range(1, TOTAL_TILES):
        for final in (False, True):
            now, then = most_points(tiles, final=final), most_points(tiles + 1, final=final)
            assert all(now[key] <= then[key] for key in now)


def test_the_tiles_placed_count_the_start_tile_every_turn_begun_and_every_message_action() -> None:
    record = {
        "format": "carcassonne-messengers/1",
        "mode": "tabletop",
        "players": ["Ann", "Bob"],
        "preset": "c3",
        "messages": [1, 2, 3, 4, 5, 6, 7, 8],
        "actions": [],
    }
    assert tiles_placed(replay(record).state) == 2
    record["actions"] = [{"seat": 0, "type": "end_turn"}, {"seat": 1, "type": "end_turn"}]
    state = replay(record).state
    assert state.turn == 3
    assert tiles_placed(state) == 4


def test_only_a_message_that_places_a_tile_counts_as_one() -> None:
    """Ann's knights (counted at the table) place no tile: the table still holds the start tile
    and her turn's; "one more tile" carried out at once adds one; as an extra turn it is counted
    once, as the turn begun; an undone action no longer counts."""
    from tests.engine.test_messages import stack
    from tests.scenario import Game

    def drawn(preset: str, *actions: str) -> Game:
        g = Game(preset, mode="tabletop", messages=stack(preset, *actions))
        g.score(0, 5, "meeple").end_turn()
        return g

    g = drawn("c3", "knights", "farmers")
    assert tiles_placed(g.state) == 2
    g.resolve("action", points=3)
    assert (g.state.turn, g.pending["seat"]) == (2, 1)
    assert tiles_placed(g.state) == 3
    g = drawn("c3", "extra_tile", "knights")
    g.resolve("action")
    assert (g.state.turn, g.pending["seat"]) == (2, 0)
    assert tiles_placed(g.state) == 3
    g = drawn("c2-hig", "knights", "farmers")
    g.resolve("action", points=3)
    g.figure("meeple")
    assert (g.state.turn, g.pending["seat"]) == (2, 1)
    assert tiles_placed(g.state) == 3
    g = drawn("c2-hig", "extra_tile", "farmers")
    g.resolve("action")
    assert (g.state.turn, g.pending["seat"]) == (1, 0)
    assert tiles_placed(g.state) == 3
    g.undo()
    assert tiles_placed(g.state) == 2
