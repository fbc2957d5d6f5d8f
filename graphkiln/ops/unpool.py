"""Max unpooling (``max_unpool1d/2d/3d``): each value of ``x`` written at the flat index,
within its ``(N, C)`` plane of the output, that ``indices`` gives (the indices a max
pooling returned), zeros elsewhere. Built from ``ScatterNd``, so it differentiates (a
``GatherNd``) and batches through the existing rules."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["max_unpool1d", "max_unpool2d", "max_unpool3d"]


def _spatial(owner: str, name: str, value, rank: int, low: int) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * rank
    if not isinstance(value, (tuple, list)) or len(value) not in (1, rank) or any(
            isinstance(v, bool) or not isinstance(v, int) or v < low for v in value):
        raise ValueError(f"For {owner}, '{name}' must be an int or a tuple of {rank} ints "
                         f">= {low}, but got {value!r}.")
    return tuple(value) * (rank if len(value) == 1 else 1)


def _out_sizes(owner: str, sizes: tuple, kernel: tuple, stride: tuple, pads: tuple,
               output_size) -> tuple:
    default = tuple((n - 1) * s - 2 * p + k for n, k, s, p in zip(sizes, kernel, stride, pads))
    if output_size is None or output_size == ():
        return default
    if not isinstance(output_size, tuple):
        raise ValueError(f"For {owner}, output_size must be tuple, but type "
                         f"{type(output_size)}.")
    rank = len(sizes)
    if len(output_size) not in (rank, rank + 1, rank + 2):
        raise ValueError(f"For {owner}, length of output_size with tuple must be 0, {rank}, "
                         f"{rank + 1} or {rank + 2}, but got {len(output_size)}.")
    want = tuple(output_size[-rank:])
    for got, d, s in zip(want, default, stride):
        if not d - s < got < d + s:
            raise ValueError(f"For {owner}, output_size {output_size} must be within "
                             f"{default} +- stride {stride} (exclusive).")
    return want


def _max_unpool(owner: str, rank: int, x, indices, kernel_size, stride, padding,
                output_size) -> Tensor:
    for name, t in (("x", x), ("indices", indices)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For {owner}, '{name}' must be a Tensor, but got "
                            f"{type(t).__name__}.")
    if x.ndim not in (rank + 1, rank + 2):
        raise ValueError(f"For {owner}, the dimension of 'x' must be {rank + 1} or "
                         f"{rank + 2}, but got {x.ndim}.")
    if tuple(indices.shape) != tuple(x.shape):
        raise ValueError(f"For {owner}, the shape of 'indices' must equal the shape of 'x' "
                         f"{list(x.shape)}, but got {list(indices.shape)}.")
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For {owner}, the dtype of 'indices' must be int32 or int64, but got "
                        f"{indices.dtype}.")
    kernel = _spatial(owner, "kernel_size", kernel_size, rank, 1)
    stride = kernel if stride in (None, 0, (0,)) else _spatial(owner, "stride", stride, rank,
                                                               1)
    pads = _spatial(owner, "padding", padding, rank, 0)
    shape = tuple(x.shape) if x.ndim == rank + 2 else (1,) + tuple(x.shape)
    sizes = _out_sizes(owner, shape[2:], kernel, stride, pads, output_size)
    planes, length, room = shape[0] * shape[1], math.prod(shape[2:]), math.prod(sizes)
    base = Tensor((np.arange(planes, dtype=np.int64) * room).reshape(planes, 1))
    flat = F.add(F.reshape(F.cast(indices, mstype.int64), (planes, length)), base)
    out = F.scatter_nd(F.reshape(flat, (-1, 1)), F.reshape(x, (-1,)), (planes * room,))
    return F.reshape(out, (shape[:2] if x.ndim == rank + 2 else shape[1:2]) + sizes)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool1d``: ``(N, C, L)`` or ``(C, L)`` values placed at
    ``indices`` of an output of length ``(L - 1) * stride - 2 * padding + kernel_size``."""
    return _max_unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding,
                       output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d`` on ``(N, C, H, W)`` or ``(C, H, W)``."""
    return _max_unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding,
                       output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool3d`` on ``(N, C, D, H, W)`` or ``(C, D, H, W)``."""
    return _max_unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding,
                       output_size)
