"""What ``game/store/checkpoints.py`` did before checkpoints carried an engine state version, kept
verbatim where it matters: to write checkpoints as the releases before did, and to show what
those releases' code does with a checkpoint of today's.

Two releases run side by side during a rolling restart (``deploy/upgrade.sh`` restarts one
process at a time), both reading the same ``Checkpoint`` rows.
"""

from __future__ import annotations

import hmac
import io
import pickle
import zlib
from array import array
from itertools import accumulate
from typing import Any

from game.engine.state import GameState, effective
from game.store.checkpoints import CheckpointError, _EngineUnpickler, _mac, _Pickler


def encode(state: GameState) -> bytes:
    """A checkpoint as the releases before the header wrote it: the signature, then the
    compressed pickle, nothing between."""
    buffer = io.BytesIO()
    kept = effective(state.log)
    gaps = array("I", (b - a for a, b in zip([-1, *kept], kept, strict=False))).tobytes()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((state, gaps))
    data = zlib.compress(buffer.getvalue())
    return _mac(data) + data


def decode(blob: bytes | memoryview) -> tuple[Any, list[int]]:
    """The releases before the header read a checkpoint so (their ``decode``, unchanged): a
    ``CheckpointError`` makes them load the table from its setup and log."""
    blob = bytes(blob)
    mac, data = blob[:32], blob[32:]
    if not hmac.compare_digest(mac, _mac(data)):
        raise CheckpointError("the checkpoint's signature does not match")
    try:
        state, gaps = _EngineUnpickler(io.BytesIO(zlib.decompress(data))).load()
        kept = [index - 1 for index in accumulate(array("I", gaps))]
    except (pickle.UnpicklingError, zlib.error, EOFError, TypeError, ValueError) as error:
        raise CheckpointError(f"the checkpoint cannot be read: {error}") from None
    if not isinstance(state, GameState):
        raise CheckpointError("the checkpoint does not hold a game state")
    if not hasattr(state, "amendments"):
        object.__setattr__(state, "amendments", None)
    return state, kept
