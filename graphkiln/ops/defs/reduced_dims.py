"""``KeepReducedDims(g, x, axis)``: a reduction's result ``g`` with the reduced axes of ``x``
back as size-1 dimensions (``x``'s rank; an empty ``axis`` reduces every axis).

The gradient rules of the reductions use it when ``axis`` is an integer Tensor computed at
run time (the kernel reads the axes; with constant axes they reshape to a known shape).
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, const_value, describe, norm_axes, tensor_type

_NAME = "KeepReducedDims"


def kept_shape(x_shape: tuple, axes) -> tuple:
    """``x_shape`` with the normalised ``axes`` (empty: all) as 1."""
    axes = norm_axes(_NAME, axes, len(x_shape))
    axes = axes or tuple(range(len(x_shape)))
    return tuple(1 if i in axes else d for i, d in enumerate(x_shape))


def _infer(g, x, axis):
    t = tensor_type(_NAME, "g", g)
    tensor_type(_NAME, "x", x)
    if isinstance(axis, AbstractTensor):
        if not axis.dtype.is_int:
            raise TypeError(f"For '{_NAME}', the input 'axis' must be an integer Tensor, but "
                            f"got {describe(axis)}.")
        if axis.value is None:
            return AbstractTensor(t, tuple(1 if d == 1 else UNKNOWN_DIM for d in x.shape))
        return AbstractTensor(t, kept_shape(tuple(x.shape), axis.value))
    value = const_value(_NAME, "axis", axis) if isinstance(axis, (AbstractScalar,
                                                                    AbstractTuple)) else None
    items = value if isinstance(value, tuple) else (value,)
    if any(isinstance(a, bool) or not isinstance(a, (int, np.integer)) for a in items):
        raise TypeError(f"For '{_NAME}', the input 'axis' must be an int, a tuple of ints or an "
                        f"integer Tensor, but got {describe(axis)}.")
    return AbstractTensor(t, kept_shape(tuple(x.shape), value))


def _kernel(g, x, axis):
    return np.reshape(g, kept_shape(np.shape(x), axis))


# g reshaped to x's rank, the reduced axes as 1
KeepReducedDims = OpDef(_NAME, _infer, _kernel)
