"""The turn runner: how ``play.apply`` carries out a command and the automatic steps that follow.

``state.py`` holds the game's types and ``play.py`` the functions that move a game; this module
holds the mutable working copy (``Work``) that one command changes before it is frozen into a new
``GameState``, and ``STEP_RULES``: for each kind of agenda step (``agenda.py``), in one row, how it
runs by itself, which commands it takes, whose decision it waits for and how that decision is
carried out. Adding a step means adding its dataclass to ``agenda.py`` and its row here; a step
without a row stops the engine at import.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, TypedDict, cast

from . import agenda, events
from . import commands as cmd
from .agenda import (
    AwaitFinalScores,
    AwaitFollower,
    AwaitMessage,
    AwaitPlacement,
    AwaitScores,
    Award,
    CloseGame,
    DrawExtraTile,
    DrawMessage,
    EndGame,
    EndRound,
    EndTurn,
    FinalScoring,
    MergeFigures,
    OpenRound,
    ReturnFollower,
    ReturnFollowers,
    ScoreFeature,
    ScorePlacement,
    StartTurn,
    Step,
)
from .board import Feature, Follower
from .errors import IllegalCommand, NotYourDecision, TurnOver
from .events import Event, Place
from .messengers import (
    MESSAGE_POINTS,
    MESSAGE_SETS,
    Figure,
    MessageAction,
    Movement,
    ReturnTarget,
    action_offer,
    cap_reached,
    is_dark,
    return_targets,
    round_messages,
    space,
)
from .presets import ExtraTile, FigureChoice, FinalFigure
from .scoring import completed_value, final_value, majority_holders
from .state import GameState, Mode, PlayerState, Revealed
from .tiles import FeatureKind

ANY_SEAT: Final = -1
"""``waiting_for``'s answer when any seat may decide (the tabletop's final scores)."""

_STATE_FIELD_ORDER: Final = (
    "setup",
    "players",
    "board",
    "bag",
    "stack",
    "active",
    "turn",
    "tile",
    "last_placed",
    "agenda",
    "movements",
    "round_can_draw",
    "turn_figures",
    "messages_this_turn",
    "extra_turns",
    "revealed",
    "finished",
    "log",
    "amendments",
    "extra_turn",
)
if tuple(field.name for field in dataclasses.fields(GameState)) != _STATE_FIELD_ORDER:
    raise RuntimeError("_STATE_FIELD_ORDER must list GameState's fields in their order")
_STATE_ASSIGNERS: Final = tuple(getattr(GameState, name).__set__ for name in _STATE_FIELD_ORDER)
"""Each field's slot setter: ``Work.freeze`` builds a state through them, skipping the frozen
dataclass's checked assignment of every field, which costs more than a simple command's work."""
_new_state = object.__new__


class _Places(TypedDict, total=False):
    """What a message's action names in its ``message_resolved`` event."""

    follower: Place
    feature: Place


# The mutable working copy ----------------------------------------------------------------------


