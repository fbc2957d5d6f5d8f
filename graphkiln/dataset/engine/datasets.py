"""``Dataset``: the pipeline node every source and operation is, with MindSpore's methods.

A node knows its column names (``_columns``), its rows per epoch when cheap to know
(``_num_rows``, else None) and streams rows (``_rows(run)``: tuples of ndarrays). Operations
(batch, map, shuffle, ...) are nodes wrapping their input; nothing runs until an iterator pulls.
"""
from __future__ import annotations

import collections
import functools
import itertools
import multiprocessing
import operator
import secrets
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..config import get_num_parallel_workers, get_seed
from ..randomness import MapStreams, mindspore_seeded
from ..stdrandom import MT19937_64
from .batching import BatchInfo, pad_column, stack_column
from .cache import cached_rows, check_cache
from .column_errors import MISSING_COLUMN, ColumnError
from .column_values import stack_values
from .iterators import DictIterator, TupleIterator
from .mapping import OpChain
from .run import Run, pipeline_error
from .saving import save
from .seeded_samplers import shuffle_buffer
from .split_sizes import split_counts
from .sync import SyncGate, sync_update
from .workers import OpFailed, WorkerError

Row = tuple


def as_list(columns, name: str) -> list[str] | None:
    """A column argument (a name or a list of names) as a list; None stays None."""
    if columns is None:
        return None
    cols = [columns] if isinstance(columns, str) else list(columns)
    if not cols or not all(isinstance(c, str) and c for c in cols):
        raise TypeError(f"Argument {name} with value {columns!r} is not of type "
                        f"[<class 'str'>] or a non-empty list of str.")
    if len(set(cols)) != len(cols):
        raise ValueError(f"Argument {name} has duplicate column names: {cols}.")
    return cols


_INT32_MAX = 2**31 - 1


def int_arg(value, name: str) -> None:
    """MindSpore's TypeError for an argument that must be an int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"[<class 'int'>], but got {type(value)}.")


def positive_int(value, name: str, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    int_arg(value, name)
    if value <= 0:
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[1, 2147483647].")


def check_workers(num_parallel_workers) -> None:
    """As MindSpore: at least 1 and at most the machine's CPU count."""
    if num_parallel_workers is None:
        return
    if isinstance(num_parallel_workers, bool) or not isinstance(num_parallel_workers,
                                                                (int, np.integer)):
        positive_int(num_parallel_workers, "num_parallel_workers")  # MindSpore's TypeError
    cpus = multiprocessing.cpu_count()
    if not 1 <= num_parallel_workers <= cpus:
        raise ValueError(f"num_parallel_workers exceeds the boundary between 1 and {cpus}!")


class _PipelineNode(type):
    """Counts a node as a consumer of each of its children once it is built (a call that
    fails its argument checks builds nothing, as in MindSpore). An operation whose columns
    do not fit its input becomes a :class:`_Broken` node, which raises when the pipeline
    is built, as MindSpore's does."""

    def __call__(cls, *args, **kwargs):
        try:
            node = super().__call__(*args, **kwargs)
        except ColumnError as exc:
            inputs = [a for arg in args for a in (arg if isinstance(arg, (list, tuple))
                                                  else [arg]) if isinstance(a, Dataset)]
            return _Broken(inputs, exc)  # (counted by this same call)
        for child in node.children:
            child._consumers = getattr(child, "_consumers", 0) + 1
        return node


def _not_a_consumer(node: Dataset) -> Dataset:
    """``node``, an internal helper of another node, no longer counted as a consumer of its
    children (:meth:`Dataset.check_tree`)."""
    for child in node.children:
        child._consumers -= 1
    return node


