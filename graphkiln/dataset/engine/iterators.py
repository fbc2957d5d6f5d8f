"""Iterators over a pipeline: a background thread runs the pipeline ahead of the consumer
(``config.get_prefetch_size()`` items), so loading overlaps the training step."""
from __future__ import annotations

import atexit
import queue
import threading
import weakref
from collections.abc import Callable, Iterator

import numpy as np

from ...common.tensor import Tensor, as_mindspore_array
from ..config import get_prefetch_size
from .column_values import inside_dict
from .resume import resume_point, resumed_rows
from .run import Run

_END = object()
_PUT_POLL_SECONDS = 0.1
_JOIN_SECONDS = 2.0


class _Raised:
    def __init__(self, exc: BaseException):
        self.exc = exc


class Prefetcher:
    """Runs ``rows`` on a daemon thread, converts each with ``convert`` and queues it (a
    bounded queue); ``get`` returns the next item, ``_END`` at the end, and re-raises the
    producer's exception. Producers still running when the interpreter exits (a loop left
    with ``break``) are stopped first: one left running would go on decoding while
    libraries' static state is torn down (OpenCV's thread pool then aborts the process)."""

    def __init__(self, rows: Iterator, size: int, convert: Callable):
        self._convert = convert
        self._queue: queue.Queue = queue.Queue(maxsize=size)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._produce, args=(rows,), daemon=True,
                                        name="graphkiln-dataset-prefetch")
        _RUNNING.add(self)
        self._thread.start()

    def _put(self, item) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=_PUT_POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    def _produce(self, rows: Iterator) -> None:
        try:
            for row in rows:
                if not self._put(self._convert(row)):
                    return
            self._put(_END)
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer thread
            self._put(_Raised(exc))
        finally:
            rows.close()

    def get(self):
        item = self._queue.get()
        if isinstance(item, _Raised):
            raise item.exc
        return item

    def close(self) -> None:
        self._stop.set()
        while True:  # unblock a producer waiting on a full queue
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        if threading.current_thread() is not self._thread:  # GC may run on the producer
            self._thread.join(timeout=_JOIN_SECONDS)


_RUNNING: weakref.WeakSet[Prefetcher] = weakref.WeakSet()  # (each thread holds its own)


@atexit.register
def _stop_producers() -> None:
    for feed in list(_RUNNING):
        feed.close()


def _to_tensor(a: np.ndarray, do_copy: bool):
    if isinstance(a, dict):
        return inside_dict(a, Tensor.from_numpy)
    if a.dtype.kind in "USO":  # strings stay NumPy, as in MindSpore
        return a
    return Tensor(a) if do_copy else Tensor.from_numpy(a)


class _Iterator:
    """Epochs of a pipeline; each epoch ends with StopIteration, the next ``next()`` starts
    the next epoch while ``num_epochs`` allows (-1: no limit), and past the last one raises
    MindSpore's RuntimeError."""

    def __init__(self, dataset, columns, num_epochs: int, output_numpy: bool, do_copy: bool):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or (
                num_epochs < 1 and num_epochs != -1):
            raise ValueError("Input num_epochs is not within the required interval of "
                             "[-1, 2147483647] (0 excluded).")
        self._dataset = dataset
        self._names = dataset.get_col_names()
        self._index = None if columns is None else dataset._column_index(columns, "iterator")
        if columns is not None:
            self._names = list(columns)
        self._num_epochs = num_epochs
        self._output_numpy = output_numpy
        self._do_copy = do_copy
        step = dataset.get_init_step()
        self._resume = resume_point(dataset, step, num_epochs) if step else None
        self._run = Run(dataset, iterating=True)
        dataset._start_iterator()
        self._epoch = self._resume[0] if self._resume else 0
        self._feed: Prefetcher | None = None
        self._stopped = False

    def __iter__(self):
        return self

    def __next__(self):
        if self._feed is None:
            if self._stopped:
                raise StopIteration
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                raise RuntimeError("EOF buffer encountered. User tries to fetch data beyond the "
                                   "specified number of epochs.")
            if self._resume is not None:  # the first epoch of a pipeline resumed at a step
                rows = resumed_rows(self._dataset, self._run, *self._resume)
                self._resume = None
            else:
                rows = self._dataset._guarded_rows(self._run.scoped(self._epoch))
            self._feed = Prefetcher(rows, get_prefetch_size(), self._convert)
        try:
            row = self._feed.get()
        except BaseException:
            self.stop()
            raise
        if row is _END:
            self._feed.close()
            self._feed = None
            self._epoch += 1
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                self._run.close()
            raise StopIteration
        return self._pack(row)

    def _convert(self, row: tuple) -> list:
        """The row as the user gets it; runs on the prefetch thread, off the training loop."""
        if self._index is not None:
            row = tuple(row[i] for i in self._index)
        if self._output_numpy:
            return [inside_dict(a, np.copy) if isinstance(a, dict) else
                    as_mindspore_array(a.copy() if self._do_copy else a) for a in row]
        return [_to_tensor(a, self._do_copy) for a in row]

    def _pack(self, values: list):
        raise NotImplementedError

    def get_col_names(self) -> list[str]:
        return list(self._names)

    def stop(self) -> None:
        """Stop the pipeline for good: end its thread and worker processes."""
        self._stopped = True
        self._run.stopped.set()  # wakes a producer blocked at a sync point
        if self._feed is not None:
            self._feed.close()
            self._feed = None
        self._run.close()

    def __del__(self):
        if hasattr(self, "_run"):  # __init__ may have failed before the run existed
            self.stop()


class TupleIterator(_Iterator):
    """Rows as lists of columns."""

    def _pack(self, values):
        return values


class DictIterator(_Iterator):
    """Rows as {column name: value} dicts."""

    def _pack(self, values):
        return dict(zip(self._names, values))
