"""Fractional max pooling with fixed window sizes, as MindSpore's CPU kernels:
``FractionalMaxPoolWithFixedKsize(x, random_samples)`` (2-D, ``x`` ``(N, C, H, W)``,
``random_samples`` ``(N, C, 2)``: ``[0]`` places the W windows, ``[1]`` the H ones) and
``FractionalMaxPool3DWithFixedKsize`` (``(N, C, D, H, W)`` or ``(C, D, H, W)``, samples
``(N, C, 3)`` for D, H, W). They give ``(y, argmax)``: each window's maximum and its flat
index in the ``H * W`` (``D * H * W``) plane (the first maximum; NaNs as :func:`_select`).

Window ``i`` of ``out`` along an axis of ``size`` with kernel ``k`` starts at
``int((i + u) * a) - int(u * a)`` with ``a = (size - k) / (out - 1)`` (computed in the
samples' precision in 2-D, float32 in 3-D), the last at ``size - k``. The gradient ops
``FractionalMaxPoolGradWithFixedKsize(origin_input, out_backprop, argmax)`` (and the 3-D
one) add ``out_backprop`` at ``argmax``.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import dims_match, quiet, require_dtype, shapes_match, tensor_type

_VALUES = (mstype.int32, mstype.int64, mstype.float16, mstype.float32, mstype.float64)
_SAMPLES = (mstype.float16, mstype.float32, mstype.float64)
_NAMES = {2: "FractionalMaxPoolWithFixedKsize", 3: "FractionalMaxPool3DWithFixedKsize"}


def _triple(name: str, arg: str, v, k: int) -> tuple:
    v = (v,) * k if isinstance(v, int) else tuple(v)
    if len(v) != k or any(isinstance(e, bool) or not isinstance(e, int) or e <= 0 for e in v):
        raise ValueError(f"For '{name}', the '{arg}' must be a positive int or a tuple of {k} "
                         f"positive ints, but got {v}.")
    return v


def starts(sample: float, size: int, out: int, kernel: int, dtype) -> np.ndarray:
    """The first input position of each of the ``out`` windows along one axis."""
    seq = np.empty(out, np.int64)
    if out > 1:
        alpha = dtype(size - kernel) / dtype(out - 1)
        u = dtype(sample)
        i = np.arange(out - 1).astype(dtype)
        seq[:-1] = np.trunc((i + u) * alpha).astype(np.int64) - int(np.trunc(u * alpha))
    seq[-1] = size - kernel
    return seq


def _plane_windows(sizes, outs, kernels, samples, dtype) -> np.ndarray:
    """``(*outs, K)``: flat plane positions of every window tap for one plane."""
    axes = [starts(s, n, o, k, dtype)[:, None] + np.arange(k)
            for s, n, o, k in zip(samples, sizes, outs, kernels)]  # (out_i, k_i) per axis
    if any(a.min() < 0 or a.max() >= n for a, n in zip(axes, sizes)):
        raise ValueError("For fractional max pooling, a window index is illegal (the kernel "
                         "does not fit the input).")
    k = len(sizes)
    strides = [int(np.prod(sizes[i + 1:])) for i in range(k)]
    flat = np.zeros((1,) * (2 * k), np.int64)
    for i, (a, st) in enumerate(zip(axes, strides)):
        shape = [1] * (2 * k)
        shape[i], shape[k + i] = a.shape
        flat = flat + (a * st).reshape(shape)
    return flat.reshape(tuple(outs) + (-1,))


def _select(vals: np.ndarray, k: int):
    """Per window ``(tap, value)`` as the kernels scan it. 2-D: the first tap strictly
    above a start of -inf (0 for integers, C++'s "infinity" of an int), NaN never above;
    nothing above keeps the start and the first tap. 3-D: the first maximum, unless a NaN
    is there (the last NaN wins)."""
    is_float = vals.dtype.kind == "f"
    if k == 2:
        floor = -np.inf if is_float else 0
        clean = np.where(np.isnan(vals), -np.inf, vals) if is_float else vals
        pick = np.argmax(clean, axis=-1)
        top = np.take_along_axis(clean, pick[..., None], -1)[..., 0]
        above = top > floor
        return np.where(above, pick, 0), np.where(above, top, floor).astype(vals.dtype)
    pick = np.argmax(vals if not is_float else np.where(np.isnan(vals), -np.inf, vals), -1)
    if is_float:  # (a window of -inf keeps the start: the lowest finite value, tap 0)
        top = np.take_along_axis(vals, pick[..., None], -1)[..., 0]
        pick = np.where(top == -np.inf, 0, pick)
        nan = np.isnan(vals)
        last_nan = vals.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
        pick = np.where(nan.any(-1), last_nan, pick)
        best = np.take_along_axis(vals, pick[..., None], -1)[..., 0]
        return pick, np.where(best == -np.inf, np.finfo(vals.dtype).min, best)
    return pick, np.take_along_axis(vals, pick[..., None], -1)[..., 0]


@quiet
def _pool(k: int, x, samples, ksize, output_shape, data_format=None):
    x, samples = np.asarray(x), np.asarray(samples)
    unbatched = x.ndim == k + 1
    if unbatched:
        x, samples = x[None], np.swapaxes(samples, 0, 1)
    n, c, *sizes = x.shape
    kernels, outs = _triple("", "ksize", ksize, k), _triple("", "output_shape", output_shape, k)
    dtype = samples.dtype.type if k == 2 else np.float32
    order = (1, 0) if k == 2 else (0, 1, 2)  # the sample of each axis (2-D: [0] is W)
    y = np.empty((n, c) + tuple(outs), x.dtype)
    arg = np.empty((n, c) + tuple(outs), np.int64)
    for b in range(n):
        for ch in range(c):
            taps = _plane_windows(sizes, outs, kernels, samples[b, ch][list(order)], dtype)
            vals = x[b, ch].reshape(-1)[taps]
            pick, best = _select(vals, k)
            y[b, ch] = best
            arg[b, ch] = np.take_along_axis(taps, pick[..., None], -1)[..., 0]
    return (y[0], arg[0]) if unbatched else (y, arg)


def _pool_infer(k: int):
    name = _NAMES[k]

    def infer(x, samples, ksize=None, output_shape=None, data_format=None):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, _VALUES)
        require_dtype(name, "random_samples", tensor_type(name, "random_samples", samples),
                      _SAMPLES)
        kernels = _triple(name, "ksize", ksize, k)
        outs = _triple(name, "output_shape", output_shape, k)
        ranks = (k + 2,) if k == 2 else (4, 5)
        if len(x.shape) not in ranks or len(samples.shape) != 3 or \
                not dims_match(samples.shape[2], k):
            raise ValueError(f"For '{name}', the 'x' must be {' or '.join(map(str, ranks))}-D "
                             f"and the 'random_samples' (N, C, {k}), but got shapes "
                             f"{list(x.shape)} and {list(samples.shape)}.")
        if k == 2:
            for axis, kern, out, size in zip(("height", "width"), kernels, outs, x.shape[-2:]):
                if size >= 0 and kern + out - 1 > size:
                    raise ValueError(f"For {name}, ksize {axis} [{kern}] + output_shape "
                                     f"{axis} [{out}] too large relative to input {axis} "
                                     f"[{size}]: ksize + output_shape - 1 must be <= the "
                                     f"input's size.")
        shape = tuple(x.shape[:-k]) + outs
        return AbstractTuple([AbstractTensor(t, shape), AbstractTensor(mstype.int64, shape)])
    return infer


def _grad_infer(k: int):
    name = _NAMES[k].replace("WithFixedKsize", "GradWithFixedKsize")

    def infer(origin, dout, argmax, data_format=None):
        t = tensor_type(name, "out_backprop", dout)
        require_dtype(name, "argmax", tensor_type(name, "argmax", argmax),
                      (mstype.int32, mstype.int64))
        if not shapes_match(tuple(dout.shape), tuple(argmax.shape)):
            raise ValueError(f"For '{name}', the 'out_backprop' and 'argmax' must have the "
                             f"same shape, but got {list(dout.shape)} and "
                             f"{list(argmax.shape)}.")
        return AbstractTensor(t, tuple(origin.shape))
    return infer


def _pool_grad(k: int, origin, dout, argmax, data_format=None):
    origin, dout, argmax = np.asarray(origin), np.asarray(dout), np.asarray(argmax)
    lead = origin.shape[:-k]
    plane = int(np.prod(origin.shape[-k:]))
    out = np.zeros((int(np.prod(lead)), plane), dout.dtype)
    rows = np.arange(out.shape[0])[:, None]
    np.add.at(out, (rows, argmax.reshape(out.shape[0], -1)), dout.reshape(out.shape[0], -1))
    return out.reshape(origin.shape)


def _ops(k: int):
    fmt = "NCHW" if k == 2 else "NCDHW"
    fwd = OpDef(_NAMES[k], _pool_infer(k), lambda *a, **kw: _pool(k, *a, **kw),
                attrs={"ksize": None, "output_shape": None, "data_format": fmt})
    bwd = OpDef(_NAMES[k].replace("WithFixedKsize", "GradWithFixedKsize"), _grad_infer(k),
                lambda *a, **kw: _pool_grad(k, *a, **kw), attrs={"data_format": fmt})
    return fwd, bwd


FractionalMaxPoolWithFixedKsize, FractionalMaxPoolGradWithFixedKsize = _ops(2)
FractionalMaxPool3DWithFixedKsize, FractionalMaxPool3DGradWithFixedKsize = _ops(3)
