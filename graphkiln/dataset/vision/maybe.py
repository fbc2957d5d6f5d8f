"""Image ops applied with probability ``prob`` (``mindspore.dataset.vision``'s
RandomInvert, RandomEqualize, RandomAutoContrast, RandomAdjustSharpness): one
Bernoulli draw per image, as the flips draw."""
from __future__ import annotations

import numpy as np

from ..randomness import draws
from ..transforms.transforms import TensorOperation, check_prob
from .adjust import AdjustSharpness
from .transforms import AutoContrast, Equalize, Invert

__all__ = ["RandomInvert", "RandomEqualize", "RandomAutoContrast", "RandomAdjustSharpness"]


class _Maybe(TensorOperation):
    """``self.op`` on an image with probability ``prob``, else the image as it is."""

    random = True

    def __init__(self, op: TensorOperation, prob: float):
        self.op = op
        self.prob = check_prob(prob)

    def _apply(self, img):
        if not draws(self).bernoulli(float(np.float32(self.prob))):  # a C++ float
            return np.asarray(img)
        return self.op._apply(img)


class RandomInvert(_Maybe):
    """``Invert`` with probability ``prob``."""

    def __init__(self, prob: float = 0.5):
        super().__init__(Invert(), prob)


class RandomEqualize(_Maybe):
    """``Equalize`` with probability ``prob``."""

    def __init__(self, prob: float = 0.5):
        super().__init__(Equalize(), prob)


class RandomAutoContrast(_Maybe):
    """``AutoContrast(cutoff, ignore)`` with probability ``prob``."""

    def __init__(self, cutoff: float = 0.0, ignore=None, prob: float = 0.5):
        super().__init__(AutoContrast(cutoff, ignore), prob)


class RandomAdjustSharpness(_Maybe):
    """``AdjustSharpness(degree)`` with probability ``prob``."""

    def __init__(self, degree: float, prob: float = 0.5):
        super().__init__(AdjustSharpness(degree), prob)
