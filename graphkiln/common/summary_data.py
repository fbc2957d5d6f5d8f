"""The values the summary operators (``ScalarSummary``, ``TensorSummary``, ``ImageSummary``,
``HistogramSummary``) produced since the last ``SummaryRecord.record``.

One value per ``(plugin, tag)``: a later step of the same operator replaces the earlier
value, as MindSpore keeps only the latest. ``SummaryRecord.record`` takes them all.
"""
from __future__ import annotations

import threading

import numpy as np

_LOCK = threading.Lock()
_PENDING: dict[tuple[str, str], np.ndarray] = {}


def put(plugin: str, tag: str, value: np.ndarray) -> None:
    """Keep a copy of ``value`` for the next record, under ``tag``."""
    with _LOCK:
        _PENDING[(plugin, tag)] = np.array(value, copy=True)


def take() -> dict[tuple[str, str], np.ndarray]:
    """The pending values, removed from the buffer."""
    global _PENDING
    with _LOCK:
        pending, _PENDING = _PENDING, {}
    return pending
