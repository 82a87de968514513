"""What may be shown of a state: the decision the game waits for, and each seat's view.

Hidden information (the order of the tile bag and of the message stack) never appears here: the
views carry counts only. The drawn tile and a revealed message are public.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final, cast

from .agenda import (
    AwaitFinalScores,
    AwaitFollower,
    AwaitMessage,
    AwaitPlacement,
    AwaitScores,
    Award,
    MergeFigures,
)
from .board import Board
from .bounds import most_points, tiles_placed
from .events import (
    ChooseFigure,
    FigureOption,
    MessageChoice,
    Pending,
    PlaceFollower,
    ResolveCommand,
    ResolveMessage,
    ReturnChoice,
    Spot,
    Unavailability,
    Unavailable,
)
from .messengers import (
    MESSAGE_POINTS,
    MessageAction,
    action_offer,
    return_targets,
    space,
)
from .outlook import figure_outlooks
from .runner import ANY_SEAT, waiting_for
from .state import GameState, Mode, effective
from .tiles import CATALOGUE, FeatureKind


def pending(state: GameState) -> Pending | None:
    """Who must decide what now, with the legal choices; None once the game is over.

    ``seat`` is None when any seat may act (entering final scores at a tabletop game).
    """
    if state.finished or not state.agenda:
        return None
    step = state.agenda[0]
    seat = waiting_for(state, step)
    if seat is None:
        return None
    shown = None if seat == ANY_SEAT else seat
    if isinstance(step, AwaitPlacement):
        assert state.board is not None and state.tile is not None
        return {
            "seat": shown,
            "type": "place_tile",
            "tile": state.tile,
            "placements": [
                {"x": x, "y": y, "rotations": list(rotations)}
                for (x, y), rotations in state.board.legal_cells(state.tile)
            ],
        }
    if isinstance(step, AwaitFollower):
        return follower_spots(state, seat)
    if isinstance(step, Award):
        # The award's details are the optional keys of the prompt (where, category, choice,
        # action), named by the code that builds each Award.
        details = dict(step.details)
        return cast(
            ChooseFigure,
            {
                "seat": shown,
                "type": "choose_figure",
                "points": step.points,
                "reason": step.reason,
                **details,
                "options": figure_options(state, seat, step.points),
            },
        )
    if isinstance(step, MergeFigures):
        player = state.players[seat]
        return {
            "seat": shown,
            "type": "choose_figure",
            "final": True,
            "points": player.score,
            "options": figure_options(state, seat, player.score, merge=True),
        }
    if isinstance(step, AwaitMessage):
        return message_choices(state)
    if isinstance(step, AwaitScores):
        return {
            "seat": shown,
            "type": "end_turn",
            "turn": state.turn,
            "extra_tile": step.extra,
            "anyone_may_score": True,
            "may_end_game": not step.extra and not state.movements,
        }
    if isinstance(step, AwaitFinalScores):
        return {"seat": shown, "type": "finish", "anyone_may_score": True}
    raise TypeError(f"no decision is described for {type(step).__name__}")


def follower_spots(state: GameState, seat: int) -> PlaceFollower:
    board = state.board
    assert board is not None and state.last_placed is not None
    x, y = state.last_placed
    tile = board.tiles[(x, y)]
    spots: list[Spot] = []
    if state.players[seat].followers:
        for index, feature in enumerate(tile.features):
            if not board.feature_at((x, y, index)).followers:
                spot: Spot = {"feature": feature.kind.value}
                at = tile.location_name(index)
                if at is not None:
                    spot["at"] = at
                spots.append(spot)
    return {
        "seat": seat,
        "type": "place_follower",
        "x": x,
        "y": y,
        "spots": spots,
        "followers_in_supply": state.players[seat].followers,
    }


def figure_options(
    state: GameState, seat: int, points: int, merge: bool = False
) -> list[FigureOption]:
    """Each figure's current and resulting space, and whether the move would draw a message
    (``outlook.py``: the engine's own judgement of the round, with the reason when not)."""
    return figure_outlooks(state, seat, points, merge)


def message_choices(state: GameState) -> ResolveMessage:
    """The revealed message and each way of resolving it: what it gives now, the command that
    takes it and, for a place on the board, the number the page marks it with (the words:
    ``game.words.decisions``)."""
    revealed = state.revealed
    assert revealed is not None
    choices: list[MessageChoice | ReturnChoice] = [
        {
            "choice": "points",
            "points": MESSAGE_POINTS,
            "command": {"type": "resolve_message", "choice": "points"},
        }
    ]
    action_command: ResolveCommand = {"type": "resolve_message", "choice": "action"}
    missing: Unavailable | None = None
    if state.mode is Mode.TABLETOP:
        if revealed.action is MessageAction.EXTRA_TILE:
            choices.append(
                {
                    "choice": "action",
                    "points": 0,
                    "command": action_command,
                }
            )
        else:
            choices.append(
                {
                    "choice": "action",
                    "points": None,
                    "entered_at_table": True,
                    "command": action_command,
                }
            )
    elif revealed.action is MessageAction.SCORE_AND_RETURN:
        assert state.board is not None
        variant = state.options.score_and_return
        for mark, target in enumerate(return_targets(state.board, revealed.seat, variant), start=1):
            place = state.board.describe(target.segment)
            command: ResolveCommand = {**action_command, **place}  # type: ignore[typeddict-item]
            # Skipping a scoring of 0 points is the same move as taking it: offer it once.
            optional = target.score_optional and target.points > 0
            choice: ReturnChoice = {
                "choice": "action",
                "points": target.points,
                "score_optional": optional,
                **place,  # type: ignore[typeddict-item]
                "command": command,
                "mark": mark,
            }
            if optional:
                choice["skip"] = {"command": {**command, "score": False}}
            choices.append(choice)
        if len(choices) == 1:
            missing = _unavailable(revealed.action)
    else:
        assert state.board is not None
        offer = action_offer(state.board, revealed.seat, revealed.action, bool(state.bag))
        if offer is None:
            missing = _unavailable(revealed.action)
        else:
            offered: MessageChoice = {
                "choice": "action",
                "points": offer.points,
                "command": action_command,
            }
            if offer.feature is not None:
                offered["feature"] = state.board.describe(offer.feature)
                offered["mark"] = 1
            choices.append(offered)
    return {
        "seat": state.active,
        "type": "resolve_message",
        "message": revealed.message,
        "action": revealed.action.value,
        "choices": choices,
        "unavailable": missing,
    }


def _unavailable(action: MessageAction) -> Unavailable:
    return {"reason": UNAVAILABLE[action]}


UNAVAILABLE: Final[dict[MessageAction, Unavailability]] = {
    MessageAction.EXTRA_TILE: "no_tiles_left",
    MessageAction.SMALLEST_ROAD: "no_follower_on_road",
    MessageAction.SMALLEST_CITY: "no_follower_in_city",
    MessageAction.SMALLEST_MONASTERY: "no_follower_in_monastery",
    MessageAction.COATS_OF_ARMS: "no_coat_of_arms",
    MessageAction.KNIGHTS: "no_knight",
    MessageAction.FARMERS: "no_farmer",
    MessageAction.SCORE_AND_RETURN: "no_follower",
}
"""Why a message's action is not offered, by action."""


def board_view(board: Board) -> dict[str, Any]:
    tiles = [
        {"x": x, "y": y, "tile": tile.letter, "rotation": tile.rotation}
        for (x, y), tile in board.tiles.items()
    ]
    followers = []
    for feature in board.features_with_followers():
        for follower in feature.followers:
            followers.append({"seat": follower.seat, **board.describe(follower.segment)})
    completed = [
        {"feature": feature.kind.value, **board.describe(min(feature.segments))}
        for feature in board.features.values()
        if feature.kind in (FeatureKind.ROAD, FeatureKind.CITY) and feature.open_edges == 0
    ]
    return {"tiles": tiles, "followers": followers, "completed": completed}


def messages_left(state: GameState) -> int:
    """The messages not yet drawn in this pass through the stack: all of them at the start, one
    fewer with each draw, all of them again once every one has been drawn (a drawn message goes
    to the bottom, so the stack comes round in the same order). A count of draws, public by
    itself: the stack (a turn of the setup's order) tells how far it has come round, never
    which message comes next."""
    order = state.setup.messages
    if not state.stack or state.stack[0] not in order:
        return len(state.stack)
    return len(order) - order.index(state.stack[0])


def view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, for None) may see. Every seat sees the same public facts;
    ``you`` tells a seat which one it is."""
    result: dict[str, Any] = {
        "mode": state.mode.value,
        "preset": state.setup.preset,
        "options": state.options.to_json(),
        "version": state.version,
        "turn": state.turn,
        "active_seat": state.active,
        "extra_turn": state.extra_turn,
        "finished": state.finished,
        "you": seat,
        "players": [
            {
                "seat": index,
                "name": player.name,
                "score": player.score,
                "meeple": player.meeple,
                "messenger": player.messenger,
                "meeple_space": space(player.meeple),
                "messenger_space": space(player.messenger),
                "followers": player.followers,
                "carrier": None if player.carrier is None else player.carrier.value,
                "turn_figure": _turn_figure(state, index),
            }
            for index, player in enumerate(state.players)
        ],
        "messages_in_stack": len(state.stack),
        "messages_left": messages_left(state),
        "messages_this_turn": state.messages_this_turn,
        "revealed": None
        if state.revealed is None
        else {
            "seat": state.revealed.seat,
            "message": state.revealed.message,
            "action": state.revealed.action.value,
        },
        "pending": pending(state),
    }
    if state.mode is Mode.TABLETOP:
        kept = effective(state.log)
        result["undoable"] = dict(state.log[kept[-1]]) if kept else None
        waiting = result["pending"]
        final = state.finished or (waiting is not None and waiting["type"] == "finish")
        tiles = tiles_placed(state)
        result["most_points"] = {"tiles": tiles, **most_points(tiles, final=final)}
    if state.board is not None:
        result |= {
            "board": board_view(state.board),
            "tile": state.tile,
            "tiles_left": len(state.bag),
            "tiles_left_by_kind": tiles_by_kind(state.bag),
            "last_placed": None if state.last_placed is None else list(state.last_placed),
        }
    return result


def tiles_by_kind(bag: tuple[str, ...]) -> dict[str, int]:
    """How many tiles of each kind (letter, in catalogue order, 0 included) are still in the bag.

    Counts only: the bag's order stays hidden, while its contents are public knowledge (anyone
    can count the catalogue minus the tiles on the board and in hand), so players may see them.
    """
    left = Counter(bag)
    return {letter: left[letter] for letter in CATALOGUE}


def _turn_figure(state: GameState, seat: int) -> str | None:
    """The figure that takes all of ``seat``'s points for the rest of this turn, where the
    edition fixes one per turn (``figure_choice = per_turn``) and it is already chosen."""
    figure = state.turn_figures.get(seat)
    return None if figure is None else figure.value
