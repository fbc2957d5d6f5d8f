"""``mint.nn.functional`` convolutions and pools with PyTorch's arguments (``conv2d(input,
weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``, ``max_pool2d(input,
kernel_size, stride=None, ...)``...) over graphkiln's primitives; an unbatched input
(no ``N`` axis) gets one for the call."""
from __future__ import annotations

import graphkiln.nn as _nn
import graphkiln.ops as ops
import graphkiln.ops.defs.conv as C
import graphkiln.ops.defs.pool as P2
import graphkiln.ops.defs.pool3d as P3

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...ops.pooling import ntuple
from ...ops.unfold import one_hot_filter


def unbatched(x, rank: int, owner: str):
    """``(x with a batch axis, whether one was added)`` for ``rank`` spatial axes."""
    if x.ndim not in (rank + 1, rank + 2):
        raise ValueError(f"For '{owner}', the dimension of input must be {rank + 1} or "
                         f"{rank + 2}, but got {x.ndim}.")
    return (ops.expand_dims(x, 0), True) if x.ndim == rank + 1 else (x, False)


def _rebatch(y, added: bool):
    return ops.squeeze(y, 0) if added else y


# ------------------------------------------------------------------ convolutions

def conv_padding(owner: str, padding, stride: tuple, rank: int):
    """``(pad_mode, pads)`` of a PyTorch ``padding``: 'same', 'valid', an int or a tuple."""
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For '{owner}', the 'padding' must be 'same', 'valid' or ints, "
                             f"but got '{padding}'.")
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError(f"For '{owner}', padding='same' is not supported for strided "
                             f"convolutions.")
        return padding, 0
    return "pad", ntuple(owner, "padding", padding, rank, 0)


def _conv(rank: int, input, weight, bias, stride, padding, dilation, groups):
    owner = f"conv{rank}d"
    x, added = unbatched(input, rank, owner)
    stride = ntuple(owner, "stride", stride, rank)
    pad_mode, pads = conv_padding(owner, padding, stride, rank)
    conv = {1: ops.conv1d, 2: ops.conv2d, 3: ops.conv3d}[rank]
    y = conv(x, weight, bias, stride, pad_mode, pads, ntuple(owner, "dilation", dilation, rank),
             groups)
    return _rebatch(y, added)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """1-D convolution of ``(N, C, L)`` with ``weight`` ``(out, C/groups, k)``."""
    return _conv(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """2-D convolution of ``(N, C, H, W)`` with ``weight`` ``(out, C/groups, kh, kw)``."""
    return _conv(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor:
    """3-D convolution of ``(N, C, D, H, W)``."""
    return _conv(3, input, weight, bias, stride, padding, dilation, groups)


def _transposed(x, weight, out_channels: int, size: tuple, stride, padding, dilation, groups):
    """The input gradient of the convolution of a ``size`` image by ``weight``, at ``x``."""
    conv = ops.Primitive(C.Conv2DBackpropInput, {
        "out_channel": weight.shape[0], "kernel_size": tuple(weight.shape[2:]),
        "pad_mode": "pad", "pad": tuple(p for v in padding for p in (v, v)),
        "stride": stride, "dilation": dilation, "group": groups, "data_format": "NCHW"})
    return conv(x, weight, (x.shape[0], out_channels) + tuple(size))


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1) -> Tensor:
    """Transposed 2-D convolution, ``weight`` ``(C, out/groups, kh, kw)``; each output side is
    ``(n - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1``."""
    owner = "conv_transpose2d"
    x, added = unbatched(input, 2, owner)
    stride = ntuple(owner, "stride", stride, 2)
    padding = ntuple(owner, "padding", padding, 2, 0)
    dilation = ntuple(owner, "dilation", dilation, 2)
    extra = ntuple(owner, "output_padding", output_padding, 2, 0)
    out_channels = weight.shape[1] * groups
    size = tuple((n - 1) * s - 2 * p + d * (k - 1) + o + 1 for n, s, p, d, k, o in zip(
        x.shape[2:], stride, padding, dilation, weight.shape[2:], extra))
    y = _transposed(x, weight, out_channels, size, stride, padding, dilation, groups)
    if bias is not None:
        y = ops.add(y, ops.reshape(bias, (1, -1, 1, 1)))
    return _rebatch(y, added)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Columns ``(N, C * kh * kw, L)`` of the sliding blocks of ``(N, C, H, W)``."""
    return ops.unfold(input, kernel_size, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sum the columns ``(N, C * kh * kw, L)`` (or ``(C * kh * kw, L)``) back into the
    ``output_size`` image they were cut from (the adjoint of :func:`unfold`)."""
    owner = "fold"
    x, added = unbatched(input, 1, owner)
    size = ntuple(owner, "output_size", output_size, 2)
    kernel = ntuple(owner, "kernel_size", kernel_size, 2)
    dilation = ntuple(owner, "dilation", dilation, 2)
    padding = ntuple(owner, "padding", padding, 2, 0)
    stride = ntuple(owner, "stride", stride, 2)
    rows, blocks = x.shape[1], x.shape[2]
    grid = tuple((n + 2 * p - d * (k - 1) - 1) // s + 1 for n, p, d, k, s in zip(
        size, padding, dilation, kernel, stride))
    if rows % (kernel[0] * kernel[1]) or grid[0] * grid[1] != blocks:
        raise RuntimeError(f"For 'fold', the input of shape {list(input.shape)} does not hold "
                           f"the {grid[0]}x{grid[1]} blocks of kernel {kernel} that an "
                           f"output of size {size} gives.")
    channels = rows // (kernel[0] * kernel[1])
    w = Tensor(one_hot_filter(channels, kernel, x.dtype.np_dtype), x.dtype)
    cols = ops.reshape(x, (x.shape[0], rows) + grid)
    y = _transposed(cols, w, channels, size, stride, padding, dilation, channels)
    return _rebatch(y, added)


