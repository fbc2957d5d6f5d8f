"""Pooling primitives on NCHW: ``MaxPool`` with ``MaxPoolGrad`` and ``MaxPoolGradGrad``
(each the other's adjoint in ``dout``), ``AvgPool`` with ``AvgPoolGrad``.

MindSpore's attributes (``kernel_size``, ``strides``, ``pad_mode`` 'valid'/'same',
``data_format``) plus the ones ``nn.MaxPool2d``/``nn.AvgPool2d`` need for ``pad_mode='pad'``
(``pad``, ``ceil_mode``, ``count_include_pad``, ``divisor_override``). 'same' padding is
``-inf`` for max and left out of the average's count, as MindSpore's CPU kernels do.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.windows as W

from ...ir.abstract import AbstractTensor
from ..primitive import OpDef
from ._infer import FLOATS, quiet, require_dtype, tensor_type
from .conv import check_pad_mode, pad_pairs, spatial

_RANK = 2
POOL_ATTRS = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "data_format": "NCHW",
              "pad": 0, "ceil_mode": False, "count_include_pad": True,
              "divisor_override": 0}


class PoolGeometry:
    """Kernel, strides and padding of one pooling call, checked once."""

    __slots__ = ("kernel", "stride", "pads", "ceil_mode", "sizes", "out", "extra")

    def __init__(self, name: str, sizes, attrs: dict):
        a = {**POOL_ATTRS, **attrs}
        self.kernel = spatial(name, "kernel_size", a["kernel_size"], _RANK)
        self.stride = spatial(name, "strides", a["strides"], _RANK)
        mode = check_pad_mode(name, a["pad_mode"], a["pad"])
        self.pads = W.resolve_pads(mode, sizes, self.kernel, self.stride, (1,) * _RANK,
                                   pad_pairs(name, a["pad"], _RANK))
        if a["data_format"] != "NCHW":
            raise ValueError(f"For '{name}', the 'data_format' must be 'NCHW' on CPU, but "
                             f"got '{a['data_format']}'.")
        self.ceil_mode = bool(a["ceil_mode"])
        self.sizes = tuple(sizes)
        self.out = tuple(W.out_size(n, k, s, 1, b, e, self.ceil_mode) for n, k, s, (b, e)
                         in zip(sizes, self.kernel, self.stride, self.pads))
        if any(o < 1 for o in self.out):
            raise ValueError(f"For '{name}', the input spatial shape {list(sizes)} is smaller "
                             f"than the kernel {list(self.kernel)} after padding "
                             f"{list(self.pads)}.")
        # ceil mode: room after the padding for the last, partial windows
        self.extra = tuple(max((o - 1) * s + k - (n + b + e), 0) for o, s, k, n, (b, e)
                           in zip(self.out, self.stride, self.kernel, sizes, self.pads))

    def windows(self, x: np.ndarray, value: float) -> np.ndarray:
        xp = W.pad_input(x, self.pads, value, self.extra)
        return W.windows(xp, self.kernel, self.stride, (1,) * _RANK, self.out)

    def flat_windows(self, x: np.ndarray, value: float) -> np.ndarray:
        """``(N, C, *out, K)`` (a copy)."""
        return self.windows(x, value).reshape(x.shape[:2] + self.out + (-1,))

    def scatter(self, cols: np.ndarray) -> np.ndarray:
        """``cols`` ``(N, C, *kernel, *out)`` summed back onto the unpadded input."""
        return W.scatter_windows(cols, cols.shape[:2] + self.sizes, self.kernel, self.stride,
                                 (1,) * _RANK, self.pads)

    def count(self, attrs: dict, dtype) -> np.ndarray:
        """The divisor of each average: ``(*out)``."""
        a = {**POOL_ATTRS, **attrs}
        if a["divisor_override"]:
            return np.asarray(a["divisor_override"], dtype)
        if a["count_include_pad"] and a["pad_mode"].lower() == "pad":
            ones = np.ones((1, 1) + tuple(n + b + e for n, (b, e) in zip(self.sizes,
                                                                          self.pads)), dtype)
            xp = W.pad_input(ones, ((0, 0),) * _RANK, 0.0, self.extra)
        else:
            xp = W.pad_input(np.ones((1, 1) + self.sizes, dtype), self.pads, 0.0, self.extra)
        win = W.windows(xp, self.kernel, self.stride, (1,) * _RANK, self.out)
        return win.sum(axis=(-2, -1))[0, 0]


def _pool_infer(name: str, n_inputs: int):
    def infer(*args, **attrs):
        x = args[0]
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, FLOATS)
        if x.ndim != 4:
            raise ValueError(f"For '{name}', the dimension of 'x' must be 4, but got {x.ndim} "
                             f"(shape {list(x.shape)}).")
        geo = PoolGeometry(name, x.shape[2:], attrs)
        out_shape = tuple(x.shape[:2]) + geo.out
        if n_inputs == 1:
            return AbstractTensor(t, out_shape)
        for arg, a in zip(("origin_output", "dout"), args[1:]):
            tensor_type(name, arg, a)
        want = out_shape if name != "MaxPoolGradGrad" else tuple(x.shape)
        if tuple(args[2].shape) != want:
            raise ValueError(f"For '{name}', the shape of 'dout' must be {list(want)}, but "
                             f"got {list(args[2].shape)}.")
        return AbstractTensor(t, out_shape if name == "MaxPoolGradGrad" else tuple(x.shape))
    return infer


def _argmax(x: np.ndarray, geo: PoolGeometry) -> np.ndarray:
    """Flat index (in the window) of each window's first maximum: ``(N, C, *out)``."""
    return np.argmax(geo.flat_windows(x, -np.inf), axis=-1)


