"""MindSpore's dataset-feeding helpers: ``DatasetHelper`` (iterate a dataset's batches as
tuples of Tensors), ``connect_network_with_dataset`` and ``data_sink``.

On the CPU target, sink mode fails as MindSpore's does (a sink-mode ``DatasetHelper`` and
``data_sink`` raise). With ``device_target`` 'Ascend' or 'GPU', graphkiln sinks on the
host, step by step: a sink-mode ``DatasetHelper`` yields the batches themselves (MindSpore's
device sink yields empty tuples and the connected network reads a device queue), so the
usual loop ``for inputs in helper: net(*inputs)`` runs unchanged, and ``data_sink`` runs
``fn`` on the next ``sink_size`` batches per call."""
from __future__ import annotations

import functools

from ..common import dtype as mstype
from ..context import get_context


def _sink_target() -> bool:
    return get_context("device_target") in ("Ascend", "GPU")


def _check_sink_size(owner: str, sink_size) -> int:
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For '{owner}', the 'sink_size' must be int, but got "
                        f"{type(sink_size).__name__}.")
    return sink_size


class DatasetHelper:
    """The batches of ``dataset`` for ``epoch_num`` epochs, each a tuple of Tensors."""

    def __init__(self, dataset, dataset_sink_mode: bool = True, sink_size: int = -1,
                 epoch_num: int = 1):
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'DatasetHelper', the 'dataset_sink_mode' must be bool, but "
                            f"got {type(dataset_sink_mode).__name__}.")
        sink_size = _check_sink_size("DatasetHelper", sink_size)
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size "
                             f"{sink_size}.")
        if dataset_sink_mode and not _sink_target():
            raise RuntimeError(f"Currently dataset sink mode is not supported when the device "
                               f"target is {get_context('device_target')}, please set "
                               f"dataset_sink_mode to False in Model.train()")
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._sink_size = dataset.get_dataset_size() if sink_size == -1 else sink_size
        self._iter = dataset.create_tuple_iterator(num_epochs=epoch_num, do_copy=True)

    def __iter__(self):
        return self._iter

    def types_shapes(self) -> tuple:
        """``(types, shapes)`` of the dataset's columns (MindSpore types)."""
        types = [mstype.from_numpy(t) for t in self.dataset.output_types()]
        return types, [tuple(s) for s in self.dataset.output_shapes()]

    def sink_size(self) -> int:
        """The steps of one sink (the dataset size for ``sink_size=-1``)."""
        return self._sink_size

    def stop_send(self) -> None:
        """Nothing to stop: batches are read on the host."""

    def continue_send(self) -> None:
        """Nothing to resume: batches are read on the host."""

    def release(self) -> None:
        """Nothing to free: batches are read on the host."""


def connect_network_with_dataset(network, dataset_helper: DatasetHelper):
    """``network``, to be called with the batches ``dataset_helper`` yields; the helper
    must be in sink mode, as MindSpore's requires."""
    if not dataset_helper.dataset_sink_mode:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset "
                           "sink mode.")
    return network


def data_sink(fn, dataset, sink_size: int = 1, jit_config=None, input_signature=None):
    """A function that, each call, runs ``fn`` on the next ``sink_size`` batches of
    ``dataset`` (restarting it when it ends) and returns the last result."""
    if _check_sink_size("Data sink", sink_size) <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    if not _sink_target():
        raise ValueError(f"Data sinking supports ascend or gpu device target, but device "
                         f"target is {get_context('device_target')}.")
    state = {"iter": None}

    def next_batch():
        for _ in range(2):
            if state["iter"] is None:
                state["iter"] = iter(dataset.create_tuple_iterator(num_epochs=1))
            try:
                return next(state["iter"])
            except StopIteration:
                state["iter"] = None
        raise ValueError("For 'data_sink', the dataset is empty.")

    @functools.wraps(fn)
    def sink_process(*args, **kwargs):
        out = None
        for _ in range(sink_size):
            out = fn(*next_batch())
        return out

    return sink_process