# ------------------------------------------------------------------ pooling

def pool_primitive(owner: str, opdef, rank: int, kernel_size, stride, padding, ceil_mode,
                   **extra):
    """The ``MaxPool``/``AvgPool``/``AvgPool3D`` primitive of a PyTorch pool (a 1-D pool
    runs as 2-D of height 1)."""
    kernel = ntuple(owner, "kernel_size", kernel_size, rank)
    step = kernel if stride is None else ntuple(owner, "stride", stride, rank)
    pads = ntuple(owner, "padding", padding, rank, 0)
    lift = 2 - rank if rank < 2 else 0
    return ops.Primitive(opdef, {
        "kernel_size": (1,) * lift + kernel, "strides": (1,) * lift + step,
        "pad_mode": "pad", "pad": (0, 0) * lift + tuple(p for v in pads for p in (v, v)),
        "ceil_mode": bool(ceil_mode), **extra})


def run_pool(pool, input, rank: int, owner: str):
    """``pool`` over ``input`` with ``rank`` spatial axes (batched or not)."""
    x, added = unbatched(input, rank, owner)
    y = ops.squeeze(pool(ops.expand_dims(x, 2)), 2) if rank == 1 else pool(x)
    return _rebatch(y, added)


def _avg_pool(rank, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override):
    owner = f"avg_pool{rank}d"
    opdef = P3.AvgPool3D if rank == 3 else P2.AvgPool
    pool = pool_primitive(owner, opdef, rank, kernel_size, stride, padding, ceil_mode,
                          count_include_pad=bool(count_include_pad),
                          divisor_override=divisor_override or 0)
    return run_pool(pool, input, rank, owner)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True) -> Tensor:
    """Average over windows of ``(N, C, L)``."""
    return _avg_pool(1, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     None)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None) -> Tensor:
    """Average over windows of ``(N, C, H, W)``."""
    return _avg_pool(2, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None) -> Tensor:
    """Average over windows of ``(N, C, D, H, W)``."""
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Maximum over windows of ``(N, C, H, W)``; with ``return_indices`` also the flat
    ``H*W`` index of each maximum (int64)."""
    x, added = unbatched(input, 2, "max_pool2d")
    if ntuple("max_pool2d", "dilation", dilation, 2) == (1, 1) and not return_indices:
        pool = pool_primitive("max_pool2d", P2.MaxPool, 2, kernel_size, stride, padding,
                              ceil_mode)
        return _rebatch(pool(x), added)
    out, index = ops.max_pool2d(x, kernel_size, stride, padding, dilation, True, ceil_mode)
    out = _rebatch(out, added)
    return (out, _rebatch(ops.cast(index, mstype.int64), added)) if return_indices else out


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Scatter ``input`` to the flat ``H*W`` positions ``indices`` (the inverse of
    :func:`max_pool2d` with ``return_indices``)."""
    return ops.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)


