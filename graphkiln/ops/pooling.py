"""``ops.max_pool2d``, ``ops.max_pool3d`` and ``ops.avg_pool3d`` (the primitives are in
:mod:`.defs.pool_argmax` and :mod:`.defs.pool3d`)."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs.pool3d import AvgPool3D
from .defs.pool_argmax import MaxPool3DWithArgmax, MaxPoolWithArgmaxV2

__all__ = ["max_pool2d", "max_pool3d", "avg_pool3d", "triple"]


def ntuple(owner: str, name: str, value, n: int, low: int = 1) -> tuple:
    """An int or ``n`` ints, each at least ``low``, as an ``n``-tuple."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * n
    if not isinstance(value, (tuple, list)) or len(value) != n or any(
            isinstance(v, bool) or not isinstance(v, int) or v < low for v in value):
        raise ValueError(f"For '{owner}', the '{name}' must be an int or a tuple of {n} ints "
                         f">= {low}, but got {value!r}.")
    return tuple(value)


def triple(owner: str, name: str, value, low: int = 1) -> tuple:
    """An int or three ints, each at least ``low``, as a 3-tuple."""
    return ntuple(owner, name, value, 3, low)


def max_pool2d(x: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               return_indices: bool = False, ceil_mode: bool = False):
    """Maximum over ``kernel_size`` windows of ``(N, C, H, W)`` (taps ``dilation`` apart),
    moved by ``stride`` (the kernel size by default), after ``padding`` (at most half the
    kernel); with ``return_indices`` also the flat ``H*W`` index of each maximum."""
    kernel = ntuple("max_pool2d", "kernel_size", kernel_size, 2)
    out, index = MaxPoolWithArgmaxV2(
        x, kernel_size=kernel,
        strides=kernel if stride is None else ntuple("max_pool2d", "stride", stride, 2),
        pads=ntuple("max_pool2d", "padding", padding, 2, 0),
        dilation=ntuple("max_pool2d", "dilation", dilation, 2), ceil_mode=bool(ceil_mode))
    return (out, index) if return_indices else out


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
