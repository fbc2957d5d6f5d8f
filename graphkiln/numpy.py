"""``mindspore.numpy`` (``mnp``): NumPy-style functions on Tensors, built on ``ops``.

Default types follow MindSpore's ``mnp``: Python ints give Int32 and floats Float32;
``sum`` of integers accumulates in Int64. Every function works eagerly and inside graphs.
"""
from __future__ import annotations

import builtins

import numpy as onp

from . import ops
from .common import dtype as mstype
from .common.dtype import (  # noqa: F401  (mnp.float32, ...)
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from .common.tensor import Tensor

float_ = float32
int_ = int32

_DEFAULT = {"b": mstype.bool_, "i": mstype.int32, "u": mstype.int32, "f": mstype.float32}


def _type(dtype) -> mstype.Type | None:
    if dtype is None:
        return None
    if isinstance(dtype, str):
        return mstype.from_numpy(onp.dtype(dtype))
    return mstype.to_type(dtype)


def array(obj, dtype=None, copy=True, ndmin=0) -> Tensor:
    """A Tensor from ``obj`` (Python ints give Int32, floats Float32)."""
    if isinstance(obj, Tensor):
        out = obj if dtype is None else ops.cast(obj, _type(dtype))
    else:
        a = onp.asarray([e.asnumpy() if isinstance(e, Tensor) else e for e in obj]
                        if isinstance(obj, (list, tuple)) and any(
                            isinstance(e, Tensor) for e in obj) else obj)
        t = _type(dtype) or (mstype.from_numpy(a.dtype) if isinstance(obj, onp.ndarray)
                             else _DEFAULT[a.dtype.kind])
        out = Tensor(a, t)
    while out.ndim < ndmin:
        out = ops.expand_dims(out, 0)
    return out


asarray = array


def arange(start, stop=None, step=None, dtype=None) -> Tensor:
    """``[start, stop)`` by ``step``; Int32 for ints, Float32 when any bound is a float."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    is_float = any(isinstance(v, float) for v in (start, stop, step))
    t = _type(dtype) or (mstype.float32 if is_float else mstype.int32)
    return Tensor(onp.arange(start, stop, step).astype(t.np_dtype), t)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    t = _type(dtype) or mstype.float32
    values, step = onp.linspace(start, stop, num, endpoint=endpoint, retstep=True)
    out = Tensor(values.astype(t.np_dtype), t)
    return (out, step) if retstep else out


def _filled(shape, value, dtype) -> Tensor:
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return ops.fill(_type(dtype) or mstype.float32, shape, value)


def zeros(shape, dtype=mstype.float32) -> Tensor:
    return _filled(shape, 0, dtype)


def ones(shape, dtype=mstype.float32) -> Tensor:
    return _filled(shape, 1, dtype)


def full(shape, fill_value, dtype=None) -> Tensor:
    if dtype is None:
        dtype = mstype.bool_ if isinstance(fill_value, bool) else \
            mstype.int32 if isinstance(fill_value, int) else mstype.float32
    return _filled(shape, fill_value, dtype)


def zeros_like(a, dtype=None) -> Tensor:
    return zeros(a.shape, dtype or a.dtype)


def ones_like(a, dtype=None) -> Tensor:
    return ones(a.shape, dtype or a.dtype)


def full_like(a, fill_value, dtype=None) -> Tensor:
    return _filled(a.shape, fill_value, dtype or a.dtype)


def eye(N, M=None, k=0, dtype=mstype.float32) -> Tensor:
    t = _type(dtype)
    return Tensor(onp.eye(N, M, k).astype(t.np_dtype), t)


def stack(arrays, axis=0) -> Tensor:
    return ops.stack(tuple(arrays), axis)


def concatenate(arrays, axis=0) -> Tensor:
    return ops.concat(tuple(arrays), axis)


def dot(a, b) -> Tensor:
    """NumPy's ``dot``: inner product for 1-D, matrix product otherwise (the last axis of
    ``a`` with the second-to-last of ``b``)."""
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    if b.ndim == 1:
        return ops.reduce_sum(ops.mul(a, b), -1)
    if a.ndim == 1:
        return ops.reduce_sum(ops.mul(ops.expand_dims(a, -1), b), -2)
    return ops.matmul(a, b)


def matmul(a, b) -> Tensor:
    return ops.matmul(a, b)


def reshape(a, newshape) -> Tensor:
    return ops.reshape(a, (newshape,) if isinstance(newshape, int) else tuple(newshape))


def transpose(a, axes=None) -> Tensor:
    return ops.transpose(a, tuple(range(a.ndim - 1, -1, -1)) if axes is None else tuple(axes))


def expand_dims(a, axis) -> Tensor:
    return ops.expand_dims(a, axis)


def squeeze(a, axis=None) -> Tensor:
    return ops.squeeze(a, axis)


def sum(a, axis=None, dtype=None, keepdims=False) -> Tensor:  # noqa: A001
    return ops.sum(a, axis, keepdims, dtype=_type(dtype))


def mean(a, axis=None, keepdims=False, dtype=None) -> Tensor:
    out = ops.mean(a, axis, keepdims)
    return out if dtype is None else ops.cast(out, _type(dtype))


def amax(a, axis=None, keepdims=False) -> Tensor:
    return ops.amax(a, axis, keepdims)


def amin(a, axis=None, keepdims=False) -> Tensor:
    return ops.amin(a, axis, keepdims)


max = amax  # noqa: A001
min = amin  # noqa: A001


def where(condition, x=None, y=None) -> Tensor:
    if x is None and y is None:
        raise ValueError("mindspore.numpy.where needs both 'x' and 'y' (the one-argument form "
                         "has a data-dependent shape).")
    return ops.select(condition, x, y)


def clip(a, a_min, a_max) -> Tensor:
    return ops.clip_by_value(a, a_min, a_max)


def tile(a, reps) -> Tensor:
    return ops.tile(a, (reps,) if isinstance(reps, int) else tuple(reps))


def broadcast_to(array, shape) -> Tensor:
    return ops.broadcast_to(array, tuple(shape))


def _unary(fn):
    def apply(x, dtype=None):
        out = fn(x)
        return out if dtype is None else ops.cast(out, _type(dtype))
    apply.__name__ = fn.__name__
    return apply


exp, log, sqrt, absolute, negative, square, tanh, sin, cos = (
    _unary(f) for f in (ops.exp, ops.log, ops.sqrt, ops.abs, ops.neg, ops.square, ops.tanh,
                        ops.sin, ops.cos))
abs = absolute  # noqa: A001
add, subtract, multiply, divide, power, maximum, minimum = (
    ops.add, ops.sub, ops.mul, ops.div, ops.pow, ops.maximum, ops.minimum)
true_divide = divide


def size(a) -> int:
    return a.size


def shape(a) -> tuple:
    return tuple(a.shape)


def ndim(a) -> int:
    return a.ndim


def isscalar(element) -> bool:
    return isinstance(element, (builtins.int, builtins.float, builtins.bool))
