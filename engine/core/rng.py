"""The seeded random generator that lives inside a game state.

A counter-based SplitMix64: the whole generator is two integers (``seed``, ``counter``), so it
serialises with the state, costs nothing to copy, and gives the same numbers on every Python
version (``random.Random.shuffle`` makes no such promise). Every die and shuffle of a game comes
from here; nothing in the rules touches the global ``random``.
"""

from __future__ import annotations

import msgspec

_MASK = 0xFFFFFFFFFFFFFFFF
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def _draw(seed: int, counter: int) -> int:
    """The ``counter``-th number of the generator seeded with ``seed`` (both below 2**64).

    Every product is kept to 64 bits (``& _MASK``), the arithmetic of SplitMix64; ``tests/engine/core/test_core.py``
    pins known values."""
    z = (seed + counter * _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


class Rng(msgspec.Struct):
    """``(seed, counter)``: the n-th number is a pure function of both."""

    seed: int
    counter: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed=seed & _MASK, counter=0)

    def next64(self) -> int:
        self.counter += 1
        return _draw(self.seed, self.counter)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection so there is no modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        x, self.counter = _draw_below(self.seed, self.counter, n)
        return x

    def die(self) -> int:
        x, self.counter = _draw_below(self.seed, self.counter, 6)
        return x + 1

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place."""
        self.counter = _shuffle(items, self.seed, self.counter)


def _draw_below(seed: int, counter: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``[0, n)`` from the draws after ``counter``, and the last counter used.
    A draw at or above ``2**64 - (2**64 % n)`` would bias it and is rejected."""
    r = (_MASK % n + 1) % n  # 2**64 % n
    while True:
        counter += 1
        x = _draw(seed, counter)
        if r == 0 or x <= _MASK - r:
            return x % n, counter


def _shuffle(items: list, seed: int, counter: int) -> int:
    """Fisher–Yates of ``items`` in place with the draws after ``counter``; the last counter used."""
    for i in range(len(items) - 1, 0, -1):
        j, counter = _draw_below(seed, counter, i + 1)
        items[i], items[j] = items[j], items[i]
    return counter


def sampled_order(items: list, seed: int) -> list:
    """``items`` (distinct) in an order fixed by ``seed``, for a search's sampling, not a game's
    shuffle: sorting by the hash of ``(seed, item)`` costs a sixth of a Fisher–Yates through the
    game's generator, and a search draws thousands of worlds a second (CPython hashes ints and
    tuples of ints the same in every process)."""
    return sorted(items, key=lambda item: hash((seed, item)))
