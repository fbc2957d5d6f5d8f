"""The C++ standard-library random engines and distributions MindSpore's CPU random kernels
draw from, as libstdc++ implements them, vectorised in NumPy.

``StandardNormal``, ``StandardLaplace`` and ``Dropout`` keep a ``std::minstd_rand0``
(``default_random_engine``), ``UniformReal`` and ``UniformInt`` a ``std::mt19937``, each
seeded once per kernel with :func:`graphkiln.common.philox.mix_seeds` of the primitive's two
seeds; the engine then advances from launch to launch. :class:`KernelStreams` holds those
engines for one primitive instance or one graph node (one engine per output shape, as
MindSpore makes one kernel per shape).
"""
from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from .philox import mix_seeds

_MINSTD_A, _MINSTD_M = 16807, 2147483647
_BLOCK = 4096


def _minstd_powers() -> np.ndarray:
    """``16807**k mod (2**31 - 1)`` for ``k = 1.._BLOCK`` (by doubling)."""
    powers = np.array([_MINSTD_A], np.uint64)
    while len(powers) < _BLOCK:
        powers = np.concatenate([powers, powers * powers[-1] % np.uint64(_MINSTD_M)])
    return powers[:_BLOCK]


_POWERS = _minstd_powers()

# glibc's logf (2.28 and later): log(c) and 1/c for 16 subintervals of [0.7, 1.4), then a
# cubic in r = z/c - 1, all in double, rounded once to float
_LOGF_TABLE = np.array([[float.fromhex(a), float.fromhex(b)] for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
    ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010b0p+0", "-0x1.01eae7f513a67p-2"),
    ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
    ("0x1.25e227b0b8ea0p+0", "-0x1.1aa2bc79c8100p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
    ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
    ("0x1.0000000000000p+0", "0x0.0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
    ("0x1.ca4b31f026aa0p-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
    ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d224770p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
    ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"))])
_LOGF_POLY = tuple(float.fromhex(a) for a in
                   ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")


def logf(x: np.ndarray) -> np.ndarray:
    """``logf`` of positive normal float32s as glibc computes it (NumPy's float32 log and
    the correctly rounded value each differ from it in the last bit now and then)."""
    ix = x.view(np.uint32).astype(np.int64)
    tmp = ix - 0x3F330000
    i = (tmp >> 19) % 16
    k = (tmp.astype(np.uint32).view(np.int32) >> 23).astype(np.float64)
    z = (ix - (tmp & 0xFF800000)).astype(np.uint32).view(np.float32).astype(np.float64)
    r = z * _LOGF_TABLE[i, 0] - 1.0
    a0, a1, a2 = _LOGF_POLY
    r2 = r * r
    y = a0 * r2 + (a1 * r + a2)
    y = y * r2 + ((_LOGF_TABLE[i, 1] + k * _LN2) + r)
    return np.where(ix == 0x3F800000, np.float32(0), y.astype(np.float32))


class MinstdRand0:
    """``std::minstd_rand0``: ``x <- 16807 x mod (2**31 - 1)``."""

    def __init__(self, seed: int):
        state = seed % _MINSTD_M
        self.state = state or 1

    def draw(self, n: int) -> np.ndarray:
        """The next ``n`` outputs (uint64)."""
        out = np.empty(n, np.uint64)
        for start in range(0, n, _BLOCK):
            part = out[start:start + _BLOCK]
            np.multiply(_POWERS[:len(part)], np.uint64(self.state), out=part)
            np.remainder(part, np.uint64(_MINSTD_M), out=part)
            self.state = int(part[-1])
        return out

    def uniform_ints(self, n: int, high: int) -> np.ndarray:
        """``n`` draws of ``std::uniform_int_distribution(0, high)`` (int64): below the
        engine's span one output ``x`` each, rejected at or above ``(high + 1) * scaling``
        (``scaling = span // (high + 1)``), else ``x // scaling``; above it, libstdc++'s
        upscaling (a draw from ``[0, high // span]`` times the span plus one output,
        rejected past ``high`` or on overflow)."""
        top = _MINSTD_M - 2  # the outputs less one span [0, top]
        if high == top:
            return (self.draw(n) - np.uint64(1)).astype(np.int64)
        if high > top:
            return np.array([self._upscaled(high) for _ in range(n)], np.int64)
        scaling = top // (high + 1)
        past = np.uint64((high + 1) * scaling)
        picked: list[np.ndarray] = []
        need = n
        while need:  # exactly as many outputs as the C++ loop consumes
            raw = self.draw(need) - np.uint64(1)
            keep = raw[raw < past]
            picked.append(keep // np.uint64(scaling))
            need -= len(keep)
        return np.concatenate(picked).astype(np.int64) if picked else np.empty(0, np.int64)

    def _upscaled(self, high: int) -> int:
        span = _MINSTD_M - 1
        while True:
            base = span * int(self.uniform_ints(1, high // span)[0])
            value = base + int(self.draw(1)[0]) - 1
            if base <= value <= high and value < 1 << 64:
                return value

    def canonical_floats(self, n: int) -> np.ndarray:
        """``generate_canonical<float, 24>``: one output ``(x - 1) / 2**31`` in float32,
        kept below 1."""
        u = (self.draw(n) - np.uint64(1)).astype(np.float32) / np.float32(2147483648.0)
        return np.minimum(u, np.nextafter(np.float32(1), np.float32(0)))

    def canonical_doubles(self, n: int) -> np.ndarray:
        """``uniform_real_distribution<double>(0, 1)``: libstdc++'s ``generate_canonical``
        takes two outputs per double, ``((a - 1) + (b - 1) r) / r**2`` with
        ``r = 2**31 - 2``; a result that rounds up to 1 is the largest double below it."""
        a, b = (self.draw(2 * n) - np.uint64(1)).astype(np.float64).reshape(n, 2).T
        r = float(_MINSTD_M - 1)
        return np.minimum((a + b * r) / (r * r), np.nextafter(1.0, 0.0))

    def laplace_floats(self, n: int) -> np.ndarray:
        """MindSpore's ``StandardLaplace``: ``u`` from ``uniform_real_distribution<float>``
        on ``(-1, 1)`` (``generate_canonical`` times ``1 - lo`` plus ``lo``, in float32,
        ``lo`` the float after -1), then ``-sign(u) log(1 - |u|)`` in double, to float32."""
        lo = np.nextafter(np.float32(-1), np.float32(0))
        u = self.canonical_floats(n) * (np.float32(1) - lo) + lo
        return (-np.copysign(1.0, u) * np.log(1.0 - np.abs(u.astype(np.float64)))) \
            .astype(np.float32)

    def normal_floats(self, n: int) -> np.ndarray:
        """``std::normal_distribution<float>`` (Marsaglia's polar method) for ``n`` draws
        from a fresh distribution: each accepted pair ``(x, y)`` gives ``y m`` then ``x m``
        (``m = sqrt(-2 log r2 / r2)``, in float32); an odd count drops the last ``x m``."""
        pairs = (n + 1) // 2
        found: list[np.ndarray] = []
        have = 0
        while have < pairs:
            tries = int((pairs - have) * 1.28) + 16
            u = self.canonical_floats(2 * tries) * np.float32(2) - np.float32(1)
            x, y = u[0::2], u[1::2]
            r2 = x * x + y * y
            ok = (r2 <= np.float32(1)) & (r2 != np.float32(0))
            hits = np.flatnonzero(ok)
            if len(hits) > pairs - have:  # give back the draws after the last pair needed
                last = int(hits[pairs - have - 1])
                self._rewind(2 * (tries - last - 1))
                hits = hits[:pairs - have]
            x, y, r2 = x[hits], y[hits], r2[hits]
            mult = np.sqrt(np.float32(-2) * logf(r2) / r2)
            pair = np.empty((len(hits), 2), np.float32)
            pair[:, 0] = y * mult
            pair[:, 1] = x * mult
            found.append(pair.reshape(-1))
            have += len(hits)
        return np.concatenate(found)[:n] if found else np.empty(0, np.float32)

    def normal_double_pairs(self, pairs: int) -> tuple[np.ndarray, np.ndarray]:
        """``2 * pairs`` draws of ``std::normal_distribution<double>`` (Marsaglia's polar
        method on :meth:`canonical_doubles`: each accepted ``(x, y)`` gives ``y m`` then
        ``x m``, ``m = sqrt(-2 log r2 / r2)``) and, per pair, how many engine outputs were
        used up to its end."""
        values: list[np.ndarray] = []
        ends: list[np.ndarray] = []
        used = have = 0
        while have < pairs:
            tries = int((pairs - have) * 1.28) + 16
            u = self.canonical_doubles(2 * tries) * 2.0 - 1.0
            x, y = u[0::2], u[1::2]
            r2 = x * x + y * y
            hits = np.flatnonzero((r2 <= 1.0) & (r2 != 0.0))
            spent = tries
            if len(hits) > pairs - have:  # give back the draws after the last pair needed
                hits = hits[:pairs - have]
                spent = int(hits[-1]) + 1
                self._rewind(4 * (tries - spent))
            mult = np.sqrt(-2.0 * np.log(r2[hits]) / r2[hits])
            values.append(np.stack([y[hits] * mult, x[hits] * mult], 1).reshape(-1))
            ends.append(used + 4 * (hits + 1))
            used += 4 * spent
            have += len(hits)
        if not values:
            return np.empty(0), np.empty(0, np.int64)
        return np.concatenate(values), np.concatenate(ends)

    def truncated_normal_doubles(self, n: int, keep) -> np.ndarray:
        """Draws of one ``std::normal_distribution<double>`` for which ``keep(values)`` is
        True, until ``n`` are kept (MindSpore's ``TruncatedNormal`` and the normal case of
        ``ParameterizedTruncatedNormal``; the pending second value of the last pair is
        dropped with the distribution)."""
        kept: list[np.ndarray] = []
        have = 0
        while have < n:
            need = n - have
            values, ends = self.normal_double_pairs(max(need // 2, 1))
            hits = np.flatnonzero(keep(values))
            if len(hits) > need:
                hits = hits[:need]
                self._rewind(int(ends[-1] - ends[hits[-1] // 2]))
            kept.append(values[hits])
            have += len(hits)
        return np.concatenate(kept) if kept else np.empty(0)

    def accepted_double_pairs(self, n: int, accept) -> np.ndarray:
        """Pairs ``(u, v)`` of :meth:`canonical_doubles` (two outputs each), tried in turn
        until ``n`` pairs pass ``accept(u, v)`` (a rejection sampler's loop): the accepted
        pairs, shape ``(n, 2)``."""
        kept: list[np.ndarray] = []
        have = 0
        while have < n:
            tries = 2 * (n - have) + 16
            u = self.canonical_doubles(2 * tries).reshape(tries, 2)
            hits = np.flatnonzero(accept(u[:, 0], u[:, 1]))
            if len(hits) > n - have:
                hits = hits[:n - have]
                self._rewind(4 * (tries - int(hits[-1]) - 1))
            kept.append(u[hits])
            have += len(hits)
        return np.concatenate(kept) if kept else np.empty((0, 2))

    def permutation(self, n: int) -> np.ndarray:
        """``std::shuffle`` of ``0..n-1`` as libstdc++ does it (MindSpore's RandomShuffle):
        while ``n**2`` fits the engine's range, one draw ``x`` from ``[0, s (s + 1))`` swaps
        two elements at a time (positions ``x // (s + 1)`` and ``x % (s + 1)``), after a
        first single swap when ``n`` is even; else one draw from ``[0, i]`` per position
        ``i``. Each draw rejects outputs at or above the largest multiple of its span."""
        if n <= 1:  # nothing to swap: no draw
            return np.arange(n)
        perm = list(range(n))
        top = _MINSTD_M - 2  # the engine's outputs less one span [0, top]
        raw = self.draw(max(16, n))
        used = 0

        def uniform(high: int) -> int:  # one draw from [0, high]
            nonlocal raw, used
            scaling = top // (high + 1)
            past = (high + 1) * scaling
            while True:
                if used == len(raw):
                    raw, used = self.draw(len(raw)), 0
                value = int(raw[used]) - 1
                used += 1
                if value < past:
                    return value // scaling

        if top // n >= n:
            i = 1
            if n % 2 == 0:
                j = uniform(1)
                perm[1], perm[j] = perm[j], perm[1]
                i = 2
            while i < n:
                span = i + 1
                x = uniform(span * (span + 1) - 1)
                a, b = x // (span + 1), x % (span + 1)
                perm[i], perm[a] = perm[a], perm[i]
                perm[i + 1], perm[b] = perm[b], perm[i + 1]
                i += 2
        else:
            for i in range(1, n):
                j = uniform(i)
                perm[i], perm[j] = perm[j], perm[i]
        self._rewind(len(raw) - used)
        return np.array(perm, np.int64)

    def _rewind(self, k: int) -> None:
        """Step the engine back ``k`` outputs (multiply by the inverse of 16807**k)."""
        inverse = pow(_MINSTD_A, -k, _MINSTD_M) if k else 1
        self.state = self.state * inverse % _MINSTD_M


class Mt19937:
    """``std::mt19937`` seeded with an integer (its low 32 bits, ``init_genrand``)."""

    def __init__(self, seed: int):
        self._rs = np.random.RandomState(seed & 0xFFFFFFFF)

    def draw(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit outputs (uint64)."""
        return self._rs.randint(0, 1 << 32, size=n, dtype=np.uint32).astype(np.uint64)

    def canonical_doubles(self, n: int) -> np.ndarray:
        """``generate_canonical<double, 53>``: two outputs ``(a + b 2**32) / 2**64`` (the
        sum rounded to a double), kept below 1."""
        w = self.draw(2 * n).astype(np.float64)
        u = (w[0::2] + w[1::2] * 4294967296.0) / 18446744073709551616.0
        return np.minimum(u, np.nextafter(1.0, 0.0))

    def double_stream(self) -> Iterator[float]:
        """The doubles of :meth:`canonical_doubles`, one at a time, for kernels that take a
        varying number per output (rejection sampling); closing the iterator leaves the
        engine just past the last double taken."""
        block = 64
        while True:
            saved = self._rs.get_state()
            values = self.canonical_doubles(block).tolist()
            taken = 0
            try:
                for u in values:
                    taken += 1
                    yield u
            finally:
                if taken < len(values):  # closed early: give the rest back
                    self._rs.set_state(saved)
                    self.draw(2 * taken)
            block = min(2 * block, 1 << 16)

    def uniform_ints(self, n: int, low: int, high: int) -> np.ndarray:
        """``std::uniform_int_distribution<int>(low, high)`` (inclusive), as MindSpore's
        libstdc++ draws it: one 32-bit output ``x`` per draw, rejected while ``x`` is at or
        above ``span * scaling`` (``scaling = (2**32 - 1) // span``), else ``x // scaling``."""
        span = high - low + 1
        scaling = 0xFFFFFFFF // span
        past = np.uint64(span * scaling)
        picked: list[np.ndarray] = []
        need = n
        while need:
            draws = self.draw(need)
            keep = draws[draws < past]
            picked.append(keep // np.uint64(scaling))
            need -= len(keep)
        out = np.concatenate(picked) if picked else np.empty(0, np.uint64)
        return (out.astype(np.int64) + low).astype(np.int32)


class KernelStreams:
    """The mutable state of one random kernel (a primitive instance or a graph node): one
    entry per key (an engine kind, the seeds and the output shape, as MindSpore makes one
    kernel per shape), made when first used. A copy (a pickled graph) starts afresh, as a
    newly built MindSpore kernel does."""

    __slots__ = ("_slots",)

    def __init__(self):
        self._slots: dict = {}

    def slot(self, key: tuple, make):
        """The state kept under ``key`` (``make()`` on first use)."""
        found = self._slots.get(key)
        if found is None:
            found = self._slots[key] = make()
        return found

    def __reduce__(self):
        return KernelStreams, ()

    def __repr__(self) -> str:
        return "KernelStreams()"


def engine_for(streams: KernelStreams | None, kind: type, seed: int, seed2: int,
               shape: tuple, fresh_seed) -> MinstdRand0 | Mt19937:
    """The engine a kernel launch draws from: its ``streams`` one, seeded from
    ``mix_seeds(seed, seed2)`` (a fresh one without streams); seeds ``(0, 0)`` mean
    MindSpore's unseeded draw, here ``fresh_seed()``."""
    if seed == 0 and seed2 == 0:
        return kind(fresh_seed())
    if streams is None:
        return kind(mix_seeds(seed, seed2))
    key = (kind, seed, seed2, tuple(int(d) for d in shape))
    return streams.slot(key, lambda: kind(mix_seeds(seed, seed2)))


def size(shape) -> int:
    """The number of elements of ``shape``."""
    return math.prod(int(d) for d in shape)
