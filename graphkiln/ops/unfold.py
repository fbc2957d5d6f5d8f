"""``ops.unfold`` (im2col): the sliding ``kernel_size`` blocks of ``(N, C, H, W)`` as
columns ``(N, C * kh * kw, L)``, channel-major, computed as one convolution with a one-hot
filter (so it differentiates as one)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common.tensor import Tensor

__all__ = ["unfold"]


def one_hot_filter(channels: int, kernel: tuple, dtype) -> np.ndarray:
    """The ``(channels * kh * kw, channels, kh, kw)`` filter whose convolution copies channel
    ``c`` at kernel offset ``(i, j)`` to row ``c*kh*kw + i*kw + j``."""
    kh, kw = kernel
    w = np.zeros((channels * kh * kw, channels, kh, kw), dtype)
    for ch, i, j in np.ndindex(channels, kh, kw):
        w[(ch * kh + i) * kw + j, ch, i, j] = 1
    return w


def _pair(name: str, value, low: int) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if not isinstance(value, (tuple, list)) or len(value) != 2 or any(
            isinstance(v, bool) or not isinstance(v, int) or v < low for v in value):
        raise ValueError(f"For 'unfold', the '{name}' must be an int or a tuple of 2 ints "
                         f">= {low}, but got {value!r}.")
    return tuple(value)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Columns of the ``kernel_size`` blocks of a 4-D ``input``; row ``c*kh*kw + i*kw + j``
    holds channel ``c`` at kernel offset ``(i, j)``."""
    if not isinstance(input, Tensor) or input.ndim != 4:
        raise ValueError(f"For 'unfold', the 'input' must be a 4-D Tensor, but got "
                         f"{getattr(input, 'shape', type(input).__name__)}.")
    kh, kw = _pair("kernel_size", kernel_size, 1)
    dil = _pair("dilation", dilation, 1)
    pad = _pair("padding", padding, 0)
    step = _pair("stride", stride, 1)
    c = input.shape[1]
    w = one_hot_filter(c, (kh, kw), input.dtype.np_dtype)
    cols = F.conv2d(input, Tensor(w, input.dtype), None, step, "pad", pad, dil)
    return F.reshape(cols, (input.shape[0], c * kh * kw, -1))
