"""Rebuild the recorded games in this folder: ``python tests/records/build_records.py``.

Each game is played through ``tests.scenario.Game`` (so every decision goes through the engine)
and written as a game record (rules/record-format.md). The expected results next to each record
(``NAME.expected.json``) are NOT produced here: they were worked out by hand, see README.md.

Coordinates: x grows east, y grows south; the start tile is a D at (0, 0) (city N, road W-E).
In the sketches, each cell shows the tile letter and its rotation.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _game_class():
    sys.path.insert(0, str(ROOT))
    from tests.scenario import Game

    return Game


# c1-zmg and c2-hig: one board, all eight messages --------------------------------------------
#
#  y\x   -2     -1      0       1       2       3       4       5
#  -3                          F90     W270
#  -2                  E180    F90     V180     W0
#  -1    E90   E270    G90     E0               U0
#   0    U90    U90     D0     U90     U90      X0     U90     A90
#   1           B0      B0     E90              A180
#
# Ann's followers: a knight in the city E0-F90-F90 (x=1; 3 tiles, 2 coats), a monk at (0, 1), a
# highwayman on the road y=0 from x=-2 to x=2, a farmer on the field of E180 at (0, -2).


def _all_messages(preset: str, stack: list[int], last: str, finals: tuple[str, ...]):
    Game = _game_class()
    tiles = ["G", "U", "E", "F", "B", "F", "U", "E", "E", "U", "U", "E", "E"]
    tiles += ["X", "U", "W", "U", "V", "A", "A", "B", "W"]
    g = Game(preset, tiles=tiles, messages=stack)
    g.place(0, -1, 90).follower("city", "N")  # T1 Ann: knight on the start city
    g.place(1, 0, 90).skip()  # T2 Bob
    g.place(1, -1, 0).follower("city", "N")  # T3 Ann: knight (city x=1)
    g.place(1, -2, 90).skip()  # T4 Bob
    g.place(0, 1, 0).follower("monastery")  # T5 Ann: monk
    g.place(1, -3, 90).skip()  # T6 Bob
    g.place(-1, 0, 90).follower("road", "E")  # T7 Ann: highwayman
    g.place(-1, -1, 270).skip()  # T8 Bob
    g.place(-2, -1, 90).follower("city", "E").figure("meeple")  # T9 Ann: city 4
    g.place(2, 0, 90).skip()  # T10 Bob
    g.place(-2, 0, 90).skip()  # T11 Ann
    g.place(1, 1, 90).skip()  # T12 Bob
    g.place(0, -2, 180).follower("field", "NL").figure("meeple")  # T13 Ann: city 6 -> 10
    g.resolve("action").figure("messenger")  # smallest city 5 -> 5
    g.resolve("action").figure("meeple")  # smallest monastery 5 -> 15
    g.resolve("action").figure("messenger")  # smallest road 5 -> 10
    g.resolve("action", x=-1, y=0, feature="road", at="W").figure("meeple")  # 5 -> 20
    g.resolve("action").figure("messenger")  # knights 2 -> 12
    g.place(3, 0, 0).skip()  # T14 Bob: X
    g.place(3, -1, 0).follower("road", "N")  # T15 Ann
    g.place(3, -2, 0).skip().figure("meeple")  # T16 Bob closes Ann's road: 3 -> 23
    g.place(4, 0, 90).follower("road", "E")  # T17 Ann
    g.place(2, -2, 180).skip()  # T18 Bob
    g.place(5, 0, 90).skip().figure("messenger")  # T19 Ann: road 3 -> 15
    g.resolve("action").figure("meeple")  # farmers 2 -> 25
    g.resolve("action")  # one more tile
    g.place(3, 1, 180).follower("road", "N").figure("meeple")  # the extra A: road 2 -> 27
    g.place(-1, 1, 0).follower("monastery")  # T20 Bob: monk
    g.place(2, -3, 270).follower("road", "S").figure("meeple")  # T21 Ann: road 3 -> 30
    g.resolve(last).figure("messenger")  # coats of arms 4 (or 2 points) on the messenger
    for figure in finals:
        g.figure(figure)
    return g


def board_c1zmg_all_messages():
    return _all_messages("c1-zmg", [2, 3, 1, 8, 5, 6, 7, 4], "action", ())


def board_c2hig_all_messages():
    return _all_messages("c2-hig", [2, 3, 1, 8, 6, 7, 4, 5], "points", ("messenger", "meeple"))


# c2-zmg: score and return without scoring, the alone rule ------------------------------------
#
#  y\x   -2     -1      0       1
#  -5                  N180    E270
#  -4                  E0
#  -3                  E180
#  -2                  G90
#  -1    E90   E270    F90     F90
#   0    W0     W0     D0      L0


def board_c2zmg_alone_rule():
    Game = _game_class()
    tiles = ["F", "G", "E", "E", "F", "E", "L", "E", "W", "N", "W", "E"]
    g = Game("c2-zmg", tiles=tiles, messages=[8, 5, 1, 2, 3, 4, 6, 7])
    g.place(0, -1, 90).follower("city", "N")  # T1 Ann: knight
    g.place(0, -2, 90).skip()  # T2 Bob
    g.place(0, -3, 180).follower("field", "NL").figure("meeple")  # T3 Ann: city 10
    g.resolve("action", x=0, y=-3, feature="field", at="NL", score=False)  # farmer back, 0
    g.place(-1, -1, 270).skip()  # T4 Bob
    g.place(1, -1, 90).follower("city", "N")  # T5 Ann: knight (coat)
    g.place(-2, -1, 90).follower("city", "E").figure("meeple")  # T6 Bob: city 4
    g.place(1, 0, 0).follower("road", "W")  # T7 Ann: highwayman
    g.place(0, -4, 0).follower("city", "N")  # T8 Bob: knight
    g.place(-1, 0, 0).skip().figure("messenger")  # T9 Ann: road 3 -> 3
    g.place(0, -5, 180).skip()  # T10 Bob
    g.place(-2, 0, 0).follower("road", "E").figure("messenger")  # T11 Ann: road 2 -> 5
    g.resolve("action").figure("messenger")  # coats of arms 2 -> 7
    g.place(1, -5, 270).skip().figure("meeple")  # T12 Bob: city 6 -> 10, Ann's meeple is there
    return g


# c3: all eight messages, one per turn --------------------------------------------------------
#
#  y\x   -2     -1      0       1       2       3       4       5
#  -2                          S0
#  -1    B0            F90     U0
#   0    U90    W0     D0      X0      W0      L0      U90     A90
#   1           W270   U90     W180    V90             V0
#   2           A180


def board_c3_all_messages():
    Game = _game_class()
    tiles = ["F", "X", "W", "U", "U", "W", "B", "S", "W", "V", "W", "U", "L", "U", "A", "A", "V"]
    g = Game("c3", tiles=tiles, messages=[7, 1, 6, 3, 5, 8, 2, 4])
    g.place(0, -1, 90).follower("city", "N")  # T1 Ann: knight
    g.place(1, 0, 0).follower("road", "W")  # T2 Bob: X, highwayman on the start road
    g.place(-1, 0, 0).follower("road", "W").figure("meeple", seat=1)  # T3 Ann: Bob road 3
    g.place(-2, 0, 90).follower("field", "NL")  # T4 Bob: farmer
    g.place(1, -1, 0).follower("road", "N")  # T5 Ann: highwayman
    g.place(2, 0, 0).follower("road", "W").figure("meeple")  # T6 Bob: road 2 -> 5
    g.resolve("action")  # farmers 2 -> 7
    g.place(-2, -1, 0).follower("monastery")  # T7 Ann: monk
    g.place(1, -2, 0).follower("city", "N").figure("meeple", seat=0)  # T8 Bob: Ann road 3
    g.place(1, 1, 180).follower("road", "N").figure("meeple")  # T9 Ann: road 2 -> 5
    g.resolve("action")  # smallest city 3 -> 8
    g.place(2, 1, 90).follower("road", "N").figure("meeple")  # T10 Bob: road 3 -> 10
    g.resolve("action")  # knights 2 -> 12
    g.place(-1, 1, 270).follower("road", "N").figure("meeple")  # T11 Ann: road 2 -> 10
    g.resolve("action")  # smallest monastery 3 -> 13
    g.place(0, 1, 90).follower("road", "E").figure("meeple")  # T12 Bob: road 3 -> 15
    g.resolve("action")  # coats of arms 2 -> 17
    g.place(3, 0, 0).follower("road", "W").figure("meeple")  # T13 Ann: road 2 -> 15
    g.resolve("action", x=0, y=-1, feature="city", at="N")  # score and return: 3 -> 18
    g.place(4, 0, 90).follower("road", "E")  # T14 Bob: highwayman
    g.place(-1, 2, 180).follower("road", "N").figure("meeple")  # T15 Ann: road 2 -> 20
    g.resolve("action")  # smallest road 2 -> 22
    g.place(5, 0, 90).skip().figure("meeple")  # T16 Bob: road 3 -> 20
    g.resolve("action")  # extra turn
    g.place(4, 1, 0).skip()  # T17 Bob's extra turn
    return g


# Tabletop ------------------------------------------------------------------------------------


def tabletop_c2hig_chain():
    Game = _game_class()
    g = Game(
        "c2-hig", mode="tabletop", players=("Ann", "Bob", "Cy"), messages=[1, 4, 2, 3, 5, 6, 7, 8]
    )
    g.score(0, 3, "meeple").score(1, 5, "messenger").end_turn()  # T1 Ann
    g.score(1, 5, "meeple").end_turn()  # T2 Bob: meeple on 5
    g.resolve("action", points=3).figure("messenger")
    g.score(2, 10, "meeple").end_turn()  # T3 Cy: meeple on 10
    g.resolve("action")  # one more tile, placed at the table
    g.score(2, 5, "messenger").end_turn()  # its scoring: messenger on 5
    g.resolve("points").figure("meeple")
    g.score(0, 2, "meeple").end_turn()  # T4 Ann: meeple on 5
    g.resolve("action", points=4).figure("messenger")
    g.end_game(2)  # before Bob's second turn
    g.figure("messenger").figure("meeple").figure("meeple")
    g.score(0, 6).score(1, 3).finish(1)
    return g


def tabletop_c3_extra_turn():
    Game = _game_class()
    g = Game("c3", mode="tabletop", messages=[4, 5, 6, 1, 2, 3, 7, 8])
    g.score(0, 5, "messenger").end_turn()  # T1 Ann: messenger on 5
    g.resolve("action")  # extra turn
    g.score(0, 5, "meeple").end_turn()  # T2 Ann again: meeple on 5
    g.resolve("action", points=4)  # coats of arms counted at the table: 4, on the meeple
    g.score(1, 3).figure("messenger").score(1, 2).score(0, 4).figure("messenger")  # T3 Bob
    g.end_turn()
    g.resolve("points")  # Bob: 2 points, on his messenger
    g.end_game(1)
    g.score(0, 3).score(1, 6).finish(0)
    return g


GAMES: dict[str, Callable] = {
    "board-c1zmg-all-messages": board_c1zmg_all_messages,
    "board-c2hig-all-messages": board_c2hig_all_messages,
    "board-c2zmg-alone-rule": board_c2zmg_alone_rule,
    "board-c3-all-messages": board_c3_all_messages,
    "tabletop-c2hig-chain": tabletop_c2hig_chain,
    "tabletop-c3-extra-turn": tabletop_c3_extra_turn,
}


def record_text(g) -> str:
    """The game's record, one action a line."""
    setup = g.state.setup
    head = {
        "format": "carcassonne-messengers/1",
        "mode": setup.mode.value,
        "players": list(setup.players),
        "preset": setup.preset,
        "seed": setup.seed,
    }
    if setup.mode.value == "board":
        head["tiles"] = list(setup.tiles)
    head["messages"] = list(setup.messages)
    lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    actions = [f"  {json.dumps(dict(action))}" for action in g.state.log]
    return "{\n" + "\n".join(lines) + '\n "actions": [\n' + ",\n".join(actions) + "\n ]\n}\n"


def main() -> None:
    for name, build in GAMES.items():
        g = build()
        assert g.state.finished, name
        (HERE / f"{name}.json").write_text(record_text(g), encoding="utf-8")
        print(f"{name}.json: {len(g.state.log)} actions")


if __name__ == "__main__":
    main()
