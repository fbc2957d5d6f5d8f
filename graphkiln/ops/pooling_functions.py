"""Pooling functions: ``ops.avg_pool1d``/``ops.avg_pool2d`` (over the 3-D average pool,
one or two unit dimensions added, so padding, ``ceil_mode``, ``count_include_pad`` and
``divisor_override`` behave as MindSpore's), ``ops.adaptive_avg_pool1d``/``2d``/``3d``
(``AdaptiveAvgPool2D``; 1-D over a unit height; 3-D as per-depth 2-D pools averaged over
depth bins) and ``ops.adaptive_max_pool1d``/``2d``/``3d`` (the maximum of each bin, with
its index in the flattened plane)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs.pool import AdaptiveAvgPool2D, adaptive_bins
from .defs.pool3d import AvgPool3D

__all__ = ["avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
           "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
           "adaptive_max_pool3d"]


def _per_axis(name: str, arg: str, value, count: int, low: int) -> tuple:
    values = (value,) * count if isinstance(value, int) and not isinstance(value, bool) \
        else tuple(value)
    if len(values) != count or any(isinstance(v, bool) or not isinstance(v, int) or v < low
                                   for v in values):
        raise ValueError(f"For '{name}', '{arg}' must be an int or a tuple of {count} ints "
                         f">= {low}, but got {value!r}.")
    return values


def _sides(name: str, padding, spatial: int) -> tuple:
    """(before, after) per spatial axis from an int or one value per side."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        padding = (padding,) * (2 * spatial)
    if not isinstance(padding, (tuple, list)) or len(padding) != 2 * spatial or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in padding):
        raise ValueError(f"For {name}, padding should be int or tuple of length "
                         f"{2 * spatial}.")
    return tuple(padding)


def _avg_pool(name: str, x: Tensor, spatial: int, kernel_size, stride, padding, ceil_mode,
              count_include_pad, divisor_override) -> Tensor:
    if not isinstance(x, Tensor) or x.ndim != spatial + 2:
        raise ValueError(f"For '{name}', the input must be a {spatial + 2}-D Tensor, but got "
                         f"{getattr(x, 'shape', type(x).__name__)}.")
    unit = (1,) * (3 - spatial)
    kernel = unit + _per_axis(name, "kernel_size", kernel_size, spatial, 1)
    strides = unit + _per_axis(name, "stride", stride, spatial, 1)
    pads = (0, 0) * (3 - spatial) + _sides(name, padding, spatial)
    lifted = F.reshape(x, tuple(x.shape[:2]) + unit + tuple(x.shape[2:]))
    out = AvgPool3D(lifted, kernel_size=kernel, strides=strides, pad_mode="pad",
                    pad=pads, ceil_mode=bool(ceil_mode),
                    count_include_pad=bool(count_include_pad),
                    divisor_override=divisor_override or 0)
    return F.reshape(out, tuple(out.shape[:2]) + tuple(out.shape[2 + 3 - spatial:]))


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """Averages over ``kernel_size`` windows of ``(N, C, L)``."""
    return _avg_pool("avg_pool1d", input_x, 1, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, 0)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> Tensor:
    """Averages over ``kernel_size`` windows of ``(N, C, H, W)``."""
    return _avg_pool("avg_pool2d", input_x, 2, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override)


def adaptive_avg_pool2d(input, output_size) -> Tensor:  # noqa: A002
    """Averages over the ``output_size`` bins of the last two axes (None keeps a size)."""
    return AdaptiveAvgPool2D(input, output_size=output_size)


def adaptive_avg_pool1d(input, output_size: int) -> Tensor:  # noqa: A002
    """Averages over ``output_size`` equal bins of the last axis of ``(N, C, L)``, whose
    length ``output_size`` must divide (as MindSpore's)."""
    if not isinstance(input, Tensor) or input.ndim != 3:
        raise ValueError("For adaptive_avg_pool1d, the input must be a 3-D Tensor.")
    if isinstance(output_size, bool) or not isinstance(output_size, int) or output_size < 1:
        raise TypeError(f"For adaptive_avg_pool1d, 'output_size' must be a positive int, but "
                        f"got {output_size!r}.")
    if input.shape[-1] % output_size:
        raise ValueError(f"For adaptive_avg_pool1d input's last dimension must be divisible by "
                         f"output size {output_size}, but got {input.shape[-1]}.")
    out = AdaptiveAvgPool2D(F.expand_dims(input, 2), output_size=(1, output_size))
    return F.squeeze(out, 2)


def adaptive_avg_pool3d(input, output_size) -> Tensor:  # noqa: A002
    """Averages over the ``output_size`` bins of the last three axes (None keeps a size):
    per depth slice over height and width, then over the depth bins."""
    if not isinstance(input, Tensor) or input.ndim not in (4, 5):
        raise ValueError("For adaptive_avg_pool3d, the input must be a 4-D or 5-D Tensor.")
    sizes = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    depth, height, width = input.shape[-3:]
    d_out = depth if sizes[0] is None else sizes[0]
    planes = AdaptiveAvgPool2D(F.reshape(input, (-1, height, width)),
                               output_size=tuple(sizes[1:]))
    planes = F.reshape(planes, tuple(input.shape[:-3]) + (depth, -1))
    bins = []
    for i in range(d_out):
        start, end = (i * depth) // d_out, -(-((i + 1) * depth) // d_out)
        bins.append(F.reduce_mean(F.narrow(planes, -2, start, end - start), -2, True))
    hw = tuple(n if s is None else s for n, s in zip((height, width), sizes[1:]))
    return F.reshape(F.concat(bins, -2), tuple(input.shape[:-3]) + (d_out,) + hw)


