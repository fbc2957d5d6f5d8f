"""The C++ random engines and distributions MindSpore's data engine draws from, as GCC 9's
libstdc++ implements them (MindSpore 2.10's ``_c_dataengine`` is built with GCC 9.5), so a
seeded pipeline makes MindSpore's random choices bit for bit.

``MT19937`` is ``std::mt19937`` (NumPy's MT19937 with the same seeding gives the same
words); ``MT19937_64`` is ``std::mt19937_64``; ``MinStdRand0`` is ``std::minstd_rand0``
(``std::default_random_engine``, which MindRecord's shuffle uses). The draws (``Engine``)
follow libstdc++:

* ``uniform_int(a, b)``: ``std::uniform_int_distribution``: with ``span = b - a + 1``,
  ``scaling = range // span`` (``range`` is the engine's ``max() - min()``), words
  ``>= span * scaling`` are drawn again and the result is ``word // scaling + a``;
* ``canonical_float``/``canonical_double`` (32-bit engines): ``std::generate_canonical``
  with 24 bits (one word, rounded to float) or 53 bits (two words, ``w0 + w1 * 2**32``
  rounded to double), divided by ``2**32`` or ``2**64``, and kept below 1;
* ``uniform_float(a, b)``/``uniform_double(a, b)``: ``std::uniform_real_distribution``,
  ``u * (b - a) + a`` in the distribution's precision;
* ``bernoulli(p)``: ``std::bernoulli_distribution``, ``canonical_double() < p``;
* ``exponential(lam)``: ``-log(1 - canonical_double()) / lam``;
* ``discrete(cumulative)``: ``std::discrete_distribution``: the first cumulative
  probability ``>=`` a canonical double (nothing drawn for a single weight);
* ``shuffle(items)``: ``std::shuffle``, which draws one position per step, or two positions
  from one draw while ``n * n`` fits in the engine's range.
"""
from __future__ import annotations

import bisect
import math

import numpy as np

_RANGE32 = 2**32 - 1  # mt19937's max() - min()
_BLOCK = 1024  # words NumPy generates at a time


