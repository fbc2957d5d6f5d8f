"""Error and loss averages: MAE, MSE and Loss."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_two_inputs, no_samples, rearrange_inputs, to_numpy


class _ErrorSum(Metric):
    """Sum of an element-wise error over samples, divided by the number of samples."""

    _owner = ""

    def _error(self, diff: np.ndarray) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} must define _error(diff), the "
                                  f"element-wise error of a prediction minus its label")

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        check_two_inputs(self._owner, inputs)
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        # summed in float64, as MindSpore's NumPy 1 scalar arithmetic does
        self._error_sum += float(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise no_samples(self._owner)
        return self._error_sum / self._samples_num


class MAE(_ErrorSum):
    """Mean absolute error per sample."""

    _owner = "MAE"

    def _error(self, diff):
        return np.abs(diff)


class MSE(_ErrorSum):
    """Mean squared error per sample."""

    _owner = "MSE"

    def _error(self, diff):
        return np.power(diff, 2)


class Loss(Metric):
    """Average of the batch losses given to ``update``."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got {len(inputs)}")
        loss = to_numpy(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, "
                             f"but got {loss.ndim}.")
        self._sum_loss += float(loss.mean(-1))
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples "
                               "is 0, please check whether has called update method before "
                               "calling eval method.")
        return self._sum_loss / self._total_num
