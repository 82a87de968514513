"""Checkpoints: an engine state stored every ``CHECKPOINT_EVERY`` log entries.

Loading a table replays its log from the nearest checkpoint instead of from the setup, and an
undo fetches the state before the entry it takes back the same way, so neither costs more as a
game's log grows (docs/performance.md, "Bounded work per table").

The state is pickled: the engine's frozen dataclasses, enums and tuples pickle as they are, and
an encoding of our own would be a second description of every engine type to keep in step.
Unpickling can run code, so a checkpoint is written only by the server, signed with an HMAC
under the secret key (a row changed by anyone without the key is refused, and the table is then
loaded from its setup and log as before), and read by an unpickler that builds only the
engine's own classes. Compressed, a checkpoint is a few KB for a 100-entry game.
"""

from __future__ import annotations

import copyreg
import hmac
import io
import pickle
import zlib
from array import array
from itertools import accumulate
from types import MappingProxyType
from typing import Any, Final

from django.utils.crypto import salted_hmac

from .engine.state import GameState, effective

_SALT: Final = "game.checkpoints"
_MAC_SIZE: Final = 32
_ENGINE: Final = "game.engine."


class CheckpointError(Exception):
    """A stored checkpoint that is not one this server wrote; it is ignored."""


def _mapping_proxy(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """Rebuilds the read-only mappings of a state (pickle cannot name ``mappingproxy``)."""
    return MappingProxyType(mapping)


class _Pickler(pickle.Pickler):
    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[MappingProxyType] = lambda mapping: (_mapping_proxy, (dict(mapping),))


class _EngineUnpickler(pickle.Unpickler):
    """Builds only the engine's classes (and read-only mappings); anything else is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == _mapping_proxy.__name__:
            return _mapping_proxy
        if module.startswith(_ENGINE):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise CheckpointError(f"a checkpoint may not hold {module}.{name}")


def _mac(data: bytes) -> bytes:
    return salted_hmac(_SALT, data, algorithm="sha256").digest()


def encode(state: GameState) -> bytes:
    """The signed, compressed bytes of ``state`` and of the indices of its log's actions that
    still count (``effective``), which a replay from it would otherwise work out from the log."""
    buffer = io.BytesIO()
    kept = effective(state.log)
    # Ascending indices as the gaps between them: mostly 1, so they compress to almost nothing.
    gaps = array("I", (b - a for a, b in zip([-1, *kept], kept, strict=False))).tobytes()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((state, gaps))
    data = zlib.compress(buffer.getvalue())
    return _mac(data) + data


def decode(blob: bytes | memoryview) -> tuple[GameState, list[int]]:
    """The state ``encode`` wrote and its actions that count; ``CheckpointError`` if the
    signature or contents are wrong. PostgreSQL's driver hands a binary column over as a
    ``memoryview``."""
    blob = bytes(blob)
    mac, data = blob[:_MAC_SIZE], blob[_MAC_SIZE:]
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
        # Written before corrections existed: the field it lacks had no value but None then.
        object.__setattr__(state, "amendments", None)
    return state, kept