def _sizes(owner: str, output_size, rank: int) -> tuple:
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else \
        (output_size,) * rank
    if len(sizes) != rank or any(s is not None and (isinstance(s, bool) or not isinstance(
            s, int) or s < 1) for s in sizes):
        raise ValueError(f"For '{owner}', the 'output_size' must be a positive int or a tuple "
                         f"of {rank} (positive ints or None), but got {output_size!r}.")
    return sizes


def adaptive_avg_pool1d(input, output_size) -> Tensor:
    """Average of each of ``output_size`` adaptive bins of the last axis."""
    size = _sizes("adaptive_avg_pool1d", output_size, 1)
    x, added = unbatched(input, 1, "adaptive_avg_pool1d")
    return _rebatch(ops.AdaptiveAvgPool2D((None,) + size)(x), added)


def adaptive_avg_pool2d(input, output_size) -> Tensor:
    """Average of each adaptive bin of the last two axes (None keeps an axis)."""
    return ops.AdaptiveAvgPool2D(_sizes("adaptive_avg_pool2d", output_size, 2))(input)


def adaptive_avg_pool3d(input, output_size) -> Tensor:
    """Average of each adaptive bin of the last three axes of a 4-D or 5-D input."""
    return _nn.AdaptiveAvgPool3d(_sizes("adaptive_avg_pool3d", output_size, 3))(input)


def _adaptive_max(rank: int, input, output_size, return_indices: bool):
    """The 3-D adaptive max pool over ``input`` with unit axes put before its ``rank``."""
    owner = f"adaptive_max_pool{rank}d"
    sizes = _sizes(owner, output_size, rank)
    if input.ndim not in (rank + 1, rank + 2):
        raise ValueError(f"For '{owner}', the dimension of input must be {rank + 1} or "
                         f"{rank + 2}, but got {input.ndim}.")
    lead = tuple(input.shape[:-rank])
    x = ops.reshape(input, lead + (1,) * (3 - rank) + tuple(input.shape[-rank:]))
    pool = _nn.AdaptiveMaxPool3d((1,) * (3 - rank) + sizes, return_indices=True)
    values, index = pool(x)
    shape = lead + tuple(values.shape[-rank:])
    values = ops.reshape(values, shape)
    if not return_indices:
        return values
    return values, ops.reshape(ops.cast(index, mstype.int64), shape)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Maximum of each adaptive bin of the last axis (and its index with
    ``return_indices``)."""
    return _adaptive_max(1, input, output_size, return_indices)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Maximum of each adaptive bin of the last two axes (and its flat ``H*W`` index with
    ``return_indices``)."""
    return _adaptive_max(2, input, output_size, return_indices)


__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose2d", "unfold", "fold", "avg_pool1d",
           "avg_pool2d", "avg_pool3d", "max_pool2d", "max_unpool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
           "adaptive_max_pool2d"]