class Dataset(metaclass=_PipelineNode):
    """A node of a data pipeline; every source and operation is one."""

    def __init__(self, children: Sequence[Dataset] = (), num_parallel_workers: int | None = None):
        check_workers(num_parallel_workers)
        self.children = list(children)
        self.num_parallel_workers = num_parallel_workers
        self._consumers = 0  # nodes built on this one (MindSpore's len(parent))
        self._init_step: int | None = None

    # ------------------------------------------------------------------ node interface
    def _columns(self) -> list[str]:
        return self.children[0]._columns()

    def _num_rows(self) -> int | None:
        return self.children[0]._num_rows()

    def _rows(self, run: Run) -> Iterator[Row]:
        raise NotImplementedError(f"{type(self).__name__} does not stream rows")

    def _batched_rows(self, run: Run, size: int, drop_remainder: bool) -> Iterator | None:
        """Whole batches read at once, for sources that can (None: batch row by row)."""
        return None

    def _workers(self) -> int:
        return self.num_parallel_workers or get_num_parallel_workers()

    def _skip_below_maps(self, run: Run, rows: int) -> int:
        """Move a resumed run's skip of this node's first ``rows`` outputs below the maps
        under it (MindSpore's skip pushdown); returns the rows still to skip here."""
        return rows

    def _skips_cheaply(self) -> bool:
        """Whether a resumed run can pass over a whole pass of this node without reading
        (``engine/resume.py``): every stream below advances as a read would advance it."""
        return bool(self.children) and all(c._skips_cheaply() for c in self.children)

    def _skip_pass(self, run: Run) -> None:
        """Advance the streams below as one pass would, reading no row."""
        for child in self.children:
            child._skip_pass(run)

    def _column_index(self, names: list[str], op: str) -> list[int]:
        cols = self._columns()
        missing = [n for n in names if n not in cols]
        if missing:
            raise ColumnError(MISSING_COLUMN[op].format(missing[0]))
        return [cols.index(n) for n in names]

    # ------------------------------------------------------------------ operations
    def batch(self, batch_size, drop_remainder: bool = False, num_parallel_workers=None,
              **kwargs) -> Dataset:
        """Stack ``batch_size`` consecutive rows per column (``per_batch_map``,
        ``input_columns``, ``output_columns``, ``python_multiprocessing`` as keywords)."""
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(self, batch_size, drop_remainder: bool = False, num_parallel_workers=None,
                     pad_info: dict | None = None) -> Dataset:
        """Batch rows after padding each listed column to a common shape."""
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                            pad_info=pad_info)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary: bool = False,
                               drop_remainder: bool = False) -> Dataset:
        """Batch rows of similar length together (length from ``element_length_function``
        of ``column_names``, or the first dimension of the one column)."""
        return BucketBatchDataset(self, column_names, bucket_boundaries, bucket_batch_sizes,
                                  element_length_function, pad_info, pad_to_bucket_boundary,
                                  drop_remainder)

    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, python_multiprocessing: bool = False, cache=None,
            callbacks=None, max_rowsize=16, offload=None) -> Dataset:
        """Apply ``operations`` (transforms or Python callables, chained) to columns."""
        return MapDataset(self, operations, input_columns, output_columns,
                          num_parallel_workers, python_multiprocessing, cache)

    def filter(self, predicate: Callable, input_columns=None,
               num_parallel_workers=None) -> Dataset:
        """Keep the rows for which ``predicate(*columns)`` is true."""
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def sync_wait(self, condition_name: str, num_batch: int = 1,
                  callback: Callable | None = None) -> Dataset:
        """Block after ``num_batch`` batches until ``sync_update`` (``engine/sync.py``)."""
        return SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name: str, num_batch: int | None = None,
                    data=None) -> None:
        """Let ``num_batch`` more batches past a sync point, after its callback(data)."""
        sync_update(self, condition_name, num_batch, data)

    def _is_sync(self) -> bool:  # a sync point below (no shuffle may follow)
        return any(child._is_sync() for child in self.children)

    def _sync_gates(self) -> dict:  # sync points by name, through first children
        return self.children[0]._sync_gates() if self.children else {}

    def _scale_sync(self, batch_size: int) -> None:  # a batch above: gates count its rows
        for child in self.children:
            child._scale_sync(batch_size)

    def _start_iterator(self) -> None:  # a new iterator: sync points restart their budgets
        for child in self.children:
            child._start_iterator()

    def shuffle(self, buffer_size: int) -> Dataset:
        """Shuffle through a buffer of ``buffer_size`` rows (reshuffled every epoch)."""
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count: int | None = None) -> Dataset:
        """Repeat the data ``count`` times (None or -1: forever)."""
        return RepeatDataset(self, count)

    def take(self, count: int = -1) -> Dataset:
        """At most the first ``count`` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count: int) -> Dataset:
        """All rows after the first ``count``."""
        return SkipDataset(self, count)

    def apply(self, apply_func: Callable[[Dataset], Dataset]) -> Dataset:
        """``apply_func(self)``, which must give a dataset."""
        if not callable(apply_func):
            raise TypeError("apply_func must be a function.")
        dataset = apply_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return dataset

    def zip(self, datasets) -> Dataset:
        """Rows side by side, as long as the shortest input."""
        others = [datasets] if isinstance(datasets, Dataset) else list(datasets)
        return ZipDataset([self, *others])

    def concat(self, datasets) -> Dataset:
        """The rows of this dataset, then those of ``datasets``."""
        others = [datasets] if isinstance(datasets, Dataset) else list(datasets)
        return ConcatDataset([self, *others])

    def __add__(self, other: Dataset) -> Dataset:
        return self.concat(other)

    def project(self, columns) -> Dataset:
        """Keep ``columns``, in that order."""
        return ProjectDataset(self, as_list(columns, "columns"))

    def rename(self, input_columns, output_columns) -> Dataset:
        """Rename columns."""
        return RenameDataset(self, as_list(input_columns, "input_columns"),
                             as_list(output_columns, "output_columns"))

    def split(self, sizes, randomize: bool = True) -> list[Dataset]:
        """Split into datasets of ``sizes`` rows (ints, or fractions summing to 1); with
        ``randomize``, rows are dealt out at random, the same way every epoch, as MindSpore
        does (its seed, or one fixed here, so the parts never overlap)."""
        total = self.get_dataset_size()
        counts = split_counts(sizes, total)
        bounds = np.cumsum([0, *counts]).tolist()
        parts = list(zip(bounds, bounds[1:]))
        consumers = self._consumers
        if randomize:
            seed = get_seed() if mindspore_seeded() else secrets.randbits(32)
            split = [self._random_part(seed, total, a, b) for a, b in parts]
        else:
            split = [SubsetDataset(self, np.arange(a, b)) for a, b in parts]
        self._consumers = consumers  # MindSpore builds each part on a copy of this pipeline
        return split

    def _random_part(self, seed: int, total: int, start: int, stop: int) -> Dataset:
        """Rows ``start:stop`` of a randomized split: MindSpore's ``shuffle(10000)`` that
        does not reshuffle, then ``skip`` and ``take`` (sources read by index override)."""
        return ShuffleDataset(self, 10000, seed=seed).skip(start).take(stop - start)

    # ------------------------------------------------------------------ introspection
    def save(self, file_name: str, num_files: int = 1, file_type: str = "mindrecord") -> None:
        """Write the pipeline's rows to MindRecord files (read them with ``MindDataset``)."""
        save(self, file_name, num_files, file_type)

    def check_tree(self) -> None:
        """MindSpore's ValueError when a node below this one feeds two pipelines (it runs
        one pipeline per tree: build each pipeline from its own source node)."""
        nodes: list = []
        pending = list(self.children)
        while pending:
            node = pending.pop()
            if any(n is node for n in nodes):
                continue
            if getattr(node, "_consumers", 0) > 1:
                raise ValueError("The data pipeline is not a tree (i.e., one node has 2 "
                                 "consumers)")
            nodes.append(node)
            pending.extend(node.children)

    def get_dataset_size(self) -> int:
        """Rows (or batches) per epoch."""
        self.check_tree()
        n = self._num_rows()
        return sum(1 for _ in self._epoch_rows()) if n is None else n

    def _epoch_rows(self) -> Iterator[Row]:
        """One epoch's rows, on a run of their own (closed when done)."""
        run = Run(self)
        try:
            yield from self._guarded_rows(run.scoped(0))
        finally:
            run.close()

    def get_col_names(self) -> list[str]:
        self.check_tree()
        return list(self._columns())

    def _first_row(self) -> Row:
        run = Run(self)
        try:
            rows = self._guarded_rows(run.scoped(0))
            try:
                return next(iter(rows))
            except StopIteration:
                raise RuntimeError("The dataset is empty: no row to infer shapes and types "
                                   "from.") from None
            finally:
                rows.close()
        finally:
            run.close()

    def output_shapes(self, estimate: bool = False) -> list[list[int]]:
        """The shape of each column of the first row; with ``estimate``, of every row of an
        epoch, a dimension that varies being None."""
        if not estimate:
            return [list(a.shape) for a in self._first_row()]
        shapes = None
        for row in self._epoch_rows():
            if shapes is None:
                shapes = [list(a.shape) for a in row]
                continue
            for known, a in zip(shapes, row):
                if len(known) != a.ndim:
                    raise RuntimeError("Inconsistent shapes, expect same shape for each data "
                                       f"row, last data row: <{_dims(a.shape)}>, current data "
                                       f"row: <{_dims(known)}>")
                known[:] = [k if k == d else None for k, d in zip(known, a.shape)]
        if shapes is None:
            self._first_row()  # MindSpore's error for an empty dataset
        return shapes

    def output_types(self) -> list[np.dtype]:
        """The NumPy dtype of each column of the first row."""
        return [a.dtype for a in self._first_row()]

    def get_batch_size(self) -> int:
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self) -> int:
        return self.children[0].get_repeat_count() if self.children else 1

    def num_classes(self) -> int | None:
        return self.children[0].num_classes() if self.children else None

    def get_class_indexing(self) -> dict:
        return self.children[0].get_class_indexing() if self.children else {}

    # ------------------------------------------------------------------ iteration
    def set_init_step(self, init_step: int) -> None:
        """Make the next iterator start at global step ``init_step`` (resumed training): it
        gives what an uninterrupted iterator gives from that step on (``engine/resume.py``)."""
        self._init_step = init_step

    def get_init_step(self) -> int:
        """The step set on this node, else on its only child; 0 below several children."""
        if self._init_step is not None:
            return self._init_step
        return self.children[0].get_init_step() if len(self.children) == 1 else 0

    def _guarded_rows(self, run: Run) -> Iterator[Row]:
        """``_rows`` with step failures turned into MindSpore's RuntimeError."""
        try:
            yield from self._rows(run)
        except (OpFailed, WorkerError) as exc:
            raise pipeline_error(exc) from None

    def create_tuple_iterator(self, columns=None, num_epochs: int = -1,
                              output_numpy: bool = False, do_copy: bool = False):
        """Iterate rows as lists (Tensors, or ndarrays with ``output_numpy``)."""
        return TupleIterator(self, as_list(columns, "columns"), num_epochs, output_numpy,
                             do_copy)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = False):
        """Iterate rows as {column name: Tensor (or ndarray)} dicts."""
        return DictIterator(self, None, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def __len__(self) -> int:
        return self.get_dataset_size()


def _dims(shape) -> str:
    """A shape as MindSpore prints it in messages (``2,3``; -1 for an unknown size)."""
    return ",".join("-1" if d is None else str(d) for d in shape)


# ---------------------------------------------------------------------- row operations
class _Broken(Dataset):
    """An operation whose columns did not fit its input: building a pipeline on it raises
    the operation's :class:`ColumnError`."""

    def __init__(self, children, error: ColumnError):
        super().__init__(children)
        self.error = error

    def _fail(self):
        raise ColumnError(*self.error.args)

    def _columns(self):
        self._fail()

    def _num_rows(self):
        self._fail()

    def _rows(self, run):
        self._fail()


class FilterDataset(Dataset):
    def __init__(self, child, predicate, input_columns, num_parallel_workers):
        super().__init__([child], num_parallel_workers)
        if not callable(predicate):
            raise TypeError("Argument predicate should be callable.")
        self.predicate = predicate
        self.input_columns = as_list(input_columns, "input_columns")

    def _num_rows(self):
        return None

    def _rows(self, run):
        idx = (self.children[0]._column_index(self.input_columns, "filter")
               if self.input_columns else None)
        for row in self.children[0]._rows(run):
            args = row if idx is None else tuple(row[i] for i in idx)
            try:
                keep = self.predicate(*args)
            except Exception as exc:
                raise OpFailed("filter operation") from exc
            if bool(np.asarray(keep)):
                yield row


class ShuffleDataset(Dataset):
    def __init__(self, child, buffer_size, seed: int | None = None):
        super().__init__([child])
        int_arg(buffer_size, "buffer_size")
        if not 2 <= buffer_size <= _INT32_MAX:
            raise ValueError("Input buffer_size is not within the required interval of "
                             "[2, 2147483647].")
        if child._is_sync():
            raise RuntimeError("No shuffle after sync operators.")
        self.buffer_size = buffer_size
        self.seed = seed  # a fixed seed: the same order every pass (a split's shuffle)

    def _rows(self, run):
        """MindSpore's ``ShuffleOp``: a ``std::mt19937_64`` seeded once per iterator draws
        ``engine() % len(buffer)`` for each row out; the last buffered row fills the hole and
        the next input row goes last; once the input ends the buffer drains the same way."""
        rng = self._engine(run)
        yield from shuffle_buffer(iter(self.children[0]._rows(run)), self.buffer_size, rng)

    def _engine(self, run) -> MT19937_64:
        return MT19937_64(self.seed) if self.seed is not None else run.node_state(
            self, lambda: MT19937_64(run.engine_seed()))

    def _skips_cheaply(self):  # one draw per row: the pass's row count must be known
        return super()._skips_cheaply() and self.children[0]._num_rows() is not None

    def _skip_pass(self, run):
        super()._skip_pass(run)
        rng = self._engine(run)
        for _ in range(self.children[0]._num_rows()):
            rng.next()


class RepeatDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        if count is None:
            count = -1
        int_arg(count, "count")
        if (count <= 0 and count != -1) or count > _INT32_MAX:
            raise ValueError("count should be either -1 or positive integer, "
                             "range[1, INT32_MAX].")
        self.count = count

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if self.count == -1:  # MindSpore gives one pass's size for an endless repeat
            return n if n is not None else self.children[0].get_dataset_size()
        return None if n is None else n * self.count

    def _rows(self, run):
        k = 0
        while self.count == -1 or k < self.count:
            yield from self.children[0]._rows(run.scoped(k))
            k += 1

    def _skips_cheaply(self):
        return self.count != -1 and super()._skips_cheaply()

    def _skip_pass(self, run):
        for k in range(self.count):
            self.children[0]._skip_pass(run.scoped(k))

    def get_repeat_count(self):
        return self.count


class TakeDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        int_arg(count, "count")
        if (count <= 0 and count != -1) or count > _INT32_MAX:
            raise ValueError("count should be either -1 or within the required interval of "
                             f"(0, {_INT32_MAX}], got {count}.")
        self.count = count

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if self.count == -1 or n is None:
            return n
        return min(n, self.count)

    def _rows(self, run):
        if self.count == -1:
            yield from self.children[0]._rows(run)
            return
        rows = self.children[0]._rows(run)
        try:
            for i, row in enumerate(rows):
                yield row
                if i + 1 >= self.count:
                    if run.mindspore_seed is not None and _draws_per_row(self.children[0]):
                        for _ in rows:  # MindSpore's take reads its input to the end, so
                            pass  # random ops below draw for every row of the pass
                    break
        finally:
            rows.close()

    def _skips_cheaply(self):  # a take reads its input to the end only when seeded
        return super()._skips_cheaply() and (
            self.count == -1 or mindspore_seeded() or _partial_read_is_safe(self.children[0]))


def _partial_read_is_safe(node: Dataset) -> bool:
    """Whether reading only part of ``node``'s pass leaves the same streams as a whole
    skipped pass (no shuffle buffer below drawing per row out)."""
    return not isinstance(node, ShuffleDataset) and all(
        _partial_read_is_safe(c) for c in node.children)


def _draws_per_row(node: Dataset) -> bool:
    """Whether a random stream under ``node`` advances with each row (a shuffle buffer, a
    ``map`` of random ops)."""
    if isinstance(node, ShuffleDataset) or (isinstance(node, MapDataset) and node.chain.random):
        return True
    return any(_draws_per_row(child) for child in node.children)


class SkipDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError("Input count is not within the required interval of "
                             "[0, 2147483647].")
        self.count = count

    def _num_rows(self):
        n = self.children[0]._num_rows()
        return None if n is None else max(0, n - self.count)

    def _rows(self, run):
        for i, row in enumerate(self.children[0]._rows(run)):
            if i >= self.count:
                yield row


class ZipDataset(Dataset):
    def __init__(self, datasets):
        if len(datasets) < 2 or not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError("zip needs at least two Dataset objects.")
        super().__init__(datasets)
        names = [c for d in datasets for c in d._columns()]
        dup = [c for i, c in enumerate(names) if c in names[:i]]
        if dup:
            raise ColumnError(f"Invalid data, duplicate column {dup[0]} already exists when "
                              "zipping datasets.")

    def _columns(self):
        return [c for d in self.children for c in d._columns()]

    def _num_rows(self):
        sizes = [d._num_rows() for d in self.children]
        return None if None in sizes else min(sizes)

    def _skips_cheaply(self):  # zip stops at the shortest input
        return super()._skips_cheaply() and all(_partial_read_is_safe(c) for c in self.children)

    def _rows(self, run):
        streams = [d._rows(run) for d in self.children]
        for parts in zip(*streams):
            yield tuple(a for part in parts for a in part)


def zip_datasets(datasets) -> Dataset:
    """Zip a tuple of datasets into one (``ds.zip((a, b))``)."""
    if not isinstance(datasets, (tuple, list)) or len(datasets) < 1:
        raise TypeError("datasets should be a tuple of Dataset.")
    return datasets[0] if len(datasets) == 1 else ZipDataset(list(datasets))


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        if not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError("concat takes Dataset objects.")
        super().__init__(datasets)
        cols = datasets[0]._columns()
        for d in datasets[1:]:
            if d._columns() != cols:
                raise ColumnError("Invalid columns, 'column name' or 'column order' of concat "
                                  "datasets should be the same.")

    def _num_rows(self):
        sizes = [d._num_rows() for d in self.children]
        return None if None in sizes else sum(sizes)

    def _rows(self, run):
        for k, d in enumerate(self.children):
            yield from d._rows(run.scoped(k))

    def _skip_pass(self, run):
        for k, d in enumerate(self.children):
            d._skip_pass(run.scoped(k))


class ProjectDataset(Dataset):
    def __init__(self, child, columns):
        super().__init__([child])
        self.index = child._column_index(columns, "project")
        self.columns = columns

    def _columns(self):
        return list(self.columns)

    def _skip_below_maps(self, run, rows):
        return self.children[0]._skip_below_maps(run, rows)

    def _rows(self, run):
        idx = self.index
        for row in self.children[0]._rows(run):
            yield tuple(row[i] for i in idx)


class RenameDataset(Dataset):
    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        if len(input_columns) != len(output_columns):
            raise ValueError("Number of column in input_columns and output_columns is not "
                             "equal.")
        child._column_index(input_columns, "rename")
        mapping = dict(zip(input_columns, output_columns))
        self.names = [mapping.get(c, c) for c in child._columns()]
        clash = [c for i, c in enumerate(self.names) if c in self.names[:i]]
        if clash:
            raise ColumnError("Invalid column, rename operation does not support rename one "
                              "column name into another already exist column name, existing "
                              f"column name is: {clash[0]}.")

    def _columns(self):
        return list(self.names)

    def _skip_below_maps(self, run, rows):
        return self.children[0]._skip_below_maps(run, rows)

    def _rows(self, run):
        return self.children[0]._rows(run)


class SyncWaitDataset(Dataset):
    """The rows of ``child``, each let through by the node's :class:`SyncGate`."""

    def __init__(self, child, condition_name: str, num_batch: int, callback=None):
        super().__init__([child])
        for value, kind, name in ((condition_name, str, "condition_name"),
                                  (num_batch, int, "num_batch")):
            if isinstance(value, bool) or not isinstance(value, kind):
                raise TypeError(f"Argument {name} with value {value} is not of type "
                                f"[{kind!r}], but got {type(value)}.")
        self.condition_name = condition_name
        self.gate = SyncGate(num_batch, callback)
        if condition_name in child._sync_gates():
            raise RuntimeError("Condition name is already in use.")

    def _is_sync(self):
        return True

    def _skips_cheaply(self):  # its budget counts the rows that pass
        return False

    def _sync_gates(self):
        return {**self.children[0]._sync_gates(), self.condition_name: self.gate}

    def _scale_sync(self, batch_size):
        self.gate.scale(batch_size)
        super()._scale_sync(batch_size)

    def _start_iterator(self):
        self.gate.reset()
        super()._start_iterator()

    def _rows(self, run):
        if not run.iterating:  # sizes and shapes read an epoch without waiting
            yield from self.children[0]._rows(run)
            return
        for row in self.children[0]._rows(run):
            self.gate.wait(run.stopped)
            yield row


class SubsetDataset(Dataset):
    """The rows of ``child`` at the sorted positions ``keep`` (one part of a split)."""

    def __init__(self, child, keep: np.ndarray):
        super().__init__([child])
        self.keep = keep

    def _num_rows(self):
        return len(self.keep)

    def _rows(self, run):
        wanted = set(self.keep.tolist())
        for i, row in enumerate(self.children[0]._rows(run)):
            if i in wanted:
                yield row


def _placed(columns: list[str], inputs: list[str], outputs: list[str]) -> list[str]:
    """Columns after replacing ``inputs`` by ``outputs``: in place when the names are the
    same, else the outputs first and the untouched columns after, as MindSpore orders them."""
    if inputs == outputs:
        return list(columns)
    return outputs + [c for c in columns if c not in inputs]


class _ColumnRewrite:
    """Where the outputs of a function of some columns go in the row (map, per_batch_map)."""

    def __init__(self, columns: list[str], inputs: list[str], outputs: list[str]):
        self.in_index = [columns.index(c) for c in inputs]
        pick = operator.itemgetter(*self.in_index)
        self.args = pick if len(self.in_index) > 1 else lambda row: (pick(row),)
        self.outputs = outputs
        self.names = _placed(columns, inputs, outputs)
        self.in_place = inputs == outputs
        self.keep = [i for i, c in enumerate(columns) if c not in inputs]

    def merge(self, row: Row, out: tuple, op: str) -> Row:
        if len(out) != len(self.outputs):
            raise RuntimeError(
                f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error "
                f"Message'. Invalid columns, the number of columns returned in '{op}' "
                f"operations should match the number of 'output_columns', but got the number "
                f"of columns returned in '{op}' operations: {len(out)}, the number of "
                f"'output_columns': {len(self.outputs)}.")
        if self.in_place:
            new = list(row)
            for i, v in zip(self.in_index, out):
                new[i] = v
            return tuple(new)
        return (*out, *(row[i] for i in self.keep))


class MapDataset(Dataset):
    def __init__(self, child, operations, input_columns, output_columns, num_parallel_workers,
                 python_multiprocessing, cache=None):
        super().__init__([child], num_parallel_workers)
        self.chain = OpChain(operations)
        columns = child._columns()
        inputs = as_list(input_columns, "input_columns") or columns[:1]
        child._column_index(inputs, "map")
        outputs = as_list(output_columns, "output_columns") or inputs
        self.rewrite = _ColumnRewrite(columns, inputs, outputs)
        self.python_multiprocessing = bool(python_multiprocessing)
        self.cache = check_cache(cache)
        if cache is not None:
            self._cache_leaf = _leaf_under_cache(self)
            self._cache_token = cache.attach()

    def _columns(self):
        return list(self.rewrite.names)

    def _rows(self, run):
        if self.cache is None:
            yield from self._mapped_rows(run)
            return
        indices = self._cache_leaf._indices(run).tolist()  # the order the leaf reads in
        yield from cached_rows(self.cache, self._cache_token, indices,
                               lambda: self._mapped_rows(run))

    def _skips_cheaply(self):  # (fast recovery: a resumed run's maps start afresh anyway)
        return self.cache is None and super()._skips_cheaply()

    def _skip_below_maps(self, run, rows):
        if rows and self.children[0]._skip_below_maps(run, rows):
            run.skip_inputs(self, rows)
        return 0

    def _input_rows(self, run):
        """The child's rows, less those a resumed run skips below this map."""
        rows = self.children[0]._rows(run)
        skip = run.inputs_to_skip(self)
        return itertools.islice(rows, skip, None) if skip else rows

    def _mapped_rows(self, run):
        rewrite, chain = self.rewrite, self.chain
        workers = self._workers()
        inline = workers == 1 or self._is_sync()  # a pool's read-ahead would wait at the gate
        if chain.random and run.mindspore_seed is not None:
            yield from self._seeded_rows(run, workers, inline)
            return
        if inline:
            for i, row in enumerate(self._input_rows(run)):
                key = run.row_key(self, i) if chain.random else None
                yield rewrite.merge(row, chain((key, rewrite.args(row))), "map")
            return
        waiting: collections.deque = collections.deque()  # rows whose outputs are pending

        def items():
            for i, row in enumerate(self._input_rows(run)):
                waiting.append(row)
                yield (run.row_key(self, i) if chain.random else None, rewrite.args(row))

        pool = run.pool(self, chain, workers, self.python_multiprocessing)
        for out in pool.imap(items()):
            yield rewrite.merge(waiting.popleft(), out, "map")

    def _seeded_rows(self, run, workers: int, inline: bool):
        """MindSpore's random stream: each of its ``workers`` has its own copies of the ops
        (seeded ``seed + w``) and takes rows in turn; here one thread per worker runs that
        worker's rows in order (inline for one worker)."""
        rewrite, chain = self.rewrite, self.chain
        streams = run.node_state(self, lambda: MapStreams(run.mindspore_seed, workers))
        try:
            if inline:
                for row in self._input_rows(run):
                    out = chain.apply(streams.next_row()[1], rewrite.args(row))
                    yield rewrite.merge(row, out, "map")
                return
            waiting: collections.deque = collections.deque()

            def items():
                for row in self._input_rows(run):
                    waiting.append(row)
                    lane, worker = streams.next_row()
                    yield lane, functools.partial(chain.apply, worker), rewrite.args(row)

            for out in run.lane_pool(self, workers).imap(items()):
                yield rewrite.merge(waiting.popleft(), out, "map")
        finally:
            streams.end_pass()


_UNDER_CACHE_NAMES = {"TakeDataset": "TakeNode (possibly from Split)"}


def _leaf_under_cache(node: MapDataset):
    """The source a cached ``map`` reads from, through maps, projects and renames only
    (MindSpore's rules, with its messages)."""
    while True:
        if isinstance(node, MapDataset):
            if node.chain.random:
                raise RuntimeError("MapNode containing random operation is not supported as "
                                   "a descendant of cache.")
        elif isinstance(node, RepeatDataset):
            raise RuntimeError("A cache over a RepeatNode of a mappable dataset is not "
                               "supported.")
        elif not isinstance(node, (ProjectDataset, RenameDataset)):
            break
        node = node.children[0]
        if isinstance(node, MapDataset) and node.cache is not None:
            raise RuntimeError("Nested cache operations over MapNode is not supported.")
    if hasattr(node, "_indices"):
        if not node.cacheable:
            raise RuntimeError("There is currently no support for GeneratorOp under cache.")
        return node
    name = type(node).__name__
    name = _UNDER_CACHE_NAMES.get(name, name.replace("Dataset", "Node"))
    raise RuntimeError(f"{name} is not supported as a descendant operator under a cache.")


class BatchDataset(Dataset):
    def __init__(self, child, batch_size, drop_remainder=False, num_parallel_workers=None,
                 per_batch_map=None, input_columns=None, output_columns=None,
                 python_multiprocessing=False, max_rowsize=16, pad_info=None):
        super().__init__([child], num_parallel_workers)
        if not callable(batch_size):
            positive_int(batch_size, "batch_size")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError("per_batch_map should be callable.")
        if per_batch_map is None and (input_columns is not None or output_columns is not None):
            raise ValueError("input_columns and output_columns of batch need per_batch_map.")
        if not callable(batch_size):
            child._scale_sync(batch_size)
        self.batch_size = batch_size
        self.drop_remainder = bool(drop_remainder)
        self.per_batch_map = per_batch_map
        self.python_multiprocessing = bool(python_multiprocessing)
        columns = child._columns()
        inputs = as_list(input_columns, "input_columns") or columns
        child._column_index(inputs, "batch")
        self.rewrite = _ColumnRewrite(columns, inputs,
                                      as_list(output_columns, "output_columns") or inputs)
        self.pad_info = pad_info
        if pad_info is not None:
            if not isinstance(pad_info, dict):
                raise TypeError("pad_info should be a dict of column name: (shape, value).")

    def _columns(self):
        return list(self.rewrite.names)

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if n is None or callable(self.batch_size):
            return None
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def get_batch_size(self):
        return -1 if callable(self.batch_size) else self.batch_size

    def _skip_below_maps(self, run, rows):
        if callable(self.batch_size) or self.per_batch_map is not None:
            return rows
        return rows if self.children[0]._skip_below_maps(run, rows * self.batch_size) else 0

    def _size_of(self, batch_num: int, epoch: int) -> int:
        if not callable(self.batch_size):
            return self.batch_size
        size = self.batch_size(BatchInfo(batch_num, epoch))
        positive_int(size, "batch_size")
        return size

    def _rows(self, run):
        if self.pad_info is not None:  # MindSpore checks its columns once rows flow
            self.children[0]._column_index(list(self.pad_info), "padded_batch")
        if self.per_batch_map is None and self.pad_info is None and \
                not callable(self.batch_size):
            whole = self.children[0]._batched_rows(run, self.batch_size, self.drop_remainder)
            if whole is not None:
                yield from whole
                return
        groups = self._collect(run)
        workers = self._workers()
        if self.per_batch_map is None or workers == 1 or self._is_sync():
            yield from map(self._make, groups)
            return
        pool = run.pool(self, self._make, workers, self.python_multiprocessing)
        yield from pool.imap(groups)

    def _collect(self, run):
        """Lists of rows, one per batch, each with its BatchInfo."""
        epoch = run.key[0] if run.key else 0
        batch_num = 0
        size = self._size_of(batch_num, epoch)
        buf: list = []
        for row in self.children[0]._rows(run):
            buf.append(row)
            if len(buf) == size:
                yield buf, BatchInfo(batch_num, epoch)
                batch_num += 1
                size = self._size_of(batch_num, epoch)
                buf = []
        if buf and not self.drop_remainder:
            yield buf, BatchInfo(batch_num, epoch)

    def _make(self, group) -> Row:
        rows, info = group
        columns = list(zip(*rows))
        if self.per_batch_map is not None:
            args = [list(columns[i]) for i in self.rewrite.in_index]
            try:
                out = self.per_batch_map(*args, info)
            except Exception as exc:
                raise OpFailed("batch operation: [PyFunc]") from exc
            out = out if isinstance(out, tuple) else (out,)
            columns = self.rewrite.merge(tuple(columns), out, "per_batch_map")
        return tuple(self._stack(i, c) for i, c in enumerate(columns))

    def _stack(self, i: int, values) -> np.ndarray:
        if isinstance(values, (np.ndarray, dict)):  # a per_batch_map's whole column
            return values
        if isinstance(values[0], dict):
            if self.per_batch_map is not None:  # MindSpore lists the values of each key
                return {k: [v[k] for v in values] for k in values[0]}
            return stack_values(list(values), lambda arrays: stack_column(arrays, i))
        values = [v if isinstance(v, np.ndarray) else np.asarray(v) for v in values]
        name = self.rewrite.names[i]
        if self.pad_info is not None and (not self.pad_info or name in self.pad_info):
            shape, value = self.pad_info.get(name) or (None, None)
            return pad_column(values, shape, value, i)
        return stack_column(values, i)


class BucketBatchDataset(Dataset):
    def __init__(self, child, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function, pad_info, pad_to_bucket_boundary, drop_remainder):
        super().__init__([child])
        self.in_index = child._column_index(as_list(column_names, "column_names"),
                                            "bucket_batch_by_length")
        bounds = list(bucket_boundaries)
        if not bounds or any(b <= 0 for b in bounds) or bounds != sorted(set(bounds)):
            raise ValueError("bucket_boundaries should be positive and strictly increasing.")
        if len(bucket_batch_sizes) != len(bounds) + 1:
            raise ValueError("bucket_batch_sizes must contain one element more than "
                             "bucket_boundaries.")
        for b in bucket_batch_sizes:
            positive_int(b, "bucket_batch_sizes")
        if element_length_function is None and len(self.in_index) != 1:
            raise ValueError("element_length_function is needed with more than one column.")
        self.bounds = bounds
        self.sizes = list(bucket_batch_sizes)
        self.length = element_length_function
        self.pad_to_boundary = pad_to_bucket_boundary
        self.drop_remainder = drop_remainder
        # stacks and pads a bucket; MindSpore pads every column when pad_info is None
        self.batcher = _not_a_consumer(BatchDataset(child, 1, pad_info=pad_info or {}))

    def _num_rows(self):
        return None

    def _rows(self, run):
        buckets: list[list] = [[] for _ in self.sizes]
        for row in self.children[0]._rows(run):
            args = [row[i] for i in self.in_index]
            length = self.length(*args) if self.length else args[0].shape[0]
            b = int(np.searchsorted(self.bounds, length, side="right"))
            buckets[b].append(row)
            if len(buckets[b]) == self.sizes[b]:
                yield self._batch(buckets[b], b)
                buckets[b] = []
        if not self.drop_remainder:
            for b, rows in enumerate(buckets):
                if rows:
                    yield self._batch(rows, b)

    def _batch(self, rows, bucket: int) -> Row:
        # MindSpore pads to the boundary in every bucket but the first (measured on 2.10),
        # only the columns pad_info names
        if self.pad_to_boundary and self.batcher.pad_info and \
                0 < bucket < len(self.bounds):
            return self._padded_to(rows, self.bounds[bucket] - 1)
        return self.batcher._make((rows, None))

    def _padded_to(self, rows, length: int) -> Row:
        out = []
        for i, values in enumerate(zip(*rows)):
            name = self.batcher.rewrite.names[i]
            info = self.batcher.pad_info
            if not info or name in info:
                shape, value = info.get(name) or (None, None)
                target = list(shape) if shape is not None else [None] * values[0].ndim
                if target and target[0] is None:
                    target[0] = length
                out.append(pad_column(list(values), target, value, i))
            else:
                out.append(stack_column(list(values), i))
        return tuple(out)
