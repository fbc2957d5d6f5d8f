"""``OcclusionSensitivity``: how much a classifier's score for the label drops when a
``(2 margin)``-wide window around each position of the input is set to ``pad_val``."""
from __future__ import annotations

import numpy as np

from ...common.tensor import Tensor
from ..cell import Cell
from .metric import Metric, rearrange_inputs, to_numpy


def _bounding_box(b_box, shape: np.ndarray) -> tuple:
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(shape):
        raise ValueError(f"For 'OcclusionSensitivity', the bounding box must contain upper and "
                         f"lower for all dimensions (except batch number), and the length of "
                         f"'b_box' must be twice as long as predicted value's (except batch "
                         f"number), but got 'b_box' length {len(b_box)}, predicted value length "
                         f"(except batch number) {len(shape)}.")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = shape[high < 0] - 1
    if np.any(high >= shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than "
                         "image size for all values.")
    if np.any(low > high):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than "
                         "maximum bounding box for all values.")
    return low, high


class OcclusionSensitivity(Metric):
    """``update(model, x, label)`` with one example ``x`` (batch 1); ``eval()`` the score
    drop for each position (of the ``b_box`` region, ``[low0, high0, low1, high1, ...]``),
    the occluded inputs run through ``model`` ``n_batch`` at a time."""

    def __init__(self, pad_val: float = 0.0, margin=2, n_batch: int = 128, b_box=None):
        super().__init__()
        checks = (("pad_val", pad_val, (float,)), ("margin", margin, (int, list)),
                  ("n_batch", n_batch, (int,)))
        for name, value, types in checks:
            if isinstance(value, bool) or not isinstance(value, types):
                raise TypeError(f"For 'OcclusionSensitivity', the '{name}' must be "
                                f"{' or '.join(t.__name__ for t in types)}, but got "
                                f"{type(value).__name__}.")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError(f"For 'OcclusionSensitivity', the 'b_box' must be list, but got "
                            f"{type(b_box).__name__}.")
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        self.clear()

    def clear(self) -> None:
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs "
                             f"(classification model, predicted value, label), but got "
                             f"{len(inputs)}.")
        model = inputs[0]
        if not isinstance(model, Cell):
            raise TypeError(f"For 'OcclusionSensitivity.update', the 'model' must be a Cell, "
                            f"but got {type(model).__name__}.")
        x = to_numpy(inputs[1])
        label = to_numpy(inputs[2])
        if x.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the "
                               f"predicted value (input[1]) must be 1, but got {x.shape[0]}.")
        if np.prod(label.shape) != x.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label "
                               f"(input[2]) must be same as the batches, but got the label "
                               f"number {np.prod(label.shape)}, and batches {x.shape[0]}.")
        label = int(label.reshape(-1)[0])
        shape = np.array(x.shape[1:])
        low, high = _bounding_box(self.b_box, shape)
        self._baseline = float(model(Tensor(x)).asnumpy()[0, label])
        out_shape = tuple(shape if low is None else high - low + 1)
        scores, batch = [], []
        total = int(np.prod(out_shape))
        for i in range(total):
            idx = np.array(np.unravel_index(i, out_shape))
            if low is not None:
                idx = idx + low
            occluded = x.copy()
            window = tuple(slice(max(0, j - self.margin), min(size, j + self.margin))
                           for j, size in zip(idx, shape))
            occluded[(...,) + window] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == total - 1:
                out = model(Tensor(np.vstack(batch))).asnumpy()
                scores.append(out[:, label])
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(out_shape)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
