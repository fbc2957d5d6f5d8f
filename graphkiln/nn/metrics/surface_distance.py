"""Segmentation surface metrics: ``HausdorffDistance``, ``MeanSurfaceDistance`` and
``RootMeanSquareDistance`` between the edges of a predicted and a true mask (the pixels of
one label that a cross-shaped erosion removes). Each edge pixel's distance to the other
edge is its distance ('euclidean', 'chessboard' or 'taxicab') to the nearest pixel there,
the values MindSpore's distance transforms give on an unobstructed grid."""
from __future__ import annotations

import numpy as np

from .metric import Metric, rearrange_inputs, to_numpy

_METRICS = ["euclidean", "chessboard", "taxicab"]


def _check_metric(owner: str, distance_metric) -> str:
    if not isinstance(distance_metric, str):
        raise TypeError(f"For '{owner}', the 'distance_metric' must be str, but got "
                        f"{type(distance_metric).__name__}.")
    if distance_metric not in _METRICS:
        raise ValueError(f"For '{owner}', the 'distance_metric' must be in {_METRICS}, but got "
                         f"{distance_metric}.")
    return distance_metric


def _check_bool(owner: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' must be bool, but got "
                        f"{type(value).__name__}.")
    return value


def edges(mask: np.ndarray) -> np.ndarray:
    """The pixels of ``mask`` with a background (or outside) neighbour along an axis."""
    padded = np.pad(mask, 1, constant_values=False)
    inner = tuple(slice(1, -1) for _ in range(mask.ndim))
    eroded = mask.copy()
    for axis in range(mask.ndim):
        for step in (-1, 1):
            eroded &= np.roll(padded, step, axis)[inner]
    return mask & ~eroded


def surface_distances(from_edges: np.ndarray, to_edges: np.ndarray, metric: str) -> np.ndarray:
    """The distance of each pixel of ``from_edges`` to the nearest pixel of ``to_edges``
    (inf when there is none; empty when ``from_edges`` is)."""
    sources = np.argwhere(from_edges).astype(np.float64)
    if sources.size == 0:
        return np.array([])
    targets = np.argwhere(to_edges).astype(np.float64)
    if targets.size == 0:
        return np.full(len(sources), np.inf)
    out = np.empty(len(sources))
    for start in range(0, len(sources), 1024):  # bounded memory for large masks
        diff = np.abs(sources[start:start + 1024, None, :] - targets[None, :, :])
        if metric == "euclidean":
            dist = np.sqrt((diff * diff).sum(-1))
        elif metric == "chessboard":
            dist = diff.max(-1)
        else:
            dist = diff.sum(-1)
        out[start:start + 1024] = dist.min(1)
    return out


class _SurfaceMetric(Metric):
    """``update(y_pred, y, label_idx)``: the edges of the ``label_idx`` masks (boolean
    inputs are masks already)."""

    def clear(self) -> None:
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        owner = type(self).__name__
        if len(inputs) != 3:
            raise ValueError(f"For '{owner}.update', it needs 3 inputs (predicted value, true "
                             f"value, label index), but got {len(inputs)}.")
        y_pred, y, label = to_numpy(inputs[0]), to_numpy(inputs[1]), inputs[2]
        if isinstance(label, bool) or not isinstance(label, (int, float)):
            raise self._label_type_error(f"For '{owner}.update', the label index (input[2]) "
                                         f"must be int or float, but got {type(label)}.")
        if label not in y_pred and label not in y:
            raise ValueError(f"For '{owner}.update', the label index (input[2]) must be in "
                             f"predicted value (input[0]) or true value (input[1]), but "
                             f"{label} is not.")
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(f"For '{owner}.update', the size of predicted value (input[0]) and "
                             f"true value (input[1]) must be greater than 0 and their shapes "
                             f"the same, but got predicted value shape {y_pred.shape} and true "
                             f"value shape {y.shape}.")
        y_pred = y_pred if y_pred.dtype == bool else y_pred == label
        y = y if y.dtype == bool else y == label
        self._y_pred_edges, self._y_edges = edges(y_pred), edges(y)
        self._is_update = True

    _label_type_error = ValueError

    def _distances(self, backward: bool = False) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        a, b = (self._y_edges, self._y_pred_edges) if backward else \
            (self._y_pred_edges, self._y_edges)
        return surface_distances(a, b, self.distance_metric)


class HausdorffDistance(_SurfaceMetric):
    """The largest (or the ``percentile``-th) edge-to-edge distance, the larger of both
    directions unless ``directed``. ``crop`` is accepted: the distances do not depend on
    it."""

    def __init__(self, distance_metric: str = "euclidean", percentile=None,
                 directed: bool = False, crop: bool = True):
        super().__init__()
        self.distance_metric = _check_metric("HausdorffDistance", distance_metric)
        if percentile is not None and (isinstance(percentile, bool) or
                                       not isinstance(percentile, float)):
            raise TypeError(f"For 'HausdorffDistance', the 'percentile' must be float, but got "
                            f"{type(percentile).__name__}.")
        self.percentile = percentile
        self.directed = _check_bool("HausdorffDistance", "directed", directed)
        self.crop = _check_bool("HausdorffDistance", "crop", crop)
        self.clear()

    def _one_way(self, backward: bool) -> float:
        dist = self._distances(backward)
        if dist.size == 0:
            return np.inf
        if not self.percentile:
            return dist.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(dist, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must "
                         f"be [0, 100], but got {self.percentile}.")

    def eval(self) -> float:
        forward = self._one_way(False)
        return forward if self.directed else max(forward, self._one_way(True))


class MeanSurfaceDistance(_SurfaceMetric):
    """The mean edge-to-edge distance from the prediction (averaged with the other
    direction when ``symmetric``)."""

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean"):
        super().__init__()
        self.distance_metric = _check_metric("MeanSurfaceDistance", distance_metric)
        self.symmetric = _check_bool("MeanSurfaceDistance", "symmetric", symmetric)
        self.clear()

    def eval(self) -> float:
        forward = self._distances()
        if forward.size == 0:
            return np.inf
        if not self.symmetric:
            return forward.mean()
        backward = self._distances(True)
        return np.inf if backward.size == 0 else np.mean((forward.mean(), backward.mean()))


class RootMeanSquareDistance(_SurfaceMetric):
    """The mean squared edge-to-edge distance from the prediction; with ``symmetric`` the
    root of the mean of both directions' mean squares (MindSpore's definitions)."""

    _label_type_error = TypeError

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean"):
        super().__init__()
        self.distance_metric = _check_metric("RootMeanSquareDistance", distance_metric)
        self.symmetric = _check_bool("RootMeanSquareDistance", "symmetric", symmetric)
        self.clear()

    def eval(self) -> float:
        forward = self._distances()
        if forward.size == 0:
            return np.inf
        mean_square = (forward ** 2).mean()
        if not self.symmetric:
            return mean_square
        backward = self._distances(True)
        if backward.size == 0:
            return np.inf
        return np.sqrt(np.mean((mean_square, (backward ** 2).mean())))
