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

A pickle names classes and their fields but not what they were when it was written: unpickled
into classes that have since gained a field, a state loads and fails only when that field is
read. So what the signature covers begins with a header naming the layout of the checkpoint and
the engine's ``STATE_VERSION``, and a checkpoint with any other header, or none (written before
checkpoints had one), is refused before anything is unpickled (``StaleCheckpoint``): the table
is then rebuilt from its setup and log, and the checkpoint written again (``tables.py``). A
release that changes the engine's state types changes ``STATE_VERSION``
(``tests/state_fingerprint.json``), so each release reads only the checkpoints of its own
types. Code from before the header reads one with a header as a broken checkpoint (the header
is not a zlib stream) and rebuilds the table from its log, so two releases side by side during
a rolling restart never misread each other's checkpoints.
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

from game.engine.state import STATE_VERSION, GameState, effective

_SALT: Final = "game.store.checkpoints"
_MAC_SIZE: Final = 32
_ENGINE: Final = "game.engine."
_LAYOUT: Final = 1
"""The layout of what follows the header: a zlib-compressed pickle of (state, kept gaps)."""
_HEADER_PREFIX: Final = b"checkpoint "
_HEADER_MAX: Final = 64
"""A header is at most this long, its newline included; longer, it is not a header."""


class CheckpointError(Exception):
    """A stored checkpoint that is not one this server wrote; it is ignored."""


class StaleCheckpoint(CheckpointError):
    """A checkpoint this server signed under another layout or engine state version (or before
    checkpoints carried one): never unpickled, the table is rebuilt from its log instead."""


def header() -> bytes:
    """The first line of what a checkpoint's signature covers: its layout and the engine state
    version of the code that wrote it, for example ``b"checkpoint 1 1\\n"``. Its first byte is not
    the start of a zlib stream, so code from before the header fails to decompress it."""
    return b"%s%d %d\n" % (_HEADER_PREFIX, _LAYOUT, STATE_VERSION)


def _written_under(data: bytes) -> str:
    """What the header of ``data`` says, in words, for the log line of a refused checkpoint."""
    line, newline, _ = data[:_HEADER_MAX].partition(b"\n")
    if not (newline and line.startswith(_HEADER_PREFIX)):
        return "it was written before checkpoints carried an engine state version"
    words = line[len(_HEADER_PREFIX) :].decode("ascii", "replace").split()
    if len(words) == 2 and words[0] == str(_LAYOUT):
        return f"it holds engine state version {words[1]}, this server's is {STATE_VERSION}"
    return f"its header is {line.decode('ascii', 'replace')!r}, this server's {header()!r}"


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
    data = header() + zlib.compress(buffer.getvalue())
    return _mac(data) + data


def decode(blob: bytes | memoryview) -> tuple[GameState, list[int]]:
    """The state ``encode`` wrote and its actions that count; ``CheckpointError`` if the
    signature or contents are wrong, ``StaleCheckpoint`` if it was written under another engine
    state version (nothing of it is unpickled then). PostgreSQL's driver hands a binary column
    over as a ``memoryview``."""
    blob = bytes(blob)
    mac, data = blob[:_MAC_SIZE], blob[_MAC_SIZE:]
    if not hmac.compare_digest(mac, _mac(data)):
        raise CheckpointError("the checkpoint's signature does not match")
    ours = header()
    if not data.startswith(ours):
        raise StaleCheckpoint(f"the checkpoint is of another version: {_written_under(data)}")
    try:
        state, gaps = _EngineUnpickler(io.BytesIO(zlib.decompress(data[len(ours) :]))).load()
        kept = [index - 1 for index in accumulate(array("I", gaps))]
    except (pickle.UnpicklingError, zlib.error, EOFError, TypeError, ValueError) as error:
        raise CheckpointError(f"the checkpoint cannot be read: {error}") from None
    if not isinstance(state, GameState):
        raise CheckpointError("the checkpoint does not hold a game state")
    return state, kept
