"""``CosineSimilarity`` (the pairwise similarity matrix of a batch of rows), ``Perplexity``
(``exp`` of the mean negative log-probability of the labels) and ``auc`` (the area under a
curve by the trapezoidal rule), as MindSpore's metrics."""
from __future__ import annotations

import math

import numpy as np

from .metric import Metric, rearrange_inputs, to_numpy


def _choice(owner: str, name: str, value, allowed: list) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For '{owner}', the '{name}' must be str, but got "
                        f"{type(value).__name__}.")
    if value not in allowed:
        raise ValueError(f"For '{owner}', the '{name}' must be in {allowed}, but got {value}.")
    return value


class CosineSimilarity(Metric):
    """The ``(N, N)`` similarity (``'cosine'`` or ``'dot'``) of the rows of the last input,
    its diagonal zeroed (``zero_diagonal``) and reduced over the last axis
    (``reduction``: 'none', 'sum' or 'mean')."""

    def __init__(self, similarity: str = "cosine", reduction: str = "none",
                 zero_diagonal: bool = True):
        super().__init__()
        self.similarity = _choice("CosineSimilarity", "similarity", similarity,
                                  ["dot", "cosine"])
        self.reduction = _choice("CosineSimilarity", "reduction", reduction,
                                 ["none", "sum", "mean"])
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For 'CosineSimilarity', the 'zero_diagonal' must be bool, but "
                            f"got {type(zero_diagonal).__name__}.")
        self.zero_diagonal = zero_diagonal
        self.clear()

    def clear(self) -> None:
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs) -> None:
        data = to_numpy(inputs)
        if self.similarity == "cosine":
            data = data / np.expand_dims(np.linalg.norm(data, ord=2, axis=1), 1)
        self.sqr_mtx_res = data @ data.T
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        elif self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res


class Perplexity(Metric):
    """``exp(-mean log p[label])`` over the labels seen (``(N, C)`` probabilities, ``(N,)``
    labels); labels equal to ``ignore_label`` are left out."""

    def __init__(self, ignore_label=None):
        super().__init__()
        if ignore_label is not None and (isinstance(ignore_label, bool) or
                                         not isinstance(ignore_label, int)):
            raise TypeError(f"For 'Perplexity', the 'ignore_label' must be int, but got "
                            f"{type(ignore_label).__name__}.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self) -> None:
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, "
                             f"label), but got {len(inputs)}.")
        pred, label = to_numpy(inputs[0]), to_numpy(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label "
                               f"(input[1]) should have the same shape, but got predicted value "
                               f"shape {pred.shape}, label shape {label.shape}.")
        label = label.reshape(-1)
        picked = np.squeeze(pred[np.arange(label.size)[:, None], label.astype(int)[:, None]])
        count = picked.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            count -= np.sum(ignore)
            picked = picked * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += count

    def eval(self) -> float:
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of "
                               "samples is 0, please check whether the update method has been "
                               "called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)


def _column(name: str, v: np.ndarray) -> np.ndarray:
    if v.ndim == 2 and v.shape[1] == 1:
        return v.reshape(-1)
    if v.ndim != 1:
        raise ValueError(f"For 'auc', the '{name}' must be a 1-D array or a column, but got "
                         f"shape {v.shape}.")
    return v


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False) -> float:
    """The area under the curve ``y(x)`` by the trapezoidal rule; ``x`` must be monotonic
    unless ``reorder`` sorts the points."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got "
                        f"{type(x)}, {type(y)}")
    if x.ndim == 0 or y.ndim == 0 or x.shape[0] != y.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{[x.shape[:1], y.shape[:1]]}.")
    x, y = _column("x", x), _column("y", y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater "
                         f"than 2, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array "
                                 f"must be increasing or decreasing, but got 'x': {x}")
            direction = -1
    return direction * float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))
