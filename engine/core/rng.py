"""The seeded random generator that lives inside a game state.

A counter-based SplitMix64: the whole generator is two integers (``seed``, ``counter``), so it
serialises with the state, costs nothing to copy, and gives the same numbers on every Python
version (``random.Random.shuffle`` makes no such promise). Every die and shuffle of a game comes
from here; nothing in the rules touches the global ``random``.
"""

from __future__ import annotations

import msgspec

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_DIE_LIMIT = (1 << 64) - ((1 << 64) % 6)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
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
        return _mix((self.seed + self.counter * _GAMMA) & _MASK)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection so there is no modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def die(self) -> int:
        # ``below(6) + 1`` with its rejection limit worked out once: dice are most of the draws
        while True:
            x = self.next64()
            if x < _DIE_LIMIT:
                return x % 6 + 1

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
