"""Randomness of pipelines and random transforms.

With ``config.set_seed(s)`` (any ``s`` but MindSpore's default 5489, which MindSpore treats
as "no seed"), every random op draws MindSpore 2.10's stream: each random transform of a
``map`` owns a ``std::mt19937`` seeded with ``s + w`` in worker ``w`` of the ``map``
(rows go to the workers in turn, and each end of a pass takes a turn too), made
when the iterator is created and drawn from across epochs; an eager call seeds a fresh one
with ``s``. Without a seed, a ``map``'s random choices for a row come from a NumPy
generator keyed on (run seed, node, epoch, row): fresh every run, and independent of which
worker runs the row.

Transforms draw through :func:`draws`, whose result has the methods of
:class:`~.stdrandom.MT19937` (``uniform_int``, ``uniform_float``, ``uniform_double``,
``bernoulli``, ``shuffle``).
"""
from __future__ import annotations

import secrets
import threading

import numpy as np

from .config import get_seed, seed_was_set
from .stdrandom import MT19937

_local = threading.local()
_MINDSPORE_DEFAULT_SEED = 5489


def root_seed() -> int:
    """The user's seed if set, else fresh entropy (a new order every run, as MindSpore)."""
    return get_seed() if seed_was_set() else secrets.randbits(32)


def mindspore_seeded() -> bool:
    """Whether MindSpore's ``GetSeed()`` would give the configured seed: it was set, to
    something other than MindSpore's default (5489 means "draw a fresh seed" there)."""
    return seed_was_set() and get_seed() != _MINDSPORE_DEFAULT_SEED


def keyed(*key: int) -> np.random.Generator:
    """A generator determined by ``key`` alone."""
    return np.random.Generator(np.random.PCG64(list(key)))


class NumpyDraws:
    """The draw methods of :class:`~.stdrandom.MT19937`, from a NumPy generator."""

    def __init__(self, gen: np.random.Generator):
        self.gen = gen

    def uniform_int(self, a: int, b: int) -> int:
        return int(self.gen.integers(a, b + 1))

    def uniform_float(self, a, b) -> np.float32:
        return np.float32(self.gen.uniform(float(a), float(b)))

    def uniform_double(self, a: float, b: float) -> float:
        return float(self.gen.uniform(a, b))

    def bernoulli(self, p: float) -> bool:
        return bool(self.gen.random() < p)

    def shuffle(self, items: list) -> None:
        self.gen.shuffle(items)


class RowDraws:
    """Every op of a row draws from one keyed generator (no seed set)."""

    def __init__(self, key: tuple):
        self.draws = NumpyDraws(keyed(*key))

    def for_op(self, op) -> NumpyDraws:
        return self.draws


class WorkerStreams:
    """The ops of one MindSpore ``map`` worker: a ``std::mt19937(seed)`` per op."""

    def __init__(self, seed: int):
        self.seed = seed
        self._engines: dict[int, tuple] = {}

    def for_op(self, op) -> MT19937:
        entry = self._engines.get(id(op))
        if entry is None:  # keep the op alive with its engine, so its id stays its own
            entry = self._engines[id(op)] = (op, MT19937(self.seed))
        return entry[1]


class MapStreams:
    """MindSpore's random state of one ``map`` in one iterator: ``workers`` copies of its
    ops, seeded ``seed + w``; rows go to the workers in turn, an end of pass takes a turn."""

    def __init__(self, seed: int, workers: int):
        self._seed = seed
        self._count = workers
        self.restart()

    def restart(self) -> None:
        """Back to the streams' first draws and the first worker's turn."""
        self.workers = [WorkerStreams((self._seed + w) & 0xFFFFFFFF) for w in range(self._count)]
        self._turn = 0

    def next_row(self) -> tuple[int, WorkerStreams]:
        """The worker (its index and streams) whose turn the next row is."""
        w = self._turn % len(self.workers)
        self._turn += 1
        return w, self.workers[w]

    def end_pass(self) -> None:
        self._turn += 1


def set_current(streams) -> None:
    """Make ``streams`` (a :class:`RowDraws` or :class:`WorkerStreams`) what random
    transforms draw from in this thread (None: eager calls)."""
    _local.streams = streams


def draws(op):
    """What ``op`` draws from now: its stream in the running ``map``, or for an eager call
    a fresh ``std::mt19937`` seeded as MindSpore's eager ops are (fresh entropy without a
    seed)."""
    streams = getattr(_local, "streams", None)
    if streams is not None:
        return streams.for_op(op)
    if mindspore_seeded():
        return MT19937(get_seed())
    return NumpyDraws(np.random.default_rng())
