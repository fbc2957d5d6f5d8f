"""Dice coefficient of segmentation masks."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_two_inputs, no_samples, rearrange_inputs, to_numpy


class Dice(Metric):
    """``2 |y_pred . y| / (|y_pred|^2 + |y|^2 + smooth)`` per batch, averaged over samples."""

    def __init__(self, smooth: float = 1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, (int, float)) or smooth <= 0:
            raise ValueError(f"For 'Dice', the argument 'smooth' must be a positive float, but "
                             f"got {smooth}.")
        self.smooth = float(smooth)
        self.clear()

    def clear(self) -> None:
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        check_two_inputs("Dice", inputs)
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value "
                             f"(input[1]) should have same shape, but got predicted value shape: "
                             f"{y_pred.shape}, true value shape: {y.shape}.")
        p, t = y_pred.flatten(), y.flatten()
        intersection = np.dot(p, t)
        union = np.dot(p, p) + np.dot(t, t)
        self._dice_coeff_sum += 2 * float(intersection) / float(union + self.smooth)

    def eval(self) -> float:
        if self._samples_num == 0:
            raise no_samples("Dice coefficient")
        return self._dice_coeff_sum / float(self._samples_num)
