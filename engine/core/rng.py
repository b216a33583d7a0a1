"""The engine's only source of randomness: a seeded, fully specified generator.

Games are replayed from their seeds (a play-by-email host must be able to re-run any turn and
get the same dice), so the sequence must never depend on the Python version, the platform or
any global state. :mod:`random` promises none of that across versions, hence this module:

* :class:`Rng` is SplitMix64 (Steele, Lea and Flood, 2014; Vigna's ``splitmix64.c``), written
  out here in full with explicit 64-bit wrap-around. Seeded with 1234567 its first outputs are
  the published reference values 6457827717110365317, 3203168211198807973, ...
* Bounded draws use rejection sampling, so every face of a die is exactly equally likely.
* :meth:`Rng.derive` gives an independent child stream named by a label, so adding a draw to
  one part of the engine (say, star names) does not shift the dice of another (warplines).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_DERIVE_PERSON = b"warpmail.rng"


class Rng:
    """SplitMix64: a 64-bit state advanced by a constant, each output a mix of the state.

    Any ``int`` seeds it; the seed is reduced modulo 2**64 (so -1 and 2**64 - 1 are the same
    seed). Methods draw from the stream in the order they are called, and nothing else does.
    """

    __slots__ = ("_seed", "_state")

    def __init__(self, seed: int) -> None:
        self._seed = seed & _MASK64
        self._state = self._seed

    @property
    def seed(self) -> int:
        """The 64-bit seed this stream started from (not its current position)."""
        return self._seed

    def next_u64(self) -> int:
        """The next raw output, uniform on ``0 .. 2**64 - 1``."""
        self._state = (self._state + _GOLDEN_GAMMA) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    def randint(self, lo: int, hi: int) -> int:
        """Uniform on ``lo .. hi`` inclusive.

        Draws are rejected above the largest multiple of the span, since plain ``x % span``
        would favour the low results whenever the span does not divide 2**64.
        """
        span = hi - lo + 1
        if span <= 0:
            raise ValueError(f"empty range {lo}..{hi}")
        if span > 1 << 64:
            raise ValueError(f"range {lo}..{hi} is wider than 2**64")
        limit = (1 << 64) - ((1 << 64) % span)
        while True:
            x = self.next_u64()
            if x < limit:
                return lo + x % span

    def d(self, sides: int) -> int:
        """One die with ``sides`` faces numbered from 1 (``d(6)`` is the rules' 1d6)."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        return self.randint(1, sides)

    def roll(self, n: int, sides: int) -> int:
        """The sum of ``n`` dice (``roll(2, 6)`` is the rules' 2d6), rolled one at a time."""
        if n < 0:
            raise ValueError(f"cannot roll {n} dice")
        return sum(self.d(sides) for _ in range(n))

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability ``numerator / denominator`` exactly ("a 1 in 12 chance").

        One die with ``denominator`` faces is rolled; the lowest ``numerator`` faces succeed.
        """
        if denominator < 1 or not 0 <= numerator <= denominator:
            raise ValueError(f"bad odds {numerator} in {denominator}")
        return self.d(denominator) <= numerator

    def choice(self, seq: Sequence[T]) -> T:
        """One element of ``seq``, each equally likely."""
        if not seq:
            raise ValueError("cannot choose from an empty sequence")
        return seq[self.randint(0, len(seq) - 1)]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list holding ``items`` in a uniformly random order (Fisher-Yates, from the end).

        The argument is left alone: engine state is immutable, so shuffling in place would
        only invite aliasing bugs.
        """
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randint(0, i)
            out[i], out[j] = out[j], out[i]
        return out

    def derive(self, label: str) -> Rng:
        """An independent child stream named by ``label``.

        The child's seed hashes this stream's *seed* (not its position) with the label, so the
        same label always gives the same child however many draws the parent has made. BLAKE2b
        is used because it is fully specified, keyed apart from other uses by a fixed
        personalisation string, and in the standard library.
        """
        digest = hashlib.blake2b(
            self._seed.to_bytes(8, "little") + label.encode("utf-8"),
            digest_size=8,
            person=_DERIVE_PERSON,
        ).digest()
        return Rng(int.from_bytes(digest, "little"))

    def __repr__(self) -> str:
        return f"Rng(seed={self._seed})"