def _bin(i: int, n: int, out: int) -> tuple:
    """``(start, length)`` of bin ``i`` of ``out`` over ``n`` (PyTorch's bins)."""
    start, end = (i * n) // out, -(-((i + 1) * n) // out)
    return start, end - start


def adaptive_max_pool2d(input, output_size, return_indices: bool = False):  # noqa: A002
    """The maximum of each of the ``output_size`` bins of the last two axes (None keeps a
    size), and (``return_indices``) its int64 index in the flattened ``H * W`` plane."""
    if not isinstance(input, Tensor) or input.ndim not in (3, 4):
        raise ValueError("For adaptive_max_pool2d, the input must be a 3-D or 4-D Tensor.")
    sizes = (output_size,) * 2 if isinstance(output_size, int) else tuple(output_size)
    h, w = input.shape[-2:]
    oh, ow = (h if sizes[0] is None else sizes[0]), (w if sizes[1] is None else sizes[1])
    lead = tuple(input.shape[:-2])
    values, indices = [], []
    for i in range(oh):
        hs, hl = _bin(i, h, oh)
        for j in range(ow):
            ws, wl = _bin(j, w, ow)
            window = F.narrow(F.narrow(input, -2, hs, hl), -1, ws, wl)
            value, at = F.max(F.reshape(window, lead + (-1,)), -1)
            at = F.cast(at, mstype.int64)
            values.append(value)
            indices.append(F.add(F.add(F.mul(F.add(F.floor_div(at, wl), hs), w), ws),
                                 F.floor_mod(at, wl)))
    out = F.reshape(F.stack(values, -1), lead + (oh, ow))
    if not return_indices:
        return out
    return out, F.reshape(F.stack(indices, -1), lead + (oh, ow))


def adaptive_max_pool1d(input, output_size: int) -> Tensor:  # noqa: A002
    """The maximum of each of ``output_size`` equal bins of the last axis of ``(N, C, L)``,
    whose length ``output_size`` must divide (as MindSpore's)."""
    if not isinstance(input, Tensor) or input.ndim != 3:
        raise ValueError("For adaptive_max_pool1d, the input must be a 3-D Tensor.")
    if isinstance(output_size, bool) or not isinstance(output_size, int) or output_size < 1:
        raise TypeError(f"For adaptive_max_pool1d, 'output_size' must be a positive int, but "
                        f"got {output_size!r}.")
    if input.shape[-1] % output_size:
        raise ValueError(f"For adaptive_max_pool1d input's last dimension must be divisible by "
                         f"output size {output_size}, but got {input.shape[-1]}.")
    return F.squeeze(adaptive_max_pool2d(F.expand_dims(input, 2), (1, output_size)), 2)


def _window_table(dims: tuple, outs: tuple) -> np.ndarray:
    """``(prod(outs), k)``: the flat input positions of each output's bin, each row padded
    by repeating its last position (a repeat never changes a maximum)."""
    axes = [adaptive_bins(d, o) for d, o in zip(dims, outs)]
    rows = []
    for bd in axes[0]:
        for bh in axes[1]:
            for bw in axes[2]:
                grid = np.ix_(range(*bd), range(*bh), range(*bw))
                pos = (grid[0] * dims[1] + grid[1]) * dims[2] + grid[2]
                rows.append(pos.reshape(-1))
    width = max(len(r) for r in rows)
    return np.stack([np.pad(r, (0, width - len(r)), mode="edge") for r in rows]).astype(np.int32)


def adaptive_max_pool3d(input, output_size, return_indices: bool = False):  # noqa: A002
    """The maximum of each adaptive bin of the last three axes of a ``(N, C, D, H, W)`` or
    ``(C, D, H, W)`` input (None in ``output_size`` keeps an axis) and (``return_indices``)
    its int32 flat position in the ``D * H * W`` plane."""
    name = "AdaptiveMaxPool3D"
    if not isinstance(input, Tensor) or input.ndim not in (4, 5):
        raise ValueError(f"For '{name}', the rank of 'input' must be 4 or 5, but got "
                         f"{input.ndim if isinstance(input, Tensor) else type(input).__name__}.")
    sizes = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 3 or any(v is not None and (isinstance(v, bool) or not isinstance(v, int)
                                                 or v < 1) for v in sizes):
        raise ValueError(f"For '{name}', the 'output_size' must be a positive int or a tuple "
                         f"of 3 positive ints (or None), but got {output_size!r}.")
    lead, dims = tuple(input.shape[:-3]), tuple(input.shape[-3:])
    if 0 in lead + dims:
        raise RuntimeError(f"For '{name}', the input must not be empty, but got shape "
                           f"{list(input.shape)}.")  # (MindSpore: its kernel's resize fails)
    outs = tuple(d if o is None else o for d, o in zip(dims, sizes))
    table = _window_table(dims, outs)
    flat = F.reshape(input, lead + (-1,))
    picked = F.gather(flat, Tensor(table.reshape(-1)), flat.ndim - 1)
    picked = F.reshape(picked, lead + (int(np.prod(outs)), table.shape[-1]))
    values = F.reshape(F.reduce_max(picked, -1), lead + outs)
    if not return_indices:
        return values
    where = F.argmax(picked, -1, keepdim=True)
    rows = F.broadcast_to(Tensor(table), lead + table.shape)
    index = F.gather_elements(rows, -1, F.cast(where, mstype.int32))
    return values, F.reshape(index, lead + outs)
