"""Elementwise arithmetic beyond :mod:`.math`: ``Trunc`` (round toward zero),
``TruncateDiv``/``TruncateMod`` (C's integer division and remainder: the quotient rounds
toward zero, the remainder has the dividend's sign), ``Xdivy`` (``x / y``, 0 where
``x == 0``) and ``SquareSumAll`` (the sums of squares of two tensors).

The dtypes each op accepts are the ones MindSpore 2.10's CPU kernels accept (measured by
hand); integer division by zero gives the dtype's extreme of the dividend's sign (0 for
0 / 0) and the remainder 0, as there.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import FLOATS, NUMBERS, describe, quiet, shapes_match
from .math import binary, by_zero_saturated, int_quotient, unary

_WIDE_UINTS = (mstype.uint16, mstype.uint32, mstype.uint64)


def _trunc(x):
    return np.trunc(x) if x.dtype.kind == "f" else x.copy()


Trunc = unary("Trunc", _trunc, (mstype.bool_,) + NUMBERS + _WIDE_UINTS)


def _truncate_div(x, y):
    if x.dtype.kind == "f":
        return np.trunc(np.true_divide(x, y))
    return by_zero_saturated(x, y, int_quotient)


def _truncate_mod(x, y):
    if x.dtype.kind == "f":
        return np.fmod(x, y)
    zero = y == 0
    return np.where(zero, np.zeros_like(x), np.fmod(x, np.where(zero, np.ones_like(y), y)))


def _xdivy(x, y):
    return np.where(x == 0, np.zeros_like(x), np.true_divide(x, y))


TruncateDiv = binary("TruncateDiv", _truncate_div, NUMBERS + _WIDE_UINTS)
TruncateMod = binary("TruncateMod", _truncate_mod,
                     (mstype.int8, mstype.int32, mstype.uint8) + FLOATS)
Xdivy = binary("Xdivy", _xdivy, FLOATS + (mstype.complex64, mstype.complex128))


def _square_sum_all_infer(x, y):
    for arg, a in (("x", x), ("y", y)):
        if not isinstance(a, AbstractTensor) or a.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For primitive[SquareSumAll], the input argument[{arg}] must be a "
                            f"type of {{Tensor[Float16], Tensor[Float32]}}, but got "
                            f"{describe(a)}.")
    if x.dtype is not y.dtype:
        raise TypeError(f"For 'SquareSumAll', the inputs must have the same dtype, but got "
                        f"{x.dtype} and {y.dtype}.")
    if not shapes_match(x.shape, y.shape):
        raise ValueError(f"For 'SquareSumAll', the shapes of 'x' and 'y' must be the same, but "
                         f"got {list(x.shape)} and {list(y.shape)}.")
    return AbstractTuple([AbstractTensor(x.dtype, ()), AbstractTensor(x.dtype, ())])


@quiet
def _square_sum_all(x, y):
    return tuple(np.asarray(np.sum(np.square(v.astype(np.float32))), v.dtype) for v in (x, y))


# (sum(x**2), sum(y**2)) as 0-D tensors
SquareSumAll = OpDef("SquareSumAll", _square_sum_all_infer, _square_sum_all)
