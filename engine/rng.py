"""A small seedable PRNG whose whole state is one JSON-safe string.

SplitMix64 (Steele, Lea & Flood, 2014): one 64-bit word of state, good statistical quality for
shuffling cards and rolling dice, and trivial to serialise. The state is kept as a 16-digit hex
string so that it survives JSON stores and JavaScript readers without losing bits.

``Rng`` is a mutable helper used *inside* one ``apply``: a game reads ``Rng.load(state.rng)``,
draws, and stores ``rng.dump()`` in the new state, so states themselves stay plain data.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = _mix(seed & _MASK)

    @classmethod
    def load(cls, data: str) -> Rng:
        rng = cls.__new__(cls)
        rng._state = int(data, 16)
        return rng

    def dump(self) -> str:
        return f"{self._state:016x}"

    def next64(self) -> int:
        self._state = (self._state + _GAMMA) & _MASK
        return _mix(self._state)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def derive(self, *keys: int) -> Rng:
        """An independent stream named by ``keys``, without advancing this one.

        Used where a draw must not depend on the order in which simultaneous choices arrive.
        """
        z = self._state
        for k in keys:
            z = _mix((z ^ _mix((k + 1) & _MASK)) & _MASK)
        child = Rng.__new__(Rng)
        child._state = z
        return child
