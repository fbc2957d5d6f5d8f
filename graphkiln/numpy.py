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
    if isinstance(condition, Tensor) and condition.dtype != mstype.bool_:
        condition = condition.astype(mstype.bool_)  # as MindSpore, any dtype is a truth value
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


def unique(x, return_inverse: bool = False):
    """The distinct elements of ``x`` (flattened) in the order they first appear, as
    MindSpore's (its ``Unique``, not sorted); with ``return_inverse`` also each element's
    position in them. The length is known only when it runs (a dynamic shape in graphs)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"expect Tensor, but got {type(x)}")
    out, inverse = ops.unique(ops.reshape(x, (-1,)) if x.ndim != 1 else x)
    return (out, inverse) if return_inverse else out


# ------------------------------------------------------------------ index-built rearrangements
# Each is a Gather (or GatherNd) with an index array NumPy computes from the static shape, so
# it is exact, differentiable, and works eagerly and inside graphs alike.

def _take(a, index: onp.ndarray, axis: int) -> Tensor:
    return ops.gather(a, Tensor(index.astype(onp.int32), mstype.int32), axis)


def _axis(a, axis: int) -> int:
    if not -a.ndim <= axis < builtins.max(a.ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    return axis % builtins.max(a.ndim, 1)


def roll(a, shift, axis=None) -> Tensor:
    """Elements shifted by ``shift`` along ``axis`` (the flattened array when None)."""
    if axis is not None and not isinstance(axis, int) and isinstance(shift, int):
        shift = (shift,) * len(axis)  # NumPy broadcasts one shift over the axes
    return ops.roll(a, shift, axis)


def repeat(a, repeats, axis=None) -> Tensor:
    """Each element repeated ``repeats`` times (an int, or one count per element) along
    ``axis`` (the flattened array when None)."""
    return ops.repeat_interleave(a, repeats, axis)


def diag(v, k: int = 0) -> Tensor:
    """A 1-D ``v`` on the ``k``-th diagonal of a square matrix, or the ``k``-th diagonal of
    a 2-D ``v``."""
    if v.ndim == 1:
        n = v.shape[0]
        m = n + builtins.abs(k)
        index = onp.full((m, m), n)  # position n is the appended zero
        index[onp.arange(n) + builtins.max(-k, 0), onp.arange(n) + builtins.max(k, 0)] = \
            onp.arange(n)
        extended = ops.concat((v, ops.zeros((1,), v.dtype)))
        return _take(extended, index, 0)
    if v.ndim == 2:
        rows, cols = onp.indices(tuple(v.shape))
        pairs = onp.stack([onp.diagonal(rows, k), onp.diagonal(cols, k)], -1)
        if pairs.shape[0] == 0:
            return ops.zeros((0,), v.dtype)
        return ops.gather_nd(v, Tensor(pairs.astype(onp.int32), mstype.int32))
    raise ValueError("Input must be 1- or 2-d.")


def tensordot(a, b, axes=2) -> Tensor:
    """Sum of products over ``axes`` (an int n: the last n of ``a`` with the first n of
    ``b``; or a pair of axis sequences), as one matrix product."""
    if isinstance(axes, int):
        axes_a, axes_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        axes_a, axes_b = ([x] if isinstance(x, int) else list(x) for x in axes)
    axes_a = [_axis(a, x) for x in axes_a]
    axes_b = [_axis(b, x) for x in axes_b]
    if [a.shape[x] for x in axes_a] != [b.shape[x] for x in axes_b]:
        raise ValueError(f"shape-mismatch for sum: {a.shape} and {b.shape} along "
                         f"{axes_a} and {axes_b}")
    free_a = [x for x in range(a.ndim) if x not in axes_a]
    free_b = [x for x in range(b.ndim) if x not in axes_b]
    size = int(onp.prod([a.shape[x] for x in axes_a]))
    left = ops.reshape(ops.transpose(a, tuple(free_a + axes_a)), (-1, size))
    right = ops.reshape(ops.transpose(b, tuple(axes_b + free_b)), (size, -1))
    shape = tuple(a.shape[x] for x in free_a) + tuple(b.shape[x] for x in free_b)
    return ops.reshape(ops.matmul(left, right), shape)


def split(x, indices_or_sections, axis: int = 0):
    """Equal parts (a tuple, for an int) or the parts between the given indices (a list)."""
    axis = _axis(x, axis)
    n = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if indices_or_sections <= 0 or n % indices_or_sections:
            raise ValueError(f"For 'split', the dimension {n} of axis {axis} can not be "
                             f"split evenly into {indices_or_sections} sections.")
        return tuple(ops.split(x, n // indices_or_sections, axis))
    bounds = [builtins.min(builtins.max(int(i), 0), n) for i in indices_or_sections]
    edges = [0, *bounds, n]
    return [ops.gather(x, Tensor(onp.arange(lo, builtins.max(lo, hi), dtype=onp.int32)), axis)
            if hi - lo != n else x for lo, hi in zip(edges[:-1], edges[1:])]


_PAD_INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")
_PAD_STAT_MODES = {"maximum": ops.amax, "minimum": ops.amin, "mean": ops.mean}


def _pairs(value, ndim: int) -> list:
    return onp.broadcast_to(onp.asarray(value, dtype=object), (ndim, 2)).tolist()


def _slab(a, axis: int, start: int, stop: int) -> Tensor:
    return _take(a, onp.arange(start, stop), axis)


def _pad_side(a, axis: int, width: int, before: bool, mode: str, constant, stat_length,
              end_value) -> Tensor:
    """The ``width`` new elements on one side of ``axis`` (a constant, a statistic of the
    ``stat_length`` nearest elements, or a linear ramp from ``end_value`` to the edge)."""
    shape = list(a.shape)
    shape[axis] = width
    n = a.shape[axis]
    if mode in ("constant", "empty"):
        return ops.fill(a.dtype, tuple(shape), constant if mode == "constant" else 0)
    if mode == "linear_ramp":
        edge = _slab(a, axis, 0, 1) if before else _slab(a, axis, n - 1, n)
        steps = onp.arange(width, dtype=onp.float64) / width
        w = (steps if before else steps[::-1]).reshape([-1 if i == axis else 1
                                                         for i in range(a.ndim)])
        ramp = end_value + (ops.cast(edge, mstype.float32) - end_value) * Tensor(
            w.astype(onp.float32))
        return ops.cast(ramp, a.dtype)
    length = n if stat_length is None else builtins.min(int(stat_length), n)
    near = _slab(a, axis, 0, length) if before else _slab(a, axis, n - length, n)
    stat = _PAD_STAT_MODES[mode](near, axis, True)
    return ops.broadcast_to(ops.cast(stat, a.dtype), tuple(shape))


def _odd_reflection(arr, even, axis: int, lo: int, hi: int, mode: str) -> Tensor:
    """``reflect_type='odd'``: each mirrored element ``e`` becomes ``2 * edge - e``."""
    n = arr.shape[axis]
    if builtins.max(lo, hi) > n - (mode == "reflect"):
        raise ValueError(f"For 'pad', reflect_type='odd' supports pad widths up to "
                         f"{n - (mode == 'reflect')} on an axis of size {n}, but got {(lo, hi)}.")
    parts = [arr]
    if lo:
        parts.insert(0, 2 * _slab(arr, axis, 0, 1) - _slab(even, axis, 0, lo))
    if hi:
        end = even.shape[axis]
        parts.append(2 * _slab(arr, axis, n - 1, n) - _slab(even, axis, end - hi, end))
    return ops.concat(tuple(parts), axis)


def pad(arr, pad_width, mode: str = "constant", stat_length=None, constant_values=0,
        end_values=0, reflect_type: str = "even") -> Tensor:
    """NumPy's ``pad``: each axis padded in turn (``constant``, ``edge``, ``reflect``,
    ``symmetric``, ``wrap``, ``maximum``, ``minimum``, ``mean``, ``linear_ramp``, ``empty``)."""
    if mode not in ("constant", "empty", "linear_ramp", *_PAD_INDEX_MODES, *_PAD_STAT_MODES):
        raise ValueError(f"For 'pad', mode '{mode}' is not supported; use one of 'constant', "
                         f"'edge', 'linear_ramp', 'maximum', 'mean', 'minimum', 'reflect', "
                         f"'symmetric', 'wrap', 'empty'.")
    widths = _pairs(pad_width, arr.ndim)
    constants = _pairs(constant_values, arr.ndim)
    stats = _pairs(stat_length, arr.ndim)
    ends = _pairs(end_values, arr.ndim)
    for axis, (lo, hi) in enumerate(widths):
        if lo < 0 or hi < 0:
            raise ValueError("For 'pad', the pad widths must be non-negative.")
        if not (lo or hi):
            continue
        if mode in _PAD_INDEX_MODES:
            padded = _take(arr, onp.pad(onp.arange(arr.shape[axis]), (lo, hi), mode=mode), axis)
            arr = (_odd_reflection(arr, padded, axis, lo, hi, mode)
                   if reflect_type == "odd" and mode in ("reflect", "symmetric") else padded)
            continue
        parts = [arr]
        for width, before in ((lo, True), (hi, False)):
            if width:
                side = _pad_side(arr, axis, width, before, mode, constants[axis][1 - before],
                                 stats[axis][1 - before], ends[axis][1 - before])
                parts.insert(0 if before else len(parts), side)
        arr = ops.concat(tuple(parts), axis)
    return arr
