"""Special-function cells of MindSpore's ``nn.layer.math``: ``IGamma``, ``LGamma``,
``DiGamma`` (each calls its primitive)."""
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
