"""Samplers: which row indices of a random-access source an epoch reads, in which order."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..config import get_seed
from ..stdrandom import MT19937


def _check_num_samples(num_samples) -> None:
    if num_samples is None:
        return
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError(f"Argument num_samples with value {num_samples!r} is not of type "
                        f"[<class 'int'>].")
    if num_samples < 0:
        raise ValueError(f"num_samples should be a non-negative integer, but got "
                         f"{num_samples}.")


class Sampler:
    """Base of the samplers; a subclass yields indices from ``__iter__`` (user samplers)
    or overrides ``indices``."""

    def __init__(self, num_samples: int | None = None):
        _check_num_samples(num_samples)
        self.num_samples = num_samples or None
        self.dataset_size = 0

    def indices(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """This epoch's indices into a source of ``n`` rows."""
        self.dataset_size = n
        return self.limit(np.fromiter((int(i) for i in self), dtype=np.int64))

    def limit(self, idx: np.ndarray) -> np.ndarray:
        return idx[:self.num_samples] if self.num_samples else idx

    def size(self, n: int) -> int | None:
        """Rows per epoch over a source of ``n`` rows (None: known only by running)."""
        return None

    def get_num_samples(self) -> int | None:
        return self.num_samples


class SequentialSampler(Sampler):
    """Indices ``start_index, start_index + 1, ...``."""

    def __init__(self, start_index: int | None = None, num_samples: int | None = None):
        super().__init__(num_samples)
        if start_index is not None and (not isinstance(start_index, int) or start_index < 0):
            raise ValueError(f"start_index should be a non-negative int, got {start_index!r}.")
        self.start_index = start_index or 0

    def indices(self, n, rng):
        if self.start_index >= max(n, 1):
            raise RuntimeError(f"Invalid start_index {self.start_index}: the dataset has "
                               f"{n} rows.")
        return self.limit(np.arange(self.start_index, n))

    def size(self, n):
        return len(self.limit(np.arange(self.start_index, n)))


class RandomSampler(Sampler):
    """A random permutation (or draws with ``replacement``), new every epoch."""

    def __init__(self, replacement: bool = False, num_samples: int | None = None):
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value.")
        self.replacement = replacement

    def indices(self, n, rng):
        if self.replacement:
            return rng.integers(0, n, size=self.size(n))
        return self.limit(rng.permutation(n))

    def size(self, n):
        return min(n, self.num_samples or n)  # MindSpore draws at most n, even with replacement


class BufferShuffleSampler(RandomSampler):
    """The shuffle of a text, CSV or TFRecord reader: MindSpore shuffles the files
    (``shuffle_files``) and its rows through a shuffle buffer (``shuffle_rows``), see
    ``seeded_samplers``; ``file_positions()`` gives each file's rows (positions in the
    reader's unshuffled order). Unseeded: a permutation, as ``RandomSampler``."""

    def __init__(self, num_samples, file_positions: Callable[[], list[list[int]]],
                 workers: int, shuffle_files: bool = True, shuffle_rows: bool = True):
        super().__init__(num_samples=num_samples)
        self.file_positions = file_positions
        self.workers = workers
        self.shuffle_files, self.shuffle_rows = shuffle_files, shuffle_rows

    def indices(self, n, rng):
        return rng.permutation(self.size(n))  # the first rows read, in a random order


