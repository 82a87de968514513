"""A small driver for engine scenarios: set up a game with fixed stacks, send decisions, read
what happened. Each call goes through ``game.engine.play.apply`` exactly as the web layer will.

    g = Game(tiles=["E"], messages=[1, 2, 3, 4, 5, 6, 7, 8])
    g.place(0, -1, 180).follower("city", "S").figure("meeple")
    assert g.player(0).meeple == 4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.engine import commands as cmd
from game.engine.events import Event
from game.engine.play import apply, new_game
from game.engine.record import export, replay
from game.engine.state import GameState, PlayerState
from game.engine.views import pending
from game.words.decisions import word_pending

MESSAGES_IN_ORDER = [1, 2, 3, 4, 5, 6, 7, 8]


class Game:
    """A game under test. Decisions default to the seat the game waits for."""

    def __init__(
        self,
        preset: str = "c2-hig",
        *,
        tiles: Sequence[str] | None = (),
        messages: Sequence[int] | None = MESSAGES_IN_ORDER,
        players: Sequence[str] = ("Ann", "Bob"),
        mode: str = "board",
        options: dict[str, Any] | None = None,
        seed: int = 1,
    ) -> None:
        self.state, self.events = new_game(
            players,
            preset,
            options=options,
            mode=mode,
            seed=seed,
            tiles=None if tiles is None or mode == "tabletop" else list(tiles),
            messages=None if messages is None else list(messages),
        )

    # Reading -----------------------------------------------------------------------------------

    @property
    def pending(self) -> dict[str, Any] | None:
        """The decision the game waits for, with its words (game/words/decisions.py) in the
        active language, as the pages receive it."""
        waiting: dict[str, Any] | None = pending(self.state)  # type: ignore[assignment]
        names = [player.name for player in self.state.players]
        word_pending(waiting, self.state.options, names, self.state.active)
        return waiting

    def player(self, seat: int) -> PlayerState:
        return self.state.players[seat]

    def scores(self) -> list[int]:
        return [player.score for player in self.state.players]

    def of_type(self, kind: str) -> list[Event]:
        return [event for event in self.events if event["type"] == kind]

    def drawn_messages(self) -> list[int]:
        return [event["message"] for event in self.of_type("message_drawn")]

    # Acting ------------------------------------------------------------------------------------

    def send(self, command: cmd.Command, seat: int | None = None) -> Game:
        if seat is None:
            waiting = self.pending
            assert waiting is not None, "the game waits for nothing"
            seat = waiting["seat"] if waiting["seat"] is not None else self.state.active
        self.state, new_events = apply(self.state, seat, command)
        self.events.extend(new_events)
        return self

    def place(self, x: int, y: int, rotation: int = 0, seat: int | None = None) -> Game:
        return self.send(cmd.PlaceTile(x, y, rotation), seat)

    def follower(self, feature: str, at: str | None = None, seat: int | None = None) -> Game:
        return self.send(cmd.PlaceFollower(feature, at), seat)

    def skip(self, seat: int | None = None) -> Game:
        return self.send(cmd.SkipFollower(), seat)

    def figure(self, figure: str, seat: int | None = None) -> Game:
        return self.send(cmd.ChooseFigure(figure), seat)

    def resolve(self, choice: str, seat: int | None = None, **target: Any) -> Game:
        return self.send(cmd.ResolveMessage(choice, **target), seat)

    def score(
        self, seat: int, points: int, figure: str | None = None, category: str | None = None
    ) -> Game:
        return self.send(cmd.Score(points, figure, category), seat)

    def undo(self, seat: int = 0) -> Game:
        return self.send(cmd.Undo(), seat)

    def end_turn(self, seat: int | None = None) -> Game:
        return self.send(cmd.EndTurn(), seat)

    def end_game(self, seat: int = 0) -> Game:
        return self.send(cmd.EndGame(), seat)

    def finish(self, seat: int = 0) -> Game:
        return self.send(cmd.Finish(), seat)

    # Checking ----------------------------------------------------------------------------------

    def replayed(self) -> GameState:
        """The state obtained by exporting this game's record and replaying it."""
        return replay(export(self.state)).state
