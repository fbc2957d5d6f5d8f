"""Max unpooling layers ``MaxUnpool1d/2d/3d`` (MindSpore's ``nn.MaxUnpool2d``...): the
inverse of a max pooling that returned its indices, on ``ops.max_unpool1d/2d/3d``."""
from __future__ import annotations

import graphkiln.ops as ops

from .cell import Cell


class MaxUnpool2d(Cell):
    """``construct(x, indices, output_size=None)``: ``x`` placed at ``indices`` of a zero
    ``(N, C, H_out, W_out)`` (or ``(C, H_out, W_out)``) output."""

    unpool = staticmethod(ops.max_unpool2d)

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def construct(self, x, indices, output_size=None):
        return self.unpool(x, indices, self.kernel_size, self.stride, self.padding,
                           output_size)


class MaxUnpool1d(MaxUnpool2d):
    """The inverse of ``MaxPool1d`` on ``(N, C, L)`` or ``(C, L)``."""

    unpool = staticmethod(ops.max_unpool1d)


class MaxUnpool3d(MaxUnpool2d):
    """The inverse of ``MaxPool3d`` on ``(N, C, D, H, W)`` or ``(C, D, H, W)``."""

    unpool = staticmethod(ops.max_unpool3d)
