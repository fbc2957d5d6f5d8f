"""Sliding-window kernels shared by convolution and pooling (NumPy, no Python pixel loops).

``windows`` views a padded input as ``(N, C, *out, *kernel)`` with ``as_strided`` (no copy);
convolution reshapes that view once into an im2col matrix and makes one BLAS call, and
``scatter_windows`` adds per-window values back into an input-shaped array with one
strided slice per kernel offset (the adjoint of ``windows``), skipping the padding.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .workspace import result_array, workspace


def cached_geometry(make):
    """``make(*args, attrs)`` (a kernel's checked geometry) cached per arguments and
    attribute values: kernels rebuild it on every call. Attributes that cannot be hashed
    (a list) are checked afresh; a call that raises caches nothing."""
    cached = functools.lru_cache(maxsize=256)(
        lambda *key: make(*key[:-1], dict(key[-1])))

    @functools.wraps(make)
    def get(*args):
        key = (*args[:-1], tuple(sorted(args[-1].items())))
        try:
            hash(key)
        except TypeError:
            return make(*args)
        return cached(*key)
    return get


def out_size(size: int, k: int, stride: int, dilation: int, before: int, after: int,
             ceil_mode: bool = False) -> int:
    """Output length of a window of ``k`` taps along an axis of ``size`` padded elements."""
    span = (k - 1) * dilation + 1
    room = size + before + after - span
    if ceil_mode:
        n = -(-room // stride) + 1
        if (n - 1) * stride >= size + before:  # the last window must start inside
            n -= 1
        return n
    return room // stride + 1


def out_sizes(sizes, kernel, stride, dilation, pads, ceil_mode: bool = False) -> tuple:
    """:func:`out_size` per axis; ``-1`` (known only at run time) where ``sizes`` has -1."""
    return tuple(-1 if n < 0 else out_size(n, k, s, d, b, a, ceil_mode)
                 for n, k, s, d, (b, a) in zip(sizes, kernel, stride, dilation, pads))


def same_pads(sizes, kernel, stride, dilation) -> tuple:
    """``pad_mode='same'``: outputs ``ceil(size / stride)``, extra padding at the end
    (``(-1, -1)`` along an axis whose size is known only at run time)."""
    pads = []
    for n, k, s, d in zip(sizes, kernel, stride, dilation):
        if n < 0:
            pads.append((-1, -1))
            continue
        total = max((math.ceil(n / s) - 1) * s + (k - 1) * d + 1 - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def resolve_pads(pad_mode: str, sizes, kernel, stride, dilation, pad) -> tuple:
    """((before, after), ...) per spatial axis for ``pad_mode`` 'valid', 'same' or 'pad'
    (``pad`` given per axis as (before, after) pairs)."""
    mode = pad_mode.lower()
    if mode == "same":
        return same_pads(sizes, kernel, stride, dilation)
    if mode == "pad":
        return tuple(pad)
    return tuple((0, 0) for _ in sizes)


def pad_input(x: np.ndarray, pads, value: float = 0.0, extra=None,
              role: str = "padded") -> np.ndarray:
    """``x`` padded on its spatial axes (2..) with ``pads``; ``extra`` adds room at the end
    (ceil mode) without counting as padding. The padded copy is this thread's workspace
    ``role`` for that layout (its border written once): done with it before the next call
    of the same role and shape."""
    extra = tuple(extra or (0,) * len(pads))
    pads = tuple(tuple(p) for p in pads)
    if not any(b or a for b, a in pads) and not any(extra):
        return x
    shape = x.shape[:2] + tuple(n + b + a + e for n, (b, a), e in zip(x.shape[2:], pads,
                                                                      extra))
    xp = workspace((role, x.shape, pads, extra, value), shape, x.dtype, fill=value)
    xp[(slice(None),) * 2 + tuple(slice(b, b + n) for n, (b, _) in zip(x.shape[2:],
                                                                       pads))] = x
    return xp


def windows(xp: np.ndarray, kernel, stride, dilation, out) -> np.ndarray:
    """The read-only ``(N, C, *out, *kernel)`` view of the windows of padded ``xp``."""
    sN, sC, *sp = xp.strides
    shape = xp.shape[:2] + tuple(out) + tuple(kernel)
    strides = (sN, sC, *(s * st for s, st in zip(sp, stride)),
               *(s * d for s, d in zip(sp, dilation)))
    return as_strided(xp, shape, strides, writeable=False)


def window_taps(kernel, stride, dilation, pads, sizes, out):
    """Per kernel offset ``idx``: ``(idx, src, dst)``, where ``src`` slices the output axes
    down to the windows whose tap at ``idx`` lands inside the unpadded input, and ``dst``
    slices the input at those taps (taps in the padding are left out; offsets with none are
    skipped)."""
    for idx in itertools.product(*(range(k) for k in kernel)):
        src, dst = [], []
        for i, d, s, (before, _), n, o in zip(idx, dilation, stride, pads, sizes, out):
            first = i * d - before  # the input position of output 0's tap
            lo = max(0, -(first // s))  # first output whose tap is at position >= 0
            hi = min(o - 1, (n - 1 - first) // s)  # last one whose tap is < n
            if hi < lo:
                break
            src.append(slice(lo, hi + 1))
            dst.append(slice(first + lo * s, first + hi * s + 1, s))
        else:
            yield idx, tuple(src), tuple(dst)


def scatter_windows(cols: np.ndarray, shape, kernel, stride, dilation, pads,
                    out: np.ndarray | None = None, window_order: bool = False) -> np.ndarray:
    """Adjoint of :func:`windows` of the input padded with ``pads``: ``cols`` of shape
    ``(N, C, *kernel, *sizes)`` summed into a zero array of the unpadded input's ``shape``
    (``out`` when it fits; one strided add per kernel offset, in offset order; what fell in
    the padding is dropped). With ``window_order`` the offsets go last to first, so each
    input element adds its windows' shares in the windows' row-major order (as oneDNN's
    pooling backward, MindSpore's CPU kernel, accumulates them)."""
    sizes = cols.shape[2 + len(kernel):]
    acc = result_array(out, tuple(shape), cols.dtype)
    acc.fill(0)
    lead = (slice(None), slice(None))
    taps = list(window_taps(kernel, stride, dilation, pads, shape[2:], sizes))
    for idx, src, dst in reversed(taps) if window_order else taps:
        acc[lead + dst] += cols[lead + idx + src]
    return acc


def compute_dtype(dtype: np.dtype) -> np.dtype:
    """float16 is computed in float32 (as MindSpore's CPU kernels do)."""
    return np.dtype(np.float32) if dtype == np.float16 else np.dtype(dtype)
