"""``apply_along_axis`` and ``apply_over_axes`` of ``mindspore.numpy``: a Python function
applied slice by slice or axis by axis (traced once per slice inside graphs)."""
from __future__ import annotations

import builtins

import graphkiln.ops as ops

from ..common.tensor import Tensor
from ._base import norm_axis, to_tensor


def apply_along_axis(func1d, axis, arr, *args, **kwargs) -> Tensor:
    """``func1d`` applied to each 1-D slice of ``arr`` along ``axis``."""
    arr = to_tensor(arr)
    axis = norm_axis(axis, arr.ndim)
    moved = ops.moveaxis(arr, axis, -1)
    outer_shape = tuple(moved.shape[:-1])
    flat = ops.reshape(moved, (-1, moved.shape[-1]))
    slices = [to_tensor(func1d(flat[i], *args, **kwargs)) for i in range(flat.shape[0])]
    res = ops.reshape(ops.stack(tuple(slices)), outer_shape + tuple(slices[0].shape))
    extra = res.ndim - len(outer_shape)
    if extra:
        res = ops.moveaxis(res, tuple(range(len(outer_shape), res.ndim)),
                       tuple(range(axis, axis + extra)))
    return res


def apply_over_axes(func, a, axes) -> Tensor:
    """``func(a, axis)`` applied over each axis in turn, keeping the dimensions."""
    a = to_tensor(a)
    res = a
    for axis in (axes,) if isinstance(axes, builtins.int) else axes:
        res = func(res, axis=axis)
        if res.ndim != a.ndim:
            res = ops.expand_dims(res, axis)
        if res.ndim != a.ndim:
            raise ValueError("function is not returning a tensor of the correct shape")
    return res
