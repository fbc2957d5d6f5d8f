"""Products, differences, norms and signal functions of ``mindspore.numpy``: dot, inner,
outer, kron, cross, multi_dot, matrix_power, norm, diff, ediff1d, gradient, trapz,
convolve, correlate, cov, corrcoef, interp, unwrap. Static index arrays come from the
shapes; values flow through ``ops`` (eager and in graphs)."""
from __future__ import annotations

import builtins
import functools
import math

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._base import (
    as_float,
    cast_to,
    dtype_of,
    int_const,
    norm_axes,
    norm_axis,
    promote,
    promote_pair,
    to_tensor,
)
from .rearrange import tensordot


def _slice(a: Tensor, axis: int, start: int, stop: int) -> Tensor:
    return ops.gather(a, int_const(onp.arange(start, stop)), axis)


def dot(a, b) -> Tensor:
    """NumPy's ``dot``: inner product for 1-D, matrix product otherwise (the last axis of
    ``a`` with the second-to-last of ``b``)."""
    a, b = promote(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    return tensordot(a, b, ((a.ndim - 1,), (builtins.max(b.ndim - 2, 0),)))


def inner(a, b) -> Tensor:
    """Sum of products over the last axes of ``a`` and ``b``."""
    a, b = promote(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    return tensordot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def outer(a, b) -> Tensor:
    """``a.ravel()[:, None] * b.ravel()[None, :]``."""
    a, b = promote(a, b)
    return ops.reshape(a, (-1, 1)) * ops.reshape(b, (1, -1))


def matmul(x1, x2, dtype=None) -> Tensor:
    """Matrix product with NumPy's broadcasting of batch axes and 1-D operands."""
    a, b = promote(x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    out = ops.matmul(ops.expand_dims(a, 0) if a.ndim == 1 else a,
                     ops.expand_dims(b, -1) if b.ndim == 1 else b)
    if a.ndim == 1:
        out = ops.squeeze(out, -2)
    if b.ndim == 1:
        out = ops.squeeze(out, -1)
    return cast_to(out, dtype)


def kron(a, b) -> Tensor:
    """Kronecker product: blocks of ``b`` scaled by each element of ``a``."""
    a, b = promote(a, b)
    n = builtins.max(a.ndim, b.ndim)
    a = ops.reshape(a, (1,) * (n - a.ndim) + tuple(a.shape))
    b = ops.reshape(b, (1,) * (n - b.ndim) + tuple(b.shape))
    sa = [s for d in a.shape for s in (d, 1)]
    sb = [s for d in b.shape for s in (1, d)]
    out = ops.reshape(a, tuple(sa)) * ops.reshape(b, tuple(sb))
    return ops.reshape(out, tuple(x * y for x, y in zip(a.shape, b.shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None) -> Tensor:
    """Cross product of 2- or 3-component vectors along the given axes."""
    a, b = promote(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = ops.moveaxis(a, norm_axis(axisa, a.ndim), -1)
    b = ops.moveaxis(b, norm_axis(axisb, b.ndim), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product (dimension must be 2 "
                         "or 3)")
    ax = [ops.gather(a, int_const(i), -1) for i in range(a.shape[-1])]
    bx = [ops.gather(b, int_const(i), -1) for i in range(b.shape[-1])]
    if len(ax) == 2 and len(bx) == 2:
        return ax[0] * bx[1] - ax[1] * bx[0]
    zero_a, zero_b = ops.zeros_like(ax[0]), ops.zeros_like(bx[0])
    ax += [zero_a] * (3 - len(ax))
    bx += [zero_b] * (3 - len(bx))
    out = ops.stack((ax[1] * bx[2] - ax[2] * bx[1], ax[2] * bx[0] - ax[0] * bx[2],
                     ax[0] * bx[1] - ax[1] * bx[0]), -1)
    return ops.moveaxis(out, -1, norm_axis(axisc, out.ndim))


def multi_dot(arrays) -> Tensor:
    """``dot`` of a chain of arrays (the first and last may be 1-D)."""
    arrays = [to_tensor(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least 2 arrays.")
    out = arrays[0]
    for a in arrays[1:]:
        out = dot(out, a)
    return out


def matrix_power(a, n: int) -> Tensor:
    """``a`` multiplied by itself ``n`` times (``n >= 0``; 0 gives the identity)."""
    a = to_tensor(a)
    if not isinstance(n, builtins.int):
        raise TypeError(f"exponent must be an integer, but got {type(n)}.")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("input must be a square array with at least 2 dimensions.")
    if n < 0:
        raise ValueError(f"n must be non-negative, but got {n}.")
    result, base = None, a
    while True:
        if n & 1:
            result = base if result is None else ops.matmul(result, base)
        n >>= 1
        if not n:
            break
        base = ops.matmul(base, base)
    if result is None:
        eye = onp.broadcast_to(onp.eye(a.shape[-1]), tuple(a.shape))
        return Tensor(eye.astype(a.dtype.np_dtype), a.dtype)
    return result


def _vector_norm(x, ord, axes, keepdims):
    x = ops.abs(x)
    if ord is None or ord == 2:
        return ops.sqrt(ops.reduce_sum(ops.square(x), axes, keepdims))
    if ord == onp.inf:
        return ops.reduce_max(x, axes, keepdims)
    if ord == -onp.inf:
        return ops.reduce_min(x, axes, keepdims)
    if ord == 0:
        return ops.reduce_sum(ops.cast(x != 0, x.dtype), axes, keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return ops.pow(ops.reduce_sum(ops.pow(x, float(ord)), axes, keepdims), 1.0 / ord)


def _matrix_norm(x, ord, axes, keepdims):
    r, c = axes
    if ord in (None, "fro"):
        return ops.sqrt(ops.reduce_sum(ops.square(x), axes, keepdims))
    if ord in (1, -1, onp.inf, -onp.inf):
        sum_axis, pick_axis = (r, c) if ord in (1, -1) else (c, r)
        sums = ops.reduce_sum(ops.abs(x), (sum_axis,), True)
        pick = ops.reduce_max if ord in (1, onp.inf) else ops.reduce_min
        out = pick(sums, (pick_axis,), True)
    elif ord in (2, -2, "nuc"):
        moved = ops.moveaxis(ops.moveaxis(x, r, -2), c if c < r else c - 0, -1) \
            if (r, c) != (x.ndim - 2, x.ndim - 1) else x
        s = ops.svd(moved, compute_uv=False)
        s = {2: ops.reduce_max, -2: ops.reduce_min, "nuc": ops.reduce_sum}[ord](s, (-1,))
        out = s
        for ax in sorted(axes):
            out = ops.expand_dims(out, ax)
    else:
        raise ValueError(f"Invalid norm order {ord} for matrices")
    return out if keepdims else ops.squeeze(out, axes)


def norm(x, ord=None, axis=None, keepdims=False) -> Tensor:  # noqa: A002
    """Vector (1 axis) or matrix (2 axes) norm; ``axis=None`` flattens unless ``ord`` is
    given for a 2-D input."""
    x = as_float(to_tensor(x))
    if axis is None:
        if ord is not None and x.ndim == 2:
            return _matrix_norm(x, ord, (0, 1), keepdims)
        out = _vector_norm(ops.reshape(x, (-1,)), ord if ord is not None else 2, (0,), False)
        return ops.reshape(out, (1,) * x.ndim) if keepdims else out
    axes = (axis,) if isinstance(axis, builtins.int) else tuple(axis)
    axes = tuple(norm_axis(a, x.ndim) for a in axes)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def diff(a, n=1, axis=-1, prepend=None, append=None) -> Tensor:
    """The ``n``-th discrete difference along ``axis``."""
    a = to_tensor(a)
    axis = norm_axis(axis, a.ndim)
    if n == 0:
        return a
    parts = []
    for extra in (prepend, a, append):
        if extra is None:
            continue
        extra = to_tensor(extra, a.dtype) if extra is not a else a
        if extra.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            extra = ops.broadcast_to(extra, tuple(shape))
        parts.append(extra)
    a = ops.concat(tuple(parts), axis) if len(parts) > 1 else a
    for _ in range(n):
        size = a.shape[axis]
        a = _slice(a, axis, 1, size) - _slice(a, axis, 0, size - 1)
    return a


def ediff1d(ary, to_end=None, to_begin=None) -> Tensor:
    """Differences between consecutive elements of the flattened ``ary``."""
    ary = ops.reshape(to_tensor(ary), (-1,))
    out = [diff(ary)]
    if to_begin is not None:
        out.insert(0, ops.reshape(to_tensor(to_begin, ary.dtype), (-1,)))
    if to_end is not None:
        out.append(ops.reshape(to_tensor(to_end, ary.dtype), (-1,)))
    return ops.concat(tuple(out)) if len(out) > 1 else out[0]


def gradient(f, *varargs, axis=None, edge_order=1):
    """Central differences inside, one-sided at the ends (uniform spacing), of first or
    (``edge_order=2``, as NumPy; MindSpore has only 1) second order there."""
    f = as_float(to_tensor(f))
    if edge_order not in (1, 2):
        raise ValueError("'edge_order' greater than 2 not supported")
    axes = norm_axes(axis, f.ndim) if axis is None or not isinstance(axis, builtins.int) \
        else (norm_axis(axis, f.ndim),)
    if not varargs:
        spacing = (1,) * len(axes)
    elif len(varargs) == 1:
        spacing = varargs * len(axes)
    elif len(varargs) == len(axes):
        spacing = varargs
    else:
        raise TypeError("Invalid number of arguments")
    out = []
    for ax, dx in zip(axes, spacing):
        n = f.shape[ax]
        if n < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             f"at least {edge_order + 1} elements are required.")
        at = functools.partial(_slice, f, ax)
        if edge_order == 1:
            first = at(1, 2) - at(0, 1)
            last = at(n - 1, n) - at(n - 2, n - 1)
        else:
            first = (at(1, 2) * 4.0 - at(0, 1) * 3.0 - at(2, 3)) / 2.0
            last = (at(n - 1, n) * 3.0 - at(n - 2, n - 1) * 4.0 + at(n - 3, n - 2)) / 2.0
        parts = [first]
        if n > 2:
            parts.append((_slice(f, ax, 2, n) - _slice(f, ax, 0, n - 2)) / 2.0)
        parts.append(last)
        out.append(ops.concat(tuple(parts), ax) / dx)
    return out[0] if len(out) == 1 else out


def trapz(y, x=None, dx=1.0, axis=-1) -> Tensor:
    """Integral of ``y`` along ``axis`` by the trapezoidal rule."""
    y = as_float(to_tensor(y))
    axis = norm_axis(axis, y.ndim)
    n = y.shape[axis]
    mid = (_slice(y, axis, 1, n) + _slice(y, axis, 0, n - 1)) / 2.0
    if x is None:
        return ops.reduce_sum(mid, (axis,)) * dx
    x = as_float(to_tensor(x))
    if x.ndim == 1:
        view = [1] * y.ndim
        view[axis] = x.shape[0]
        x = ops.reshape(x, tuple(view))
        d = _slice(x, axis, 1, n) - _slice(x, axis, 0, n - 1)
    else:
        d = diff(x, axis=axis)
    return ops.reduce_sum(mid * d, (axis,))


def _correlate_full(a: Tensor, v: Tensor) -> Tensor:
    """``c[k] = sum_j a_pad[k + j] * v[j]``, with ``len(v) - 1`` zeros padding ``a``."""
    n, m = a.shape[0], v.shape[0]
    padded = ops.concat((ops.zeros((m - 1,), a.dtype), a, ops.zeros((m - 1,), a.dtype)))
    windows = onp.arange(n + m - 1)[:, None] + onp.arange(m)[None, :]
    return ops.reduce_sum(ops.gather(padded, int_const(windows), 0) * v, (1,))


def _mode_slice(full: Tensor, n: int, m: int, mode: str) -> Tensor:
    if mode == "full":
        return full
    if mode == "same":
        start = (m - 1) // 2 if n >= m else (n - 1) // 2
        return _slice(full, 0, start, start + builtins.max(n, m))
    if mode == "valid":
        return _slice(full, 0, builtins.min(n, m) - 1, builtins.max(n, m))
    raise ValueError(f"mode must be 'valid', 'same' or 'full', but got {mode!r}.")


def _check_1d(a, v):
    a, v = promote(a, v)
    a = ops.reshape(a, (1,)) if a.ndim == 0 else a
    v = ops.reshape(v, (1,)) if v.ndim == 0 else v
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("a and v must be 1-D arrays.")
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError("a and v cannot be empty.")
    return a, v


def correlate(a, v, mode="valid") -> Tensor:
    """Cross-correlation of two 1-D sequences (``mode``: valid, same or full)."""
    a, v = _check_1d(a, v)
    n, m = a.shape[0], v.shape[0]
    if n >= m:
        return _mode_slice(_correlate_full(a, v), n, m, mode)
    full = ops.reverse(_correlate_full(v, a), (0,))
    return _mode_slice(full, n, m, mode)


def convolve(a, v, mode="full") -> Tensor:
    """Discrete linear convolution of two 1-D sequences."""
    a, v = _check_1d(a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _mode_slice(_correlate_full(a, ops.reverse(v, (0,))), a.shape[0], v.shape[0], mode)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None) -> Tensor:
    """Covariance matrix of the variables (rows, or columns when ``rowvar`` is False)."""
    m = as_float(to_tensor(m))
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    x = ops.reshape(m, (1, -1)) if m.ndim < 2 else m
    if not rowvar and x.shape[0] != 1:
        x = ops.transpose(x, (1, 0))
    if y is not None:
        y = as_float(to_tensor(y))
        y = ops.reshape(y, (1, -1)) if y.ndim < 2 else y
        if not rowvar and y.shape[0] != 1:
            y = ops.transpose(y, (1, 0))
        x = ops.concat((x, ops.cast(y, x.dtype)), 0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = _cov_weights(fweights, x.shape[1])
    if aweights is not None:
        aweights = _cov_weights(aweights, x.shape[1])
        w = aweights if w is None else w * aweights
    if w is None:
        avg = ops.reduce_mean(x, (1,), True)
        fact = x.shape[1] - ddof
    else:
        w_sum = ops.reduce_sum(w)
        avg = ops.reduce_sum(x * w, (1,), True) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * ops.reduce_sum(w * aweights) / w_sum
    xc = x - avg
    xw = xc if w is None else xc * w
    out = ops.matmul(xw, ops.transpose(xc, (1, 0))) / fact
    if out.shape == (1, 1):
        out = ops.reshape(out, ())
    return cast_to(out, dtype)


def _cov_weights(weights, samples: int) -> Tensor:
    """``cov``'s weights as Float32 magnitudes; as MindSpore's, both kinds must be integers."""
    weights = to_tensor(weights)
    if weights.dtype.np_dtype.kind not in "iu":
        raise TypeError("weights must be integer")
    if weights.ndim > 1:
        raise RuntimeError("cannot handle multidimensional weights")
    if weights.shape[0] != samples:
        raise RuntimeError("incompatible numbers of samples and weights")
    return ops.abs(ops.cast(weights, mstype.float32))


def corrcoef(x, y=None, rowvar=True, dtype=None) -> Tensor:
    """Pearson correlation coefficients (``cov`` normalised by the standard deviations)."""
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return cast_to(c / c, dtype)
    d = ops.sqrt(ops.diagonal(c))
    out = c / ops.reshape(d, (-1, 1)) / ops.reshape(d, (1, -1))
    return cast_to(ops.clip_by_value(out, -1.0, 1.0), dtype)


def interp(x, xp, fp, left=None, right=None) -> Tensor:
    """Piecewise-linear interpolation of the points ``(xp, fp)`` at ``x``."""
    x = as_float(to_tensor(x))
    xp = as_float(to_tensor(xp))
    fp = as_float(to_tensor(fp))
    n = xp.shape[0]
    idx = ops.searchsorted(xp, x, right=True)
    idx = ops.clip_by_value(ops.cast(idx, mstype.int32), 1, builtins.max(n - 1, 1))
    x0, x1 = ops.gather(xp, idx - 1, 0), ops.gather(xp, idx, 0)
    y0, y1 = ops.gather(fp, idx - 1, 0), ops.gather(fp, idx, 0)
    span = x1 - x0
    safe = ops.select(span == 0, ops.ones_like(span), span)
    out = y0 + (x - x0) * (y1 - y0) / safe
    first = ops.gather(fp, int_const(0), 0)
    last = ops.gather(fp, int_const(n - 1), 0)
    low = first if left is None else Tensor(onp.float32(left))
    high = last if right is None else Tensor(onp.float32(right))
    out = ops.select(x == ops.gather(xp, int_const(n - 1), 0), ops.broadcast_to(
        last, tuple(x.shape)), out)
    out = ops.select(x < ops.gather(xp, int_const(0), 0), ops.broadcast_to(
        ops.cast(low, out.dtype), tuple(x.shape)), out)
    return ops.select(x > ops.gather(xp, int_const(n - 1), 0), ops.broadcast_to(
        ops.cast(high, out.dtype), tuple(x.shape)), out)


def unwrap(p, discont=None, axis=-1, period=2 * math.pi) -> Tensor:
    """``p`` with jumps larger than ``discont`` replaced by their ``period`` complement."""
    p = as_float(to_tensor(p))
    axis = norm_axis(axis, p.ndim)
    half = period / 2
    discont = half if discont is None else builtins.max(discont, half)
    d = diff(p, axis=axis)
    dd = _remainder_float(d + half, period) - half
    dd = ops.select((dd == -half) & (d > 0), dd + period, dd)
    correction = ops.select(ops.abs(d) < discont, ops.zeros_like(d), dd - d)
    n = p.shape[axis]
    head = _slice(p, axis, 0, 1)
    return ops.concat((head, _slice(p, axis, 1, n) + ops.cumsum(correction, axis)), axis)


def _remainder_float(a, b):
    return a - ops.floor(a / b) * b


def result_type(*arrays_and_dtypes) -> mstype.Type:
    """The type mnp's promotion gives the arguments (Tensors, types, type names, or Python
    numbers as mnp's Int32/Float32/Bool)."""
    types = []
    for v in arrays_and_dtypes:
        if isinstance(v, Tensor):
            types.append(v.dtype)
        elif isinstance(v, (builtins.bool, builtins.int, builtins.float)):
            types.append(to_tensor(v).dtype)
        else:
            types.append(_mnp_type(v))
    out = types[0]
    for t in types[1:]:
        out = promote_pair(out, t)
    return out


def _mnp_type(value) -> mstype.Type:
    """A type from a MindSpore type, a NumPy type or name, or ``int``/``float``/``bool``
    (as mnp's Int32/Float32/Bool)."""
    if value in (builtins.int, builtins.float, builtins.bool) or value in ("int", "float"):
        return to_tensor({"int": 0, "float": 0.0}.get(value, value() if callable(value)
                                                           else value)).dtype
    return dtype_of(value)


def promote_types(type1, type2) -> mstype.Type:
    """The type mnp's promotion gives ``type1`` and ``type2`` (a float type wins)."""
    return promote_pair(_mnp_type(type1), _mnp_type(type2))
