"""``ops.lp_pool1d``/``ops.lp_pool2d``: ``(sum over each window of x^p)^(1/p)`` with
``p = norm_type``, from the average pooling of ``x^p`` times the window size."""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ..common.tensor import Tensor
from .defs import pool as P
from .primitive import Primitive

__all__ = ["lp_pool1d", "lp_pool2d"]


def _pair(name: str, arg: str, value, rank: int) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * rank
    if not isinstance(value, (tuple, list)) or len(value) != rank or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in value):
        raise ValueError(f"For '{name}', '{arg}' must be a positive int or a tuple of {rank} "
                         f"positive ints, but got {value!r}.")
    return tuple(value)


def _lp_pool(name: str, rank: int, x, norm_type, kernel_size, stride, ceil_mode) -> Tensor:
    if not isinstance(x, Tensor) or x.ndim not in (rank + 1, rank + 2):
        raise ValueError(f"For '{name}', 'x' must be a {rank + 1}-D or {rank + 2}-D Tensor.")
    if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)) or \
            norm_type == 0:
        raise ValueError(f"For '{name}', 'norm_type' must be a non-zero number, but got "
                         f"{norm_type!r}.")
    kernel = _pair(name, "kernel_size", kernel_size, rank)
    step = kernel if stride is None else _pair(name, "stride", stride, rank)
    lift = (1,) * (2 - rank)
    pool = Primitive(P.AvgPool, {"kernel_size": lift + kernel, "strides": lift + step,
                                 "pad_mode": "pad", "pad": (0, 0, 0, 0),
                                 "ceil_mode": bool(ceil_mode), "data_format": "NCHW"})
    y = F.pow(x, float(norm_type))
    unbatched = x.ndim == rank + 1
    y = F.expand_dims(y, 0) if unbatched else y
    y = pool(F.expand_dims(y, 2) if rank == 1 else y)
    y = F.squeeze(y, 2) if rank == 1 else y
    y = F.squeeze(y, 0) if unbatched else y
    total = F.mul(F.mul(F.sign(y), F.relu(F.abs(y))), float(math.prod(kernel)))
    return F.pow(total, 1.0 / float(norm_type))


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False) -> Tensor:
    """Power-average pooling of ``(N, C, L)`` (or ``(C, L)``)."""
    return _lp_pool("lp_pool1d", 1, x, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False) -> Tensor:
    """Power-average pooling of ``(N, C, H, W)`` (or ``(C, H, W)``)."""
    return _lp_pool("lp_pool2d", 2, x, norm_type, kernel_size, stride, ceil_mode)
