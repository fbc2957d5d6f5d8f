"""Convolution primitives: ``Conv2D``/``Conv3D`` and their input and filter gradients
(``Conv2DBackpropInput``, which is also ``Conv2DTranspose``, and ``Conv2DBackpropFilter``;
the same for 3-D), with MindSpore's attributes (``out_channel``, ``kernel_size``,
``pad_mode``, ``pad``, ``stride``, ``dilation``, ``group``, ``data_format``).

Stride-1 convolutions (the common case) run as one GEMM per example over the flattened
padded image (``ops/conv_gemm.py``): forward, filter gradient, and the input gradient as the
transposed convolution. Other strides use im2col by ``as_strided`` (one copy, in the
(N, C*K, L) layout so that the forward result is already NCHW) plus one ``matmul`` (BLAS per
example and group); there the input gradient is one matmul plus a strided add per kernel
offset into the unpadded input, the filter gradient one matmul summed over the batch.
"""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.conv_gemm as G
import graphkiln.ops.conv_winograd as WG
import graphkiln.ops.windows as W

from ...ir import tape
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OUT_SEPARATE
from ..primitive import OpDef
from ..workspace import deliver, result_array, scratch, with_scratch
from ._infer import (
    FLOATS,
    const_shape,
    describe,
    dims_match,
    quiet,
    require_dtype,
    same_type,
    shapes_match,
)

_FORMATS = {2: "NCHW", 3: "NCDHW"}
_PAD_MODES = ("valid", "same", "pad")


# ------------------------------------------------------------------ attributes

def spatial(name: str, arg: str, value, rank: int) -> tuple:
    """An int, a ``rank``-tuple or MindSpore's ``(1, 1, *rank)`` form, as a ``rank``-tuple of
    positive ints."""
    vals = (value,) * rank if isinstance(value, (int, np.integer)) else tuple(value)
    if len(vals) == rank + 2:
        vals = vals[2:]
    if len(vals) != rank or any(isinstance(v, bool) or not isinstance(v, (int, np.integer))
                                or v < 1 for v in vals):
        raise ValueError(f"For '{name}', the '{arg}' must be a positive int or a tuple of "
                         f"{rank} positive ints, but got {value!r}.")
    return tuple(int(v) for v in vals)


def pad_pairs(name: str, pad, rank: int) -> tuple:
    """``pad`` (an int or 2*rank ints, before/after per axis) as ((before, after), ...)."""
    vals = (pad,) * (2 * rank) if isinstance(pad, (int, np.integer)) else tuple(pad)
    if len(vals) != 2 * rank or any(isinstance(v, bool) or not isinstance(v, (int, np.integer))
                                    or v < 0 for v in vals):
        raise ValueError(f"For '{name}', the 'pad' must be a non-negative int or a tuple of "
                         f"{2 * rank} non-negative ints, but got {pad!r}.")
    return tuple((int(vals[2 * i]), int(vals[2 * i + 1])) for i in range(rank))


def check_pad_mode(name: str, pad_mode: str, pad) -> str:
    if not isinstance(pad_mode, str) or pad_mode.lower() not in _PAD_MODES:
        raise ValueError(f"For '{name}', the 'pad_mode' must be one of ['same', 'valid', "
                         f"'pad'], but got {pad_mode!r}.")
    mode = pad_mode.lower()
    if mode != "pad" and any(np.ravel(pad)):
        raise ValueError(f"For '{name}', the 'pad' must be zero when 'pad_mode' is not "
                         f"'pad', but got pad {pad!r} and pad_mode '{pad_mode}'.")
    return mode


class ConvGeometry:
    """Kernel, stride, dilation and padding of one convolution call, checked once."""

    __slots__ = ("kernel", "stride", "dilation", "pads", "group")

    def __init__(self, name: str, rank: int, sizes, kernel_size, pad_mode, pad, stride,
                 dilation, group):
        self.kernel = spatial(name, "kernel_size", kernel_size, rank)
        self.stride = spatial(name, "stride", stride, rank)
        self.dilation = spatial(name, "dilation", dilation, rank)
        mode = check_pad_mode(name, pad_mode, pad)
        self.pads = W.resolve_pads(mode, sizes, self.kernel, self.stride, self.dilation,
                                   pad_pairs(name, pad, rank))
        if isinstance(group, bool) or not isinstance(group, (int, np.integer)) or group < 1:
            raise ValueError(f"For '{name}', the 'group' must be a positive int, but got "
                             f"{group!r}.")
        self.group = int(group)

    def out(self, sizes) -> tuple:
        """Output spatial sizes (-1 where the input's is known only at run time)."""
        return W.out_sizes(sizes, self.kernel, self.stride, self.dilation, self.pads)

    def winograd(self, dtype, in_shape, w_shape) -> bool:
        """Whether the F(4x4, 3x3) Winograd kernels run this convolution."""
        return WG.applies(dtype, in_shape, w_shape, self.kernel, self.stride, self.dilation,
                          self.pads, self.group)

    def flat_grid(self, sizes) -> G.FlatGrid | None:
        """The padded-grid GEMM layout for inputs of ``sizes``, if it applies (stride 1, not
        too much extra compute)."""
        if any(s != 1 for s in self.stride):
            return None
        grid = G.flat_grid(tuple(sizes), self.kernel, self.dilation, self.pads)
        return grid if grid.worthwhile() else None


