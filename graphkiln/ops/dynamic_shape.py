"""The shape of a symbolic Tensor with unknown dimensions, as user code sees it: a tuple
whose known dimensions are ints and whose unknown ones are run-time ints
(``SymbolicScalar``) read from one ``Shape`` node, so ``x.shape[0] * 2``,
``x.reshape(x.shape[0], -1)`` or ``ops.zeros((n, 3))`` compute with the size the graph
runs with.

graphkiln's own code (inference helpers, gradient rules, layers) keeps reading the
compile-time shape, with ``-1`` for an unknown dimension: it compares and reshapes with
shapes, which run-time ints cannot do while the graph is built.
"""
from __future__ import annotations

import sys

from ..common.tensor import Tensor
from ..errors import is_internal
from .defs.introspect import Shape


def shape_of(x: Tensor) -> tuple:
    """``x.shape`` with run-time ints for the unknown dimensions of a symbolic Tensor."""
    if x.is_symbolic and any(d < 0 for d in x._abs.shape):
        return Shape(x)
    return x.shape


def _shape_for_caller(x: Tensor, depth: int | None) -> tuple:
    """``x``'s shape for the code ``depth`` frames above this one (the caller of
    ``Tensor.shape``): run-time ints for user code, ``-1`` for graphkiln's own; ``depth``
    None: run-time ints (for what only user code calls)."""
    if depth is not None and is_internal(sys._getframe(depth).f_code.co_filename):
        return x._abs.shape
    return Shape(x)


def install() -> None:
    """Let ``Tensor.shape`` of a symbolic Tensor with unknown dimensions, read by user
    code, record ``Shape``."""
    Tensor._symbolic_shape = staticmethod(_shape_for_caller)


install()
