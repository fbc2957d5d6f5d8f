"""Pooling primitives on NCHW: ``MaxPool`` with ``MaxPoolGrad`` and ``MaxPoolGradGrad``
(each the other's adjoint in ``dout``), ``AvgPool`` with ``AvgPoolGrad``, and
``AdaptiveAvgPool2D`` with ``AdaptiveAvgPool2DGrad`` (its bins known only when it runs, so
the input's height and width may be dynamic).

MindSpore's attributes (``kernel_size``, ``strides``, ``pad_mode`` 'valid'/'same',
``data_format``) plus the ones ``nn.MaxPool2d``/``nn.AvgPool2d`` need for ``pad_mode='pad'``
(``pad``, ``ceil_mode``, ``count_include_pad``, ``divisor_override``). 'same' padding is
``-inf`` for max and left out of the average's count, as MindSpore's CPU kernels do.
"""
from __future__ import annotations

import functools

import numpy as np
from numpy.lib.stride_tricks import as_strided

import graphkiln.ops.windows as W

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OUT_SEPARATE
from ..primitive import OpDef
from ..workspace import deliver, result_array, scratch, with_scratch
from ._infer import FLOATS, keep_where, quiet, require_dtype, shapes_match, tensor_type
from .conv import check_pad_mode, pad_pairs, spatial

_RANK = 2
POOL_ATTRS = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "data_format": "NCHW",
              "pad": 0, "ceil_mode": False, "count_include_pad": True,
              "divisor_override": 0}


def _raise_empty_output(name: str, sizes, kernel, pads) -> None:
    """A window larger than the padded input: MindSpore's average pools raise RuntimeError
    (in their own words), the others ValueError."""
    if name == "AvgPool":
        raise RuntimeError("For 'AvgPool' op, H_out/W_out must be positive, but H_out/W_out "
                           "is 0, please check input and parameters of op")
    if name == "AvgPool3D":
        padded = ", ".join(f"{axis}:{n + b + e}" for axis, n, (b, e) in zip("DHW", sizes, pads))
        raise RuntimeError(f"For 'AvgPool3D, size of input with the padding is ({padded}) "
                           f"smaller than kernel size {{{', '.join(map(str, kernel))}}}")
    raise ValueError(f"For '{name}', the input spatial shape {list(sizes)} is smaller than the "
                     f"kernel {list(kernel)} after padding {list(pads)}.")


class PoolGeometry:
    """Kernel, strides and padding of one pooling call, checked once (``RANK`` spatial
    axes in ``FORMAT``; the 3-D pools subclass it)."""

    RANK, FORMAT = _RANK, "NCHW"
    __slots__ = ("kernel", "stride", "pads", "ceil_mode", "sizes", "out", "extra")

    def __init__(self, name: str, sizes, attrs: dict):
        a = {**POOL_ATTRS, **attrs}
        self.kernel = spatial(name, "kernel_size", a["kernel_size"], self.RANK)
        self.stride = spatial(name, "strides", a["strides"], self.RANK)
        mode = check_pad_mode(name, a["pad_mode"], a["pad"])
        self.pads = W.resolve_pads(mode, sizes, self.kernel, self.stride, (1,) * self.RANK,
                                   pad_pairs(name, a["pad"], self.RANK))
        if a["data_format"] != self.FORMAT:
            raise ValueError(f"For '{name}', the 'data_format' must be '{self.FORMAT}' on "
                             f"CPU, but got '{a['data_format']}'.")
        self.ceil_mode = bool(a["ceil_mode"])
        self.sizes = tuple(sizes)
        self.out = W.out_sizes(sizes, self.kernel, self.stride, (1,) * self.RANK, self.pads,
                               self.ceil_mode)
        if any(n >= 0 and o < 1 for o, n in zip(self.out, sizes)):
            _raise_empty_output(name, sizes, self.kernel, self.pads)
        # ceil mode: room after the padding for the last, partial windows
        self.extra = tuple(max((o - 1) * s + k - (n + b + e), 0) for o, s, k, n, (b, e)
                           in zip(self.out, self.stride, self.kernel, sizes, self.pads))

    def windows(self, x: np.ndarray, value: float) -> np.ndarray:
        xp = W.pad_input(x, self.pads, value, self.extra)
        return W.windows(xp, self.kernel, self.stride, (1,) * self.RANK, self.out)

    def flat_windows(self, x: np.ndarray, value: float) -> np.ndarray:
        """``(N, C, *out, K)`` (a copy)."""
        return self.windows(x, value).reshape(x.shape[:2] + self.out + (-1,))

    def scatter(self, cols: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``cols`` ``(N, C, *kernel, *out)`` summed back onto the unpadded input (into
        ``out`` when it fits), each element's windows in row-major order."""
        return W.scatter_windows(cols, cols.shape[:2] + self.sizes, self.kernel, self.stride,
                                 (1,) * self.RANK, self.pads, out, window_order=True)

    def count(self, attrs: dict, dtype) -> np.ndarray:
        """The divisor of each average: ``(*out)``."""
        a = {**POOL_ATTRS, **attrs}
        if a["divisor_override"]:
            return np.asarray(a["divisor_override"], dtype)
        if a["count_include_pad"] and a["pad_mode"].lower() == "pad":
            ones = np.ones((1, 1) + tuple(n + b + e for n, (b, e) in zip(self.sizes,
                                                                          self.pads)), dtype)
            xp = W.pad_input(ones, ((0, 0),) * self.RANK, 0.0, self.extra, role="count")
        else:
            xp = W.pad_input(np.ones((1, 1) + self.sizes, dtype), self.pads, 0.0, self.extra,
                             role="count")
        win = W.windows(xp, self.kernel, self.stride, (1,) * self.RANK, self.out)
        return win.sum(axis=tuple(range(-self.RANK, 0)))[0, 0]


pool_geometry = W.cached_geometry(PoolGeometry)


def _pool_infer(name: str, n_inputs: int):
    def infer(*args, **attrs):
        x = args[0]
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, FLOATS)
        if x.ndim != 4:
            raise ValueError(f"For '{name}', the dimension of 'x' must be 4, but got {x.ndim} "
                             f"(shape {list(x.shape)}).")
        geo = pool_geometry(name, x.shape[2:], attrs)
        out_shape = tuple(x.shape[:2]) + geo.out
        if n_inputs == 1:
            return AbstractTensor(t, out_shape)
        for arg, a in zip(("origin_output", "dout"), args[1:]):
            tensor_type(name, arg, a)
        want = out_shape if name != "MaxPoolGradGrad" else tuple(x.shape)
        if not shapes_match(tuple(args[2].shape), want):
            raise ValueError(f"For '{name}', the shape of 'dout' must be {list(want)}, but "
                             f"got {list(args[2].shape)}.")
        return AbstractTensor(t, out_shape if name == "MaxPoolGradGrad" else tuple(x.shape))
    return infer


