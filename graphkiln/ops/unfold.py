"""``ops.unfold`` (im2col): the sliding ``kernel_size`` blocks of ``(N, C, H, W)`` as
columns ``(N, C * kh * kw, L)``, channel-major, computed as one convolution grouped by
channel with a one-hot filter (so it differentiates as one); ``ops.fold``/``ops.col2im``
(col2im), its transpose: the columns summed back into the image, one transposed
convolution with the same filter."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common.tensor import Tensor
from .defs import conv as CV

__all__ = ["unfold", "fold", "col2im"]


def one_hot_filter(channels: int, kernel: tuple, dtype) -> np.ndarray:
    """The ``(channels * kh * kw, 1, kh, kw)`` filter of a convolution grouped by channel
    (``group=channels``) that copies channel ``c`` at kernel offset ``(i, j)`` to row
    ``c*kh*kw + i*kw + j``: its size grows with the channels, not their square (a dense
    one-hot filter of 512 channels and a 14x14 kernel took 40 GB)."""
    kh, kw = kernel
    taps = np.eye(kh * kw, dtype=dtype).reshape(1, kh * kw, 1, kh, kw)
    return np.broadcast_to(taps, (channels, kh * kw, 1, kh, kw)).reshape(-1, 1, kh, kw)


def _pair(owner: str, name: str, value, low: int) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if not isinstance(value, (tuple, list)) or len(value) != 2 or any(
            isinstance(v, bool) or not isinstance(v, int) or v < low for v in value):
        raise ValueError(f"For '{owner}', the '{name}' must be an int or a tuple of 2 ints "
                         f">= {low}, but got {value!r}.")
    return tuple(value)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Columns of the ``kernel_size`` blocks of a 4-D ``input``; row ``c*kh*kw + i*kw + j``
    holds channel ``c`` at kernel offset ``(i, j)``."""
    if not isinstance(input, Tensor) or input.ndim != 4:
        raise ValueError(f"For 'unfold', the 'input' must be a 4-D Tensor, but got "
                         f"{getattr(input, 'shape', type(input).__name__)}.")
    kh, kw = _pair("unfold", "kernel_size", kernel_size, 1)
    dil = _pair("unfold", "dilation", dilation, 1)
    pad = _pair("unfold", "padding", padding, 0)
    step = _pair("unfold", "stride", stride, 1)
    c = input.shape[1]
    if c < 0:  # channels known only at run time: each channel an image of its own
        flat = F.reshape(input, (-1, 1) + tuple(input.shape[2:]))
        w = Tensor(one_hot_filter(1, (kh, kw), input.dtype.np_dtype), input.dtype)
        cols = F.conv2d(flat, w, None, step, "pad", pad, dil)
        return F.reshape(cols, (input.shape[0], -1, cols.shape[2] * cols.shape[3]))
    w = one_hot_filter(c, (kh, kw), input.dtype.np_dtype)
    cols = F.conv2d(input, Tensor(w, input.dtype), None, step, "pad", pad, dil, groups=c)
    oh, ow = cols.shape[2], cols.shape[3]
    # (a batch size known only at run time: the block count from the known image size)
    return F.reshape(cols, (cols.shape[0], c * kh * kw, -1 if -1 in (oh, ow) else oh * ow))


def im2col(x, ksizes, strides=1, dilations=1, pads=0) -> Tensor:
    """MindSpore's ``Im2Col``: the blocks of a 4-D ``x`` as (N, C, kh * kw, L), ``pads``
    one int or ``(pad_height, pad_width)``."""
    if isinstance(pads, (tuple, list)) and len(pads) not in (1, 2):
        raise ValueError(f"For 'Im2Col', the pads size should be in : [1, 2], but got "
                         f"{len(pads)}.")
    pads = pads[0] if isinstance(pads, (tuple, list)) and len(pads) == 1 else pads
    kh, kw = _pair("Im2Col", "ksizes", ksizes, 1)
    cols = unfold(x, (kh, kw), dilations, pads, strides)
    return F.reshape(cols, (cols.shape[0], x.shape[1], kh * kw, cols.shape[2]))


def _output_size(name: str, output_size) -> tuple:
    if isinstance(output_size, Tensor):
        output_size = tuple(int(v) for v in output_size.asnumpy().reshape(-1))
    if isinstance(output_size, (tuple, list)) and any(
            isinstance(v, int) and v < 0 for v in output_size):
        raise ValueError(f"For '{name}', the value of 'output_size' must not be negative, but "
                         f"got {list(output_size)}.")
    return _pair(name, "output_size", output_size, 1) if name == "fold" else tuple(output_size)


def _fold(name: str, cols: Tensor, output_size, kernel_size, dilation, padding,
          stride) -> Tensor:
    """``cols`` (N, C * kh * kw, L) summed into (N, C, H, W)."""
    kh, kw = _pair(name, "kernel_size", kernel_size, 1)
    dil, pad, step = (_pair(name, "dilation", dilation, 1), _pair(name, "padding", padding, 0),
                      _pair(name, "stride", stride, 1))
    height, width = _output_size(name, output_size)
    n, rows, length = cols.shape
    if rows % (kh * kw):
        raise ValueError(f"For '{name}', the second dimension of the input ({rows}) must be a "
                         f"multiple of the kernel size {kh * kw}.")
    c = rows // (kh * kw)
    oh = (height + 2 * pad[0] - dil[0] * (kh - 1) - 1) // step[0] + 1
    ow = (width + 2 * pad[1] - dil[1] * (kw - 1) - 1) // step[1] + 1
    if oh * ow != length:
        raise ValueError(f"For '{name}', the number of blocks of the input ({length}) does not "
                         f"match the {oh} x {ow} blocks of 'output_size' {(height, width)}.")
    grad = F.reshape(cols, (n, rows, oh, ow))
    return CV.Conv2DBackpropInput(
        grad, Tensor(one_hot_filter(c, (kh, kw), cols.dtype.np_dtype), cols.dtype),
        (n, c, height, width), out_channel=rows,
        kernel_size=(kh, kw), pad_mode="pad", pad=(pad[0], pad[0], pad[1], pad[1]),
        stride=step, dilation=dil, group=c, data_format="NCHW")


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:  # noqa: A002
    """The sum of the blocks of ``input`` (N, C * kh * kw, L) at their places in
    (N, C, *output_size): the inverse arrangement of :func:`unfold`."""
    if not isinstance(input, Tensor) or input.ndim != 3:
        raise ValueError(f"For 'fold', the 'input' must be a 3-D Tensor, but got "
                         f"{getattr(input, 'shape', type(input).__name__)}.")
    return _fold("fold", input, output_size, kernel_size, dilation, padding, stride)


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride) -> Tensor:
    """:func:`fold` of ``input_x`` given as (N, C, kh * kw, L)."""
    if not isinstance(input_x, Tensor) or input_x.ndim != 4:
        raise ValueError(f"For 'col2im', the 'input_x' must be a 4-D Tensor, but got "
                         f"{getattr(input_x, 'shape', type(input_x).__name__)}.")
    n, c, k, length = input_x.shape
    return _fold("col2im", F.reshape(input_x, (n, c * k, length)), output_size, kernel_size,
                 dilation, padding_value, stride)
