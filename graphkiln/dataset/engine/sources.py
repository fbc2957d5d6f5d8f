"""Sources from Python data: ``GeneratorDataset`` (generator, iterable or random-access
object) and ``NumpySlicesDataset``; and ``RandomAccessDataset``, the base of every source
read by index through a sampler."""
from __future__ import annotations

import itertools
import json
import os

import numpy as np

from ...common import dtype as mstype
from ..stdrandom import MT19937
from .cache import cached_rows, check_cache
from .column_values import as_column
from .datasets import Dataset, as_list, check_workers
from .samplers import PKSampler, select
from .workers import OpFailed


class RandomAccessDataset(Dataset):
    """A source of ``_length()`` rows read by index (``_read(i)``) in the sampler's order.

    ``cheap_reads`` sources (data already in memory) read inline; others read on
    ``num_parallel_workers`` threads, or processes with ``python_multiprocessing``.
    """

    cheap_reads = False
    default_shuffle = True
    cacheable = True  # False for MindSpore's GeneratorOp family, which no cache may hold

    def __init__(self, num_parallel_workers=None, shuffle=None, sampler=None, num_samples=None,
                 num_shards=None, shard_id=None, python_multiprocessing: bool = False,
                 cache=None):
        super().__init__((), num_parallel_workers)
        self.sampler = select(sampler, shuffle, num_samples, num_shards, shard_id,
                              self.default_shuffle)
        if isinstance(self.sampler, PKSampler) and \
                type(self)._class_rows is RandomAccessDataset._class_rows:
            raise ValueError(f"{type(self).__name__} doesn't support PKSampler.")
        self.num_shards = num_shards
        self.python_multiprocessing = python_multiprocessing
        self.cache = check_cache(cache)
        self._cache_token = None if cache is None else cache.attach()

    def _length(self) -> int:
        raise NotImplementedError

    def _read(self, index: int) -> tuple:
        raise NotImplementedError

    def _class_rows(self, column: str) -> dict:
        """Each class's rows (label -> indices) by ``column``, for a ``PKSampler`` (sources
        that know their classes define it)."""

    def _sampler(self):
        """The sampler, told the classes' rows first if it samples per class."""
        if isinstance(self.sampler, PKSampler) and self.sampler.classes is None:
            self.sampler.classes = self._class_rows(self.sampler.class_column)
        return self.sampler

    def _num_rows(self):
        return self._sampler().size(self._length())

    def _read_many(self, indices: np.ndarray) -> tuple | None:
        """The rows at ``indices`` stacked per column, for sources holding arrays in memory
        (None: read row by row)."""
        return None

    def _indices(self, run) -> np.ndarray:
        """The pass's sampler order, less the rows a resumed run skips by index."""
        n = self._length()
        indices = run.sampler_indices(self, self._sampler(), n)
        indices = self.sampler.indices(n, run.rng(self)) if indices is None else indices
        skip = run.inputs_to_skip(self)
        return indices[skip:] if skip else indices

    def _skip_below_maps(self, run, rows):  # skipped by index, unread (a cache reads all)
        if self.cache is not None:
            return rows
        run.skip_inputs(self, rows)
        return 0

    def _skips_cheaply(self):  # a skipped pass only moves the sampler's stream on
        return self.cache is None

    def _skip_pass(self, run):
        self._indices(run)

    def _random_part(self, seed, total, start, stop):
        """MindSpore's split of a source read by index: a ``RandomSampler`` that never
        reshuffles (``std::shuffle`` with ``mt19937(seed)``) over this source's own order,
        positions ``start:stop`` of it, in that order."""
        order = list(range(total))
        MT19937(seed).shuffle(order)
        return _SplitPart(self, order[start:stop])

    def _batched_rows(self, run, size, drop_remainder):
        if (not self.cheap_reads or self.cache is not None
                or self._read_many(np.zeros(0, np.int64)) is None):
            return None
        indices = self._indices(run)
        stop = len(indices) - len(indices) % size if drop_remainder else len(indices)
        return (self._read_many(indices[i:i + size]) for i in range(0, stop, size))

    def _rows(self, run):
        indices = self._indices(run).tolist()
        if self.cache is None:
            yield from self._read_rows(run, indices)
            return
        yield from cached_rows(self.cache, self._cache_token, indices,
                               lambda: self._read_rows(run, indices))

    def _read_rows(self, run, indices: list[int]):
        workers = self._workers()
        if self.cheap_reads or workers == 1:
            yield from map(self._read, indices)
            return
        pool = run.pool(self, self._read, workers, self.python_multiprocessing)
        yield from pool.imap(indices)


class _SplitPart(Dataset):
    """One part of a randomized split of ``source``: its rows at ``positions`` of its own
    order for the pass, in the order of ``positions``."""

    def __init__(self, source: RandomAccessDataset, positions: list[int]):
        super().__init__([source])
        self.positions = positions

    def _num_rows(self):
        return len(self.positions)

    def _rows(self, run):
        source = self.children[0]
        indices = source._indices(run)
        for p in self.positions:
            yield source._read(int(indices[p]))


