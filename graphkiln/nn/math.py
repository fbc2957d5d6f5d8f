"""Cells of MindSpore's ``nn.layer.math``: the special functions ``IGamma``, ``LGamma``,
``DiGamma`` (each calls its primitive) and the deprecated ``MatMul``."""
from __future__ import annotations

import graphkiln.ops as ops

from .cell import Cell


class IGamma(Cell):
    """The regularized lower incomplete gamma function P(a, x), elementwise."""

    def __init__(self):
        super().__init__()
        self.igamma = ops.Igamma()

    def construct(self, a, x):
        return self.igamma(a, x)


class LGamma(Cell):
    """log |Gamma(x)|, elementwise."""

    def __init__(self):
        super().__init__()
        self.lgamma = ops.Lgamma()

    def construct(self, x):
        return self.lgamma(x)


class DiGamma(Cell):
    """The digamma function, the derivative of log Gamma, elementwise."""

    def __init__(self):
        super().__init__()
        self.digamma = ops.Digamma()

    def construct(self, x):
        return self.digamma(x)


class MatMul(Cell):
    """``ops.matmul`` (NumPy's broadcasting rules) after optionally swapping the last two
    axes of either operand; MindSpore deprecates it for ``ops.matmul``."""

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'MatMul', the type of '{name}' must be bool, "
                                f"but got {type(value).__name__}.")
        self.transpose_x1 = transpose_x1
        self.transpose_x2 = transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1 and x1.ndim > 1:
            x1 = ops.swapaxes(x1, -1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = ops.swapaxes(x2, -1, -2)
        return ops.matmul(x1, x2)