@W.cached_geometry
def _geometry(name, rank, sizes, attrs) -> ConvGeometry:
    attrs = {**_conv_attrs(rank), **attrs}
    return ConvGeometry(name, rank, sizes, attrs["kernel_size"], attrs["pad_mode"],
                        attrs["pad"], attrs["stride"], attrs["dilation"], attrs["group"])


def _weight_kernel(attrs: dict, w_shape) -> dict:
    """The backprop kernels' attributes with the kernel read from the weight's (the
    filter size's) spatial shape when it is known: MindSpore's gradient kernels go by the
    weight, whatever ``out_channel``/``kernel_size`` say."""
    kernel = tuple(w_shape[2:])
    if all(isinstance(k, int) and k > 0 for k in kernel):
        return {**attrs, "kernel_size": kernel}
    return attrs


def _check_format(name: str, rank: int, attrs: dict) -> None:
    data_format = attrs.get("data_format", _FORMATS[rank])
    if data_format != _FORMATS[rank]:
        raise ValueError(f"For '{name}', the 'data_format' must be '{_FORMATS[rank]}' on CPU, "
                         f"but got '{data_format}'.")


# ------------------------------------------------------------------ NumPy kernels

def _cols(x: np.ndarray, geo: ConvGeometry, out) -> np.ndarray:
    """im2col in the (N, group, C/group*K, L) layout: one copy of the strided window view,
    whose innermost axis runs along the output width (contiguous reads at stride 1), into
    this thread's workspace."""
    n, c = x.shape[:2]
    r = len(geo.kernel)
    win = W.windows(W.pad_input(x, geo.pads), geo.kernel, geo.stride, geo.dilation, out)
    perm = (0, 1) + tuple(range(2 + r, 2 + 2 * r)) + tuple(range(2, 2 + r))
    cols = scratch((n, c) + geo.kernel + tuple(out), x.dtype)
    np.copyto(cols, win.transpose(perm))
    return cols.reshape(n, geo.group, -1, math.prod(out))