class Work:
    """A mutable copy of a state, changed by one command and then frozen."""

    __slots__ = (
        *(name for name in _STATE_FIELD_ORDER if name != "log"),
        "options",
        "tabletop",
        "events",
    )

    def __init__(self, state: GameState) -> None:
        self.setup = state.setup
        self.options = state.setup.options
        self.tabletop = state.setup.mode is Mode.TABLETOP
        self.players = list(state.players)
        self.board = state.board
        self.bag = state.bag
        self.stack = state.stack
        self.active = state.active
        self.turn = state.turn
        self.tile = state.tile
        self.last_placed = state.last_placed
        self.agenda = list(state.agenda)
        self.movements = None if state.movements is None else list(state.movements)
        self.round_can_draw = state.round_can_draw
        self.turn_figures = dict(state.turn_figures)
        self.messages_this_turn = state.messages_this_turn
        self.extra_turns = state.extra_turns
        self.revealed = state.revealed
        self.finished = state.finished
        self.amendments = state.amendments
        self.extra_turn = state.extra_turn
        self.events: list[Event] = []

    def freeze(self, log: tuple[Mapping[str, Any], ...]) -> GameState:
        # One call per slot setter, written out: a loop over the setters costs about 7,000 more
        # instructions per command, 1.0 million per game (docs/performance.md).
        (
            set_setup,
            set_players,
            set_board,
            set_bag,
            set_stack,
            set_active,
            set_turn,
            set_tile,
            set_last_placed,
            set_agenda,
            set_movements,
            set_round_can_draw,
            set_turn_figures,
            set_messages_this_turn,
            set_extra_turns,
            set_revealed,
            set_finished,
            set_log,
            set_amendments,
            set_extra_turn,
        ) = _STATE_ASSIGNERS
        state = _new_state(GameState)
        set_setup(state, self.setup)
        set_players(state, tuple(self.players))
        set_board(state, self.board)
        set_bag(state, self.bag)
        set_stack(state, self.stack)
        set_active(state, self.active)
        set_turn(state, self.turn)
        set_tile(state, self.tile)
        set_last_placed(state, self.last_placed)
        set_agenda(state, tuple(self.agenda))
        set_movements(state, None if self.movements is None else tuple(self.movements))
        set_round_can_draw(state, self.round_can_draw)
        set_turn_figures(state, MappingProxyType(self.turn_figures))
        set_messages_this_turn(state, self.messages_this_turn)
        set_extra_turns(state, self.extra_turns)
        set_revealed(state, self.revealed)
        set_finished(state, self.finished)
        set_log(state, log)
        set_amendments(state, self.amendments)
        set_extra_turn(state, self.extra_turn)
        return state

    @property
    def mode(self) -> Mode:
        return self.setup.mode

    def push(self, *steps: Step) -> None:
        """Put steps at the head of the agenda, in the given order."""
        self.agenda[0:0] = steps

    # Running the agenda --------------------------------------------------------------------

    def advance(self) -> None:
        """Run automatic steps until one needs a decision (or the game is over)."""
        while self.agenda:
            step = self.agenda[0]
            rule = STEP_RULES[type(step)]
            if rule.decider(self, step) is not None:
                return
            self.agenda.pop(0)
            rule.run(self, step)

    # Automatic steps -----------------------------------------------------------------------

    def start_turn(self, step: StartTurn) -> None:
        previous, self.active = self.active, step.seat
        first_event = len(self.events)
        if self.tabletop:
            self.push(OpenRound(True), AwaitScores(), EndRound(), EndTurn())
        elif self.draw_tile():
            self.push(
                OpenRound(True),
                AwaitPlacement(),
                AwaitFollower(),
                ScorePlacement(),
                EndRound(),
                EndTurn(),
            )
        else:
            self.active = previous
            self.push(EndGame())
            return
        self.turn += 1
        self.extra_turn = step.extra
        self.turn_figures = {}
        self.messages_this_turn = 0
        started: events.TurnStarted = {"type": "turn_started", "seat": step.seat, "turn": self.turn}
        self.events.insert(first_event, started)

    def draw_tile(self) -> bool:
        """Draw the next tile that fits somewhere, discarding those that fit nowhere."""
        assert self.board is not None
        while self.bag:
            letter, self.bag = self.bag[0], self.bag[1:]
            if self.board.can_place(letter):
                self.tile = letter
                drawn: events.TileDrawn = {
                    "type": "tile_drawn",
                    "seat": self.active,
                    "tile": letter,
                    "tiles_left": len(self.bag),
                }
                self.events.append(drawn)
                return True
            discarded: events.TileDiscarded = {
                "type": "tile_discarded",
                "tile": letter,
                "tiles_left": len(self.bag),
            }
            self.events.append(discarded)
        self.tile = None
        return False

    def draw_extra_tile(self, step: DrawExtraTile) -> None:
        if self.draw_tile():
            self.push(AwaitPlacement(), AwaitFollower(), ScorePlacement())

    def open_round(self, step: OpenRound) -> None:
        self.movements = []
        self.round_can_draw = step.can_draw

    def score_placement(self, step: ScorePlacement) -> None:
        assert self.board is not None and self.last_placed is not None
        board, (x, y) = self.board, self.last_placed
        candidates: dict[int, Feature] = {}
        tile = board.tiles[(x, y)]
        for index in tile.scorable:
            feature = board.feature_at((x, y, index))
            candidates[feature.id] = feature
        for dx, dy in _AROUND:
            neighbour = board.tiles.get((x + dx, y + dy))
            if neighbour is not None and neighbour.monastery is not None:
                monastery = board.feature_at((x + dx, y + dy, neighbour.monastery))
                candidates[monastery.id] = monastery
        done = [feature for feature in candidates.values() if board.is_complete(feature)]
        done.sort(key=lambda feature: (_KIND_ORDER[feature.kind], min(feature.segments)))
        self.push(*(ScoreFeature(feature.id) for feature in done))

    def score_feature(self, step: ScoreFeature) -> None:
        assert self.board is not None
        feature = self.board.features[step.feature_id]
        steps: list[Step] = []
        if feature.followers:
            points = completed_value(self.board, feature)
            described = self.board.describe(min(feature.segments))
            for seat in self.seats_from_active(majority_holders(feature)):
                steps.append(
                    Award(seat, points, feature.kind.value, details=(("where", described),))
                )
            steps.append(ReturnFollowers(feature.id))
        completed: events.FeatureCompleted = {
            "type": "feature_completed",
            "feature": feature.kind.value,
            "tiles": len(feature.tiles),
            "points": completed_value(self.board, feature),
            "where": self.board.describe(min(feature.segments)),
        }
        self.events.append(completed)
        self.push(*steps)

    def seats_from_active(self, seats: Sequence[int]) -> list[int]:
        count = len(self.players)
        return sorted(seats, key=lambda seat: (seat - self.active) % count)

    def return_followers(self, step: ReturnFollowers) -> None:
        assert self.board is not None
        feature = self.board.features[step.feature_id]
        self.board = self.board.without_followers(feature.id)
        for follower in feature.followers:
            self.give_back(follower)

    def return_follower(self, step: ReturnFollower) -> None:
        assert self.board is not None
        feature = self.board.feature_at(step.segment)
        keep = tuple(f for f in feature.followers if f.segment != step.segment)
        gone = [f for f in feature.followers if f.segment == step.segment]
        self.board = self.board.without_followers(feature.id, keep)
        for follower in gone:
            self.give_back(follower)

    def give_back(self, follower: Follower) -> None:
        assert self.board is not None
        player = self.players[follower.seat]
        self.players[follower.seat] = _replace(player, followers=player.followers + 1)
        returned: events.FollowerReturned = {
            "type": "follower_returned",
            "seat": follower.seat,
            **self.board.describe(follower.segment),
        }
        self.events.append(returned)

    def end_round(self, step: EndRound) -> None:
        movements, self.movements = self.movements, None
        if not movements or not self.round_can_draw:
            return
        earned = round_messages(
            self.options, self.active, movements, self.players, any_order=not self.tabletop
        )
        if earned:
            self.push(*[DrawMessage()] * earned)

    def draw_message(self, step: DrawMessage) -> None:
        if cap_reached(self.options, self.messages_this_turn):
            cap = self.options.messages_per_turn
            assert cap is not None
            capped: events.MessageCapped = {
                "type": "message_capped",
                "seat": self.active,
                "cap": cap,
            }
            self.events.append(capped)
            return
        message, self.stack = self.stack[0], self.stack[1:]
        self.messages_this_turn += 1
        action = MESSAGE_SETS[self.options.message_set][message]
        self.revealed = Revealed(self.active, message, action)
        drawn: events.MessageDrawn = {
            "type": "message_drawn",
            "seat": self.active,
            "message": message,
            "action": action.value,
        }
        self.events.append(drawn)
        self.push(AwaitMessage())

    def end_turn(self, step: EndTurn) -> None:
        self.tile = None
        if self.extra_turns:
            self.extra_turns -= 1
            extra: events.ExtraTurn = {"type": "extra_turn", "seat": self.active}
            self.events.append(extra)
            self.push(StartTurn(self.active, extra=True))
        else:
            self.push(StartTurn((self.active + 1) % len(self.players)))

    def end_game(self, step: EndGame) -> None:
        self.tile = None
        ending: events.GameEnding = {"type": "game_ending", "turn": self.turn}
        self.events.append(ending)
        chosen = None if self.options.final_figure is FinalFigure.PLAYER_CHOICE else Figure.MEEPLE
        scoring = FinalScoring() if self.mode is Mode.BOARD else AwaitFinalScores()
        self.agenda = [
            *(MergeFigures(seat, chosen) for seat in range(len(self.players))),
            scoring,
            CloseGame(),
        ]

    def merge(self, seat: int, figure: Figure) -> None:
        player = self.players[seat]
        total = player.score
        self.players[seat] = _replace(
            player,
            meeple=total if figure is Figure.MEEPLE else 0,
            messenger=total if figure is Figure.MESSENGER else 0,
            carrier=figure,
        )
        merged: events.FiguresMerged = {
            "type": "figures_merged",
            "seat": seat,
            "figure": figure.value,
            "points": total,
        }
        self.events.append(merged)

    def merge_figures(self, step: MergeFigures) -> None:
        assert step.figure is not None
        self.merge(step.seat, step.figure)

    def final_scoring(self, step: FinalScoring) -> None:
        assert self.board is not None
        board = self.board
        awards: list[Step] = []
        features = sorted(
            board.features_with_followers(),
            key=lambda feature: (_KIND_ORDER[feature.kind], min(feature.segments)),
        )
        for feature in features:
            points = final_value(board, feature)
            if not points:
                continue
            described = board.describe(min(feature.segments))
            for seat in majority_holders(feature):
                awards.append(
                    Award(
                        seat,
                        points,
                        "final",
                        details=(("category", feature.kind.value), ("where", described)),
                    )
                )
        self.push(*awards)

    def close_game(self, step: CloseGame) -> None:
        self.finished = True
        self.agenda.clear()
        over: events.GameOver = {
            "type": "game_over",
            "scores": [player.score for player in self.players],
        }
        self.events.append(over)

    # Points: the one path every point takes ----------------------------------------------------

    def figure_for(self, step: Award) -> Figure | None:
        """The figure that takes ``step``'s points without asking, or None if the seat must say."""
        player = self.players[step.seat]
        if player.carrier is not None:
            return player.carrier
        if step.figure is not None:
            return step.figure
        if self.options.figure_choice is FigureChoice.PER_TURN:
            return self.turn_figures.get(step.seat)
        return None

    def award(self, step: Award, figure: Figure) -> None:
        player = self.players[step.seat]
        if player.carrier is not None and figure is not player.carrier:
            raise IllegalCommand(
                f"{player.name}'s points now go on the {player.carrier.value}",
                "points_on_carrier",
                name=player.name,
                figure=player.carrier.value,
            )
        fixed = self.turn_figures.get(step.seat)
        per_turn = self.options.figure_choice is FigureChoice.PER_TURN and player.carrier is None
        if per_turn and fixed is not None and fixed is not figure:
            raise IllegalCommand(
                f"{player.name}'s points go on the {fixed.value} for the rest of this turn",
                "figure_fixed",
                name=player.name,
                figure=fixed.value,
            )
        start = player.points_on(figure)
        total = start + step.points
        if figure is Figure.MEEPLE:
            self.players[step.seat] = _replace(player, meeple=total)
        else:
            self.players[step.seat] = _replace(player, messenger=total)
        if per_turn:
            self.turn_figures[step.seat] = figure
        if self.movements is not None:
            self.movements.append(Movement(step.seat, figure, start, step.points))
        # The award's details are the optional keys of a ``points`` event (where, category,
        # choice, action), named by the code that builds each Award.
        scored = cast(
            events.Points,
            {
                "type": "points",
                "seat": step.seat,
                "points": step.points,
                "figure": figure.value,
                "reason": step.reason,
                **dict(step.details),
                "total": total,
                "space": space(total),
                "dark": is_dark(total),
            },
        )
        self.events.append(scored)

    def run_award(self, step: Award) -> None:
        figure = self.figure_for(step)
        assert figure is not None
        self.award(step, figure)

    # Decisions ---------------------------------------------------------------------------------

    def decide(self, seat: int, command: cmd.Command) -> None:
        if not self.agenda:
            raise IllegalCommand("nothing is waiting for a decision", "nothing_waiting")
        step = self.agenda[0]
        rule = STEP_RULES[type(step)]
        wanted = rule.decider(self, step)
        if wanted is None:
            raise IllegalCommand("nothing is waiting for a decision", "nothing_waiting")
        if isinstance(command, cmd.EndTurn) and command.turn is not None:
            self.check_turn(step, command.turn)
        # Whose decision it is comes first: a seat that may not decide now hears so, whatever
        # it sent (protocol.md's not_your_turn), rather than which command would have fitted.
        if wanted != ANY_SEAT and seat != wanted and not isinstance(command, rule.any_seat_may):
            name = self.players[wanted].name
            sender = self.players[seat].name
            raise NotYourDecision(
                f"it is {name}'s decision, not {sender}'s",
                "not_your_decision",
                name=name,
                sender=sender,
            )
        if not isinstance(command, rule.allows):
            names = " or ".join(sorted(cmd.COMMAND_WORDS.get(c.type, c.type) for c in rule.allows))
            what = cmd.COMMAND_WORDS.get(command.type, command.type)
            raise IllegalCommand(
                f"the game waits for {names}, not {what}",
                "wrong_command",
                waiting=sorted(c.type for c in rule.allows),
                command=command.type,
            )
        rule.decide(self, step, seat, command)

    def check_turn(self, step: Step, turn: int) -> None:
        """An ``end_turn`` that names its turn is taken only while that turn's scoring waits to
        be ended: a second click on "end turn" must not end the next player's turn."""
        if turn == self.turn and any(isinstance(later, AwaitScores) for later in self.agenda):
            return  # still this turn's scoring (a figure prompt first, perhaps): the usual checks
        if turn > self.turn:
            raise TurnOver(
                f"turn {turn} has not begun; this is turn {self.turn}",
                "turn_not_begun",
                turn=turn,
                current=self.turn,
            )
        if turn < self.turn:
            raise TurnOver(
                f"turn {turn} is already over; it is {self.players[self.active].name}'s"
                f" turn {self.turn} now",
                "turn_past",
                turn=turn,
                name=self.players[self.active].name,
                current=self.turn,
            )
        ending = (EndGame, AwaitFinalScores, MergeFigures)
        if any(isinstance(later, ending) for later in self.agenda):
            raise TurnOver("the game is ending; no turn is left to end", "game_ending")
        name = self.players[self.active].name
        raise TurnOver(
            f"{name}'s turn {turn} is already ending", "turn_ending", name=name, turn=turn
        )

    def decide_placement(self, step: Step, seat: int, command: cmd.PlaceTile) -> None:
        assert self.board is not None and self.tile is not None
        self.board = self.board.place(self.tile, command.x, command.y, command.rotation)
        self.last_placed = (command.x, command.y)
        placed: events.TilePlaced = {
            "type": "tile_placed",
            "seat": seat,
            "tile": self.tile,
            "x": command.x,
            "y": command.y,
            "rotation": command.rotation,
        }
        self.events.append(placed)
        self.tile = None
        self.agenda.pop(0)

    def decide_follower(self, step: Step, seat: int, command: cmd.Command) -> None:
        assert self.board is not None and self.last_placed is not None
        if isinstance(command, cmd.PlaceFollower):
            player = self.players[seat]
            if player.followers == 0:
                raise IllegalCommand(
                    f"{player.name} has no follower left in supply",
                    "no_follower_left",
                    name=player.name,
                )
            x, y = self.last_placed
            segment = self.board.segment_named(x, y, command.feature, command.at)
            self.board = self.board.with_follower(seat, segment)
            self.players[seat] = _replace(player, followers=player.followers - 1)
            placed: events.FollowerPlaced = {
                "type": "follower_placed",
                "seat": seat,
                **self.board.describe(segment),
            }
            self.events.append(placed)
        self.agenda.pop(0)

    def decide_figure(self, step: Award, seat: int, command: cmd.ChooseFigure) -> None:
        self.award(step, Figure(command.figure))
        self.agenda.pop(0)

    def decide_merge(self, step: MergeFigures, seat: int, command: cmd.ChooseFigure) -> None:
        self.merge(seat, Figure(command.figure))
        self.agenda.pop(0)

    def decide_message(self, step: AwaitMessage, seat: int, command: cmd.ResolveMessage) -> None:
        revealed = self.revealed
        assert revealed is not None
        chain = self.options.chain
        places: _Places = {}
        then: list[Step] = [OpenRound(chain)]
        self.check_message_keys(revealed, command)
        if command.choice == "points":
            points = MESSAGE_POINTS
            then.append(Award(seat, points, "message", details=(("choice", "points"),)))
        elif self.tabletop:
            points = self.tabletop_action(revealed, command, then)
        else:
            points = self.board_action(revealed, command, then, places)
        if any(isinstance(step, AwaitScores | DrawExtraTile) for step in then):
            then[0] = OpenRound(True)
        then.append(EndRound())
        resolved: events.MessageResolved = {
            "type": "message_resolved",
            "action": revealed.action.value,
            "seat": seat,
            "message": revealed.message,
            "choice": command.choice,
            **places,
            "points": points,
        }
        self.events.append(resolved)
        self.stack = (*self.stack, revealed.message)
        self.revealed = None
        self.agenda.pop(0)
        self.push(*then)

    def check_message_keys(self, revealed: Revealed, command: cmd.ResolveMessage) -> None:
        """Refuse keys that the chosen way of resolving does not use, so that a record never
        holds a key that was silently ignored."""
        message_8 = revealed.action is MessageAction.SCORE_AND_RETURN
        if command.choice == "points":
            if command.names_a_follower or command.points is not None or not command.score:
                raise IllegalCommand(
                    '"2 points" takes no follower, points or score', "points_choice_extra"
                )
            return
        if not command.score and not message_8:
            raise IllegalCommand(
                "only message 8 may return a follower without scoring", "return_needs_message_8"
            )
        if self.tabletop:
            if command.names_a_follower:
                raise IllegalCommand(
                    "at a tabletop game the action takes the points counted",
                    "tabletop_action_follower",
                )
            if revealed.action is MessageAction.EXTRA_TILE and command.points is not None:
                raise IllegalCommand(
                    "the extra tile's points are entered after it is placed",
                    "extra_tile_points_later",
                )
            if not command.score and command.points:
                raise IllegalCommand(
                    '"score": false returns the follower for 0 points', "unscored_return_points"
                )
        elif command.points is not None:
            raise IllegalCommand(
                "the app computes the action's points from the board", "points_computed"
            )
        elif command.names_a_follower and not message_8:
            raise IllegalCommand(
                f"the action of message {revealed.message} takes no follower",
                "action_no_follower",
                message=revealed.message,
            )

    def tabletop_action(
        self, revealed: Revealed, command: cmd.ResolveMessage, then: list[Step]
    ) -> int:
        details = (("choice", "action"), ("action", revealed.action.value))
        if revealed.action is MessageAction.EXTRA_TILE:
            if self.options.extra_tile is ExtraTile.EXTRA_TURN:
                self.extra_turns += 1
            else:
                then.append(AwaitScores(extra=True))
            return 0
        if command.points is None and not command.score:
            return 0
        if command.points is None:
            raise IllegalCommand(
                "enter the points the action gave at the table", "action_points_needed"
            )
        _check_entered(command.points, least=0)
        if command.points:
            then.append(Award(revealed.seat, command.points, "message", details=details))
        return command.points

    def board_action(
        self, revealed: Revealed, command: cmd.ResolveMessage, then: list[Step], places: _Places
    ) -> int:
        """Carry out a message's action on the board; name its follower or feature in
        ``places`` for the ``message_resolved`` event."""
        assert self.board is not None
        action = revealed.action
        details: list[tuple[str, Any]] = [("choice", "action"), ("action", action.value)]
        if action is MessageAction.SCORE_AND_RETURN:
            target = self.return_target(revealed.seat, command)
            points = target.points if command.score else 0
            places["follower"] = self.board.describe(target.segment)
            if points:
                then.append(Award(revealed.seat, points, "message", details=tuple(details)))
            then.append(ReturnFollower(target.segment))
            return points
        offer = action_offer(self.board, revealed.seat, action, bool(self.bag))
        if offer is None:
            raise IllegalCommand(
                f"the action of message {revealed.message} is not possible now",
                "action_impossible",
                message=revealed.message,
            )
        if action is MessageAction.EXTRA_TILE:
            if self.options.extra_tile is ExtraTile.EXTRA_TURN:
                self.extra_turns += 1
            else:
                then.append(DrawExtraTile())
            return 0
        if offer.feature is not None:
            places["feature"] = self.board.describe(offer.feature)
            details.append(("where", places["feature"]))
        then.append(Award(revealed.seat, offer.points, "message", details=tuple(details)))
        return offer.points

    def return_target(self, seat: int, command: cmd.ResolveMessage) -> ReturnTarget:
        assert self.board is not None
        if command.x is None or command.y is None or command.feature is None:
            raise IllegalCommand(
                "name the follower to score and return: x, y, feature and at", "return_unnamed"
            )
        segment = self.board.segment_named(command.x, command.y, command.feature, command.at)
        for target in return_targets(self.board, seat, self.options.score_and_return):
            if target.segment == segment:
                if not command.score and not target.score_optional and target.points:
                    raise IllegalCommand(
                        "this edition does not let you skip the scoring", "scoring_not_skippable"
                    )
                return target
        raise IllegalCommand(
            "that is not one of your followers that this message may return", "not_returnable"
        )

    def decide_scores(self, step: AwaitScores, seat: int, command: cmd.Command) -> None:
        if isinstance(command, cmd.ScoreShared):
            self.push(*self.shared_awards(command, "tabletop"))
            self.emit_shared(command)
            return
        if isinstance(command, cmd.Score):
            _check_entered(command.points, least=1)
            figure = None if command.figure is None else Figure(command.figure)
            award = Award(seat, command.points, "tabletop", figure, _category(command))
            self.check_figure(award)
            self.push(award)
            return
        if isinstance(command, cmd.EndGame):
            if step.extra or self.movements:
                raise IllegalCommand("the game can end only between turns", "end_game_mid_turn")
            self.agenda = [EndGame()]
            self.movements = None
            return
        if seat != self.active:
            name = self.players[self.active].name
            raise NotYourDecision(f"only {name} ends this turn", "not_your_turn_end", name=name)
        self.agenda.pop(0)

    def check_figure(self, award: Award) -> None:
        fixed = self.turn_figures.get(award.seat)
        if (
            award.figure is not None
            and self.options.figure_choice is FigureChoice.PER_TURN
            and fixed is not None
            and fixed is not award.figure
        ):
            name = self.players[award.seat].name
            raise IllegalCommand(
                f"{name}'s points go on the {fixed.value} for the rest of this turn",
                "figure_fixed",
                name=name,
                figure=fixed.value,
            )

    def shared_awards(self, command: cmd.ScoreShared, reason: str) -> list[Award]:
        """One award per share, in share order, each checked before any is pushed: a shared
        scoring applies to every seat or (raising) to none. A share without a figure takes the
        seat's figure fixed this turn (``per_turn``) or waits for the seat's choice, one seat at
        a time; in the final scoring every share goes on its seat's carrier."""
        _check_entered(command.points, least=1)
        details = _category(command)
        awards = []
        for share in command.shares:
            if not 0 <= share.seat < len(self.players):
                raise IllegalCommand(
                    f"there is no seat {share.seat} at this table", "no_seat", seat=share.seat
                )
            figure = None if share.figure is None else Figure(share.figure)
            carrier = self.players[share.seat].carrier
            if reason == "final":
                if figure is not None and figure is not carrier:
                    name = self.players[share.seat].name
                    raise IllegalCommand(
                        f"{name}'s final points go on the {carrier}",
                        "final_points_figure",
                        name=name,
                        figure=str(carrier),
                    )
                figure = carrier
            award = Award(share.seat, command.points, reason, figure, details)
            self.check_figure(award)
            awards.append(award)
        return awards

    def emit_shared(self, command: cmd.ScoreShared) -> None:
        """One event naming the whole shared scoring, before each seat's ``points`` event, so
        the log can say the points were shared."""
        shared: events.SharedScoring = {
            "type": "shared_scoring",
            "seats": list(command.seats),
            "points": command.points,
        }
        if command.category is not None:
            shared["category"] = command.category
        self.events.append(shared)

    def decide_final_scores(self, step: AwaitFinalScores, seat: int, command: cmd.Command) -> None:
        if isinstance(command, cmd.ScoreShared):
            self.push(*self.shared_awards(command, "final"))
            self.emit_shared(command)
            return
        if isinstance(command, cmd.Score):
            _check_entered(command.points, least=1)
            carrier = self.players[seat].carrier
            if command.figure is not None and command.figure != carrier:
                raise IllegalCommand(
                    f"the final points go on the {carrier}",
                    "final_points_figure",
                    name=self.players[seat].name,
                    figure=str(carrier),
                )
            self.push(Award(seat, command.points, "final", carrier, _category(command)))
            return
        self.agenda.pop(0)


