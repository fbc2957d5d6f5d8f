"""``ops.interpolate``: resize the spatial dimensions of an ``(N, C, *spatial)`` tensor.

Every mode MindSpore offers is separable: output index ``j`` along one axis is a fixed
weighted sum of input indices along that axis. So each axis is resized by one matrix
product with a constant ``(out, in)`` weight matrix built here in NumPy (nearest and
nearest-exact pick one input, linear modes blend two, bicubic four, area averages a
window). Gradients, vmap and PYNATIVE == GRAPH come from MatMul's rules.
"""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor

MODES = ("nearest", "linear", "bilinear", "bicubic", "area", "nearest-exact", "trilinear")
_RANKS = {"nearest": (3, 4, 5), "linear": (3,), "bilinear": (4,), "bicubic": (4,),
          "area": (3, 4, 5), "nearest-exact": (3, 4), "trilinear": (5,)}
_BLENDING = ("linear", "bilinear", "bicubic", "trilinear")
_TABLE = 1024  # bicubic weight table entries per unit


def _fail(message: str):
    raise ValueError(f"For 'interpolate', {message}")


def _check(input, size, scale_factor, mode, align_corners) -> None:
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if mode not in MODES:
        _fail(f"'mode' must be in '{list(MODES)}', but got {mode}")
    if input.ndim not in _RANKS[mode]:
        _fail(f"{mode} only support '{list(_RANKS[mode])}'D, but got {input.ndim}D")
    if size is None and scale_factor is None:
        _fail("'size' and 'scale_factor' cannot be both empty")
    if size is not None and scale_factor is not None:
        _fail("'size' and 'scale_factor' cannot be set simultaneously")
    if align_corners is not None and mode not in _BLENDING:
        _fail(f"'align_corners' option cannot currently be set with the mode = {mode}, and "
              f"dim = {input.ndim}D")
    if scale_factor is not None and mode == "nearest":
        _fail(f"'scale_factor' option cannot currently be set with the mode = {mode} and "
              f"dim = {input.ndim}D.")


def _per_axis(value, n: int, name: str) -> tuple:
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    if len(values) != n:
        _fail(f"'{name}' must have {n} elements for a {n + 2}D input, but got {value}")
    return values


def _nearest(n_in: int, n_out: int, scale: float, exact: bool) -> np.ndarray:
    dst = np.arange(n_out, dtype=np.float64)
    src = np.floor((dst + 0.5) * scale if exact else dst * scale).astype(np.int64)
    w = np.zeros((n_out, n_in))
    w[np.arange(n_out), np.minimum(src, n_in - 1)] = 1.0
    return w


def _source(n_in: int, n_out: int, scale: float, align_corners: bool) -> np.ndarray:
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        return dst * ((n_in - 1) / (n_out - 1)) if n_out > 1 else np.zeros(n_out)
    return (dst + 0.5) * scale - 0.5