def _argmax(x: np.ndarray, geo: PoolGeometry) -> np.ndarray:
    """Flat index (in the window) of each window's first maximum: ``(N, C, *out)``."""
    return np.argmax(geo.flat_windows(x, -np.inf), axis=-1)


def _window_max(win: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Max over the kernel axes of ``(N, C, *out, *kernel)`` windows (into ``out`` when it
    fits)."""
    return _taps_max([win[(Ellipsis,) + idx] for idx in np.ndindex(*win.shape[-_RANK:])],
                     out)


def _taps_max(taps: list, out: np.ndarray | None = None) -> np.ndarray:
    """The elementwise max of output-sized ``taps`` in kernel order, one ``np.maximum`` per
    tap (NaN propagates, as ``max`` does); into ``out`` when it fits."""
    acc = result_array(out, taps[0].shape, taps[0].dtype)
    if len(taps) == 1:
        np.copyto(acc, taps[0])
    else:
        np.maximum(taps[0], taps[1], out=acc)
    for tap in taps[2:]:
        np.maximum(acc, tap, out=acc)
    return acc


@quiet
def _max_pool(x, out=None, **attrs):
    geo = pool_geometry("MaxPool", x.shape[2:], attrs)
    return _window_max(geo.windows(x, -np.inf), out)


@quiet
@with_scratch
def _max_pool_grad(x, y, dout, out=None, **attrs):
    """``dout`` routed to each window's first maximum (the first NaN if any) of the input
    gradient (into ``out`` when it fits). ``y`` (the forward's output) is not read: the
    maxima are taken again from ``x``, so a ``y`` that is not exactly ``MaxPool(x)`` cannot
    misroute."""
    geo = pool_geometry("MaxPoolGrad", x.shape[2:], attrs)
    dx = result_array(out, x.shape, dout.dtype)
    tiled = geo.stride == geo.kernel and not any(b or a for b, a in geo.pads) and \
        not any(geo.extra)
    (_route_tiles if tiled else _route_windows)(x, dout, geo, dx)
    return dx


def _first_maxima(taps: list, top: np.ndarray):
    """Per tap in kernel order, the boolean mask of the windows whose first maximum (or
    first NaN, when the maximum is NaN) it is: a workspace, valid until the next one."""
    free = scratch(top.shape, bool)
    free.fill(True)  # windows whose maximum is not taken yet
    hit = scratch(top.shape, bool)
    is_nan = scratch(top.shape, bool)
    nan = bool(np.isnan(top, out=hit).any())  # max propagates NaN: no NaN on top, none in x
    for tap in taps:
        np.equal(tap, top, out=hit)
        if nan:
            np.logical_or(hit, np.isnan(tap, out=is_nan), out=hit)
        np.logical_and(hit, free, out=hit)
        np.greater(free, hit, out=free)  # free and not hit
        yield hit


def _route_tiles(x, dout, geo: PoolGeometry, dx) -> None:
    """Windows that tile the input (stride = kernel, no padding): the taps are first copied
    out to contiguous ``(*kernel, N, C, *out)`` rows (one pass), and each tap's share of
    ``dout`` is written straight into its strided view of ``dx`` (the bits of adding it to
    zero, as the general route does)."""
    win = geo.windows(x, -np.inf)
    shape = x.shape[:2] + geo.out
    rows = scratch(geo.kernel + shape, x.dtype)
    np.copyto(rows, win.transpose(4, 5, 0, 1, 2, 3))
    taps = [rows[idx] for idx in np.ndindex(*geo.kernel)]
    top = _taps_max(taps, scratch(shape, x.dtype))
    if geo.sizes != tuple(o * k for o, k in zip(geo.out, geo.kernel)):
        dx.fill(0)  # the rows and columns past the last window
    sh, sw = dx.strides[2:]  # dx's own windows (x may be laid out otherwise)
    dx_win = as_strided(dx, win.shape, dx.strides[:2] + (sh * geo.stride[0],
                                                          sw * geo.stride[1], sh, sw))
    # + 0: a -0.0 adds up to +0.0, as in the general route's adds into zeros
    dout = np.add(dout, 0, out=scratch(shape, dout.dtype))
    for idx, hit in zip(np.ndindex(*geo.kernel), _first_maxima(taps, top)):
        keep_where(dout, hit, dx_win[(Ellipsis,) + idx])


def _route_windows(x, dout, geo: PoolGeometry, dx) -> None:
    """Any windows: each tap's share of ``dout`` added into the zeroed input gradient at
    the input positions of the tap (one strided add per kernel offset; a maximum taken in
    the padding adds nothing)."""
    win = geo.windows(x, -np.inf)
    shape = x.shape[:2] + geo.out
    taps = [win[(Ellipsis,) + idx] for idx in np.ndindex(*geo.kernel)]
    top = _taps_max(taps, scratch(shape, x.dtype))
    dx.fill(0)
    pick = scratch(shape, dout.dtype)
    places = {idx: (src, dst) for idx, src, dst in W.window_taps(
        geo.kernel, geo.stride, (1,) * _RANK, geo.pads, geo.sizes, geo.out)}
    lead = (slice(None), slice(None))
    for idx, hit in zip(np.ndindex(*geo.kernel), _first_maxima(taps, top)):
        if idx in places:
            src, dst = places[idx]
            keep_where(dout, hit, pick)
            dx[lead + dst] += pick[lead + src]


@quiet
def _max_pool_grad_grad(x, y, g, **attrs):
    geo = pool_geometry("MaxPoolGradGrad", x.shape[2:], attrs)
    picked = np.take_along_axis(geo.flat_windows(g, 0.0), _argmax(x, geo)[..., None], -1)
    return picked[..., 0]


@quiet
def _avg_pool(x, out=None, **attrs):
    geo = pool_geometry("AvgPool", x.shape[2:], attrs)
    ct = W.compute_dtype(x.dtype)
    target = result_array(out if ct == x.dtype else None, x.shape[:2] + geo.out, ct)
    np.sum(geo.windows(x.astype(ct, copy=False), 0.0), axis=(-2, -1), out=target)
    np.divide(target, geo.count(attrs, ct), out=target)
    return deliver(target.astype(x.dtype, copy=False), out)


@quiet
@with_scratch
def _avg_pool_grad(x, y, dout, out=None, **attrs):
    geo = pool_geometry("AvgPoolGrad", x.shape[2:], attrs)
    share = scratch(dout.shape, dout.dtype)
    np.divide(dout, geo.count(attrs, dout.dtype), out=share)
    cols = np.broadcast_to(share[:, :, None, None], x.shape[:2] + geo.kernel + geo.out)
    return geo.scatter(cols, out)


_ATTRS = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "data_format": "NCHW"}
MaxPool = OpDef("MaxPool", _pool_infer("MaxPool", 1), _max_pool, attrs=dict(_ATTRS),
                out_buffer=OUT_SEPARATE)
MaxPoolGrad = OpDef("MaxPoolGrad", _pool_infer("MaxPoolGrad", 3), _max_pool_grad,
                    attrs=dict(_ATTRS), out_buffer=OUT_SEPARATE)
MaxPoolGradGrad = OpDef("MaxPoolGradGrad", _pool_infer("MaxPoolGradGrad", 3),
                        _max_pool_grad_grad, attrs=dict(_ATTRS))
AvgPool = OpDef("AvgPool", _pool_infer("AvgPool", 1), _avg_pool, attrs=dict(_ATTRS),
                out_buffer=OUT_SEPARATE)
AvgPoolGrad = OpDef("AvgPoolGrad", _pool_infer("AvgPoolGrad", 3), _avg_pool_grad,
                    attrs=dict(_ATTRS), out_buffer=OUT_SEPARATE)


# ------------------------------------------------------------------ adaptive average pooling

def adaptive_bins(size: int, out: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` input range of each of ``out`` adaptive bins of ``size``."""
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


@functools.lru_cache(maxsize=64)
def _bin_means(size: int, out: int, dtype: np.dtype) -> np.ndarray:
    """The ``(size, out)`` matrix averaging each adaptive bin (read-only, cached)."""
    weights = np.zeros((size, out), dtype)
    for j, (s, e) in enumerate(adaptive_bins(size, out)):
        weights[s:e, j] = 1.0 / (e - s)
    weights.flags.writeable = False
    return weights


def _along(x: np.ndarray, axis: int, matrix: np.ndarray) -> np.ndarray:
    """``x`` with its ``axis`` multiplied by ``matrix`` (one matmul)."""
    return np.moveaxis(np.moveaxis(x, axis, -1) @ matrix, -1, axis)


def _adaptive_output_size(output_size) -> tuple:
    return tuple(output_size) if isinstance(output_size, (tuple, list)) \
        else (output_size, output_size)


def _adaptive_infer(x, output_size=None):
    t = tensor_type("AdaptiveAvgPool2D", "x", x)
    require_dtype("AdaptiveAvgPool2D", "x", t, FLOATS)
    if x.ndim not in (3, 4):
        raise ValueError(f"For 'AdaptiveAvgPool2D', the dimension of 'x' must be 3 or 4, but "
                         f"got {x.ndim} (shape {list(x.shape)}).")
    sizes = _adaptive_output_size(output_size)
    if len(sizes) != 2 or any(s is not None and (isinstance(s, bool) or s < 1) for s in sizes):
        raise ValueError(f"For 'AdaptiveAvgPool2D', the 'output_size' must be a positive int "
                         f"or a tuple of 2 positive ints (or None), but got {output_size!r}.")
    hw = tuple(n if s is None else s for n, s in zip(x.shape[-2:], sizes))
    return AbstractTensor(t, tuple(x.shape[:-2]) + hw)


@quiet
def _adaptive_avg_pool(x, output_size=None):
    ct = W.compute_dtype(x.dtype)
    y = x.astype(ct, copy=False)
    for axis, out in zip((-2, -1), _adaptive_output_size(output_size)):
        if out is not None and out != y.shape[axis]:
            y = _along(y, axis, _bin_means(y.shape[axis], out, ct))
    return y.astype(x.dtype, copy=False)


def _adaptive_grad_infer(x, dout, output_size=None):
    tensor_type("AdaptiveAvgPool2DGrad", "x", x)
    tensor_type("AdaptiveAvgPool2DGrad", "dout", dout)
    want = _adaptive_infer(x, output_size)
    if not shapes_match(tuple(dout.shape), want.shape):
        raise ValueError(f"For 'AdaptiveAvgPool2DGrad', the shape of 'dout' must be "
                         f"{list(want.shape)}, but got {list(dout.shape)}.")
    return AbstractTensor(want.dtype, x.shape)


@quiet
def _adaptive_avg_pool_grad(x, dout, output_size=None):
    """``dout`` spread evenly over each bin: the transposed averaging matrices."""
    ct = W.compute_dtype(dout.dtype)
    g = dout.astype(ct, copy=False)
    for axis, out in zip((-2, -1), _adaptive_output_size(output_size)):
        if out is not None and out != x.shape[axis]:
            g = _along(g, axis, _bin_means(x.shape[axis], out, ct).T)
    return g.astype(dout.dtype, copy=False)


AdaptiveAvgPool2D = OpDef("AdaptiveAvgPool2D", _adaptive_infer, _adaptive_avg_pool,
                          attrs={"output_size": None})
# (x, dout) -> dx; ``x`` gives the input's run-time shape
AdaptiveAvgPool2DGrad = OpDef("AdaptiveAvgPool2DGrad", _adaptive_grad_infer,
                              _adaptive_avg_pool_grad, attrs={"output_size": None})