_AROUND: Final = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

_KIND_ORDER: Final = {
    FeatureKind.ROAD: 0,
    FeatureKind.CITY: 1,
    FeatureKind.MONASTERY: 2,
    FeatureKind.FIELD: 3,
}


# Who decides a step ----------------------------------------------------------------------------


def _nobody(work: Work | GameState, step: Any) -> int | None:
    """A step that always runs by itself."""
    return None


def _active_seat(work: Work | GameState, step: Any) -> int | None:
    """A step of the turn itself: the player whose turn it is decides."""
    return work.active


def _any_seat(work: Work | GameState, step: Any) -> int | None:
    """The tabletop's final scores: anyone at the table enters them."""
    return ANY_SEAT


def _award_decider(work: Work | GameState, step: Award) -> int | None:
    """Points wait for their seat's choice of figure unless the figure is already known: the
    carrier after the merge, a figure named by the award, or the figure fixed this turn
    (``per_turn``)."""
    if work.players[step.seat].carrier is not None or step.figure is not None:
        return None
    if work.options.figure_choice is FigureChoice.PER_TURN and step.seat in work.turn_figures:
        return None
    return step.seat


def _merge_decider(work: Work | GameState, step: MergeFigures) -> int | None:
    """The final merge asks its seat only when the edition lets the player choose."""
    return step.seat if step.figure is None else None


