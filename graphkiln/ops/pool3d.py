"""``ops.max_pool3d`` and ``ops.avg_pool3d`` (the primitives are in :mod:`.defs.pool3d`)."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs.pool3d import AvgPool3D, MaxPool3DWithArgmax

__all__ = ["max_pool3d", "avg_pool3d", "triple"]


def triple(owner: str, name: str, value, low: int = 1) -> tuple:
    """An int or three ints, each at least ``low``, as a 3-tuple."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if not isinstance(value, (tuple, list)) or len(value) != 3 or any(
            isinstance(v, bool) or not isinstance(v, int) or v < low for v in value):
        raise ValueError(f"For '{owner}', the '{name}' must be an int or a tuple of 3 ints "
                         f">= {low}, but got {value!r}.")
    return tuple(value)


def max_pool3d(x: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """Maximum over ``kernel_size`` windows of ``(N, C, D, H, W)`` (taps ``dilation``
    apart), moved by ``stride`` (the kernel size by default), after ``padding`` (at most
    half the kernel) on both sides of each axis; with ``return_indices`` also the flat
    ``D*H*W`` index of each maximum."""
    kernel = triple("max_pool3d", "kernel_size", kernel_size)
    out, index = MaxPool3DWithArgmax(
        x, ksize=kernel, strides=kernel if stride is None else triple("max_pool3d", "stride",
                                                                      stride),
        pads=triple("max_pool3d", "padding", padding, 0),
        dilation=triple("max_pool3d", "dilation", dilation), ceil_mode=bool(ceil_mode))
    return (out, index) if return_indices else out


def avg_pool3d(input_x: Tensor, kernel_size=1, stride=1, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> Tensor:
    """Average over ``kernel_size`` windows of ``(N, C, D, H, W)``."""
    return AvgPool3D(input_x, kernel_size=triple("avg_pool3d", "kernel_size", kernel_size),
                     strides=triple("avg_pool3d", "stride", stride), pad_mode="pad",
                     pad=tuple(p for v in triple("avg_pool3d", "padding", padding, 0)
                               for p in (v, v)), ceil_mode=bool(ceil_mode),
                     count_include_pad=bool(count_include_pad),
                     divisor_override=divisor_override or 0)
