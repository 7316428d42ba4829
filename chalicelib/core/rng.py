"""The seeded generator every game draws from.

A room stores a secret 32-byte seed (drawn from `secrets` when the game starts, its SHA-256 shown
from the start, the seed itself revealed at the end) and a step counter: the number of transitions
applied so far. The generator for transition `step` is derived from `(seed, step)`, so the whole
running state of the randomness is those two values, stored with the game, and any game can be
recomputed from its seed and its action log.

Only `getrandbits` and `random` of the Mersenne Twister are used, and the integer, choice and
shuffle helpers are written here, because their outputs for an integer seed are stable across
Python versions, whereas the library's own `choice`/`shuffle` algorithms are not promised to be.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Rng:
    """Deterministic generator for one transition of one game."""

    __slots__ = ("_mt", "seed", "step")

    def __init__(self, seed: bytes, step: int) -> None:
        if step < 0:
            raise ValueError("step must be >= 0")
        self.seed = seed
        self.step = step
        digest = hashlib.sha256(seed + step.to_bytes(8, "big")).digest()
        self._mt = random.Random(int.from_bytes(digest, "big"))

    @classmethod
    def from_int(cls, seed: int, step: int = 0) -> Rng:
        """Convenience for tests and soaks: an integer seed."""
        return cls(seed.to_bytes(32, "big", signed=False), step)

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        return self._mt.random()

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection sampling on raw bits."""
        if n <= 0:
            raise ValueError("n must be positive")
        k = n.bit_length()
        while True:
            r = self._mt.getrandbits(k)
            if r < n:
                return r

    def between(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi] (inclusive)."""
        return lo + self.below(hi - lo + 1)

    def chance(self, p: float) -> bool:
        """True with probability p (p clipped to [0, 1])."""
        if p <= 0:
            return False
        if p >= 1:
            return True
        return self._mt.random() < p

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise ValueError("choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffled(self, seq: Sequence[T]) -> tuple[T, ...]:
        """A new tuple with the items of seq in random order (Fisher-Yates)."""
        items = list(seq)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return tuple(items)

    def sample(self, seq: Sequence[T], k: int) -> tuple[T, ...]:
        """k distinct items of seq in random order."""
        if not 0 <= k <= len(seq):
            raise ValueError("sample larger than population")
        return self.shuffled(seq)[:k]


def seed_digest(seed: bytes) -> str:
    """The public commitment to a game's seed."""
    return hashlib.sha256(seed).hexdigest()