@with_scratch
def conv_forward(x, w, geo: ConvGeometry, out=None, keep_tiles: bool = True) -> np.ndarray:
    """Winograd's F(4x4, 3x3) where it applies and pays, else the padded-grid GEMM or
    ``W_g (O/g, C/g*K) @ cols (N, g, C/g*K, L)``: the output comes out as NCHW (into ``out``
    when given). ``keep_tiles``: a filter gradient follows, so Winograd's transformed input
    and the padded grid's columns are kept for it."""
    dtype = x.dtype
    ct = W.compute_dtype(dtype)
    x, w = x.astype(ct, copy=False), w.astype(ct, copy=False)
    target = out if ct == dtype else None
    y = WG.forward(x, w, geo.pads, target, remember=keep_tiles) \
        if geo.winograd(ct, x.shape, w.shape) else None
    grid = geo.flat_grid(x.shape[2:]) if y is None else None
    if grid is not None:
        y = G.forward(x, w, grid, geo.group, target, keep_tiles)
    elif y is None:
        n, size, g, o = x.shape[0], geo.out(x.shape[2:]), geo.group, w.shape[0]
        y = result_array(target, (n, o) + tuple(size), ct)
        np.matmul(w.reshape(g, o // g, -1), _cols(x, geo, size),
                  out=y.reshape(n, g, o // g, -1))  # (N, g, O/g, L)
    return deliver(y.astype(dtype, copy=False), out)


@with_scratch
def conv_input_grad(dy, w, in_shape, geo: ConvGeometry, out=None) -> np.ndarray:
    """``W_g^T @ dy`` gives the columns' cotangent, summed back onto the input (col2im);
    into ``out`` when given."""
    dtype = dy.dtype
    ct = W.compute_dtype(dtype)
    dy, w = dy.astype(ct, copy=False), w.astype(ct, copy=False)
    target = out if ct == dtype else None
    dx = None
    if geo.winograd(ct, in_shape, w.shape):
        dx = WG.input_grad(dy, w, geo.pads, target)
    if dx is None and all(s == 1 for s in geo.stride):
        dx = G.input_grad(dy, w, in_shape[2:], geo.kernel, geo.dilation, geo.pads, geo.group,
                          target)
    if dx is None:
        n, c = in_shape[:2]
        g, o = geo.group, w.shape[0]
        size = dy.shape[2:]
        wg = w.reshape(g, o // g, -1).transpose(0, 2, 1)  # (g, C/g*K, O/g)
        dcols = scratch((n, g, wg.shape[1], math.prod(size)), ct)
        np.matmul(wg, dy.reshape(n, g, o // g, -1), out=dcols)
        dx = W.scatter_windows(dcols.reshape((n, c) + geo.kernel + tuple(size)),
                               tuple(in_shape), geo.kernel, geo.stride, geo.dilation, geo.pads,
                               out=target)
    return deliver(dx.astype(dtype, copy=False), out)


@with_scratch
def conv_filter_grad(dy, x, w_shape, geo: ConvGeometry, out=None) -> np.ndarray:
    """``sum_n dy_n (O/g, L) @ cols_n^T``: a GEMM per example, summed (into ``out`` when
    given)."""
    dtype = dy.dtype
    ct = W.compute_dtype(dtype)
    dy, x = dy.astype(ct, copy=False), x.astype(ct, copy=False)
    target = out if ct == dtype else None
    dw = WG.filter_grad(dy, x, geo.pads, target) if geo.winograd(ct, x.shape, w_shape) \
        else None
    grid = geo.flat_grid(x.shape[2:]) if dw is None else None
    if grid is not None:
        dw = G.filter_grad(dy, x, tuple(w_shape), grid, geo.group, target)
    elif dw is None:
        n, o, g = dy.shape[0], dy.shape[1], geo.group
        cols = _cols(x, geo, dy.shape[2:])  # (N, g, C/g*K, L)
        dyg = dy.reshape(n, g, o // g, -1)
        dw = np.matmul(dyg, cols.transpose(0, 1, 3, 2)).sum(axis=0)  # (g, O/g, C/g*K)
        dw = dw.reshape(w_shape)
    return deliver(dw.astype(dtype, copy=False), out)


# ------------------------------------------------------------------ inference

def _conv_types(name, **tensors):
    for arg, a in tensors.items():
        if not isinstance(a, AbstractTensor):  # MindSpore's words, its names ('w' the filter)
            names = ", ".join(sorted("w" if k == "weight" else k for k in tensors))
            raise TypeError(f"The primitive[{name}]'s input arguments[{names}] must be all "
                            f"tensor and those type must be same. But got input argument"
                            f"[{'w' if arg == 'weight' else arg}]: {describe(a)}.")
    t = same_type(name, tensors)
    require_dtype(name, next(iter(tensors)), t, FLOATS)
    return t


def _check_rank(name, arg, a, rank):
    if a.ndim != rank + 2:
        raise ValueError(f"For '{name}', the dimension of '{arg}' must be {rank + 2}, but got "
                         f"{a.ndim} (shape {list(a.shape)}).")


def _check_channels(name, x_shape, w_shape, geo, out_channel, kernel_attr):
    c, o = x_shape[1], w_shape[0]
    if not dims_match(c, w_shape[1] * geo.group):
        raise ValueError(f"For '{name}', 'C_in' of input 'x' shape divide by parameter "
                         f"'group' must be equal to 'C_in' of input 'weight' shape: "
                         f"{w_shape[1]}, but got 'C_in' of input 'x' shape: {c}, and "
                         f"'group': {geo.group}.")
    if not dims_match(o, out_channel):
        raise ValueError(f"For '{name}', 'out_channel' must be equal to the first dimension "
                         f"of 'weight' {o}, but got {out_channel}.")
    if o > 0 and o % geo.group:
        raise ValueError(f"For '{name}', 'out_channel' {o} must be divisible by 'group' "
                         f"{geo.group}.")
    if not shapes_match(tuple(w_shape[2:]), geo.kernel):
        raise ValueError(f"For '{name}', 'kernel_size' {kernel_attr!r} must match the spatial "
                         f"shape of 'weight' {list(w_shape[2:])}.")


def _conv_attrs(rank: int) -> dict:
    return {"out_channel": 1, "kernel_size": 1, "mode": 1, "pad_mode": "valid", "pad": 0,
            "stride": 1, "dilation": 1, "group": 1, "data_format": _FORMATS[rank]}


def _out_or_error(name, x_shape, geo):
    out = geo.out(x_shape[2:])
    if any(n >= 0 and o < 1 for o, n in zip(out, x_shape[2:])):
        raise ValueError(f"For '{name}', the input spatial shape {list(x_shape[2:])} is "
                         f"smaller than the (dilated) kernel {list(geo.kernel)} after "
                         f"padding {list(geo.pads)}; the output shape would be {list(out)}.")
    return out


def conv_opdefs(rank: int):
    """The forward, input-gradient and filter-gradient OpDefs of a ``rank``-D convolution."""
    prefix = f"Conv{rank}D"

    def forward_infer(x, w, **attrs):
        t = _conv_types(prefix, x=x, weight=w)
        _check_rank(prefix, "x", x, rank)
        _check_rank(prefix, "weight", w, rank)
        _check_format(prefix, rank, attrs)
        geo = _geometry(prefix, rank, x.shape[2:], attrs)
        _check_channels(prefix, x.shape, w.shape, geo, attrs.get("out_channel", 1),
                        attrs.get("kernel_size", 1))
        return AbstractTensor(t, (x.shape[0], w.shape[0]) + _out_or_error(prefix, x.shape,
                                                                            geo))

    @quiet
    def forward(x, w, out=None, keep_tiles=None, **attrs):
        if keep_tiles is None:  # eager: a gradient's tape may ask for the filter's gradient
            keep_tiles = bool(tape.ACTIVE)
        return conv_forward(x, w, _geometry(prefix, rank, x.shape[2:], attrs), out,
                            keep_tiles)

    input_name = f"{prefix}BackpropInput"

    def input_infer(dy, w, size, **attrs):
        t = _conv_types(input_name, dout=dy, weight=w)
        in_shape = tuple(-1 if d is None else d for d in const_shape(
            input_name, "input_size", size, allow_unknown=True))  # -1: the batch at run time
        if len(in_shape) != rank + 2:
            raise ValueError(f"For '{input_name}', the 'input_size' must have {rank + 2} "
                             f"dims, but got {list(in_shape)}.")
        _check_rank(input_name, "dout", dy, rank)
        _check_format(input_name, rank, attrs)
        geo = _geometry(input_name, rank, in_shape[2:], _weight_kernel(attrs, w.shape))
        _check_channels(input_name, in_shape, w.shape, geo, w.shape[0], w.shape[2:])
        want = (in_shape[0], w.shape[0]) + _out_or_error(input_name, in_shape, geo)
        if not shapes_match(tuple(dy.shape), want):
            raise ValueError(f"For '{input_name}', the shape of 'dout' must be {list(want)} "
                             f"for 'input_size' {list(in_shape)}, but got {list(dy.shape)}.")
        return AbstractTensor(t, in_shape)

    @quiet
    def input_kernel(dy, w, size, out=None, **attrs):
        size = tuple(int(s) for s in np.asarray(size).reshape(-1)) \
            if not isinstance(size, tuple) else size
        return conv_input_grad(dy, w, size, _geometry(input_name, rank, size[2:],
                                                      _weight_kernel(attrs, w.shape)), out)

    filter_name = f"{prefix}BackpropFilter"

    def filter_infer(dy, x, size, **attrs):
        t = _conv_types(filter_name, dout=dy, x=x)
        w_shape = const_shape(filter_name, "filter_size", size)
        _check_rank(filter_name, "x", x, rank)
        _check_format(filter_name, rank, attrs)
        geo = _geometry(filter_name, rank, x.shape[2:], _weight_kernel(attrs, w_shape))
        _check_channels(filter_name, x.shape, w_shape, geo, w_shape[0], w_shape[2:])
        want = (x.shape[0], w_shape[0]) + _out_or_error(filter_name, x.shape, geo)
        if not shapes_match(tuple(dy.shape), want):
            raise ValueError(f"For '{filter_name}', the shape of 'dout' must be {list(want)}, "
                             f"but got {list(dy.shape)}.")
        return AbstractTensor(t, w_shape)

    @quiet
    def filter_kernel(dy, x, size, out=None, **attrs):
        size = tuple(int(s) for s in np.asarray(size).reshape(-1)) \
            if not isinstance(size, tuple) else size
        return conv_filter_grad(dy, x, size, _geometry(filter_name, rank, x.shape[2:],
                                                       _weight_kernel(attrs, size)), out)

    attrs = _conv_attrs(rank)
    def hints(primitives) -> dict:
        """A compiled program keeps the forward's transformed input only when it also
        computes a filter gradient (in eager mode, only while a gradient records a tape)."""
        return {"keep_tiles": filter_name in primitives}

    return (OpDef(prefix, forward_infer, forward, attrs=attrs, out_buffer=OUT_SEPARATE,
                  hints=hints),
            OpDef(input_name, input_infer, input_kernel, attrs=attrs, out_buffer=OUT_SEPARATE),
            OpDef(filter_name, filter_infer, filter_kernel, attrs=attrs,
                  out_buffer=OUT_SEPARATE))


Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter = conv_opdefs(2)
Conv3D, Conv3DBackpropInput, Conv3DBackpropFilter = conv_opdefs(3)
