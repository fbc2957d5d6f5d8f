"""Numerically careful elementwise functions shared by the distributions and bijectors."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

# below THRESHOLD softplus(x) == exp(x) and above -THRESHOLD softplus(x) == x in float32
_THRESHOLD = float(np.log(np.finfo(np.float32).eps) + 1)
_TINY = float(np.exp(_THRESHOLD))


def softplus(x):
    """log(1 + exp(x)), exact at both float32 extremes."""
    too_small = x < _THRESHOLD
    too_large = x > -_THRESHOLD
    ones = ops.ones_like(x)
    safe = ops.select(ops.logical_or(too_small, too_large), ones, x)
    y = ops.log(ops.exp(safe) + 1.0)
    return ops.select(too_small, ops.exp(x), ops.select(too_large, x, y))


def inverse_softplus(x):
    """The inverse of softplus, exact at both float32 extremes."""
    too_small = x < _TINY
    too_large = x > -_THRESHOLD
    ones = ops.ones_like(x)
    safe = ops.select(ops.logical_or(too_small, too_large), ones, x)
    y = safe + ops.log(ops.abs(ops.expm1(-safe)))
    return ops.select(too_small, ops.log(x), ops.select(too_large, x, y))
