"""The one place a player's action is timed, logged and counted (docs/deployment.md, "Watching").

Every action that may change a table (a command, a figure preference, starting the game, adding
a player) arrives as a websocket frame and passes through here: one log line each, applied or
refused, and the metrics of ``metrics.py``. The line names the table, the sender's seat, the
action's type, the outcome and the table's version, never the frame's content: a seat token or a
player's name has no place in a log, and the hidden orders never reach a frame anyway.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from game.engine.commands import COMMAND_TYPES
from game.live.frames import BadField
from game.ops import metrics
from game.services.lobby import LobbyError
from game.services.refusals import CommandRefused

logger = logging.getLogger("game.commands")

ACTIONS: Final = frozenset({"command", "preference", "start", "add_player", "rematch"})
"""The frame types that may change a table; the others (sync, history, ping) only read."""

INVALID: Final = "invalid"
"""The type of a command frame whose command names no known type."""


@dataclass(slots=True)
class Outcome:
    """Filled in by the handler: the table's version after an applied action, when it has one."""

    version: int | None = None


def action_type(message: Mapping[str, Any]) -> str:
    """The action's type from a fixed set: the command's type for a command, else the frame's."""
    kind = str(message["type"])
    if kind != "command":
        return kind
    command = message.get("command")
    named = command.get("type") if isinstance(command, dict) else None
    return named if isinstance(named, str) and named in COMMAND_TYPES else INVALID


@contextmanager
def action(code: str, seat: int | None, message: Mapping[str, Any]) -> Iterator[Outcome]:
    """Time the handling of ``message`` at table ``code`` from ``seat`` (None: a spectator), then
    log and count how it ended; exceptions pass through unchanged. Frames that only read are
    neither logged nor counted."""
    outcome = Outcome()
    if message.get("type") not in ACTIONS:
        yield outcome
        return
    kind = action_type(message)
    started = time.perf_counter()
    try:
        yield outcome
    except CommandRefused as refused:
        _record(code, seat, kind, "refused", refused.code, refused.version, started)
        raise
    except BadField:
        _record(code, seat, kind, "refused", "malformed", None, started)
        raise
    except LobbyError as error:
        _record(code, seat, kind, "refused", error.code, None, started)
        raise
    except Exception:
        _record(code, seat, kind, "error", "server_error", None, started)
        raise
    else:
        _record(code, seat, kind, "applied", "", outcome.version, started)


def _record(
    code: str,
    seat: int | None,
    kind: str,
    outcome: str,
    refusal: str,
    version: int | None,
    started: float,
) -> None:
    seconds = time.perf_counter() - started
    metrics.observe_action(outcome, refusal, kind, seconds)
    logger.info(
        "action table=%s seat=%s type=%s outcome=%s%s version=%s ms=%.1f",
        code,
        "-" if seat is None else seat,
        kind,
        outcome,
        f" code={refusal}" if refusal else "",
        "-" if version is None else version,
        seconds * 1000,
    )