class Engine:
    """libstdc++'s distributions over an engine whose ``next()`` gives its word minus its
    ``min()`` (so in ``[0, range]``)."""

    range = _RANGE32

    def next(self) -> int:
        """The engine's next word minus its ``min()`` (each engine class defines it)."""
        raise NotImplementedError(f"{type(self).__name__} must define next().")

    def below(self, spans) -> np.ndarray:
        """``uniform_int(0, span - 1)`` for each span in turn."""
        return np.array([self.uniform_int(0, int(s) - 1) for s in spans], dtype=np.int64)

    # ------------------------------------------------------------------ distributions
    def uniform_int(self, a: int, b: int) -> int:
        """``std::uniform_int_distribution<>(a, b)(engine)``."""
        span = b - a + 1
        if span - 1 == self.range:
            return self.next() + a
        scaling = self.range // span
        past = span * scaling
        while True:
            word = self.next()
            if word < past:
                return word // scaling + a

    def canonical_float(self) -> np.float32:
        """``std::generate_canonical<float, 24>(engine)``."""
        value = np.float32(self.next()) / np.float32(2.0**32)
        return value if value < 1 else np.nextafter(np.float32(1), np.float32(0))

    def canonical_double(self) -> float:
        """``std::generate_canonical<double, 53>(engine)``."""
        low = float(self.next())
        value = (low + float(self.next()) * 2.0**32) / 2.0**64
        return value if value < 1 else math.nextafter(1.0, 0.0)

    def uniform_float(self, a, b) -> np.float32:
        """``std::uniform_real_distribution<float>(a, b)(engine)``."""
        a, b = np.float32(a), np.float32(b)
        return self.canonical_float() * (b - a) + a

    def uniform_double(self, a: float, b: float) -> float:
        """``std::uniform_real_distribution<double>(a, b)(engine)``."""
        return self.canonical_double() * (b - a) + a

    def bernoulli(self, p: float) -> bool:
        """``std::bernoulli_distribution(p)(engine)``."""
        return self.canonical_double() < p

    def exponential(self, lam: float = 1.0) -> float:
        """``std::exponential_distribution<double>(lam)(engine)``."""
        return -math.log(1.0 - self.canonical_double()) / lam

    def discrete(self, cumulative: list[float]) -> int:
        """``std::discrete_distribution`` over the cumulative probabilities ``cumulative``
        (from :func:`discrete_cumulative`)."""
        if not cumulative:
            return 0
        return bisect.bisect_left(cumulative, self.canonical_double())

    def shuffle(self, items: list) -> None:
        """``std::shuffle(items.begin(), items.end(), engine)``, in place."""
        n = len(items)
        if n < 2:
            return
        if self.range // n < n:  # too many items to draw two positions at once
            for i, j in zip(range(1, n), self.below(np.arange(2, n + 1)).tolist()):
                items[i], items[j] = items[j], items[i]
            return
        first = 1
        if n % 2 == 0:  # one single swap first, so that the rest pairs up
            j = self.uniform_int(0, 1)
            items[1], items[j] = items[j], items[1]
            first = 2
        starts = np.arange(first, n, 2, dtype=np.int64)
        both = self.below((starts + 1) * (starts + 2))  # two positions from one draw
        for i, a, b in zip(starts.tolist(), (both // (starts + 2)).tolist(),
                           (both % (starts + 2)).tolist()):
            items[i], items[a] = items[a], items[i]
            items[i + 1], items[b] = items[b], items[i + 1]


class MT19937(Engine):
    """``std::mt19937(seed)``: ``next()`` gives its next 32-bit word."""

    def __init__(self, seed: int):
        self._gen = np.random.MT19937(0)
        self._gen._legacy_seeding(seed & 0xFFFFFFFF)  # std::mt19937(seed)'s seeding
        self._array = np.zeros(0, np.uint64)  # words made, not all read yet
        self._words: list[int] = []
        self._pos = 0

    def _refill(self, count: int) -> None:
        """Keep the unread words and make at least ``count`` more."""
        fresh = self._gen.random_raw(max(count, _BLOCK)).astype(np.uint64)
        self._array = np.concatenate([self._array[self._pos:], fresh])
        self._words, self._pos = self._array.tolist(), 0

    def next(self) -> int:
        if self._pos == len(self._words):
            self._refill(1)
        self._pos += 1
        return self._words[self._pos - 1]

    def below(self, spans: np.ndarray) -> np.ndarray:
        """``uniform_int(0, span - 1)`` for each span in turn (spans below ``2**32``), drawn
        a chunk at a time: each chunk's words are tested at once, and after a rejected word
        the rest of the chunk is drawn again from the next one."""
        spans = np.asarray(spans, dtype=np.uint64)
        out = np.empty(len(spans), dtype=np.uint64)
        done, chunk = 0, 256
        while done < len(spans):
            rest = spans[done:done + chunk]
            if self._pos + len(rest) > len(self._words):
                self._refill(len(rest))
            words = self._array[self._pos:self._pos + len(rest)]
            scaling = np.uint64(self.range) // rest
            rejected = np.flatnonzero(words >= rest * scaling)
            took = int(rejected[0]) if len(rejected) else len(rest)
            out[done:done + took] = words[:took] // scaling[:took]
            self._pos += took + (1 if len(rejected) else 0)  # a rejected word is used up
            done += took
        return out.astype(np.int64)

def discrete_cumulative(weights) -> list[float]:
    """``std::discrete_distribution``'s table: weights divided by their sum, summed up, the
    last set to 1 (empty for fewer than two weights)."""
    weights = [float(w) for w in weights]
    if len(weights) < 2:
        return []
    total = sum(weights)  # std::accumulate: left to right
    out, acc = [], 0.0
    for w in weights:
        acc += w / total
        out.append(acc)
    out[-1] = 1.0
    return out


_MASK64 = (1 << 64) - 1
_N64, _M64 = 312, 156
_MATRIX64 = np.uint64(0xB5026F5AA96619E9)
_UPPER64, _LOWER64 = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF)


