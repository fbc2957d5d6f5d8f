"""``mindspore.mint.linalg``: norms."""
from __future__ import annotations

import math

import graphkiln.ops as ops


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The ``ord``-norm of ``x`` over ``dim`` (all elements when None)."""
    if dtype is not None:
        x = ops.cast(x, dtype)
    axes = () if dim is None else dim
    size = ops.abs(x)
    if ord == math.inf:
        return ops.reduce_max(size, axes, keepdim)
    if ord == -math.inf:
        return ops.reduce_min(size, axes, keepdim)
    if ord == 0:
        return ops.reduce_sum(ops.cast(ops.not_equal(size, 0), x.dtype), axes, keepdim)
    if ord == 1:
        return ops.reduce_sum(size, axes, keepdim)
    if ord == 2:
        return ops.sqrt(ops.reduce_sum(ops.square(size), axes, keepdim))
    return ops.pow(ops.reduce_sum(ops.pow(size, ord), axes, keepdim), 1.0 / ord)


__all__ = ["vector_norm"]