def _never_runs(work: Work, step: Step) -> None:
    """``run`` of a step that always waits for a decision: ``advance`` never calls it."""
    raise RuntimeError(f"{type(step).__name__} waits for a decision; it never runs by itself")


def _never_decided(work: Work, step: Step, seat: int, command: cmd.Command) -> None:
    """``decide`` of a step that always runs by itself: ``decide`` never reaches it."""
    raise RuntimeError(f"{type(step).__name__} runs by itself; nobody decides it")


@dataclass(frozen=True, slots=True)
class StepRule:
    """Everything the runner knows about one kind of step.

    ``decider``: whose decision the step waits for now (a seat, ``ANY_SEAT``, or None when it
    runs by itself: then ``advance`` pops it and calls ``run``). ``allows``: the commands it
    takes while it waits, carried out by ``decide``; ``any_seat_may``: those of them that any
    seat may send, not only the seat it waits for.
    """

    decider: Callable[[Any, Any], int | None] = _nobody
    run: Callable[[Work, Any], None] = _never_runs
    allows: tuple[type[cmd.Command], ...] = ()
    decide: Callable[[Work, Any, int, Any], None] = _never_decided
    any_seat_may: tuple[type[cmd.Command], ...] = ()


STEP_RULES: Final[Mapping[type[Step], StepRule]] = {
    StartTurn: StepRule(run=Work.start_turn),
    OpenRound: StepRule(run=Work.open_round),
    EndRound: StepRule(run=Work.end_round),
    ScorePlacement: StepRule(run=Work.score_placement),
    ScoreFeature: StepRule(run=Work.score_feature),
    ReturnFollowers: StepRule(run=Work.return_followers),
    ReturnFollower: StepRule(run=Work.return_follower),
    DrawMessage: StepRule(run=Work.draw_message),
    DrawExtraTile: StepRule(run=Work.draw_extra_tile),
    EndTurn: StepRule(run=Work.end_turn),
    EndGame: StepRule(run=Work.end_game),
    FinalScoring: StepRule(run=Work.final_scoring),
    CloseGame: StepRule(run=Work.close_game),
    AwaitPlacement: StepRule(
        decider=_active_seat, allows=(cmd.PlaceTile,), decide=Work.decide_placement
    ),
    AwaitFollower: StepRule(
        decider=_active_seat,
        allows=(cmd.PlaceFollower, cmd.SkipFollower),
        decide=Work.decide_follower,
    ),
    AwaitMessage: StepRule(
        decider=_active_seat, allows=(cmd.ResolveMessage,), decide=Work.decide_message
    ),
    AwaitScores: StepRule(
        decider=_active_seat,
        allows=(cmd.Score, cmd.ScoreShared, cmd.EndTurn, cmd.EndGame),
        decide=Work.decide_scores,
        any_seat_may=(cmd.Score, cmd.ScoreShared, cmd.EndGame),
    ),
    Award: StepRule(
        decider=_award_decider,
        run=Work.run_award,
        allows=(cmd.ChooseFigure,),
        decide=Work.decide_figure,
    ),
    MergeFigures: StepRule(
        decider=_merge_decider,
        run=Work.merge_figures,
        allows=(cmd.ChooseFigure,),
        decide=Work.decide_merge,
    ),
    AwaitFinalScores: StepRule(
        decider=_any_seat,
        allows=(cmd.Score, cmd.ScoreShared, cmd.Finish),
        decide=Work.decide_final_scores,
    ),
}
_MISSING_RULES: Final = {
    kind
    for kind in vars(agenda).values()
    if isinstance(kind, type) and issubclass(kind, Step) and kind is not Step
} - set(STEP_RULES)
if _MISSING_RULES:
    _NAMES: Final = sorted(kind.__name__ for kind in _MISSING_RULES)
    raise RuntimeError(f"steps without a row in STEP_RULES: {_NAMES}")


