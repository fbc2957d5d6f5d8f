"""``SummaryRecord``: writes summary data to a MindSpore summary file (see ``event_file``).

``record(step)`` collects the values given to ``add_value`` and, in train mode, what the
summary operators produced since the last train-mode record, and appends them as one ``Event`` at
``step``; the file starts with a version event. The file is named as MindSpore names it:
``<prefix>.out.events.summary.<seconds>.<device id>.<host><suffix>`` in ``log_dir``.
"""
from __future__ import annotations

import os
import platform
import time

import numpy as np

from ...common import summary_data
from ...common.tensor import Tensor
from ...context import get_context
from ..summary_pb2 import Event
from .event_file import EventFile
from .summary_values import FILLERS

FILE_VERSION = "MindSpore.Event:1"
_NAME_MARK = ".out.events.summary."
_MODES = ("train", "eval")


class SummaryRecord:
    """Record scalars, tensors, images and histograms to a summary file for MindInsight.

    Use it as a context manager (``with SummaryRecord(dir) as record: ...``) or call
    :meth:`close`. ``network``, ``num_process``, ``max_file_size``, ``raise_exception`` and
    ``export_options`` are accepted for MindSpore's signature: graphkiln writes no graph
    events, one file and no exports.
    """

    def __init__(self, log_dir: str, file_prefix: str = "events", file_suffix: str = "_MS",
                 num_process: int = 32, network=None, max_file_size: int | None = None,
                 raise_exception: bool = False, export_options: dict | None = None):
        if not isinstance(log_dir, str) or not log_dir:
            raise ValueError(f"For 'SummaryRecord', the 'log_dir' must be a non-empty str, "
                             f"but got {log_dir!r}.")
        if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
            raise TypeError(f"For 'SummaryRecord', `file_prefix` and `file_suffix` should be "
                            f"str, but got {type(file_prefix)} and {type(file_suffix)}.")
        if max_file_size is not None and not isinstance(max_file_size, int):
            raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, "
                            f"but got type {type(max_file_size)}")
        self.network = network
        self._mode = "train"
        self._values: list[tuple[str, str, np.ndarray]] = []  # add_value's, in order
        os.makedirs(log_dir, exist_ok=True)
        name = (f"{file_prefix}{_NAME_MARK}{int(time.time())}."
                f"{get_context('device_id')}.{platform.node()}{file_suffix}")
        self._file = EventFile(os.path.realpath(os.path.join(log_dir, name)))
        self._file.write(Event(wall_time=time.time(), version=FILE_VERSION))
        self._closed = False

    def __enter__(self) -> SummaryRecord:
        if self._closed:
            raise ValueError("For 'SummaryRecord', SummaryRecord has been closed, please check "
                             "if close() method is called")
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def log_dir(self) -> str:
        """The full path of the summary file."""
        return self._file.path

    def set_mode(self, mode: str) -> None:
        """``'train'`` or ``'eval'``; in eval mode the summary operators' data is not
        recorded."""
        if mode not in _MODES:
            raise ValueError(f"For 'SummaryRecord.set_mode', {mode!r} is not a recognized "
                             f"mode, expect the parameter \"mode\" is \"train\" or \"eval\"")
        self._mode = mode

    def add_value(self, plugin: str, name: str, value) -> None:
        """Keep ``value`` (a Tensor) under ``name`` for the next :meth:`record`;
        ``plugin`` is ``'scalar'``, ``'tensor'``, ``'image'`` or ``'histogram'``."""
        if plugin not in FILLERS:
            raise ValueError(f"For 'SummaryRecord.add_value', no such \"plugin\" of "
                             f"{plugin!r}; graphkiln records {sorted(FILLERS)}.")
        if not isinstance(name, str) or not name:
            raise ValueError(f"For 'SummaryRecord', the parameter \"name\" type should be str "
                             f"and not empty, but got {name!r}.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For 'SummaryRecord', the parameter \"value\" expect to be "
                            f"Tensor, but got {type(value).__name__}.")
        self._values.append((plugin, name, value.asnumpy().copy()))

    def record(self, step: int, train_network=None, plugin_filter=None) -> bool:
        """Append the pending values as one event at ``step``; False once closed.
        ``plugin_filter(plugin) -> bool`` keeps only some plugins."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"For 'record', the type of 'step' should be 'int', but got "
                            f"'{type(step).__name__}'.")
        if self._closed:
            return False
        # MindSpore's order: plugin by plugin, as first met (add_value's first, then the
        # operators' by tag); within a plugin, add_value order, then the operators' by tag
        by_plugin: dict[str, list] = {}
        for plugin, tag, array in self._values:
            by_plugin.setdefault(plugin, []).append((tag, array))
        self._values = []
        if self._mode == "train":
            for (plugin, tag), array in sorted(summary_data.take().items(),
                                               key=lambda kv: (kv[0][1], kv[0][0])):
                by_plugin.setdefault(plugin, []).append((tag, array))
        event = Event(wall_time=time.time(), step=step)
        for plugin, items in by_plugin.items():
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            for tag, array in items:
                value = event.summary.value.add(tag=tag)
                if not FILLERS[plugin](value, array):
                    del event.summary.value[-1]
        if event.summary.value:
            self._file.write(event)
        return True

    def flush(self) -> None:
        """Write buffered data to disk."""
        if not self._closed:
            self._file.flush()

    def close(self) -> None:
        """Flush and close the file; later records return False."""
        if not self._closed:
            self._file.close()
            self._closed = True
