"""``MatrixDiagV3``, ``MatrixDiagPartV3`` and ``MatrixSetDiagV3`` (``align`` attribute): build,
read and replace the band of diagonals ``k`` (one, or a pair ``low <= high``) of the last two
axes, as MindSpore's CPU kernels.

``k``, ``num_rows``, ``num_cols`` and ``padding_value`` are inputs: int32 Tensors (or
Python ints, which the functional forms pass) whose values may be known only when a graph
runs. The stored diagonals are the rows of a ``(..., count, width)`` array, highest
diagonal first (``(..., width)`` for one diagonal); ``align`` says per side of the main
diagonal whether a short diagonal sits at the left or the right of its row.

Inside a graph a run-time ``k`` leaves the sizes it decides unknown (``-1``); a run-time
pair is taken as a band of two or more diagonals (graphkiln has no dynamic rank: the result
of an equal pair, one diagonal without the count axis, keeps the band's rank in the
graph's types).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..primitive import OpDef
from ._infer import FLOATS, INTS, UNKNOWN_DIM, describe, tensor_type

ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")
_TYPES = INTS + (mstype.uint16, mstype.uint32, mstype.uint64) + FLOATS + (
    mstype.complex64, mstype.complex128)
_ATTRS = {"align": "RIGHT_LEFT"}


def _check_attrs(name: str):
    def check(attrs: dict) -> None:
        if attrs["align"] not in ALIGNS:
            raise ValueError(f"For '{name}', the 'align' must be str and must be in "
                             f"'{list(ALIGNS)}', but got {attrs['align']!r}.")
    return check


# ------------------------------------------------------------------ shared band arithmetic

def band(name: str, k) -> tuple[int, int]:
    """``(low, high)`` of the concrete ``k`` (an int, or one or two ints)."""
    ks = [int(v) for v in np.asarray(k).reshape(-1)]
    if len(ks) not in (1, 2):
        raise ValueError(f"For primitive[{name}], the k size must be in [1,2], but got "
                         f"{len(ks)}.")
    if ks[0] > ks[-1]:
        raise ValueError(f"For {name}, k[0] can not be greater than k[1].")
    return ks[0], ks[-1]


def _check_k_range(name: str, rows: int, cols: int, low: int, high: int) -> None:
    for v in (low, high):
        if not -rows < v < cols:
            raise ValueError(f"For {name}, the value of k must be in (-x.shape[-2], "
                             f"x.shape[-1]), meaning the value of k must be in ({-rows}, "
                             f"{cols}) in this case, but got {v}.")


def band_table(rows: int, cols: int, low: int, high: int, align: str) -> tuple:
    """``(slot, width)``: for each matrix position the index into the flattened
    ``(diagonals, width)`` array of the diagonal element stored there, -1 outside the
    band."""
    lengths = {d: max(min(rows + min(0, d), cols - max(0, d)), 0)
               for d in range(low, high + 1)}
    width = max(lengths.values())
    super_left, sub_left = (side == "LEFT" for side in align.split("_"))
    slot = np.full((rows, cols), -1, np.int64)
    for d, length in lengths.items():
        left = (d >= 0 and super_left) or (d <= 0 and sub_left)
        offset = 0 if left else width - length
        j = np.arange(length)
        slot[j + max(0, -d), j + max(0, d)] = (high - d) * width + j + offset
    return slot, width


def _scalar(a) -> int:
    return int(np.asarray(a).reshape(-1)[0])


# ------------------------------------------------------------------ inference helpers

def _int32_input(name: str, arg: str, a):
    """The value of an int32 Tensor (or Python int / ints) input, None when known only at
    run time; the number of its elements is checked by the callers."""
    if isinstance(a, AbstractTensor):
        if a.dtype is not mstype.int32:
            raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type "
                            f"of {{Tensor[Int32]}}, but got Tensor[{a.dtype}].")
        return None if a.value is None else np.asarray(a.value).reshape(-1)
    if isinstance(a, AbstractScalar) and a.kind is int:
        return None if not a.is_known else np.array([a.value])
    if isinstance(a, AbstractTuple) and all(isinstance(e, AbstractScalar) and e.kind is int
                                            for e in a.elements):
        known = all(e.is_known for e in a.elements)
        return np.array([e.value for e in a.elements]) if known else None
    raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                    f"{{Tensor[Int32]}}, but got {describe(a)}.")


def _k_size(k) -> int:
    """How many values ``k`` holds (-1 unknown)."""
    if isinstance(k, AbstractTensor):
        return int(np.prod(k.shape)) if all(d >= 0 for d in k.shape) else UNKNOWN_DIM
    return len(k.elements) if isinstance(k, AbstractTuple) else 1


def _k_band(name: str, k) -> tuple | None:
    """``(low, high)`` when ``k`` is known, else None (after MindSpore's size check)."""
    values = _int32_input(name, "k", k)
    size = _k_size(k)
    if size != UNKNOWN_DIM and size not in (1, 2):
        raise ValueError(f"For primitive[{name}], the k size must be in [1,2], but got "
                         f"{size}.")
    return None if values is None else band(name, values)


def _data_type(name: str, x) -> mstype.Type:
    t = tensor_type(name, "x", x)
    if t not in _TYPES:
        allowed = ", ".join(f"Tensor[{v}]" for v in sorted(_TYPES, key=str))
        raise TypeError(f"For primitive[{name}], the input argument[x] must be a type of "
                        f"{{{allowed}}}, but got Tensor[{t}].")
    return t


def _check_padding(name: str, t, padding_value) -> None:
    if isinstance(padding_value, AbstractTensor):
        if padding_value.dtype is not t:
            raise TypeError(f"For '{name}', the dtype of two args should be same, but the "
                            f"dtype of first arg Tensor[{t}] is not consistent with the dtype "
                            f"of second arg Tensor[{padding_value.dtype}]")
        if len(padding_value.shape):
            raise ValueError(f"For primitive[{name}], the padding_value rank must be equal "
                             f"to 0, but got {len(padding_value.shape)}.")
    elif not (isinstance(padding_value, AbstractScalar) and padding_value.kind in (int, float)):
        raise TypeError(f"For '{name}', the input 'padding_value' must be a 0-D Tensor, but "
                        f"got {describe(padding_value)}.")


def _check_rank(name: str, arg: str, a, least: int) -> None:
    if len(a.shape) < least:
        raise ValueError(f"For primitive[{name}], the {arg} rank must be greater than or "
                         f"equal to {least}, but got {len(a.shape)}.")


# ------------------------------------------------------------------ MatrixDiagV3

def _diag_sizes(name: str, width: int, low: int, high: int, rows: int, cols: int,
                align: str) -> tuple[int, int]:
    """The ``(rows, cols)`` of the built matrices: -1 sizes the smallest matrix holding the
    band; a given size must hold it, its band as wide as the rows of ``x``."""
    min_rows, min_cols = width - min(high, 0), width + max(low, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    rows, cols = (min_rows if rows == -1 else rows), (min_cols if cols == -1 else cols)
    if rows < min_rows:
        raise ValueError(f"For {name}, the number of rows is too small.")
    if cols < min_cols:
        raise ValueError(f"For {name}, the number of columns is too small.")
    if band_table(rows, cols, low, high, align)[1] != width:
        raise ValueError(f"For {name}, the number of rows or columns is not consistent "
                         f"with the specified k and x.")
    return rows, cols


def _diag_infer(x, k, num_rows, num_cols, padding_value, align="RIGHT_LEFT"):
    name = "MatrixDiagV3"
    t = _data_type(name, x)
    _check_rank(name, "x", x, 1)
    _check_padding(name, t, padding_value)
    sizes = [_int32_input(name, arg, a) for arg, a in (("num_rows", num_rows),
                                                       ("num_cols", num_cols))]
    kb = _k_band(name, k)
    if kb is None:  # the sizes it decides are known when the graph runs
        count_axis = 1 if _k_size(k) != 1 else 0
        rows, cols = (UNKNOWN_DIM if s is None or _scalar(s) == -1 else _scalar(s)
                      for s in sizes)
        return AbstractTensor(t, tuple(x.shape[:len(x.shape) - 1 - count_axis]) + (rows, cols))
    low, high = kb
    count = high - low + 1
    if count > 1:
        _check_rank(name, "x", x, 2)
        if x.shape[-2] >= 0 and x.shape[-2] != count:
            raise ValueError(f"For {name}, the input x_shape[-2] doesn't match with k value.")
    batch = tuple(x.shape[:-1] if count == 1 else x.shape[:-2])
    if x.shape[-1] < 0 or any(s is None for s in sizes):
        return AbstractTensor(t, batch + (UNKNOWN_DIM, UNKNOWN_DIM))
    return AbstractTensor(t, batch + _diag_sizes(name, x.shape[-1], low, high,
                                                 *(_scalar(s) for s in sizes), align))


def _diag(x, k, num_rows, num_cols, padding_value, align="RIGHT_LEFT"):
    name = "MatrixDiagV3"
    low, high = band(name, k)
    count = high - low + 1
    if count > 1 and (x.ndim < 2 or x.shape[-2] != count):
        raise ValueError(f"For {name}, the input x_shape[-2] doesn't match with k value.")
    width = x.shape[-1]
    rows, cols = _diag_sizes(name, width, low, high, _scalar(num_rows), _scalar(num_cols),
                             align)
    slot, _ = band_table(rows, cols, low, high, align)
    batch = x.shape[:-1] if count == 1 else x.shape[:-2]
    flat = x.reshape(batch + (count * width,))
    picked = flat[..., np.maximum(slot, 0)]
    return np.where(slot >= 0, picked, np.asarray(padding_value, x.dtype)).astype(x.dtype)


# ------------------------------------------------------------------ MatrixDiagPartV3

def _part_infer(x, k, padding_value, align="RIGHT_LEFT"):
    name = "MatrixDiagPartV3"
    t = _data_type(name, x)
    _check_rank(name, "x", x, 2)
    _check_padding(name, t, padding_value)
    kb = _k_band(name, k)
    batch = tuple(x.shape[:-2])
    rows, cols = x.shape[-2:]
    if kb is None or rows < 0 or cols < 0:
        paired = _k_size(k) != 1 if kb is None else kb[0] != kb[1]
        return AbstractTensor(t, batch + ((UNKNOWN_DIM,) * (2 if paired else 1)))
    low, high = kb
    _check_k_range(name, rows, cols, low, high)
    width = band_table(rows, cols, low, high, align)[1]
    return AbstractTensor(t, batch + ((width,) if low == high else (high - low + 1, width)))


def _part(x, k, padding_value, align="RIGHT_LEFT"):
    name = "MatrixDiagPartV3"
    low, high = band(name, k)
    rows, cols = x.shape[-2:]
    _check_k_range(name, rows, cols, low, high)
    slot, width = band_table(rows, cols, low, high, align)
    count = high - low + 1
    position = np.full(count * width, -1, np.int64)
    inside = slot.reshape(-1) >= 0
    position[slot.reshape(-1)[inside]] = np.flatnonzero(inside)
    flat = x.reshape(x.shape[:-2] + (-1,))
    out = np.where(position >= 0, flat[..., np.maximum(position, 0)],
                   np.asarray(padding_value, x.dtype)).astype(x.dtype)
    return out.reshape(x.shape[:-2] + ((width,) if count == 1 else (count, width)))


# ------------------------------------------------------------------ MatrixSetDiagV3

def _set_infer(x, diagonal, k, align="RIGHT_LEFT"):
    name = "MatrixSetDiagV3"
    t = _data_type(name, x)
    _check_rank(name, "x", x, 2)
    tensor_type(name, "diagonal", diagonal)
    kb = _k_band(name, k)
    rows, cols = x.shape[-2:]
    if kb is not None and rows >= 0 and cols >= 0:
        low, high = kb
        _check_k_range(name, rows, cols, low, high)
        _check_diagonal(name, x.shape, diagonal.shape, low, high, align)
    return AbstractTensor(t, tuple(x.shape))


def _check_diagonal(name: str, x_shape, d_shape, low: int, high: int, align: str) -> None:
    count = high - low + 1
    if len(d_shape) != len(x_shape) - (1 if count == 1 else 0):
        raise ValueError(f"For {name}, diagonal rank size don't match with x rank size.")
    width = band_table(x_shape[-2], x_shape[-1], low, high, align)[1]
    if d_shape[-1] >= 0 and d_shape[-1] != width:
        raise ValueError(f"For {name}, diagonal.shape[-1] is not equal to max_diag_len "
                         f"calculated by min(x.shape[-2] + min(k[1], 0), x.shape[-1] + "
                         f"min(-k[0], 0)), which value is {width} in this case, but got "
                         f"diagonal.shape[-1]: {d_shape[-1]} in this case.")
    if count > 1 and d_shape[-2] >= 0 and d_shape[-2] != count:
        raise ValueError(f"For {name}, diagonal.shape[-2] must be the number of diagonals "
                         f"k[1] - k[0] + 1 = {count}, but got {d_shape[-2]}.")


def _set(x, diagonal, k, align="RIGHT_LEFT"):
    name = "MatrixSetDiagV3"
    low, high = band(name, k)
    rows, cols = x.shape[-2:]
    _check_k_range(name, rows, cols, low, high)
    _check_diagonal(name, x.shape, diagonal.shape, low, high, align)
    slot, _ = band_table(rows, cols, low, high, align)
    count = high - low + 1
    flat = diagonal.reshape(diagonal.shape[:len(diagonal.shape) - (1 if count == 1 else 2)]
                            + (-1,))
    spread = flat[..., np.maximum(slot, 0)]
    return np.where(slot >= 0, spread, x).astype(x.dtype)


MatrixDiagV3 = OpDef("MatrixDiagV3", _diag_infer, _diag, attrs=dict(_ATTRS),
                     check_attrs=_check_attrs("MatrixDiagV3"))
MatrixDiagPartV3 = OpDef("MatrixDiagPartV3", _part_infer, _part, attrs=dict(_ATTRS),
                         check_attrs=_check_attrs("MatrixDiagPartV3"))
MatrixSetDiagV3 = OpDef("MatrixSetDiagV3", _set_infer, _set, attrs=dict(_ATTRS),
                        check_attrs=_check_attrs("MatrixSetDiagV3"))
