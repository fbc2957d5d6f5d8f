"""Spread statistics: ``ops.var``, ``ops.std``, ``ops.var_mean``, ``ops.std_mean``.

Composites of reductions (two passes: the mean, then the mean squared deviation), so they
differentiate and batch like their parts. As MindSpore 2.10: float16/32/64 inputs, ``axis``
an int, a tuple of ints or None (every axis), ``ddof`` an int or a bool (True: 1) subtracted
from the element count (a count of zero or less gives inf or NaN, as the division does).
"""
from __future__ import annotations

import math

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import math as M

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _axes(axis, ndim: int) -> tuple:
    if axis is None:
        return ()
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"Each axis should be integer, but got {type(a)} in {axes}.")
        if not -ndim <= a < ndim:  # (none for a 0-d input, as MindSpore: "[-0, 0)")
            raise ValueError(f"The 'axis' must be in the range of [-{ndim}, {ndim}), but got "
                             f"{a}.")
    return axes


def _moments(name: str, input: Tensor, axis, ddof, keepdims: bool) -> tuple:
    """(variance, mean) of ``input`` over ``axis``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if input.dtype not in _FLOATS:
        raise TypeError(f"For '{name}', the input must be a Tensor of float16, float32 or "
                        f"float64, but got {input.dtype}.")
    if not isinstance(ddof, (int, np.integer)):
        raise TypeError(f"For '{name}', the type of 'ddof' should be one of '['int', 'bool']', "
                        f"but got type '{type(ddof).__name__}'.")
    axes = _axes(axis, input.ndim)
    mean_kept = A.ReduceMean(input, axes, keep_dims=True)
    deviation = M.Sub(input, mean_kept)
    squares = A.ReduceMean(M.Mul(deviation, deviation), axes, keep_dims=bool(keepdims))
    if ddof:
        count = math.prod(input.shape[a] for a in axes) if axes else math.prod(input.shape)
        # mean square * n / (n - ddof); n - ddof <= 0 gives inf/NaN as MindSpore's division
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.float64(count) / np.float64(count - int(ddof))
        squares = M.Mul(squares, Tensor(scale, input.dtype))
    mean = mean_kept if keepdims else A.ReduceMean(input, axes, keep_dims=False)
    return squares, mean


def var(input: Tensor, axis=None, ddof=0, keepdims: bool = False) -> Tensor:
    """The variance of ``input`` over ``axis`` with ``ddof`` delta degrees of freedom."""
    return _moments("var", input, axis, ddof, keepdims)[0]


def std(input: Tensor, axis=None, ddof=0, keepdims: bool = False) -> Tensor:
    """The standard deviation of ``input`` over ``axis``."""
    return M.Sqrt(_moments("std", input, axis, ddof, keepdims)[0])


def var_mean(input: Tensor, axis=None, ddof=0, keepdims: bool = False) -> tuple:
    """``(var, mean)`` of ``input`` over ``axis``."""
    return _moments("var_mean", input, axis, ddof, keepdims)


def std_mean(input: Tensor, axis=None, ddof=0, keepdims: bool = False) -> tuple:
    """``(std, mean)`` of ``input`` over ``axis``."""
    variance, mean = _moments("std_mean", input, axis, ddof, keepdims)
    return M.Sqrt(variance), mean
