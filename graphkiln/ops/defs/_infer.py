"""Shared shape/dtype inference helpers with MindSpore's error texts."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...compiler.ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple


def tensor_type(name: str, arg: str, a) -> mstype.Type:
    """The dtype of a tensor (or NumPy scalar constant) input, else MindSpore's TypeError."""
    if isinstance(a, AbstractTensor):
        return a.dtype
    if isinstance(a, AbstractScalar) and isinstance(a.value, np.generic):
        return mstype.from_numpy(a.value.dtype)
    raise TypeError(f"For '{name}', the input '{arg}' must be a Tensor, "
                    f"but got {describe(a)}.")


def shape(a) -> tuple:
    return a.shape if isinstance(a, AbstractTensor) else ()


def describe(a) -> str:
    if isinstance(a, AbstractTensor):
        return f"Tensor[{a.dtype}] with shape {list(a.shape)}"
    if isinstance(a, AbstractTuple):
        return "tuple" if not a.is_list else "list"
    if isinstance(a, AbstractScalar):
        return type(a.value).__name__
    return type(a).__name__


def broadcast_shapes(name: str, sx: tuple, sy: tuple) -> tuple:
    """NumPy broadcasting with MindSpore's error message."""
    if sx == sy:
        return sx
    n = max(len(sx), len(sy))
    px = (1,) * (n - len(sx)) + tuple(sx)
    py = (1,) * (n - len(sy)) + tuple(sy)
    out = []
    for i, (a, b) in enumerate(zip(px, py)):
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        else:
            k = i - n
            raise ValueError(
                f"For '{name}', x.shape and y.shape need to broadcast. The value of "
                f"x.shape[{k}] or y.shape[{k}] must be 1 or equal with each other, but got "
                f"x.shape[{k}]: {a} and y.shape[{k}]: {b}.")
    return tuple(out)


def require_dtype(name: str, arg: str, t: mstype.Type, allowed) -> None:
    if t not in allowed:
        names = ", ".join(str(a) for a in allowed)
        raise TypeError(f"For '{name}', the type of '{arg}' should be one of [{names}], "
                        f"but got {t}.")


def norm_axis(name: str, axis: int, ndim: int) -> int:
    lo, hi = -max(ndim, 1), max(ndim, 1) - 1
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{name}', the 'axis' must be int, but got "
                        f"{type(axis).__name__}.")
    if axis < lo or axis > hi:
        raise ValueError(f"For '{name}', the 'axis' must be in range [{lo}, {hi}], "
                         f"but got {axis}.")
    return axis % max(ndim, 1)


def const_value(name: str, arg: str, a):
    """The value of a constant input (axis, shape...), else a clear error."""
    if isinstance(a, AbstractScalar):
        return a.value
    if isinstance(a, AbstractTuple) and all(isinstance(e, AbstractScalar) for e in a.elements):
        return tuple(e.value for e in a.elements)
    if isinstance(a, AbstractTensor) and a.value is not None:
        return a.value
    raise ValueError(f"For '{name}', the input '{arg}' must be a constant, but got a "
                     f"value computed at run time ({describe(a)}).")


FLOATS = (mstype.float16, mstype.float32, mstype.float64)
INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)
NUMBERS = INTS + FLOATS
ALL = (mstype.bool_,) + NUMBERS