def _row(value, names: list[str], types: list | None) -> tuple:
    """A source's item as a tuple of ndarrays, one per column."""
    if isinstance(value, tuple) or (isinstance(value, list) and len(names) > 1):
        row = tuple([v if type(v) is np.ndarray else as_column(v) for v in value])
    else:
        row = (as_column(value),)
    for i, a in enumerate(row, 1):  # None, or objects NumPy cannot type (MindSpore's check)
        if isinstance(a, np.ndarray) and a.dtype == object:
            raise TypeError(f"Data type of {i}th item of the input or its converted Numpy "
                            "array is expected to be int or float or str, but got object.")
    if len(row) != len(names):
        raise RuntimeError(f"Invalid data, the number of columns returned by the source "
                           f"({len(row)}) does not match column_names {names}: return one "
                           f"value per column.")
    if types is not None:
        row = tuple(a.astype(t.np_dtype, copy=False) for a, t in zip(row, types))
    return row


def _type_name(de_type) -> str:
    """A column type's name in schema JSON (``int32``, ``float32``, ``string``...)."""
    if de_type == mstype.string or de_type in ("string", "bytes", str):
        return "string" if de_type != "bytes" else "bytes"
    try:
        return mstype.to_type(de_type).np_dtype.name
    except TypeError:
        raise TypeError(f"Unknown column type {de_type!r}: give a mindspore type (such as "
                        f"mindspore.int32) or its name (such as 'int32').") from None


class Schema:
    """Column names, types and shapes of a source (``GeneratorDataset``, ``TFRecordDataset``),
    built with ``add_column`` or read from MindSpore's schema JSON file."""

    def __init__(self, schema_file: str | None = None):
        self.columns: list[dict] = []
        self.dataset_type = ""
        self.num_rows = 0
        if schema_file is not None:
            if not isinstance(schema_file, str) or not os.path.isfile(schema_file):
                raise ValueError(f"The file {schema_file} does not exist or permission denied!")
            with open(schema_file, encoding="utf-8") as f:
                try:
                    self.from_json(json.load(f))
                except json.JSONDecodeError as exc:
                    raise RuntimeError(f"Schema file {schema_file} is not valid JSON: "
                                       f"{exc}.") from None

    def add_column(self, name: str, de_type=None, shape=None) -> None:
        """Add a column; ``de_type`` is a mindspore type or its name, ``shape`` a list."""
        if not isinstance(name, str) or not name:
            raise TypeError("Column name should be a non-empty str.")
        type_name = _type_name(de_type) if de_type is not None else None
        if shape is not None and (not isinstance(shape, (list, tuple)) or not all(
                isinstance(d, int) for d in shape)):
            raise TypeError(f"Column {name!r}: shape should be a list of int, got {shape!r}.")
        np_type = None if type_name is None else (
            mstype.string if type_name in ("string", "bytes") else mstype.from_numpy(type_name))
        self.columns.append({"name": name, "type": np_type, "type_name": type_name,
                             "shape": None if shape is None else list(shape)})

    def parse_columns(self, columns) -> None:
        """Add columns from MindSpore's JSON form: a dict of name: {type, shape} or a list
        of {name, type, shape}."""
        items = columns.items() if isinstance(columns, dict) else (
            (c.get("name"), c) for c in columns)
        for name, spec in items:
            if "type" not in spec:
                raise RuntimeError(f"Column {name!r} in the schema has no 'type'.")
            self.add_column(name, spec["type"], spec.get("shape"))

    def from_json(self, json_obj: dict) -> None:
        """Read ``columns`` (required), ``datasetType`` and ``numRows``."""
        if "columns" not in json_obj:
            raise RuntimeError("Schema JSON has no 'columns'.")
        self.dataset_type = json_obj.get("datasetType", "")
        self.num_rows = int(json_obj.get("numRows", 0))
        self.parse_columns(json_obj["columns"])

    def to_json(self) -> str:
        columns = []
        for c in self.columns:
            col = {"name": c["name"], "rank": 1 if c["shape"] is None else len(c["shape"])}
            if c["shape"] is not None:
                col["shape"] = c["shape"]
            col["type"] = c["type_name"]
            columns.append(col)
        out: dict = {"columns": columns}
        if self.dataset_type:
            out["datasetType"] = self.dataset_type
        if self.num_rows:
            out["numRows"] = self.num_rows
        return json.dumps(out, indent=2, sort_keys=True)

    def __str__(self) -> str:
        return self.to_json()


