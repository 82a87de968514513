"""The shuffles that fix a game's hidden orders (tile bag, message stack) from its seed.

A seed of ``KEYED_SEED_MIN`` (2**128) or more is a secret key: the orders come from HMAC-SHA256
in counter mode under that key, so seeing any number of drawn tiles or messages tells nothing
about the rest without the key, and the key is too large to search. Smaller seeds are the
records written before secret seeds: they shuffle with ``random.Random(seed)`` exactly as they
always did, so every existing record replays the same (but their orders can be recovered from
a few public draws, which is why new games never get one).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from typing import Final, TypeVar

KEYED_SEED_MIN: Final = 1 << 128
"""Seeds from here on shuffle with the keyed generator; a new game's seed is 128 random bits
with this bit added (docs/records.md, "Seeds")."""

T = TypeVar("T")


class _KeyedStream:
    """Uniform whole numbers from HMAC-SHA256(key, label || counter): a keyed CSPRNG."""

    def __init__(self, seed: int, label: bytes) -> None:
        self._key = seed.to_bytes((seed.bit_length() + 7) // 8, "big")
        self._label = label
        self._counter = 0
        self._pool = b""

    def _bytes(self, count: int) -> bytes:
        while len(self._pool) < count:
            block = self._label + self._counter.to_bytes(8, "big")
            self._pool += hmac.digest(self._key, block, hashlib.sha256)
            self._counter += 1
        taken, self._pool = self._pool[:count], self._pool[count:]
        return taken

    def below(self, bound: int) -> int:
        """A whole number in ``range(bound)``, without modulo bias (rejection sampling)."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % bound


def _keyed_shuffle(items: list[T], seed: int, label: bytes) -> None:
    stream = _KeyedStream(seed, label)
    for index in range(len(items) - 1, 0, -1):
        other = stream.below(index + 1)
        items[index], items[other] = items[other], items[index]


def shuffled_orders(
    seed: int, tiles: Sequence[str], messages: Sequence[int]
) -> tuple[list[str], list[int]]:
    """The tile bag and the message stack, each shuffled from ``seed``.

    >>> bag, stack = shuffled_orders(3, ["A", "B", "C"], [1, 2, 3])
    >>> sorted(bag), sorted(stack)
    (['A', 'B', 'C'], [1, 2, 3])
    >>> shuffled_orders(KEYED_SEED_MIN + 5, "ABC", [1, 2, 3]) == shuffled_orders(
    ...     KEYED_SEED_MIN + 5, "ABC", [1, 2, 3])
    True
    """
    bag, stack = list(tiles), list(messages)
    if seed >= KEYED_SEED_MIN:
        _keyed_shuffle(bag, seed, b"tiles")
        _keyed_shuffle(stack, seed, b"messages")
    else:
        legacy = random.Random(seed)
        legacy.shuffle(bag)
        legacy.shuffle(stack)
    return bag, stack
