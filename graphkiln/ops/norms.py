"""``ops.norm``, ``ops.vector_norm`` (``ops.vector_norm_ext``) and ``ops.matrix_norm`` (also
in ``mint.linalg``): vector norms of any order over some axes; matrix norms over two axes,
``'fro'``, 1, -1, inf, -inf composed of reductions, ``'nuc'``, 2 and -2 of the singular
values (``Svd``, so their gradients run through its backward rule)."""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs.decompositions import Svd

__all__ = ["norm", "vector_norm", "vector_norm_ext", "matrix_norm"]

_MATRIX_ORDS = (2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc", None)


def _float(x: Tensor, dtype) -> Tensor:
    if dtype is not None:
        return F.cast(x, dtype)
    return x if x.dtype.is_float or x.dtype.is_complex else F.cast(x, mstype.float32)


def vector_norm_ext(x, ord=2, dim=None, keepdim: bool = False, *,  # noqa: A002
                    dtype=None) -> Tensor:
    """The ``ord``-norm of ``x`` over ``dim`` (all elements when None): ``ops.vector_norm_ext``,
    ``mint.linalg.vector_norm``."""
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



def vector_norm(x, ord=2, axis=None, keepdims: bool = False, *,  # noqa: A002
                dtype=None) -> Tensor:
    """``ops.vector_norm``: :func:`vector_norm_ext` with MindSpore's checks of ``axis`` (an
    int, a tuple of distinct axes or None) and ``ord`` (a number)."""
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, (int, tuple))):
        raise TypeError(f"For vector_norm , the dim must be tuple or int, but got "
                        f"{type(axis)}")
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise ValueError(f"For vector_norm, the ord mode must be in [0, 2, float('inf'), "
                         f"-float('inf')] or must be int or float, but got {ord}.")
    if axis is not None:
        axes = (axis,) if isinstance(axis, int) else axis
        dims = [a % x.ndim if -x.ndim <= a < x.ndim else None for a in axes]
        if None in dims:
            raise ValueError("For norm, the dim is out of range.")
        if len(set(dims)) != len(dims):
            raise ValueError("For vector_norm, the elements of axis can not be duplicate.")
        axis = tuple(dims)
    return vector_norm_ext(x, ord, axis, keepdims, dtype=dtype)

def _singular_norm(x: Tensor, ord, dims: tuple, keepdim: bool) -> Tensor:  # noqa: A002
    """The sum ('nuc'), largest (2) or smallest (-2) singular value over ``dims``."""
    rows, cols = (d % x.ndim for d in dims)
    rest = [d for d in range(x.ndim) if d not in (rows, cols)]
    s = Svd(F.transpose(x, tuple(rest) + (rows, cols)), compute_uv=False)[0]
    reduce = {"nuc": F.reduce_sum, 2: F.reduce_max, -2: F.reduce_min}[ord]
    out = reduce(s, -1, False)
    if keepdim:
        for d in sorted((rows, cols)):
            out = F.expand_dims(out, d)
    return out


def _matrix_norm(x: Tensor, ord, dims: tuple, keepdim: bool) -> Tensor:  # noqa: A002
    if ord in ("nuc", 2, -2):
        return _singular_norm(x, ord, dims, keepdim)
    if ord in (None, "fro"):
        return vector_norm_ext(x, 2, dims, keepdim)
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
        return vector_norm_ext(x, 2, None, keepdim)
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
    return vector_norm_ext(x, 2 if ord is None else ord, tuple(dim), keepdim)


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims: bool = False, *,  # noqa: A002
                dtype=None) -> Tensor:
    """The matrix norm of ``A`` over the two axes ``axis``."""
    if ord not in _MATRIX_ORDS or ord is None:
        raise ValueError(f"For matrix_norm, the ord mode must be in [2, -2, 1, -1, "
                         f"float('inf'), -float('inf'), 'fro', 'nuc'], but got {ord}.")
    if not isinstance(axis, (tuple, list)) or len(axis) != 2:
        raise TypeError(f"For matrix_norm, the axis must be a tuple of two ints, but got "
                        f"{axis!r}.")
    return _matrix_norm(_float(A, dtype), ord, tuple(axis), keepdims)
