"""``nn.FractionalMaxPool2d`` and ``nn.FractionalMaxPool3d`` (over
``ops.fractional_max_pool2d``/``3d``)."""
from __future__ import annotations

import graphkiln.ops as ops

from .cell import Cell


class _FractionalMaxPool(Cell):
    _fn = None

    def __init__(self, kernel_size, output_size=None, output_ratio=None,
                 return_indices: bool = False, _random_samples=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input):
        return type(self)._fn(input, self.kernel_size, self.output_size, self.output_ratio,
                              self.return_indices, self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    """2-D fractional max pooling: windows of ``kernel_size`` at pseudo-random offsets."""

    _fn = staticmethod(ops.fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPool):
    """3-D fractional max pooling: windows of ``kernel_size`` at pseudo-random offsets."""

    _fn = staticmethod(ops.fractional_max_pool3d)
