"""MindSpore 2.10's seeded sampler streams (its C++ samplers, on :mod:`..stdrandom`).

A sampler's indices for pass ``k`` over its source (an epoch, or a repeat pass) evolve from
pass to pass, as MindSpore resets its samplers:

* ``RandomSampler``: ``std::shuffle`` of the previous pass's order with
  ``std::mt19937(seed + k)`` (the first pass shuffles ``0..n-1``); with ``replacement``,
  ``uniform_int_distribution(0, n - 1)`` draws from ``std::mt19937(seed + k)``;
* ``DistributedSampler`` with ``shuffle``: the ``RandomSampler`` order from its own seed,
  then every ``num_shards``-th row;
* ``SubsetRandomSampler``: its first ``num_samples`` indices, the previous pass's order
  shuffled again with ``std::mt19937(seed)``;
* ``WeightedRandomSampler``: the same draws every pass from ``std::mt19937(seed)``:
  ``discrete_distribution`` with replacement, else the ``num_samples`` smallest
  ``exponential(1) / weight`` keys;
* ``BufferShuffleSampler`` (a text, CSV or TFRecord reader's global shuffle): the file
  order (kept from pass to pass) shuffled again with ``std::mt19937(seed)``, the files
  dealt to the workers in turn and the workers' rows alternating (``interleave``), the
  first ``num_samples`` of them through MindSpore's shuffle buffer of
  ``min(rows // files * 4, 10000)`` rows, on one ``std::mt19937_64(seed)`` that runs on
  from pass to pass.

* ``PKSampler``: pass ``k`` draws from ``std::mt19937(seed + k)`` (``PKSampler.draw``);

* ``MindRecordSampler`` (a ``MindDataset``'s shuffle): the previous pass's order shuffled
  again with ``std::minstd_rand0(seed + 1 + k)`` (MindRecord's ``ShardShuffle`` moves its
  seed on before each shuffle).

``num_samples`` above the source's size counts as the size, as in MindSpore.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from ..stdrandom import MT19937, MT19937_64, MinStdRand0, discrete_cumulative
from .samplers import (
    BufferShuffleSampler,
    DistributedSampler,
    MindRecordSampler,
    PKSampler,
    RandomSampler,
    Sampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)


class PassStream:
    """Indices per pass: ``state = advance(state, k)`` pass after pass from ``start()``,
    the pass's indices ``finish(state)``."""

    def __init__(self, n: int, start: Callable, advance: Callable, finish: Callable):
        self.n = n
        self._start, self._advance, self._finish = start, advance, finish
        self._pass, self._state = -1, start()

    def indices(self, pass_number: int) -> np.ndarray:
        if pass_number < self._pass:  # a pass asked again after a later one: start over
            self._pass, self._state = -1, self._start()
        while self._pass < pass_number:
            self._pass += 1
            self._state = self._advance(self._state, self._pass)
        return self._finish(self._state)


def _count(sampler: Sampler, n: int) -> int:
    return min(sampler.num_samples or n, n)


