"""``ops.dot(x1, x2)``: the products of ``x1``'s last axis with ``x2``'s second-to-last axis
(``x1.shape[:-1] + x2.shape[:-2] + x2.shape[-1:]``), float16/float32 tensors of rank >= 2
of one type, as MindSpore's. Built from reshape, transpose and MatMul, so it differentiates,
batches and traces like them."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import math as M

__all__ = ["dot"]

_TYPES = (mstype.float16, mstype.float32)


def _check(x1, x2) -> None:
    for arg, x in (("x1", x1), ("x2", x2)):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'dot', the input '{arg}' must be a Tensor, but got "
                            f"{type(x).__name__}.")
        if x.dtype not in _TYPES:
            raise TypeError(f"The '{arg}' doesn't support '{x.dtype}' and expect to receive "
                            f"[mindspore.float16, mindspore.float32].")
    if x1.dtype is not x2.dtype:
        raise TypeError(f"For 'dot', the inputs must be the same type, but got x1_type: "
                        f"{x1.dtype} and x2_type: {x2.dtype}.")
    if x1.ndim < 2 or x2.ndim < 2:
        raise ValueError(f"For 'dot', the inputs x1, x2 should have 'dimension >= 2',but got "
                         f"'len(x1_shape)': ({x1.ndim}) and 'len(x2_shape)': ({x2.ndim}).")


def dot(x1: Tensor, x2: Tensor) -> Tensor:
    """``x1 . x2`` over ``x1``'s last and ``x2``'s second-to-last axis."""
    _check(x1, x2)
    k = x1.shape[-1]
    rows = A.Reshape(x1, (-1, k))
    # x2's contracted axis first, every other axis flattened into the columns
    perm = (x2.ndim - 2,) + tuple(i for i in range(x2.ndim) if i != x2.ndim - 2)
    cols = A.Reshape(A.Transpose(x2, perm), (x2.shape[-2], -1))
    out = M.MatMul(rows, cols)  # MindSpore's MatMul error names mismatched sizes
    return A.Reshape(out, tuple(x1.shape[:-1]) + tuple(x2.shape[:-2]) + (x2.shape[-1],))
