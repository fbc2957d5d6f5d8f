"""The ``Metric`` base (``clear``/``update``/``eval``), ``rearrange_inputs`` and
``set_indexes``, and the input checks shared by the classification metrics."""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod

import numpy as np

from ...common.tensor import Tensor

_EVAL_TYPES = ("classification", "multilabel")


def rearrange_inputs(func):
    """Decorate ``update`` so it receives ``inputs[i] for i in self.indexes`` (when set)."""

    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes:
            inputs = [inputs[i] for i in indexes]
        return func(self, *inputs)
    return wrapper


def to_numpy(data) -> np.ndarray:
    """A metric input (Tensor, list or ndarray) as an ndarray."""
    if isinstance(data, Tensor):
        return data.asnumpy()
    if isinstance(data, (list, np.ndarray)):
        return np.asarray(data)
    raise TypeError("For 'Metric' and its derived classes, the input data type must be tensor, "
                    f"list or numpy.ndarray, but got {type(data)}.")


def check_two_inputs(owner: str, inputs, what: str = "predicted value, true value") -> None:
    if len(inputs) != 2:
        raise ValueError(f"For '{owner}.update', it needs 2 inputs ({what}), but got "
                         f"{len(inputs)}.")


def no_samples(owner: str) -> RuntimeError:
    return RuntimeError(f"The '{owner}' can not be calculated, because the number of samples is "
                        f"0, please check whether your inputs(predicted value, true value) are "
                        f"empty, or has called update method before calling eval method.")


def is_one_hot(y: np.ndarray) -> bool:
    """True when ``y`` holds one-hot rows along axis 1."""
    if y.ndim < 2 or not np.equal(y ** 2, y).all():
        return False
    return bool(np.equal(y.sum(axis=1), 1).all())


class Metric(metaclass=ABCMeta):
    """Base of metrics: ``clear()`` resets, ``update(*inputs)`` accumulates, ``eval()`` returns
    the value; calling the metric does all three on one batch."""

    def __init__(self):
        self._indexes = None

    @property
    def indexes(self) -> list | None:
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes: list) -> Metric:
        """Pick and order ``update``'s inputs (for updates decorated by ``rearrange_inputs``)."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all "
                             "its elements must be int, please check whether it is correct.")
        self._indexes = indexes
        return self

    def _convert_data(self, data) -> np.ndarray:
        return to_numpy(data)

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state."""

    @abstractmethod
    def update(self, *inputs) -> None:
        """Accumulate one batch."""

    @abstractmethod
    def eval(self):
        """The metric over everything accumulated since ``clear``."""


class EvaluationBase(Metric):
    """A metric over ``(y_pred, y)`` of type 'classification' (y holds class indices or one-hot
    rows) or 'multilabel' (0/1 arrays of the same shape)."""

    def __init__(self, eval_type: str):
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError(f"The argument 'eval_type' must be in {set(_EVAL_TYPES)}, but got "
                            f"{eval_type}")
        self._type = eval_type

    def _prepare(self, owner: str, inputs) -> tuple[np.ndarray, np.ndarray]:
        """Checked ``(y_pred, y)``, with one-hot labels turned into indices."""
        check_two_inputs(owner, inputs)
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and is_one_hot(y):
            y = y.argmax(axis=1)
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(
                    "In classification case, the dimension of y_pred (predicted value) should "
                    "equal to the dimension of y (true value) add 1, but got y_pred dimension: "
                    f"{y_pred.ndim} and y dimension: {y.ndim}.")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(
                    "In classification case, y_pred (predicted value) shape and y (true value) "
                    "shape can not match, y shape should be equal to y_pred shape that the value "
                    f"at index 1 is deleted. But got y_pred shape {y_pred.shape} and y shape "
                    f"{y.shape}")
        else:
            if y_pred.shape != y.shape:
                raise ValueError(
                    f"In {self._type} case, the shape of y_pred (predicted value) should equal "
                    f"to the shape of y (true value), but got y_pred shape: {y_pred.shape} and "
                    f"y shape: {y.shape}.")
            if not (np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
                raise ValueError("In multilabel case, all elements in y_pred (predicted value) "
                                 "and y (true value) should be 0 or 1.Please check whether your "
                                 "inputs y_pred and y are correct.")
        return y_pred, y