def sampler_stream(sampler: Sampler, n: int, seed: int) -> PassStream | None:
    """MindSpore's stream of ``sampler`` over ``n`` rows from ``seed`` (None: the sampler
    draws nothing, or is not one of MindSpore's random samplers)."""
    kind = type(sampler)

    def reshuffled(order: list, k: int) -> list:
        MT19937(seed + k).shuffle(order)
        return order

    if kind is RandomSampler and sampler.replacement:
        def drawn(_, k):
            engine = MT19937(seed + k)
            return [engine.uniform_int(0, n - 1) for _ in range(_count(sampler, n))]
        return PassStream(n, list, drawn, np.array)
    if kind is MindRecordSampler and not sampler.replacement:
        def shard_shuffled(order: list, k: int) -> list:
            MinStdRand0((seed + 1 + k) & 0xFFFFFFFF).shuffle(order)  # a uint32 seed
            return order
        return PassStream(n, lambda: list(range(n)), shard_shuffled,
                          lambda order: sampler.limit(np.array(order, dtype=np.int64)))
    if kind is RandomSampler:
        return PassStream(n, lambda: list(range(n)), reshuffled,
                          lambda order: sampler.limit(np.array(order, dtype=np.int64)))
    if kind is DistributedSampler and sampler.shuffle:
        return PassStream(n, lambda: list(range(n)), reshuffled, lambda order: sampler.limit(
            sampler.pick(np.array(order, dtype=np.int64))))
    if kind is SubsetRandomSampler:
        sampler.check_range(n)

        def again(order: list, k: int) -> list:
            MT19937(seed).shuffle(order)
            return order
        # MindSpore keeps the first num_samples indices, then shuffles those
        return PassStream(n, lambda: sampler.limit(sampler.subset).tolist(), again,
                          lambda order: sampler.limit(np.array(order, dtype=np.int64)))
    if kind is BufferShuffleSampler:
        return PassStream(n, lambda: (MT19937_64(seed), None, []),
                          lambda state, k: _read_files(sampler, n, seed, state),
                          lambda state: np.array(state[2], dtype=np.int64))
    if kind is PKSampler:
        return PassStream(n, list, lambda _, k: sampler.draw(seed, k), np.array)
    if kind is WeightedRandomSampler:
        return PassStream(n, list, lambda _, k: _weighted(sampler, n, seed), np.array)
    return None


def _read_files(sampler: BufferShuffleSampler, n: int, seed: int, state: tuple) -> tuple:
    """One pass of a file reader's shuffle: (row engine, file order, row order)."""
    engine, keys, _ = state
    files = sampler.file_positions()
    keys = list(range(len(files))) if keys is None else keys
    if sampler.shuffle_files:
        MT19937(seed).shuffle(keys)
    rows = interleave([files[k] for k in keys], sampler.workers)[:_count(sampler, n)]
    if sampler.shuffle_rows:
        size = max(min(len(rows) // len(files) * 4, _MAX_SHUFFLE_BUFFER), 1)
        rows = list(shuffle_buffer(iter(rows), size, engine))
    return engine, keys, rows


_MAX_SHUFFLE_BUFFER = 10000


def interleave(per_file: list[list], workers: int) -> list:
    """MindSpore's reading order of several files: file ``i`` goes to worker
    ``i % workers``, each worker reads its files in turn, and the workers' rows alternate
    one by one (a worker that has finished drops out)."""
    streams = [[r for block in per_file[w::workers] for r in block] for w in range(workers)]
    return [r for turn in itertools.zip_longest(*streams, fillvalue=_END) for r in turn
            if r is not _END]


def _weighted(sampler: WeightedRandomSampler, n: int, seed: int) -> list[int]:
    engine = MT19937(seed)
    count = _count(sampler, n)
    if sampler.replacement:
        cumulative = discrete_cumulative(sampler.raw_weights)
        return [engine.discrete(cumulative) for _ in range(count)]
    draws = [engine.exponential() for _ in sampler.raw_weights]  # one per weight, even 0
    keys = [(d / w if w else math.inf, i) for i, (d, w) in enumerate(zip(draws,
                                                                          sampler.raw_weights))]
    return [i for _, i in sorted(keys)[:count]]


def shuffle_buffer(rows, size: int, engine: MT19937_64):
    """MindSpore's ``ShuffleOp`` over the iterator ``rows``: fill a buffer of ``size``;
    send out slot ``engine.next() % len(buffer)``, move the last row into the hole and put
    the next input row last; once the input ends, drain the buffer the same way."""
    buf = list(itertools.islice(rows, size))
    filling = len(buf) == size
    while buf:
        slot = engine.next() % len(buf)
        yield buf[slot]
        buf[slot] = buf[-1]
        row = next(rows, _END) if filling else _END
        if row is _END:
            filling = False
            buf.pop()
        else:
            buf[-1] = row


_END = object()
