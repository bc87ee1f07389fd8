"""The one random generator of mousehole (pure-Python reference).

Specified in ``docs/rng.md`` and implemented identically in ``cengine/mousehole/_rng.pxd``:
SplitMix64 for the stream, a 32-bit multiply-shift with rejection for bounded draws, and a
Fisher-Yates shuffle from the top down. The same seed gives the same numbers on every
platform and in both engines.
"""

from __future__ import annotations

from typing import MutableSequence, Sequence, Tuple, TypeVar

__all__ = ["Rng", "GAMMA", "MASK64", "mix64", "derive", "unit", "pick_outcome"]

MASK64 = 0xFFFFFFFFFFFFFFFF
GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


def mix64(z: int) -> int:
    """The SplitMix64 output function (a bijection on 64-bit words)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive(seed: int, k: int) -> int:
    """The ``k``-th output (0-based) of ``Rng(seed)``, computed directly.

    >>> r = Rng(42); [r.next64() for _ in range(3)][2] == derive(42, 2)
    True
    """
    return mix64((seed + (k + 1) * GAMMA) & MASK64)


class Rng:
    """SplitMix64 generator; ``state`` is the whole state (a 64-bit int).

    >>> r = Rng(7)
    >>> [r.below(6) for _ in range(5)]
    [2, 0, 5, 3, 2]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + GAMMA) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32``."""
        x = self.next64() >> 32
        m = x * n
        low = m & 0xFFFFFFFF
        if low < n:
            t = (0x100000000 - n) % n
            while low < t:
                x = self.next64() >> 32
                m = x * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, from the last position down to position 1."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def unit(rng: Rng) -> float:
    """A uniform float in [0, 1) from the top 53 bits of one draw of ``rng`` (``uniform01``
    of ``_search.pyx``)."""
    return (rng.next64() >> 11) * (1.0 / 9007199254740992.0)


def pick_outcome(outcomes: Sequence[Tuple[int, float]], u: float) -> int:
    """The index of the chance outcome (``(action, probability)`` pairs) that ``u``, uniform
    in [0, 1), falls on by the outcomes' cumulative probabilities; the last one takes any
    rounding remainder (``pick_outcome`` of ``_search.pyx``).

    >>> pick_outcome([(7, 0.25), (8, 0.75)], 0.2), pick_outcome([(7, 0.25), (8, 0.75)], 0.25)
    (0, 1)
    """
    acc = 0.0
    for j in range(len(outcomes) - 1):
        acc += outcomes[j][1]
        if u < acc:
            return j
    return len(outcomes) - 1