class GeneratorDataset(RandomAccessDataset):
    """Rows from Python: a generator function, an iterable, or an object with
    ``__getitem__`` and ``__len__`` (random access, so shuffling, samplers and sharding)."""

    cacheable = False

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True,
                 max_rowsize=None):
        self.source = source
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not self.random_access and not callable(source) and not hasattr(source, "__iter__"):
            raise TypeError("Input source should be callable, iterable or random accessible.")
        if schema is not None:
            column_names = [c["name"] for c in schema.columns]
            column_types = [c["type"] for c in schema.columns]
            if any(t is None for t in column_types):
                column_types = None
        if column_names is None:
            raise ValueError("Neither columns_names nor schema are provided.")
        self.names = as_list(column_names, "column_names")
        self.types = None if column_types is None else [mstype.to_type(t) for t in
                                                        column_types]
        if self.types is not None and len(self.types) != len(self.names):
            raise ValueError("column_names and column_types should have the same length.")
        if self.random_access:
            super().__init__(num_parallel_workers, shuffle, sampler, num_samples, num_shards,
                             shard_id, python_multiprocessing)
            return
        if sampler is not None or num_shards is not None:
            raise ValueError("sampler and num_shards/shard_id need a random-access source "
                             "(with __getitem__ and __len__).")
        check_workers(num_parallel_workers)
        Dataset.__init__(self, (), num_parallel_workers)
        self.sampler = None
        self.num_samples = num_samples

    def _columns(self):
        return list(self.names)

    def _length(self):
        return len(self.source)

    def _read(self, index):
        try:
            return _row(self.source[index], self.names, self.types)
        except Exception as exc:
            raise OpFailed("GeneratorDataset") from exc

    def _skips_cheaply(self):  # a generator or iterable may keep state between passes
        return self.random_access and super()._skips_cheaply()

    def _skip_below_maps(self, run, rows):
        return super()._skip_below_maps(run, rows) if self.random_access else rows

    def _num_rows(self):
        if self.random_access:
            return super()._num_rows()
        if hasattr(self.source, "__len__"):
            n = len(self.source)
            return min(n, self.num_samples) if self.num_samples else n
        return None

    def _rows(self, run):
        if self.random_access:
            yield from super()._rows(run)
            return
        items = iter(self.source() if callable(self.source) else self.source)
        if self.num_samples:
            items = itertools.islice(items, self.num_samples)
        while True:
            try:
                row = _row(next(items), self.names, self.types)
            except StopIteration:
                return
            except Exception as exc:
                raise OpFailed("GeneratorDataset") from exc
            yield row


class NumpySlicesDataset(RandomAccessDataset):
    """Rows sliced along the first axis of lists, tuples (one column each), dicts (named
    columns) or arrays."""

    cheap_reads = True
    cacheable = False

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        super().__init__(num_parallel_workers, shuffle, sampler, num_samples, num_shards,
                         shard_id)
        if isinstance(data, dict):
            names, cols = list(data), list(data.values())
        elif isinstance(data, tuple):
            names, cols = [f"column_{i}" for i in range(len(data))], list(data)
        elif isinstance(data, (list, np.ndarray)):
            names, cols = ["column_0"], [data]
        else:
            raise TypeError(f"Unsupported data type {type(data).__name__}: NumpySlicesDataset "
                            "takes a list, tuple, dict or numpy.ndarray.")
        if column_names is not None:
            names = as_list(column_names, "column_names")
        self.columns = [_sliceable(c) for c in cols]
        if len(names) != len(self.columns):
            raise ValueError(f"column_names {names} should name each of the "
                             f"{len(self.columns)} columns.")
        if any(np.ndim(c) == 0 for c in self.columns if isinstance(c, np.ndarray)):
            raise ValueError("Each column of NumpySlicesDataset needs at least one dimension.")
        if len({len(c) for c in self.columns}) > 1:
            raise ValueError("All columns of NumpySlicesDataset should have the same length "
                             "along the first axis.")
        self.names = names

    def _columns(self):
        return list(self.names)

    def _length(self):
        return len(self.columns[0])

    def _read(self, index):
        return tuple(c[index] if isinstance(c, list) else c[index, ...] for c in self.columns)

    def _read_many(self, indices):
        if any(isinstance(c, list) for c in self.columns):
            return None
        return tuple(c[indices] for c in self.columns)


def _sliceable(values):
    """A column as an array sliced along its first axis or, when its rows differ in shape
    (MindSpore converts them one by one), a list of the rows' arrays."""
    try:
        return np.asarray(values)
    except ValueError:
        return [as_column(v) for v in values]


class PaddedDataset(RandomAccessDataset):
    """Rows given as dicts (all with the same keys, in that column order); used to pad a
    dataset (``concat``) to a size that shards evenly."""

    cheap_reads = True
    cacheable = False
    default_shuffle = False

    def __init__(self, padded_samples: list[dict]):
        super().__init__(1)
        if not isinstance(padded_samples, list) or not padded_samples or not all(
                isinstance(r, dict) for r in padded_samples):
            raise TypeError("padded_samples should be a non-empty list of dict.")
        self.names = list(padded_samples[0])
        if any(list(r) != self.names for r in padded_samples):
            raise ValueError("Every padded sample should have the same keys, in the same order.")
        self.samples = [tuple(as_column(r[k]) for k in self.names) for r in padded_samples]

    def _columns(self):
        return list(self.names)

    def _length(self):
        return len(self.samples)

    def _read(self, index):
        return self.samples[index]