def _linear(n_in: int, n_out: int, scale: float, align_corners: bool) -> np.ndarray:
    src = np.maximum(_source(n_in, n_out, scale, align_corners), 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    frac = src - i0
    w = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    np.add.at(w, (rows, i0), 1.0 - frac)
    np.add.at(w, (rows, i1), frac)
    return w


def _cubic_weights(t: np.ndarray, a: float) -> list:
    """The four taps' weights of Keys' cubic convolution at fractions ``t``."""
    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _cubic(n_in: int, n_out: int, scale: float, align_corners: bool,
           legacy: bool = False) -> np.ndarray:
    """MindSpore's bicubic kernels: with ``align_corners``, a = -0.75 and edge taps
    clamped; without, half-pixel centres, a = -0.5, fractions rounded to 1/1024 (a weight
    table) and taps outside the input dropped, the rest renormalised. ``legacy``
    (``ResizeBicubic`` with neither option): ``src = dst * scale``, a = -0.75, the table's
    fractions and edge taps clamped."""
    if legacy:
        src = np.arange(n_out, dtype=np.float64) * scale
    else:
        src = _source(n_in, n_out, scale, align_corners)
    base = np.floor(src).astype(np.int64)
    frac = src - base
    if not align_corners:
        frac = np.floor(frac * _TABLE + 0.5) / _TABLE
    clamped = align_corners or legacy
    taps = _cubic_weights(frac, -0.75 if clamped else -0.5)
    w = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    for k, weight in enumerate(taps):
        index = base - 1 + k
        if not clamped:
            weight = np.where((index >= 0) & (index < n_in), weight, 0.0)
        np.add.at(w, (rows, np.clip(index, 0, n_in - 1)), weight)
    return w if clamped else w / w.sum(axis=1, keepdims=True)


def _area(n_in: int, n_out: int) -> np.ndarray:
    w = np.zeros((n_out, n_in))
    for j in range(n_out):
        lo, hi = (j * n_in) // n_out, -((-(j + 1) * n_in) // n_out)
        w[j, lo:hi] = 1.0 / (hi - lo)
    return w


def _axis_weights(mode: str, n_in: int, n_out: int, scale: float,
                  align_corners: bool) -> np.ndarray:
    if mode in ("nearest", "nearest-exact"):
        return _nearest(n_in, n_out, scale, mode == "nearest-exact")
    if mode == "area":
        return _area(n_in, n_out)
    if mode == "bicubic":
        return _cubic(n_in, n_out, scale, align_corners)
    return _linear(n_in, n_out, scale, align_corners)


def interpolate(input, size=None, scale_factor=None, mode: str = "nearest",
                align_corners=None, recompute_scale_factor=None) -> Tensor:
    """Resize the spatial dimensions of ``input`` (``(N, C, L)``, ``(N, C, H, W)`` or
    ``(N, C, D, H, W)``) to ``size`` or by ``scale_factor`` with ``mode``."""
    _check(input, size, scale_factor, mode, align_corners)
    spatial = tuple(input.shape[2:])
    n = len(spatial)
    if size is not None:
        out = tuple(int(s) for s in _per_axis(size, n, "size"))
        scales = [i / o for i, o in zip(spatial, out)]
    else:
        factors = [float(f) for f in _per_axis(scale_factor, n, "scale_factor")]
        out = tuple(int(math.floor(i * f)) for i, f in zip(spatial, factors))
        scales = [i / o if recompute_scale_factor else 1.0 / f
                  for i, o, f in zip(spatial, out, factors)]
    if any(o <= 0 for o in out):
        _fail(f"the output size must be positive, but got {out}")
    return _resized(input, out, scales, lambda n_in, n_out, scale: None if (
        n_in == n_out and mode != "bicubic" and scale == 1.0) else _axis_weights(
            mode, n_in, n_out, scale, bool(align_corners)))


def _check_nearest(input, scale_factor) -> None:
    op = f"UpsampleNearest{max(input.ndim - 2, 1)}D"
    dtype = np.dtype(mstype.dtype_to_nptype(input.dtype))
    if dtype.kind != "f" and dtype != np.uint8:
        raise TypeError(f"Select CPU operator[{op}] fail! Unsupported data type {input.dtype}.")
    factors = scale_factor if isinstance(scale_factor, (tuple, list)) else (scale_factor,)
    if scale_factor is not None and any(not isinstance(f, float) for f in factors):
        raise TypeError(f"Failed calling {op}: the 'scales' must be a float or a tuple of "
                        f"floats, but got {scale_factor!r}.")


def interpolate_ext(input, size=None, scale_factor=None, mode: str = "nearest",
                    align_corners=None, recompute_scale_factor=None) -> Tensor:
    """``mint.nn.functional.interpolate`` (``ops.function.nn_func.interpolate_ext``): as
    :func:`interpolate`, but 'nearest' by a ``scale_factor`` resizes to
    ``floor(n * scale_factor)`` (the source index ``floor(i * n_in / n_out)``). 'nearest'
    takes float and uint8 Tensors and float scale factors, as MindSpore's UpsampleNearest
    kernels; the blending modes take float Tensors and float scale factors only (TypeErrors,
    as MindSpore's ``Upsample*`` primitives' signatures)."""
    if mode == "nearest":
        _check_nearest(input, scale_factor)
    elif isinstance(input, Tensor) and not input.dtype.is_float:
        raise TypeError(f"For 'interpolate', 'input' must be a float Tensor, but got "
                        f"{input.dtype}.")
    elif mode in _BLENDING and isinstance(scale_factor, (tuple, list)) and \
            not all(isinstance(f, float) for f in scale_factor):
        raise TypeError(f"For 'interpolate' in {mode} mode, 'scale_factor' must hold floats, "
                        f"but got {scale_factor}.")
    if mode == "nearest" and scale_factor is not None and size is None and input.ndim > 2:
        n = input.ndim - 2
        factors = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else \
            (scale_factor,) * n
        if len(factors) == n:
            size = tuple(int(d * float(f)) for d, f in zip(input.shape[2:], factors))
            scale_factor = None
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def resize_adjoint(grad, input_size, scales, mode: str, align_corners: bool) -> Tensor:
    """The gradient of resizing an input of shape ``input_size`` to ``grad``'s shape (the
    backward kernels ``Upsample*Grad``): each axis multiplied by its weight matrix
    transposed; ``scales`` (input over output per axis; None: from the sizes)."""
    out = tuple(int(d) for d in input_size[2:])
    spatial = tuple(grad.shape[2:])
    if scales is None:
        scales = [i / o for i, o in zip(out, spatial)]
    return _resized(grad, out, scales, lambda n_g, n_x, scale: _axis_weights(
        mode, n_x, n_g, scale, bool(align_corners)).T)


def upsample_nearest_grad(dy, input_size, output_size=None, scales=None) -> Tensor:
    """The gradient of 'nearest' resizing (``UpsampleNearest{1,2,3}DGrad``): ``dy`` of the
    resized shape summed into the ``input_size`` element each of its elements was read from
    (the source index ``floor(j * in / out)``, or ``floor(j / scale)`` with ``scales``)."""
    spatial = tuple(int(v) for v in input_size)[2:]
    if scales is None:
        fwd = [i / o for i, o in zip(spatial, dy.shape[2:])]
    else:
        fwd = [1.0 / float(f) for f in _per_axis(scales, len(spatial), "scales")]
    return _resized(dy, spatial, fwd,
                    lambda n_dy, n_x, scale: _nearest(n_x, n_dy, scale, False).T)


def _resized(input, out: tuple, scales, weights) -> Tensor:
    """``input`` with each spatial axis multiplied by ``weights(n_in, n_out, scale)`` (an
    ``(n_out, n_in)`` matrix; None leaves the axis as it is)."""
    dtype = input.dtype
    x = input
    for axis, (n_in, n_out, scale) in enumerate(zip(tuple(input.shape[2:]), out, scales)):
        w = weights(n_in, n_out, scale)
        if w is None:
            continue
        lead = tuple(x.shape[:2 + axis])
        rest = tuple(x.shape[3 + axis:])
        inner = int(np.prod(rest, dtype=np.int64))
        # one 2-D product with the axis last (a batched one would broadcast ``w``)
        flat = F.reshape(x, (-1, n_in, inner))
        rows = F.reshape(F.transpose(flat, (0, 2, 1)), (-1, n_in)) if inner > 1 else \
            F.reshape(flat, (-1, n_in))
        resized = F.matmul(rows, Tensor(w.T.astype(mstype.dtype_to_nptype(dtype))))
        if inner > 1:
            resized = F.transpose(F.reshape(resized, (-1, inner, n_out)), (0, 2, 1))
        x = F.reshape(resized, lead + (n_out,) + rest)
    return x


def resize_bicubic(images, size, align_corners: bool = False,
                   half_pixel_centers: bool = False) -> Tensor:
    """``ResizeBicubic``: NCHW ``images`` resized to ``size`` (height, width) with a = -0.75
    cubic weights: the corners aligned, half-pixel centres (as ``interpolate``'s bicubic)
    or neither (``src = dst * in / out``)."""
    if align_corners and half_pixel_centers:
        raise ValueError(f"For ResizeBicubic, the half_pixel_centers must be false when "
                         f"align_corners is true, but half_pixel_centers got "
                         f"{half_pixel_centers}.")
    if hasattr(size, "asnumpy"):
        size = size.asnumpy().tolist()
    if not isinstance(images, Tensor) or images.ndim != 4:
        raise ValueError("For ResizeBicubic, the 'images' must be a 4-D (NCHW) Tensor.")
    out = tuple(int(s) for s in _per_axis(size, 2, "size"))
    if any(o <= 0 for o in out):
        _fail(f"the output size must be positive, but got {out}")
    scales = [i / o for i, o in zip(images.shape[2:], out)]
    legacy = not (align_corners or half_pixel_centers)
    return _resized(images, out, scales, lambda n_in, n_out, scale: _cubic(
        n_in, n_out, scale, bool(align_corners), legacy))


__all__ = ["interpolate", "interpolate_ext", "upsample_nearest_grad"]