def _window_max(win: np.ndarray) -> np.ndarray:
    """Max over the kernel axes of ``(N, C, *out, *kernel)`` windows: one ``np.maximum`` per
    kernel offset over output-sized strided views (NaN propagates, as ``max`` does)."""
    taps = [win[(Ellipsis,) + idx] for idx in np.ndindex(*win.shape[-_RANK:])]
    acc = np.array(taps[0])
    for tap in taps[1:]:
        np.maximum(acc, tap, out=acc)
    return acc


@quiet
def _max_pool(x, **attrs):
    geo = PoolGeometry("MaxPool", x.shape[2:], attrs)
    return _window_max(geo.windows(x, -np.inf))


@quiet
def _max_pool_grad(x, out, dout, **attrs):
    """``dout`` routed to each window's first maximum (the first NaN if any): the kernel
    offsets are visited in order, each taking the windows whose maximum it holds and no
    earlier offset took, and adding ``dout`` there into the padded input gradient."""
    geo = PoolGeometry("MaxPoolGrad", x.shape[2:], attrs)
    win = geo.windows(x, -np.inf)
    top = _window_max(win)
    dx = np.zeros(x.shape, dout.dtype)
    free = np.ones(top.shape, bool)  # windows whose maximum is not taken yet
    hit = np.empty(top.shape, bool)
    nan = bool(np.isnan(top).any())  # max propagates NaN: no NaN on top, none in x
    taps = {idx: (src, dst) for idx, src, dst in W.window_taps(
        geo.kernel, geo.stride, (1,) * _RANK, geo.pads, geo.sizes, geo.out)}
    lead = (slice(None), slice(None))
    for idx in np.ndindex(*geo.kernel):
        tap = win[(Ellipsis,) + idx]
        np.equal(tap, top, out=hit)
        if nan:
            hit |= np.isnan(tap)
        hit &= free
        free &= ~hit
        if idx in taps:  # a maximum taken in the padding adds nothing to x
            src, dst = taps[idx]
            dx[lead + dst] += np.where(hit, dout, 0)[lead + src]
    return dx


@quiet
def _max_pool_grad_grad(x, out, g, **attrs):
    geo = PoolGeometry("MaxPoolGradGrad", x.shape[2:], attrs)
    picked = np.take_along_axis(geo.flat_windows(g, 0.0), _argmax(x, geo)[..., None], -1)
    return picked[..., 0]


@quiet
def _avg_pool(x, **attrs):
    geo = PoolGeometry("AvgPool", x.shape[2:], attrs)
    ct = W.compute_dtype(x.dtype)
    total = geo.windows(x.astype(ct, copy=False), 0.0).sum(axis=(-2, -1))
    return (total / geo.count(attrs, ct)).astype(x.dtype, copy=False)


@quiet
def _avg_pool_grad(x, out, dout, **attrs):
    geo = PoolGeometry("AvgPoolGrad", x.shape[2:], attrs)
    share = (dout / geo.count(attrs, dout.dtype)).astype(dout.dtype, copy=False)
    cols = np.broadcast_to(share[:, :, None, None], x.shape[:2] + geo.kernel + geo.out)
    return geo.scatter(cols)


_ATTRS = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "data_format": "NCHW"}
MaxPool = OpDef("MaxPool", _pool_infer("MaxPool", 1), _max_pool, attrs=dict(_ATTRS))
MaxPoolGrad = OpDef("MaxPoolGrad", _pool_infer("MaxPoolGrad", 3), _max_pool_grad,
                    attrs=dict(_ATTRS))
MaxPoolGradGrad = OpDef("MaxPoolGradGrad", _pool_infer("MaxPoolGradGrad", 3),
                        _max_pool_grad_grad, attrs=dict(_ATTRS))
AvgPool = OpDef("AvgPool", _pool_infer("AvgPool", 1), _avg_pool, attrs=dict(_ATTRS))
AvgPoolGrad = OpDef("AvgPoolGrad", _pool_infer("AvgPoolGrad", 3), _avg_pool_grad,
                    attrs=dict(_ATTRS))
