"""Index-built rearrangements of ``mindspore.numpy``: roll, repeat, diag, tensordot, split,
pad. Each is a Gather (or GatherNd) with an index array NumPy computes from the static
shape, so it is exact, differentiable, and works eagerly and inside graphs alike."""
from __future__ import annotations

import builtins

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .apply import apply_along_axis


def _take(a, index: onp.ndarray, axis: int) -> Tensor:
    return ops.gather(a, Tensor(index.astype(onp.int32), mstype.int32), axis)


def _axis(a, axis: int) -> int:
    if not -a.ndim <= axis < builtins.max(a.ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    return axis % builtins.max(a.ndim, 1)


def roll(a, shift, axis=None) -> Tensor:
    """Elements shifted by ``shift`` along ``axis`` (the flattened array when None)."""
    if axis is None:
        return ops.roll(a, shift, axis)
    totals = {}  # NumPy broadcasts shifts against axes and adds the shifts of one axis
    shifts, axes = onp.broadcast_arrays(onp.asarray(shift), onp.asarray(axis))
    for s, x in zip(shifts.ravel(), axes.ravel()):
        x = _axis(a, int(x))
        totals[x] = totals.get(x, 0) + int(s)
    return ops.roll(a, tuple(totals.values()), tuple(totals))


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


def _odd_reflection(arr, axis: int, lo: int, hi: int, mode: str) -> Tensor:
    """``reflect_type='odd'``: mirrored elements ``e`` become ``2 * edge - e``. As NumPy,
    widths longer than the axis are filled chunk by chunk, each mirroring what is already
    there."""
    n = arr.shape[axis]
    if n == 1:
        return _take(arr, onp.zeros(lo + n + hi, onp.int64), axis)
    skip = 1 if mode == "symmetric" else 0  # symmetric repeats the edge element
    while lo > 0 or hi > 0:
        length = arr.shape[axis]
        period = length // n * n if skip else (length - 1) // (n - 1) * (n - 1)
        if lo > 0:
            chunk = builtins.min(period, lo)
            mirrored = _take(arr, onp.arange(chunk - skip, -skip, -1), axis)
            arr = ops.concat((2 * _slab(arr, axis, 0, 1) - mirrored, arr), axis)
            lo -= chunk
        if hi > 0:
            chunk = builtins.min(period, hi)
            end = arr.shape[axis]
            mirrored = _take(arr, onp.arange(end + skip - 2, end + skip - 2 - chunk, -1), axis)
            arr = ops.concat((arr, 2 * _slab(arr, axis, end - 1, end) - mirrored), axis)
            hi -= chunk
    return arr


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0,
        end_values=0, reflect_type: str = "even", **kwargs) -> Tensor:
    """NumPy's ``pad``: each axis padded in turn (``constant``, ``edge``, ``reflect``,
    ``symmetric``, ``wrap``, ``maximum``, ``minimum``, ``mean``, ``linear_ramp``, ``empty``),
    or by a function ``mode(vector, iaxis_pad_width, iaxis, kwargs)`` that returns each
    zero-padded 1-D slice filled in."""
    if callable(mode):
        widths = _pairs(pad_width, arr.ndim)
        arr = pad(arr, pad_width)
        for axis in range(arr.ndim):
            arr = apply_along_axis(mode, axis, arr, tuple(widths[axis]), axis, kwargs)
        return arr
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
            if reflect_type == "odd" and mode in ("reflect", "symmetric"):
                arr = _odd_reflection(arr, axis, lo, hi, mode)
            else:
                arr = _take(arr, onp.pad(onp.arange(arr.shape[axis]), (lo, hi), mode=mode),
                            axis)
            continue
        parts = [arr]
        for width, before in ((lo, True), (hi, False)):
            if width:
                side = _pad_side(arr, axis, width, before, mode, constants[axis][1 - before],
                                 stats[axis][1 - before], ends[axis][1 - before])
                parts.insert(0 if before else len(parts), side)
        arr = ops.concat(tuple(parts), axis)
    return arr