class PKSampler(Sampler):
    """``num_val`` rows of every class (classes in label order, or shuffled once), each
    drawn at random from its class's rows, as MindSpore's: pass ``k`` draws from
    ``std::mt19937(seed + k)``, the first pass's engine also shuffling the classes. Only
    sources that know their rows' classes take it (MNIST, CIFAR, ImageFolder)."""

    def __init__(self, num_val: int, num_class=None, shuffle: bool = False,
                 class_column: str = "label", num_samples: int | None = None):
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be a boolean value but was: {shuffle}.")
        if not isinstance(class_column, str):
            raise TypeError(f"class_column must be a str value but was: {class_column}.")
        if num_samples is not None and (isinstance(num_samples, int) and num_samples < 0):
            raise ValueError("num_samples exceeds the boundary between 0 and "
                             "9223372036854775807(INT64_MAX)!")
        super().__init__(num_samples)
        self.num_val = num_val
        self.shuffle = shuffle
        self.class_column = class_column
        self.classes: dict | None = None  # label -> its rows, given by the source

    def size(self, n):
        total = self.num_val * sum(1 for rows in self.classes.values() if rows)
        return min(self.num_samples or total, total)

    def indices(self, n, rng):
        return self.draw(int(rng.integers(2**32)), 0)

    def draw(self, seed: int, k: int) -> np.ndarray:
        """Pass ``k``'s rows from ``seed``."""
        engine = MT19937(seed)
        labels = sorted(label for label, rows in self.classes.items() if rows)
        if self.shuffle:
            engine.shuffle(labels)
        if k:
            engine = MT19937(seed + k)
        picks = []
        for i in range(self.size(0)):
            rows = self.classes[labels[i // self.num_val]]
            picks.append(rows[engine.uniform_int(0, len(rows) - 1)])
        return np.array(picks, dtype=np.int64)


class MindRecordSampler(RandomSampler):
    """A ``MindDataset``'s shuffle: MindSpore's MindRecord ``ShardShuffle`` (see
    ``seeded_samplers``); unseeded, as ``RandomSampler``."""


class SubsetSampler(Sampler):
    """The given indices, in order."""

    def __init__(self, indices, num_samples: int | None = None):
        super().__init__(num_samples)
        self.subset = np.asarray(list(indices), dtype=np.int64).reshape(-1)

    def indices(self, n, rng):
        self.check_range(n)
        return self.limit(self._order(rng))

    def check_range(self, n: int) -> None:
        bad = self.subset[(self.subset < 0) | (self.subset >= n)]
        if bad.size:
            raise RuntimeError(f"Sample index {int(bad[0])} is out of the dataset range "
                               f"[0, {n}).")

    def _order(self, rng):
        return self.subset

    def size(self, n):
        return len(self.limit(self.subset))


class SubsetRandomSampler(SubsetSampler):
    """The given indices (the first ``num_samples`` of them), in a new random order every
    epoch."""

    def _order(self, rng):
        return rng.permutation(self.limit(self.subset))


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``."""

    def __init__(self, weights, num_samples: int | None = None, replacement: bool = True):
        super().__init__(num_samples)
        w = np.asarray(weights, dtype=np.float64)
        if w.ndim != 1 or w.size == 0 or (w < 0).any() or w.sum() <= 0:
            raise ValueError("weights should be a non-empty list of non-negative numbers, "
                             "not all zero.")
        self.raw_weights = w.tolist()
        self.weights = w / w.sum()
        self.replacement = replacement

    def indices(self, n, rng):
        return rng.choice(len(self.weights), size=self.size(n), replace=self.replacement,
                          p=self.weights)

    def size(self, n):
        return min(n, self.num_samples or n)  # as MindSpore: at most the source's rows


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: every ``num_shards``-th index from ``shard_id``,
    wrapping around so every shard gets ``ceil(n / num_shards)`` rows; ``shuffle`` permutes
    the whole set first, the same on every shard: as MindSpore, from one more than the seed
    configured when the sampler was made."""

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True,
                 num_samples: int | None = None, offset: int = -1):
        super().__init__(num_samples)
        check_shards(num_shards, shard_id)
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.shuffle = shuffle
        self.offset = offset
        self.seed = (get_seed() + 1) % 2**32

    def indices(self, n, rng):
        return self.pick(rng.permutation(n) if self.shuffle else np.arange(n))

    def pick(self, order: np.ndarray) -> np.ndarray:
        """This shard's rows of the whole set's ``order``."""
        n = len(order)
        per_shard = -(-n // self.num_shards)
        picks = (self.shard_id + self.num_shards * np.arange(per_shard)) % max(n, 1)
        return self.limit(order[picks] if n else order)

    def size(self, n):
        return min(-(-n // self.num_shards), self.num_samples or n)


def check_shards(num_shards, shard_id) -> None:
    """MindSpore's checks of a ``num_shards``/``shard_id`` pair."""
    if (num_shards is None) != (shard_id is None):
        raise RuntimeError("num_shards and shard_id need to be passed in together.")
    if num_shards is None:
        return
    if isinstance(num_shards, bool) or not isinstance(num_shards, int) or num_shards <= 0:
        raise ValueError("Input num_shards is not within the required interval of "
                         "[1, 2147483647].")
    if isinstance(shard_id, bool) or not isinstance(shard_id, int) or not (
            0 <= shard_id < num_shards):
        raise ValueError(f"Input shard_id is not within the required interval of "
                         f"[0, {num_shards - 1}].")


def select(sampler, shuffle, num_samples, num_shards, shard_id,
           default_shuffle: bool = True) -> Sampler:
    """The sampler a source's ``sampler``/``shuffle``/``num_samples``/``num_shards``
    arguments describe, with MindSpore's rules for combining them."""
    check_shards(num_shards, shard_id)
    _check_num_samples(num_samples)
    if sampler is not None:
        if shuffle is not None:
            raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
        if num_shards is not None:
            raise RuntimeError("sampler and sharding cannot be specified at the same time.")
        if isinstance(sampler, Sampler):
            return sampler
        if isinstance(sampler, (list, tuple, np.ndarray)):
            return SubsetSampler(sampler, num_samples)
        if hasattr(sampler, "__iter__") or (hasattr(sampler, "__getitem__")
                                            and hasattr(sampler, "__len__")):
            return _IterableSampler(sampler, num_samples)
        raise TypeError("sampler should be a Sampler, a list of indices, an iterable of "
                        "indices or an object with __getitem__ and __len__.")
    shuffle = default_shuffle if shuffle is None else bool(shuffle)
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle, num_samples)
    return RandomSampler(num_samples=num_samples) if shuffle else SequentialSampler(
        num_samples=num_samples)


class _IterableSampler(Sampler):
    """A user object whose ``__iter__`` yields indices, or whose ``__getitem__`` gives
    index ``i`` for ``i < len(obj)``."""

    def __init__(self, source, num_samples):
        super().__init__(num_samples)
        self.source = source

    def indices(self, n, rng):
        items = self.source if hasattr(self.source, "__iter__") else (
            self.source[i] for i in range(len(self.source)))
        return self.limit(np.fromiter((int(i) for i in items), dtype=np.int64))
