"""The game state, and ``apply``: the one way a game moves forward.

A turn is an *agenda*: a queue of steps (draw a tile, wait for its placement, score completed
features, end the round of scoring, draw a message, ...). ``apply`` checks a command against the
step at the head of the queue, carries it out, then runs the automatic steps that follow until
the next step needs somebody's decision. A message's action pushes new steps at the head of the
queue (a nested placement, a new round of scoring), so "the interrupted turn resumes where it was"
is simply the rest of the queue.

The state is immutable. Inside ``apply`` a mutable ``_Work`` copy is changed and then frozen into a
new ``GameState``; the state passed in is never touched, so an illegal command changes nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

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
from .board import Board, Feature, Follower
from .errors import (
    GameOver,
    IllegalCommand,
    MalformedCommand,
    NotYourDecision,
    OptionError,
    TurnOver,
)
from .messengers import (
    MESSAGE_POINTS,
    MESSAGE_SETS,
    Figure,
    MessageAction,
    Movement,
    ReturnTarget,
    action_offer,
    is_dark,
    qualifying_figures,
    return_targets,
    space,
)
from .presets import ExtraTile, FigureChoice, FinalFigure, Options, resolve_options
from .scoring import completed_value, final_value, majority_holders
from .shuffle import shuffled_orders
from .tiles import CATALOGUE, START_TILE, FeatureKind, standard_bag

if TYPE_CHECKING:
    from .corrections import Amendments

FOLLOWERS_PER_PLAYER: Final = 7
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
MESSAGES: Final = tuple(range(1, 9))

Event = dict[str, Any]


class Mode(StrEnum):
    """``board``: the app plays the whole game. ``tabletop``: the board is physical and players
    enter their points; the app keeps the scoreboard and the message stack."""

    BOARD = "board"
    TABLETOP = "tabletop"


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat's figures and supply.

    ``carrier``: once the game has ended, the figure that carries the merged total.
    """

    name: str
    meeple: int = 0
    messenger: int = 0
    followers: int = FOLLOWERS_PER_PLAYER
    carrier: Figure | None = None

    @property
    def score(self) -> int:
        return self.meeple + self.messenger

    def points_on(self, figure: Figure) -> int:
        return self.meeple if figure is Figure.MEEPLE else self.messenger


@dataclass(frozen=True, slots=True)
class Revealed:
    """The message drawn and not yet resolved: public to every seat."""

    seat: int
    message: int
    action: MessageAction


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything fixed when the game begins, kept so that a record can be exported.

    ``tiles`` and ``messages`` are the full initial orders: hidden information.
    """

    mode: Mode
    players: tuple[str, ...]
    preset: str
    options: Options
    seed: int
    tiles: tuple[str, ...]
    messages: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameState:
    """A game at one moment. Produced only by ``new_game`` and ``apply``.

    Hidden fields (never shown to a seat): ``bag`` (the land tiles still to be drawn, in order)
    and ``stack`` (the message stack, top first); see ``views.py`` for what seats may see.
    """

    setup: Setup
    players: tuple[PlayerState, ...]
    board: Board | None
    bag: tuple[str, ...]
    stack: tuple[int, ...]
    active: int
    turn: int
    tile: str | None
    """The drawn tile waiting to be placed (public)."""
    last_placed: tuple[int, int] | None
    agenda: tuple[Step, ...]
    movements: tuple[Movement, ...] | None
    """Figure moves of the open round of scoring; None when no round is open."""
    round_can_draw: bool
    turn_figures: Mapping[int, Figure]
    """per_turn: the figure each seat's points go on this turn, once fixed."""
    messages_this_turn: int
    extra_turns: int
    revealed: Revealed | None
    finished: bool
    log: tuple[Mapping[str, Any], ...] = field(default=())
    """Every applied command as a record action: with ``setup`` it is the game record."""
    amendments: Amendments | None = None
    """Tabletop mode: what ``correct`` actions changed in the log (``corrections.py``)."""

    @property
    def options(self) -> Options:
        return self.setup.options

    @property
    def mode(self) -> Mode:
        return self.setup.mode

    @property
    def version(self) -> int:
        """How many commands have been applied."""
        return len(self.log)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.setup.preset} {self.setup.mode.value} turn={self.turn} "
            f"active={self.active} version={self.version} finished={self.finished}>"
        )


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
)
if tuple(field.name for field in dataclasses.fields(GameState)) != _STATE_FIELD_ORDER:
    raise RuntimeError("_STATE_FIELD_ORDER must list GameState's fields in their order")
