"""MindSpore's shuffle stream for a seeded ``RandomSampler``: ``std::shuffle`` (as GCC's
libstdc++ implements it, which MindSpore 2.10 is built with) driven by ``std::mt19937``.

Pass ``k`` over the source (epoch, or repeat pass) reseeds the generator with ``seed + k``
and shuffles the previous pass's order again; the first pass shuffles ``0..n-1``.
"""
from __future__ import annotations

import numpy as np

_RANGE = 2**32 - 1  # mt19937's max() - min()


class _Uniform:
    """``std::uniform_int_distribution(0, span - 1)`` values drawn from
    ``std::mt19937(seed)`` as GCC 9 does: ``raw // (RANGE // span)``, drawing again while
    ``raw >= span * (RANGE // span)``."""

    def __init__(self, seed: int):
        self._gen = np.random.MT19937(0)
        self._gen._legacy_seeding(seed & 0xFFFFFFFF)  # std::mt19937(seed)'s seeding
        self._raws: list[int] = []
        self._pos = 0

    def draws(self, spans: list[int]) -> list[int]:
        raws, pos, out = self._raws, self._pos, []
        for span in spans:
            scaling = _RANGE // span
            past = span * scaling
            while True:
                if pos == len(raws):  # NumPy draws outputs in blocks
                    raws, pos = self._gen.random_raw(len(spans) + 1024).tolist(), 0
                value = raws[pos]
                pos += 1
                if value < past:
                    out.append(value // scaling)
                    break
        self._raws, self._pos = raws, pos
        return out


def shuffle_in_place(ids: list, seed: int) -> None:
    """``std::shuffle(ids.begin(), ids.end(), std::mt19937(seed))``."""
    n = len(ids)
    if n < 2:
        return
    uniform = _Uniform(seed)
    if _RANGE // n < n:  # too many rows to draw two positions at once
        for i, j in zip(range(1, n), uniform.draws(list(range(2, n + 1)))):
            ids[i], ids[j] = ids[j], ids[i]
        return
    first = 1
    if n % 2 == 0:  # one single swap first, so that the rest pairs up
        (j,) = uniform.draws([2])
        ids[1], ids[j] = ids[j], ids[1]
        first = 2
    starts = range(first, n, 2)
    for i, both in zip(starts, uniform.draws([(i + 1) * (i + 2) for i in starts])):
        a, b = divmod(both, i + 2)  # positions in [0, i] and [0, i + 1] from one draw
        ids[i], ids[a] = ids[a], ids[i]
        ids[i + 1], ids[b] = ids[b], ids[i + 1]


class PassOrders:
    """The permutation of each pass over one source, computed pass after pass."""

    def __init__(self, n: int, seed: int):
        self.n, self.seed = n, seed
        self._pass = -1
        self._order: list[int] = list(range(n))

    def order(self, pass_number: int) -> np.ndarray:
        if pass_number < self._pass:  # a pass asked again after a later one: start over
            self._pass, self._order = -1, list(range(self.n))
        while self._pass < pass_number:
            self._pass += 1
            shuffle_in_place(self._order, self.seed + self._pass)
        return np.array(self._order, dtype=np.int64)
