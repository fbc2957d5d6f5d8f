"""Row stacking for ``batch``, ``padded_batch`` and ``bucket_batch_by_length``."""
from __future__ import annotations

import numpy as np


class BatchInfo:
    """What ``per_batch_map`` and a callable ``batch_size`` learn about the batch."""

    def __init__(self, batch_num: int, epoch_num: int):
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self) -> int:
        """Index of this batch within the epoch."""
        return self._batch_num

    def get_epoch_num(self) -> int:
        return self._epoch_num


def stack_column(values: list, column: int) -> np.ndarray:
    """``np.stack`` of one column, with MindSpore's error when shapes differ."""
    first, dtype = values[0].shape, values[0].dtype
    for v in values[1:]:
        if v.shape != first:
            raise RuntimeError(
                f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error "
                f"Message'. Cannot batch tensors with different shapes in column {column}. "
                f"First element had shape {_fmt(first)} and this element had shape "
                f"{_fmt(v.shape)}. Use padded_batch to pad them to one shape.")
    if any(v.dtype != dtype for v in values):
        return np.stack(values)  # NumPy's type promotion
    out = np.empty((len(values), *first), dtype=dtype)  # ~4x faster than np.stack here
    for i, v in enumerate(values):
        out[i] = v
    return out


def _fmt(shape: tuple) -> str:
    return "<" + ",".join(str(d) for d in shape) + ">"


def pad_column(values: list, shape, value, column: int) -> np.ndarray:
    """Pad every value to ``shape`` (None entries: the largest in the batch) with ``value``."""
    ndim = values[0].ndim
    if any(v.ndim != ndim for v in values):
        raise RuntimeError(f"padded_batch: column {column} mixes ranks "
                           f"{sorted({v.ndim for v in values})}; pad needs one rank.")
    largest = np.max([v.shape for v in values], axis=0) if ndim else ()
    target = tuple(int(largest[d]) if shape is None or shape[d] is None else int(shape[d])
                   for d in range(ndim))
    for v in values:
        if any(s > t for s, t in zip(v.shape, target)):
            raise RuntimeError(f"padded_batch: a row of column {column} has shape "
                               f"{list(v.shape)}, larger than the pad shape {list(target)}.")
    fill = (0 if values[0].dtype.kind not in "US" else "") if value is None else value
    out = np.full((len(values), *target), fill, dtype=values[0].dtype)
    for i, v in enumerate(values):
        out[(i, *(slice(0, s) for s in v.shape))] = v
    return out
