"""Classification metrics: Accuracy, top-k accuracy, Precision, Recall, Fbeta and F1."""
from __future__ import annotations

import sys

import numpy as np

from .metric import (
    EvaluationBase,
    Metric,
    check_two_inputs,
    is_one_hot,
    no_samples,
    rearrange_inputs,
    to_numpy,
)

_EPS = sys.float_info.min


def _check_average(average, owner: str) -> None:
    if not isinstance(average, bool):
        raise TypeError(f"For '{owner}', the type of 'average' should be bool, but got "
                        f"{type(average).__name__}.")


class _ClassCount:
    """Remembers the class count of the first batch and rejects batches that differ."""

    def __init__(self, owner: str):
        self.owner = owner
        self.num = 0

    def check(self, y_pred: np.ndarray) -> int:
        if self.num == 0:
            self.num = y_pred.shape[1]
        elif y_pred.shape[1] != self.num:
            raise ValueError(f"For '{self.owner}.update', class number not match, last input "
                             f"predicted data contain {self.num} classes, but current predicted "
                             f"data contain {y_pred.shape[1]} classes, please check your "
                             f"predicted value(inputs[0]).")
        return self.num


def _one_hot_pair(owner: str, y_pred: np.ndarray, y: np.ndarray, num: int):
    """``(argmax(y_pred), y)`` as one-hot rows over ``num`` classes."""
    if y.max() + 1 > num:
        raise ValueError(f"For '{owner}.update', predicted value (input[0]) should have the same "
                         f"classes number as true value (input[1]), but got predicted value "
                         f"classes {num}, true value classes {int(y.max()) + 1}.")
    eye = np.eye(num)
    return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y.reshape(-1).astype(np.int64)]


class Accuracy(EvaluationBase):
    """Fraction of samples whose predicted class (or whole multilabel row) is right."""

    def __init__(self, eval_type: str = "classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._total_num = 0
        self._classes = _ClassCount("Accuracy")

    @rearrange_inputs
    def update(self, *inputs) -> None:
        y_pred, y = self._prepare("Accuracy", inputs)
        num = self._classes.check(y_pred)
        if self._type == "classification":
            result = np.equal(y_pred.argmax(axis=1), y).reshape(-1)
        else:
            last = y_pred.ndim - 1
            result = np.equal(y_pred.swapaxes(1, last).reshape(-1, num),
                              y.swapaxes(1, last).reshape(-1, num)).all(axis=1)
        self._correct_num += int(result.sum())
        self._total_num += result.shape[0]

    def eval(self) -> float:
        if self._total_num == 0:
            raise no_samples("Accuracy")
        return self._correct_num / self._total_num


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose true class is among the ``k`` highest scores."""

    def __init__(self, k: int):
        super().__init__()
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should "
                            f"be int, but got 'k' type: {type(k)}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least "
                             f"1, but got 'k' value: {k}.")
        self.k = k
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        check_two_inputs("TopKCategoricalAccuracy", inputs)
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        if y_pred.ndim == y.ndim and is_one_hot(y):
            y = y.argmax(axis=1)
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        self._correct_num += int(np.equal(top, y.reshape(-1, 1)).sum())
        self._samples_num += y.reshape(-1).shape[0]

    def eval(self) -> float:
        if self._samples_num == 0:
            raise no_samples("TopKCategoricalAccuracy")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy."""

    def __init__(self):
        super().__init__(5)


class _PerClassRatio(EvaluationBase):
    """``true positives / counted`` per class, where Precision counts predicted positives and
    Recall counts actual positives."""

    _owner = ""

    def __init__(self, eval_type: str = "classification"):
        super().__init__(eval_type)
        self.clear()

    def _counted(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} must define _counted(y_pred, y), the "
                                  f"count per class the true positives are divided by")

    def clear(self) -> None:
        self._classes = _ClassCount(self._owner)
        multilabel = self._type == "multilabel"
        self._true_positives = np.empty(0) if multilabel else 0
        self._count = np.empty(0) if multilabel else 0
        self._ratio_sum = 0.0
        self._ratio_num = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        y_pred, y = self._prepare(self._owner, inputs)
        num = self._classes.check(y_pred)
        if self._type == "classification":
            y_pred, y = _one_hot_pair(self._owner, y_pred, y, num)
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(num, -1)
            y = y.swapaxes(1, 0).reshape(num, -1)
        counted = self._counted(y_pred, y).sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._ratio_sum += float(np.sum(true_positives / (counted + _EPS)))
            self._ratio_num += len(counted)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._count = np.concatenate((self._count, counted))
        else:
            self._true_positives = self._true_positives + true_positives
            self._count = self._count + counted

    def eval(self, average: bool = False):
        if self._classes.num == 0:
            raise no_samples(self._owner)
        _check_average(average, self._owner)
        result = self._true_positives / (self._count + _EPS)
        if not average:
            return result
        if self._type == "multilabel":
            return self._ratio_sum / (self._ratio_num + _EPS)
        return float(result.mean())


class Precision(_PerClassRatio):
    """Per class: true positives / predicted positives (``eval(average=True)``: their mean)."""

    _owner = "Precision"

    def _counted(self, y_pred, y):
        return y_pred


class Recall(_PerClassRatio):
    """Per class: true positives / actual positives (``eval(average=True)``: their mean)."""

    _owner = "Recall"

    def _counted(self, y_pred, y):
        return y


class Fbeta(Metric):
    """Per class ``(1 + beta^2) tp / (beta^2 (tp + fn) + tp + fp)``."""

    def __init__(self, beta: float):
        super().__init__()
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got "
                             f"{beta}.")
        self.beta = beta
        self.clear()

    def clear(self) -> None:
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._classes = _ClassCount("Fbeta")

    @rearrange_inputs
    def update(self, *inputs) -> None:
        check_two_inputs("Fbeta", inputs)
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        if y_pred.ndim == y.ndim and is_one_hot(y):
            y = y.argmax(axis=1)
        num = self._classes.check(y_pred)
        y_pred, y = _one_hot_pair("Fbeta", y_pred, y, num)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)

    def eval(self, average: bool = False):
        _check_average(average, type(self).__name__)
        if self._classes.num == 0:
            raise no_samples("Fbeta")
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (
            b2 * self._actual_positives + self._positives + _EPS)
        return float(fbeta.mean()) if average else fbeta


class F1(Fbeta):
    """Fbeta with beta = 1."""

    def __init__(self):
        super().__init__(1.0)
