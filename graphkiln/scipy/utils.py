"""Argument checks shared by ``mindspore.scipy`` (MindSpore's error types: TypeError for a
wrong type, ValueError for a wrong value or shape) and small helpers."""
from __future__ import annotations

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor

FLOATS_AND_INTS = (mstype.int32, mstype.int64, mstype.float32, mstype.float64)


def _nd_transpose(a: Tensor) -> Tensor:
    """``a`` with its last two axes swapped."""
    return ops.swapaxes(a, -1, -2)


def check_type(func: str, value, kinds, name: str) -> None:
    """TypeError unless ``value`` is an instance of ``kinds``."""
    if not isinstance(value, kinds) or kinds is int and isinstance(value, bool):
        raise TypeError(f"For '{func}', the type of '{name}' should be {kinds}, but got "
                        f"{type(value).__name__}.")


def check_tensor(func: str, value, name: str = "a") -> Tensor:
    """TypeError unless ``value`` is a Tensor."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{func}', the type of '{name}' should be Tensor, but got "
                        f"{type(value).__name__}.")
    return value


def check_dtype(func: str, value: Tensor, allowed, name: str = "a") -> None:
    """TypeError unless the Tensor's dtype is one of ``allowed``."""
    if value.dtype not in allowed:
        raise TypeError(f"For '{func}', the data type of '{name}' should be in "
                        f"{[str(t) for t in allowed]}, but got {value.dtype}.")


def check_square(func: str, value: Tensor, name: str = "a") -> None:
    """ValueError unless ``value`` is one square matrix."""
    if value.ndim != 2:
        raise ValueError(f"For '{func}', the dimension of '{name}' should be 2, but got "
                         f"{value.ndim}.")
    if value.shape[0] != value.shape[1]:
        raise ValueError(f"For '{func}', the matrix '{name}' should be a square matrix like "
                         f"(N, N), but got {tuple(value.shape)}.")


def check_solve(func: str, a: Tensor, b: Tensor, a_name: str = "a", b_name: str = "b") -> None:
    """``a`` square, ``b`` 1-D or 2-D with ``a``'s row count, both of one dtype."""
    check_square(func, a, a_name)
    if b.ndim not in (1, 2):
        raise ValueError(f"For '{func}', the dimension of '{b_name}' should be 1 or 2, but "
                         f"got {b.ndim}.")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"For '{func}', the last two dimensions of '{a_name}' and "
                         f"'{b_name}' should be matched, but got {tuple(a.shape)} and "
                         f"{tuple(b.shape)}.")
    if a.dtype != b.dtype:
        raise TypeError(f"For '{func}', the data type of '{a_name}' and '{b_name}' should be "
                        f"matched, but got {a.dtype} and {b.dtype}.")


def as_float64_if_int(*tensors):
    """Integer matrices are factored in Float64, as MindSpore's ``mindspore.scipy``."""
    out = tuple(ops.cast(t, mstype.float64) if t.dtype in (mstype.int32, mstype.int64) else t
                for t in tensors)
    return out if len(out) > 1 else out[0]
