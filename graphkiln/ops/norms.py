"""``ops.norm`` and ``ops.vector_norm`` (also ``mint.linalg.vector_norm``): vector norms
of any order over some axes, and the matrix norms that need no singular values
(``'fro'``, 1, -1, inf, -inf over two axes), composed of reductions."""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["norm", "vector_norm"]

_MATRIX_ORDS = (2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc", None)


def _float(x: Tensor, dtype) -> Tensor:
    if dtype is not None:
        return F.cast(x, dtype)
    return x if x.dtype.is_float or x.dtype.is_complex else F.cast(x, mstype.float32)


def vector_norm(x, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """The ``ord``-norm of ``x`` over ``dim`` (all elements when None)."""
    x = _float(x, dtype)
    axes = () if dim is None else dim
    size = F.abs(x)
    if ord == math.inf:
        return F.reduce_max(size, axes, keepdim)
    if ord == -math.inf:
        return F.reduce_min(size, axes, keepdim)
    if ord == 0:
        return F.reduce_sum(F.cast(F.not_equal(size, 0), size.dtype), axes, keepdim)
    if ord == 1:
        return F.reduce_sum(size, axes, keepdim)
    if ord == 2:
        return F.sqrt(F.reduce_sum(F.square(size), axes, keepdim))
    return F.pow(F.reduce_sum(F.pow(size, ord), axes, keepdim), 1.0 / ord)


def _matrix_norm(x: Tensor, ord, dims: tuple, keepdim: bool) -> Tensor:  # noqa: A002
    if ord in ("nuc", 2, -2):
        raise ValueError(f"For norm, the matrix norm ord={ord!r} needs singular values, "
                         f"which graphkiln does not compute; use 'fro', 1, -1, inf or -inf.")
    if ord in (None, "fro"):
        return vector_norm(x, 2, dims, keepdim)
    rows, cols = (d % x.ndim for d in dims)
    summed, reduced = (rows, cols) if ord in (1, -1) else (cols, rows)
    sums = F.reduce_sum(F.abs(x), summed, True)
    out = (F.reduce_max if ord in (1, math.inf) else F.reduce_min)(sums, reduced, True)
    return out if keepdim else F.squeeze(out, tuple(sorted((rows, cols))))


def norm(A, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """MindSpore's ``ops.norm``: the 2-norm of all elements by default; a vector norm over
    one axis, a matrix norm over two."""
    x = _float(A, dtype)
    if isinstance(dim, int):
        dim = (dim,)
    if dim is None and ord is None or ord == "fro" and dim is None:
        return vector_norm(x, 2, None, keepdim)
    if dim is None:
        dim = tuple(range(x.ndim))
    if len(dim) == 2:
        if ord not in _MATRIX_ORDS:
            raise ValueError(f"For norm, the ord mode must be in [2, -2, 1, -1, "
                             f"float('inf'), -float('inf'), 'fro', 'nuc', None] for matrices, "
                             f"but got {ord}.")
        return _matrix_norm(x, ord, tuple(dim), keepdim)
    if isinstance(ord, str):
        raise ValueError(f"For norm, the ord {ord!r} is for matrices; give two dims.")
    return vector_norm(x, 2 if ord is None else ord, tuple(dim), keepdim)