def waiting_for(work: Work | GameState, step: Step) -> int | None:
    """The seat whose decision ``step`` waits for (``ANY_SEAT`` for anyone), or None if it
    runs by itself."""
    return STEP_RULES[type(step)].decider(work, step)


def _category(command: cmd.Score | cmd.ScoreShared) -> tuple[tuple[str, Any], ...]:
    """An entered score's category as an award's details (its ``points`` event carries it)."""
    return () if command.category is None else (("category", command.category),)


def _check_entered(points: int, least: int) -> None:
    """Points typed at the table: whole numbers in a plausible range (0 moves no figure, so a
    ``score`` of 0 is refused rather than recorded)."""
    if not isinstance(points, int) or isinstance(points, bool):
        raise IllegalCommand("points must be a whole number", "not_whole", key="points")
    if not least <= points <= cmd.MAX_ENTERED_POINTS:
        raise IllegalCommand(
            f"points must be between {least} and {cmd.MAX_ENTERED_POINTS}",
            "points_range",
            key="points",
            least=least,
            most=cmd.MAX_ENTERED_POINTS,
        )


_PLAYER_FIELDS: Final = ("name", "meeple", "messenger", "followers", "carrier")
if tuple(field.name for field in dataclasses.fields(PlayerState)) != _PLAYER_FIELDS:
    raise RuntimeError("_replace must name PlayerState's fields in their order")


def _replace(
    player: PlayerState,
    *,
    meeple: int | None = None,
    messenger: int | None = None,
    followers: int | None = None,
    carrier: Figure | None = None,
) -> PlayerState:
    """``player`` with the fields given changed (None: unchanged). ``dataclasses.replace``
    written out for a player: the generic one costs 0.3 million instructions more per game
    (docs/performance.md)."""
    return PlayerState(
        player.name,
        player.meeple if meeple is None else meeple,
        player.messenger if messenger is None else messenger,
        player.followers if followers is None else followers,
        player.carrier if carrier is None else carrier,
    )
