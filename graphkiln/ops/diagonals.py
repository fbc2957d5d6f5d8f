"""Diagonals and triangles: ``ops.diag_embed`` (vectors onto the diagonals of new
matrices), ``ops.diagonal_scatter`` (a diagonal of a Tensor replaced), the band functions
``ops.matrix_diag``/``matrix_diag_part``/``matrix_set_diag`` (the ``MatrixDiagV3``
primitives of ``defs/matrix_diag.py``) and
``ops.tril_indices``/``ops.triu_indices`` (the coordinates of a triangle), with MindSpore
2.10's arguments and errors. The placements are constant 0/1 tensors, so the functions
differentiate and batch like the products and selects they are made of."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import matrix_diag as MD
from .defs._infer import norm_axis

__all__ = ["diag_embed", "diagonal_scatter", "matrix_diag", "matrix_diag_part",
           "matrix_set_diag", "tril_indices", "triu_indices"]


def _placement(n: int, rows: int, cols: int, offset: int) -> np.ndarray:
    """``(n, rows, cols)``: a 1 at ``[i, r, r + offset]`` for the ``i``-th diagonal
    element."""
    first = max(-offset, 0)
    out = np.zeros((n, rows, cols), np.float32)
    for i in range(n):
        out[i, first + i, first + i + offset] = 1.0
    return out


def _move_last_two(t: Tensor, d1: int, d2: int) -> Tensor:
    """``t`` with its last two axes moved to positions ``d1`` and ``d2``."""
    nd = t.ndim
    perm = [0] * nd
    rest = iter(range(nd - 2))
    for k in range(nd):
        perm[k] = nd - 2 if k == d1 else nd - 1 if k == d2 else next(rest)
    return F.transpose(t, tuple(perm))


def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: A002
    """Matrices (in the plane of ``dim1``, ``dim2``) whose ``offset`` diagonal is the last
    axis of ``input``, zero elsewhere."""
    if not isinstance(input, Tensor):
        raise TypeError("For 'diag_embed', 'input' must be Tensor.")
    for name, v in (("offset", offset), ("dim1", dim1), ("dim2", dim2)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For 'diag_embed', the type of '{name}' must be int, but got "
                            f"{type(v).__name__}.")
    nd = input.ndim + 1
    for name, v in (("dim1", dim1), ("dim2", dim2)):
        if not -nd <= v < nd:
            raise ValueError(f"For 'diag_embed', '{name}' must be in range of [{-nd}, "
                             f"{nd - 1}], but got {v}.")
    d1, d2 = dim1 % nd, dim2 % nd
    if d1 == d2:
        raise ValueError("For 'diag_embed', 'dim1' must not be identical to 'dim2'.")
    n = input.shape[-1]
    m = n + abs(offset)
    place = Tensor(_placement(n, m, m, offset)).astype(input.dtype)
    out = F.reduce_sum(F.mul(F.expand_dims(F.expand_dims(input, -1), -1), place), -3)
    return _move_last_two(out, d1, d2)


def diagonal_scatter(input, src, offset: int = 0, dim1: int = 0,  # noqa: A002
                     dim2: int = 1) -> Tensor:
    """``input`` with its ``offset`` diagonal (in the plane of ``dim1``, ``dim2``) replaced
    by ``src`` (shaped as ``ops.diagonal`` gives it: the diagonal last)."""
    if not isinstance(input, Tensor) or not isinstance(src, Tensor):
        raise TypeError("For 'diagonal_scatter', 'input' and 'src' must be Tensors.")
    nd = input.ndim
    d1, d2 = norm_axis("diagonal_scatter", dim1, nd, "dim1"), \
        norm_axis("diagonal_scatter", dim2, nd, "dim2")
    if d1 == d2:
        raise ValueError("For 'diagonal_scatter', 'dim1' and 'dim2' must be different.")
    rows, cols = input.shape[d1], input.shape[d2]
    n = max(0, min(rows - max(-offset, 0), cols - max(offset, 0)))
    batch = tuple(d for i, d in enumerate(input.shape) if i not in (d1, d2))
    if tuple(src.shape) != batch + (n,):
        raise ValueError(f"For 'diagonal_scatter', 'src' must have the shape "
                         f"{list(batch + (n,))} of the diagonal, but got {list(src.shape)}.")
    place = _placement(n, rows, cols, offset)
    spread = F.reduce_sum(F.mul(F.expand_dims(F.expand_dims(src, -1), -1),
                                Tensor(place).astype(src.dtype)), -3)
    mask = Tensor(place.sum(0) > 0)
    return F.select(_move_last_two(F.broadcast_to(mask, batch + (rows, cols)), d1, d2),
                    F.cast(_move_last_two(spread, d1, d2), input.dtype), input)


def _indices(name: str, pick, row: int, col: int, offset: int, dtype) -> Tensor:
    for arg, v in (("row", row), ("col", col), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For '{name}', the '{arg}' must be an int, but got "
                            f"{type(v).__name__}.")
    if row < 0 or col < 0:
        raise ValueError(f"For '{name}', 'row' and 'col' must be non-negative, but got {row} "
                         f"and {col}.")
    t = mstype.to_type(dtype)
    if t not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{name}', the 'dtype' must be int32 or int64, but got {t}.")
    return Tensor(np.stack(pick(row, offset, col)).astype(t.np_dtype), t)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=mstype.int64) -> Tensor:
    """The (2, N) coordinates of the lower triangle (on and below the ``offset``
    diagonal) of a ``row`` x ``col`` matrix, row by row."""
    return _indices("tril_indices", np.tril_indices, row, col, offset, dtype)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=mstype.int64) -> Tensor:
    """The (2, N) coordinates of the upper triangle (on and above the ``offset``
    diagonal) of a ``row`` x ``col`` matrix, row by row."""
    return _indices("triu_indices", np.triu_indices, row, col, offset, dtype)


def _int32(v):
    """A Python int (or ints) as the int32 Tensor the primitives take; Tensors unchanged."""
    if isinstance(v, (int, tuple, list)) and not isinstance(v, bool):
        return Tensor(np.asarray(v, np.int32))
    return v


def _padding(value, dtype):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Tensor(np.asarray(value, dtype.np_dtype))
    return value


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0,
                align: str = "RIGHT_LEFT") -> Tensor:
    """Matrices whose diagonals ``k`` (one, or a band ``(low, high)``) are the rows of
    ``x``'s last axes, ``padding_value`` elsewhere."""
    return MD.MatrixDiagV3(x, _int32(k), _int32(num_rows), _int32(num_cols),
                           _padding(padding_value, x.dtype), align=align)


def matrix_diag_part(x, k, padding_value, align: str = "RIGHT_LEFT") -> Tensor:
    """The diagonals ``k`` of the matrices of ``x``, one per row (``padding_value`` filling
    the short ones)."""
    return MD.MatrixDiagPartV3(x, _int32(k), _padding(padding_value, x.dtype), align=align)


def matrix_set_diag(x, diagonal, k=0, align: str = "RIGHT_LEFT") -> Tensor:
    """``x`` with its diagonals ``k`` replaced by the rows of ``diagonal``."""
    return MD.MatrixSetDiagV3(x, diagonal, _int32(k), align=align)