class MT19937_64:
    """``std::mt19937_64(seed)``: ``next()`` gives its next 64-bit word."""

    def __init__(self, seed: int):
        state = [seed & _MASK64]
        for i in range(1, _N64):
            prev = state[-1]
            state.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & _MASK64)
        self._state = np.array(state, dtype=np.uint64)
        self._words: list[int] = []
        self._pos = 0

    def _twist(self) -> None:
        mt = self._state
        one = np.uint64(1)

        def mixed(i, j, k):  # new mt[i] from mt[i], mt[i + 1] and mt[i + m]
            y = (mt[i] & _UPPER64) | (mt[j] & _LOWER64)
            return mt[k] ^ (y >> one) ^ np.where(y & one, _MATRIX64, np.uint64(0))

        n, m = _N64, _M64
        mt[:n - m] = mixed(slice(0, n - m), slice(1, n - m + 1), slice(m, n))
        mt[n - m:n - 1] = mixed(slice(n - m, n - 1), slice(n - m + 1, n), slice(0, m - 1))
        mt[n - 1:] = mixed(slice(n - 1, n), slice(0, 1), slice(m - 1, m))
        y = mt.copy()
        y ^= (y >> np.uint64(29)) & np.uint64(0x5555555555555555)
        y ^= (y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
        y ^= (y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
        y ^= y >> np.uint64(43)
        self._words, self._pos = y.tolist(), 0

    def next(self) -> int:
        if self._pos == len(self._words):
            self._twist()
        self._pos += 1
        return self._words[self._pos - 1]


class MinStdRand0(Engine):
    """``std::minstd_rand0(seed)`` (libstdc++'s ``std::default_random_engine``):
    ``x = x * 16807 mod (2**31 - 1)``; ``next()`` gives ``x - 1`` (its ``min()`` is 1)."""

    range = 2**31 - 3
    _MODULUS = 2**31 - 1

    def __init__(self, seed: int):
        self._x = seed % self._MODULUS or 1

    def next(self) -> int:
        self._x = self._x * 16807 % self._MODULUS
        return self._x - 1


def _logf(x) -> np.float32:
    """glibc's ``logf`` (correctly rounded)."""
    return np.float32(math.log(float(x)))


class GammaFloat:
    """``std::gamma_distribution<float>(alpha, 1)`` as libstdc++ draws it: Marsaglia and
    Tsang's method over its own ``normal_distribution<float>`` (the polar method, which
    keeps its second value for the next call), in float with the double constants and
    comparisons of the C++ source. ``draw(engine)`` takes canonical floats from
    ``engine.uniform_float(0, 1)``."""

    def __init__(self, alpha: float):
        f = np.float32
        self.alpha = f(alpha)
        self.malpha = self.alpha + f(1) if self.alpha < 1 else self.alpha
        self.a1 = self.malpha - f(1) / f(3)
        self.a2 = f(1) / f(math.sqrt(float(f(9) * self.a1)))
        self._saved: np.float32 | None = None

    def _normal(self, engine) -> np.float32:
        if self._saved is not None:
            value, self._saved = self._saved, None
            return value
        f = np.float32
        while True:
            x = f(2) * engine.uniform_float(0, 1) - f(1)
            y = f(2) * engine.uniform_float(0, 1) - f(1)
            r2 = x * x + y * y
            if r2 <= 1 and r2 != 0:
                break
        mult = f(math.sqrt(float(f(-2) * _logf(r2) / r2)))
        self._saved = x * mult
        return y * mult

    def draw(self, engine) -> np.float32:
        f = np.float32
        while True:
            while True:
                n = self._normal(engine)
                v = f(1) + self.a2 * n
                if v > 0:
                    break
            v = v * v * v
            u = engine.uniform_float(0, 1)
            n64 = float(n)
            squeeze = 1.0 - 0.0331 * n64 * n64 * n64 * n64
            if not (float(u) > squeeze and float(_logf(u)) > (
                    0.5 * n64 * n64 + float(self.a1) * (1.0 - float(v) + float(_logf(v))))):
                break
        if self.alpha == self.malpha:
            return self.a1 * v
        while True:
            u = engine.uniform_float(0, 1)
            if u != 0:
                break
        return f(math.pow(float(u), float(f(1) / self.alpha))) * self.a1 * v