_STATE_ASSIGNERS: Final = tuple(getattr(GameState, name).__set__ for name in _STATE_FIELD_ORDER)
"""Each field's slot setter: ``_Work.freeze`` builds a state through them, skipping the frozen
dataclass's checked assignment of every field, which costs more than a simple command's work."""
_new_state = object.__new__


def new_game(
    players: Sequence[str],
    preset: str,
    *,
    options: Mapping[str, Any] | None = None,
    mode: str = "board",
    seed: int = 0,
    tiles: Sequence[str] | None = None,
    messages: Sequence[int] | None = None,
) -> tuple[GameState, list[Event]]:
    """Set up a game: the start tile placed, the first turn begun.

    ``tiles`` (the land tiles after the start tile, in draw order) and ``messages`` (the message
    stack, top first) default to shuffles from ``seed`` (``shuffle.py``: a seed of 2**128 or
    more is a secret key; smaller ones are older records' seeds).

    >>> state, events = new_game(["Ann", "Bob"], "c2-hig", seed=3)
    >>> state.active, len(state.bag) + 1, state.stack == tuple(sorted(state.stack))
    (0, 71, False)
    """
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalCommand(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise IllegalCommand("every player needs a name")
    try:
        game_mode = Mode(mode)
    except ValueError:
        raise OptionError(f"mode must be board or tabletop, not {mode!r}") from None
    resolved = resolve_options(preset, options)
    bag, stack = shuffled_orders(seed, standard_bag(), MESSAGES)
    if tiles is not None:
        bag = list(tiles)
        _check_tiles(bag)
    if messages is not None:
        stack = list(messages)
        if sorted(stack) != list(MESSAGES):
            raise IllegalCommand("the message stack must hold the messages 1 to 8, once each")
    if game_mode is Mode.TABLETOP:
        bag = []
    setup = Setup(
        game_mode,
        names,
        preset,
        resolved,
        seed,
        tuple(bag),
        tuple(stack),
    )
    state = GameState(
        setup=setup,
        players=tuple(PlayerState(name) for name in names),
        board=Board.start() if game_mode is Mode.BOARD else None,
        bag=tuple(bag),
        stack=tuple(stack),
        active=0,
        turn=0,
        tile=None,
        last_placed=(0, 0) if game_mode is Mode.BOARD else None,
        agenda=(StartTurn(0),),
        movements=None,
        round_can_draw=False,
        turn_figures=MappingProxyType({}),
        messages_this_turn=0,
        extra_turns=0,
        revealed=None,
        finished=False,
    )
    work = _Work(state)
    work.advance()
    return work.freeze(state.log), work.events


def _check_tiles(bag: list[str]) -> None:
    for letter in bag:
        if letter not in CATALOGUE:
            raise IllegalCommand(f"unknown tile {letter!r}; tiles are lettered A to X")
    for letter, tile in CATALOGUE.items():
        available = tile.count - (letter == START_TILE)
        if bag.count(letter) > available:
            raise IllegalCommand(f"the game has only {available} tiles {letter}")


def apply(state: GameState, seat: int, command: cmd.Command) -> tuple[GameState, list[Event]]:
    """Apply ``command`` from ``seat``; return the new state and what happened.

    Raises an ``IllegalCommand`` (naming the reason) when the rules do not allow it now; the
    given state is unchanged either way.
    """
    if not isinstance(command, cmd.Command):
        raise MalformedCommand("a command must be built with commands.parse_command")
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise NotYourDecision(f"there is no seat {seat!r} at this table")
    if isinstance(command, cmd.Undo):
        return _undo(state, seat)
    if isinstance(command, cmd.Correct):
        from .corrections import correct  # corrections.py builds on this module

        return correct(state, seat, command)
    if state.finished:
        raise GameOver("the game is over")
    if isinstance(command, cmd.Adjust):
        from .corrections import adjust

        return adjust(state, seat, command)
    work = _Work(state)
    work.decide(seat, command)
    work.advance()
    return work.freeze((*state.log, command.to_action(seat))), work.events


def effective(log: Sequence[Mapping[str, Any]]) -> list[int]:
    """The indices of the actions of ``log`` that still count, in order.

    An ``undo`` cancels the latest action that still counts, so two undos in a row cancel the
    last two actions; undos themselves are never cancelled.

    >>> effective([dict(type=kind) for kind in ("score", "end_turn", "undo", "score")])
    [0, 3]
    """
    kept: list[int] = []
    for index, action in enumerate(log):
        if action.get("type") == cmd.Undo.type:
            if kept:
                kept.pop()
        else:
            kept.append(index)
    return kept


def undo_target(state: GameState) -> int:
    """The index in ``state.log`` of the action an undo would take back.

    Raises ``IllegalCommand`` when no undo is possible.
    """
    if state.mode is not Mode.TABLETOP:
        raise IllegalCommand("only entries of a tabletop game can be undone")
    kept = effective(state.log)
    if not kept:
        raise IllegalCommand("there is nothing to undo")
    return kept[-1]


def undo_from(
    state: GameState, seat: int, before: GameState, *, target: int | None = None
) -> tuple[GameState, list[Event]]:
    """Undo, given ``before``: the game as it stood before the action the undo takes back
    (``undo_target(state)`` actions of its log applied).

    That is the state a rebuild from the setup without the action reaches: when the action was
    applied, the actions that counted were exactly those that still count before it (later
    ones were pushed and taken back above it). So a caller that keeps earlier states (the
    server's checkpoints) need not replay the game from its setup.

    ``target``: ``undo_target(state)`` when the caller already tracks it (working it out reads
    the whole log, which a replay of many undos should not do at each one).
    """
    if target is None:
        target = undo_target(state)
    elif state.mode is not Mode.TABLETOP:
        raise IllegalCommand("only entries of a tabletop game can be undone")
    if before.version != target or before.setup.messages != state.setup.messages:
        raise IllegalCommand("the state given is not the one before the action to undo")
    undone = state.log[target]
    log = (*state.log, cmd.Undo().to_action(seat))
    restored = dataclasses.replace(before, setup=state.setup, log=log)
    return restored, [{"type": "undone", "seat": seat, "action": dict(undone)}]


def _undo(state: GameState, seat: int) -> tuple[GameState, list[Event]]:
    """Rebuild the game from its setup without the latest action that still counts.

    The message stack keeps the order fixed at setup: a message drawn by the cancelled action goes
    back on top, so the stack is never reshuffled and no other message is revealed. The log keeps
    every action, the undo included: the record shows what was corrected.
    """
    target = undo_target(state)
    return undo_from(state, seat, state_at(state, target))


def fresh(setup: Setup) -> GameState:
    """The state before the first action of a game set up as ``setup``."""
    return new_game(
        setup.players,
        setup.preset,
        options=setup.options.to_json(),
        mode=setup.mode.value,
        seed=setup.seed,
        messages=setup.messages,
    )[0]


def state_at(state: GameState, version: int) -> GameState:
    """The game after the first ``version`` actions of ``state``'s log, rebuilt from the setup.

    Each action that counts is applied with the log before it in place, so that a ``correct``
    among them reads its entry index against the log it was made on."""
    rebuilt = fresh(state.setup)
    for index in effective(state.log[:version]):
        action = state.log[index]
        rebuilt = dataclasses.replace(rebuilt, log=state.log[:index])
        rebuilt, _ = apply(rebuilt, action["seat"], cmd.parse_command(action))
    return dataclasses.replace(rebuilt, log=state.log[:version])


# The mutable working copy ----------------------------------------------------------------------


class _Work:
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
        self.events: list[Event] = []

    def freeze(self, log: tuple[Mapping[str, Any], ...]) -> GameState:
        state = _new_state(GameState)
        for assign, value in zip(
            _STATE_ASSIGNERS,
            (
                self.setup,
                tuple(self.players),
                self.board,
                self.bag,
                self.stack,
                self.active,
                self.turn,
                self.tile,
                self.last_placed,
                tuple(self.agenda),
                None if self.movements is None else tuple(self.movements),
                self.round_can_draw,
                MappingProxyType(self.turn_figures),
                self.messages_this_turn,
                self.extra_turns,
                self.revealed,
                self.finished,
                log,
                self.amendments,
            ),
            strict=True,
        ):
            assign(state, value)
        return state

    @property
    def mode(self) -> Mode:
        return self.setup.mode

    def emit(self, kind: str, **keys: Any) -> None:
        self.events.append({"type": kind, **keys})

    def push(self, *steps: Step) -> None:
        """Put steps at the head of the agenda, in the given order."""
        self.agenda[0:0] = steps

    # Running the agenda --------------------------------------------------------------------

    def advance(self) -> None:
        """Run automatic steps until one needs a decision (or the game is over)."""
        while self.agenda:
            step = self.agenda[0]
            if waiting_for(self, step) is not None:
                return
            self.agenda.pop(0)
            _RUN[type(step)](self, step)

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
        self.turn_figures = {}
        self.messages_this_turn = 0
        self.events.insert(
            first_event, {"type": "turn_started", "seat": step.seat, "turn": self.turn}
        )

    def draw_tile(self) -> bool:
        """Draw the next tile that fits somewhere, discarding those that fit nowhere."""
        assert self.board is not None
        while self.bag:
            letter, self.bag = self.bag[0], self.bag[1:]
            if self.board.can_place(letter):
                self.tile = letter
                self.emit("tile_drawn", seat=self.active, tile=letter, tiles_left=len(self.bag))
                return True
            self.emit("tile_discarded", tile=letter, tiles_left=len(self.bag))
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
        self.emit(
            "feature_completed",
            feature=feature.kind.value,
            tiles=len(feature.tiles),
            points=completed_value(self.board, feature),
            **{"where": self.board.describe(min(feature.segments))},
        )
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
        self.emit("follower_returned", seat=follower.seat, **self.board.describe(follower.segment))

    def end_round(self, step: EndRound) -> None:
        movements, self.movements = self.movements or [], None
        if not self.round_can_draw or not any(m.seat == self.active for m in movements):
            return
        seat = self.active
        player = self.players[seat]
        others = {
            space(other.points_on(figure))
            for other_seat, other in enumerate(self.players)
            if other_seat != seat
            for figure in Figure
        }
        earned = qualifying_figures(
            self.options,
            seat,
            movements,
            {figure: player.points_on(figure) for figure in Figure},
            others,
            any_order=not self.tabletop,
        )
        self.push(*[DrawMessage()] * min(earned, self.options.messages_per_round))

    def draw_message(self, step: DrawMessage) -> None:
        cap = self.options.messages_per_turn
        if cap is not None and self.messages_this_turn >= cap:
            self.emit("message_capped", seat=self.active, cap=cap)
            return
        message, self.stack = self.stack[0], self.stack[1:]
        self.messages_this_turn += 1
        action = MESSAGE_SETS[self.options.message_set][message]
        self.revealed = Revealed(self.active, message, action)
        self.emit("message_drawn", seat=self.active, message=message, action=action.value)
        self.push(AwaitMessage())

    def end_turn(self, step: EndTurn) -> None:
        self.tile = None
        if self.extra_turns:
            self.extra_turns -= 1
            self.emit("extra_turn", seat=self.active)
            self.push(StartTurn(self.active))
        else:
            self.push(StartTurn((self.active + 1) % len(self.players)))

    def end_game(self, step: EndGame) -> None:
        self.tile = None
        self.emit("game_ending", turn=self.turn)
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
        self.emit("figures_merged", seat=seat, figure=figure.value, points=total)

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
        self.emit("game_over", scores=[player.score for player in self.players])

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
            raise IllegalCommand(f"{player.name}'s points now go on the {player.carrier.value}")
        fixed = self.turn_figures.get(step.seat)
        per_turn = self.options.figure_choice is FigureChoice.PER_TURN and player.carrier is None
        if per_turn and fixed is not None and fixed is not figure:
            raise IllegalCommand(
                f"{player.name}'s points go on the {fixed.value} for the rest of this turn"
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
        self.emit(
            "points",
            seat=step.seat,
            points=step.points,
            figure=figure.value,
            reason=step.reason,
            **dict(step.details),
            total=total,
            space=space(total),
            dark=is_dark(total),
        )

    def run_award(self, step: Award) -> None:
        figure = self.figure_for(step)
        assert figure is not None
        self.award(step, figure)

    # Decisions ---------------------------------------------------------------------------------

    def decide(self, seat: int, command: cmd.Command) -> None:
        if not self.agenda:
            raise IllegalCommand("nothing is waiting for a decision")
        step = self.agenda[0]
        wanted = waiting_for(self, step)
        if wanted is None:
            raise IllegalCommand("nothing is waiting for a decision")
        if isinstance(command, cmd.EndTurn) and command.turn is not None:
            self.check_turn(step, command.turn)
        allowed = _ALLOWED[type(step)]
        if not isinstance(command, allowed):
            names = " or ".join(sorted(cmd.COMMAND_WORDS.get(c.type, c.type) for c in allowed))
            what = cmd.COMMAND_WORDS.get(command.type, command.type)
            raise IllegalCommand(f"the game waits for {names}, not {what}")
        if wanted != ANY_SEAT and seat != wanted and not self.any_seat_may(step, command):
            name = self.players[wanted].name
            raise NotYourDecision(f"it is {name}'s decision, not {self.players[seat].name}'s")
        _DECIDE[type(step)](self, step, seat, command)

    def any_seat_may(self, step: Step, command: cmd.Command) -> bool:
        return isinstance(step, AwaitScores) and isinstance(
            command, cmd.Score | cmd.ScoreShared | cmd.EndGame
        )

    def check_turn(self, step: Step, turn: int) -> None:
        """An ``end_turn`` that names its turn is taken only while that turn's scoring waits to
        be ended: a second click on "end turn" must not end the next player's turn."""
        if turn == self.turn and any(isinstance(later, AwaitScores) for later in self.agenda):
            return  # still this turn's scoring (a figure prompt first, perhaps): the usual checks
        if turn > self.turn:
            raise TurnOver(f"turn {turn} has not begun; this is turn {self.turn}")
        if turn < self.turn:
            raise TurnOver(
                f"turn {turn} is already over; it is {self.players[self.active].name}'s"
                f" turn {self.turn} now"
            )
        ending = (EndGame, AwaitFinalScores, MergeFigures)
        if any(isinstance(later, ending) for later in self.agenda):
            raise TurnOver("the game is ending; no turn is left to end")
        raise TurnOver(f"{self.players[self.active].name}'s turn {turn} is already ending")

    def decide_placement(self, step: Step, seat: int, command: cmd.PlaceTile) -> None:
        assert self.board is not None and self.tile is not None
        self.board = self.board.place(self.tile, command.x, command.y, command.rotation)
        self.last_placed = (command.x, command.y)
        self.emit(
            "tile_placed",
            seat=seat,
            tile=self.tile,
            x=command.x,
            y=command.y,
            rotation=command.rotation,
        )
        self.tile = None
        self.agenda.pop(0)

    def decide_follower(self, step: Step, seat: int, command: cmd.Command) -> None:
        assert self.board is not None and self.last_placed is not None
        if isinstance(command, cmd.PlaceFollower):
            player = self.players[seat]
            if player.followers == 0:
                raise IllegalCommand(f"{player.name} has no follower left in supply")
            x, y = self.last_placed
            segment = self.board.segment_named(x, y, command.feature, command.at)
            self.board = self.board.with_follower(seat, segment)
            self.players[seat] = _replace(player, followers=player.followers - 1)
            self.emit("follower_placed", seat=seat, **self.board.describe(segment))
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
        resolved: Event = {"seat": seat, "message": revealed.message, "choice": command.choice}
        then: list[Step] = [OpenRound(chain)]
        self.check_message_keys(revealed, command)
        if command.choice == "points":
            points = MESSAGE_POINTS
            then.append(Award(seat, points, "message", details=(("choice", "points"),)))
        elif self.tabletop:
            points = self.tabletop_action(revealed, command, then)
        else:
            points = self.board_action(revealed, command, then, resolved)
        if any(isinstance(step, AwaitScores | DrawExtraTile) for step in then):
            then[0] = OpenRound(True)
        then.append(EndRound())
        resolved["points"] = points
        self.emit("message_resolved", action=revealed.action.value, **resolved)
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
                raise IllegalCommand('"2 points" takes no follower, points or score')
            return
        if not command.score and not message_8:
            raise IllegalCommand("only message 8 may return a follower without scoring")
        if self.tabletop:
            if command.names_a_follower:
                raise IllegalCommand("at a tabletop game the action takes the points counted")
            if revealed.action is MessageAction.EXTRA_TILE and command.points is not None:
                raise IllegalCommand("the extra tile's points are entered after it is placed")
            if not command.score and command.points:
                raise IllegalCommand('"score": false returns the follower for 0 points')
        elif command.points is not None:
            raise IllegalCommand("the app computes the action's points from the board")
        elif command.names_a_follower and not message_8:
            raise IllegalCommand(f"the action of message {revealed.message} takes no follower")

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
            raise IllegalCommand("enter the points the action gave at the table")
        _check_entered(command.points, least=0)
        if command.points:
            then.append(Award(revealed.seat, command.points, "message", details=details))
        return command.points

    def board_action(
        self, revealed: Revealed, command: cmd.ResolveMessage, then: list[Step], resolved: Event
    ) -> int:
        assert self.board is not None
        action = revealed.action
        details: list[tuple[str, Any]] = [("choice", "action"), ("action", action.value)]
        if action is MessageAction.SCORE_AND_RETURN:
            target = self.return_target(revealed.seat, command)
            points = target.points if command.score else 0
            resolved["follower"] = self.board.describe(target.segment)
            if points:
                then.append(Award(revealed.seat, points, "message", details=tuple(details)))
            then.append(ReturnFollower(target.segment))
            return points
        offer = action_offer(self.board, revealed.seat, action, bool(self.bag))
        if offer is None:
            raise IllegalCommand(f"the action of message {revealed.message} is not possible now")
        if action is MessageAction.EXTRA_TILE:
            if self.options.extra_tile is ExtraTile.EXTRA_TURN:
                self.extra_turns += 1
            else:
                then.append(DrawExtraTile())
            return 0
        if offer.feature is not None:
            resolved["feature"] = self.board.describe(offer.feature)
            details.append(("where", resolved["feature"]))
        then.append(Award(revealed.seat, offer.points, "message", details=tuple(details)))
        return offer.points

    def return_target(self, seat: int, command: cmd.ResolveMessage) -> ReturnTarget:
        assert self.board is not None
        if command.x is None or command.y is None or command.feature is None:
            raise IllegalCommand("name the follower to score and return: x, y, feature and at")
        segment = self.board.segment_named(command.x, command.y, command.feature, command.at)
        for target in return_targets(self.board, seat, self.options.score_and_return):
            if target.segment == segment:
                if not command.score and not target.score_optional and target.points:
                    raise IllegalCommand("this edition does not let you skip the scoring")
                return target
        raise IllegalCommand("that is not one of your followers that this message may return")

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
                raise IllegalCommand("the game can end only between turns")
            self.agenda = [EndGame()]
            self.movements = None
            return
        if seat != self.active:
            raise NotYourDecision(f"only {self.players[self.active].name} ends this turn")
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
                f"{name}'s points go on the {fixed.value} for the rest of this turn"
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
                raise IllegalCommand(f"there is no seat {share.seat} at this table")
            figure = None if share.figure is None else Figure(share.figure)
            carrier = self.players[share.seat].carrier
            if reason == "final":
                if figure is not None and figure is not carrier:
                    name = self.players[share.seat].name
                    raise IllegalCommand(f"{name}'s final points go on the {carrier}")
                figure = carrier
            award = Award(share.seat, command.points, reason, figure, details)
            self.check_figure(award)
            awards.append(award)
        return awards

    def emit_shared(self, command: cmd.ScoreShared) -> None:
        """One event naming the whole shared scoring, before each seat's ``points`` event, so
        the log can say the points were shared."""
        shared: Event = {"seats": list(command.seats), "points": command.points}
        if command.category is not None:
            shared["category"] = command.category
        self.emit("shared_scoring", **shared)

    def decide_final_scores(self, step: AwaitFinalScores, seat: int, command: cmd.Command) -> None:
        if isinstance(command, cmd.ScoreShared):
            self.push(*self.shared_awards(command, "final"))
            self.emit_shared(command)
            return
        if isinstance(command, cmd.Score):
            _check_entered(command.points, least=1)
            carrier = self.players[seat].carrier
            if command.figure is not None and command.figure != carrier:
                raise IllegalCommand(f"the final points go on the {carrier}")
            self.push(Award(seat, command.points, "final", carrier, _category(command)))
            return
        self.agenda.pop(0)


ANY_SEAT: Final = -1


def waiting_for(work: _Work | GameState, step: Step) -> int | None:
    """The seat whose decision ``step`` waits for (``ANY_SEAT`` for anyone), or None if it
    runs by itself."""
    kind = type(step)
    if kind in _ACTIVE_SEAT_DECIDES:
        return work.active
    if kind is Award:
        assert isinstance(step, Award)
        player = work.players[step.seat]
        if player.carrier is not None or step.figure is not None:
            return None
        if work.options.figure_choice is FigureChoice.PER_TURN and step.seat in work.turn_figures:
            return None
        return step.seat
    if kind is MergeFigures:
        assert isinstance(step, MergeFigures)
        return step.seat if step.figure is None else None
    if kind is AwaitFinalScores:
        return ANY_SEAT
    return None


_ACTIVE_SEAT_DECIDES: Final = frozenset({AwaitPlacement, AwaitFollower, AwaitMessage, AwaitScores})
_AROUND: Final = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

_KIND_ORDER: Final = {
    FeatureKind.ROAD: 0,
    FeatureKind.CITY: 1,
    FeatureKind.MONASTERY: 2,
    FeatureKind.FIELD: 3,
}

_RUN: Final[dict[type[Step], Any]] = {
    StartTurn: _Work.start_turn,
    OpenRound: _Work.open_round,
    EndRound: _Work.end_round,
    ScorePlacement: _Work.score_placement,
    ScoreFeature: _Work.score_feature,
    Award: _Work.run_award,
    ReturnFollowers: _Work.return_followers,
    ReturnFollower: _Work.return_follower,
    DrawMessage: _Work.draw_message,
    DrawExtraTile: _Work.draw_extra_tile,
    EndTurn: _Work.end_turn,
    EndGame: _Work.end_game,
    MergeFigures: _Work.merge_figures,
    FinalScoring: _Work.final_scoring,
    CloseGame: _Work.close_game,
}

_ALLOWED: Final[dict[type[Step], tuple[type[cmd.Command], ...]]] = {
    AwaitPlacement: (cmd.PlaceTile,),
    AwaitFollower: (cmd.PlaceFollower, cmd.SkipFollower),
    Award: (cmd.ChooseFigure,),
    MergeFigures: (cmd.ChooseFigure,),
    AwaitMessage: (cmd.ResolveMessage,),
    AwaitScores: (cmd.Score, cmd.ScoreShared, cmd.EndTurn, cmd.EndGame),
    AwaitFinalScores: (cmd.Score, cmd.ScoreShared, cmd.Finish),
}

_DECIDE: Final[dict[type[Step], Any]] = {
    AwaitPlacement: _Work.decide_placement,
    AwaitFollower: _Work.decide_follower,
    Award: _Work.decide_figure,
    MergeFigures: _Work.decide_merge,
    AwaitMessage: _Work.decide_message,
    AwaitScores: _Work.decide_scores,
    AwaitFinalScores: _Work.decide_final_scores,
}


def _category(command: cmd.Score | cmd.ScoreShared) -> tuple[tuple[str, Any], ...]:
    """An entered score's category as an award's details (its ``points`` event carries it)."""
    return () if command.category is None else (("category", command.category),)


def _check_entered(points: int, least: int) -> None:
    """Points typed at the table: whole numbers in a plausible range (0 moves no figure, so a
    ``score`` of 0 is refused rather than recorded)."""
    if not isinstance(points, int) or isinstance(points, bool):
        raise IllegalCommand("points must be a whole number")
    if not least <= points <= cmd.MAX_ENTERED_POINTS:
        raise IllegalCommand(f"points must be between {least} and {cmd.MAX_ENTERED_POINTS}")


def _replace(player: PlayerState, **changes: Any) -> PlayerState:
    return dataclasses.replace(player, **changes)
