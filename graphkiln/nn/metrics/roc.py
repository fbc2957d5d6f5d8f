"""``ROC``: the receiver operating characteristic curve (false and true positive rates per
score threshold) of binary scores, or of each class of ``(N, C)`` scores."""
from __future__ import annotations

import numpy as np

from .metric import Metric, rearrange_inputs, to_numpy


def _binary_curve(scores: np.ndarray, target: np.ndarray, pos_label: int) -> tuple:
    """False and true positive counts at each distinct score, highest first."""
    order = np.argsort(-scores, kind="stable")
    scores, target = scores[order], target[order]
    last = np.append(np.flatnonzero(scores[1:] - scores[:-1]), target.shape[0] - 1)
    tps = np.cumsum((target == pos_label).astype(np.int64))[last]
    return 1 + last - tps, tps, scores[last]


def _check_optional_int(name: str, value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"For 'ROC', the '{name}' must be int, but got "
                        f"{type(value).__name__}.")
    return value


class ROC(Metric):
    """``(fpr, tpr, thresholds)``: arrays for binary scores (``pos_label`` the positive
    class, 1 by default), lists of arrays, one per class, for ``(N, C)`` scores with
    ``class_num`` classes."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = _check_optional_int("class_num", class_num)
        self.pos_label = _check_optional_int("pos_label", pos_label)
        self.clear()

    def clear(self) -> None:
        self.y_pred = 0
        self.y = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}")
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        if y_pred.ndim == y.ndim:
            if self.class_num not in (None, 1):
                raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value "
                                 f"(input[1]) have the same shape, the 'class_num' must be 1, "
                                 f"but got {self.class_num}.")
            self.class_num = 1
            self.pos_label = 1 if self.pos_label is None else self.pos_label
            y_pred, y = y_pred.reshape(-1), y.reshape(-1)
        elif y_pred.ndim == y.ndim + 1:
            if self.pos_label is not None:
                raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) "
                                 f"equals the dimension of true value (input[1]) add 1, the "
                                 f"'pos_label' must be None, but got {self.pos_label}.")
            if self.class_num != y_pred.shape[1]:
                raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes "
                                 f"from predicted value (input[0]), but got 'class_num' "
                                 f"{self.class_num}, the number of classes from predicted value "
                                 f"{y_pred.shape[1]}.")
            y = y.reshape(-1)
        else:
            raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) "
                             f"must have same dimensions, or the dimension of predicted value "
                             f"equal the dimension of true value add 1, but got predicted value "
                             f"ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")
        self.y_pred, self.y = y_pred, y
        self._is_update = True

    @staticmethod
    def _curve(scores: np.ndarray, y: np.ndarray, pos_label: int) -> tuple:
        fps, tps, thresholds = _binary_curve(scores, y, pos_label)
        fps, tps = np.concatenate([[0], fps]), np.concatenate([[0], tps])
        thresholds = np.concatenate([thresholds[:1] + 1, thresholds])
        if fps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no negative samples in true value, false "
                             "positive value is meaningless.")
        if tps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no positive samples in true value, true "
                             "positive value is meaningless.")
        return fps / fps[-1], tps / tps[-1], thresholds

    def eval(self) -> tuple:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        y_pred, y = np.squeeze(self.y_pred), np.squeeze(self.y)
        if self.class_num == 1:
            return self._curve(y_pred, y, self.pos_label)
        curves = [self._curve(y_pred[:, c], y, c) for c in range(self.class_num)]
        return tuple(list(part) for part in zip(*curves))
