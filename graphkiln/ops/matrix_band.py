"""``ops.matrix_band_part``: keep a band around the diagonal of the last two axes, zero the
rest.

Built from primitives (a constant offset matrix, comparisons and ``Select``), so it
differentiates, batches under ``vmap`` (``lower``/``upper`` may be batched Tensors there) and
traces into graphs like any composite. As MindSpore's ``MatrixBandPart``: ``lower``/``upper``
are ints or 0-d int32/int64 Tensors, a negative bound keeps that whole triangle.
"""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import math as M

_NAME = "For primitive[MatrixBandPart]"
_BOUND_TYPES = (mstype.int32, mstype.int64)


def _check_bound(arg: str, bound) -> None:
    if isinstance(bound, Tensor):
        if bound.dtype not in _BOUND_TYPES:
            raise TypeError(f"{_NAME}, the input argument[{arg}] must be a type of "
                            f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{bound.dtype}].")
        if bound.ndim != 0:
            raise ValueError(f"{_NAME}, the rank of '{arg}' must be equal to 0, but got "
                             f"{bound.ndim}.")
        return
    if isinstance(bound, bool) or not isinstance(bound, (int, np.integer)):
        got = "Float32" if isinstance(bound, float) else type(bound).__name__
        raise TypeError(f"{_NAME}, the input argument[{arg}] must be a type of "
                        f"{{Int32, Int64}}, but got {got}.")


def _within(bound, reach: np.ndarray):
    """Where ``reach <= bound`` (everywhere when ``bound`` is negative): a constant mask for
    an int bound, a Tensor for a Tensor bound."""
    if not isinstance(bound, Tensor):
        return Tensor(np.ones(reach.shape, np.bool_) if bound < 0 else reach <= bound)
    return M.LogicalOr(M.Less(bound, 0), M.LessEqual(Tensor(reach), bound))


def matrix_band_part(x: Tensor, lower, upper) -> Tensor:
    """Zero every element of ``x`` more than ``lower`` rows below or ``upper`` columns above
    the diagonal of its last two axes."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{_NAME}, the input argument[x] must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim < 2:
        raise ValueError(f"{_NAME}, the x shape size must be greater than or equal to 2, but "
                         f"got {x.ndim}.")
    _check_bound("lower", lower)
    _check_bound("upper", upper)
    rows, cols = x.shape[-2:]
    below = np.arange(rows, dtype=np.int64)[:, None] - np.arange(cols, dtype=np.int64)[None, :]
    keep = M.LogicalAnd(_within(lower, below), _within(upper, -below))
    return A.Select(A.BroadcastTo(keep, shape=tuple(x.shape)), x, A.ZerosLike(x))
