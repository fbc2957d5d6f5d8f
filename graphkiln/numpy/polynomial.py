"""Polynomials of ``mindspore.numpy`` (coefficients highest power first): polyadd,
polysub, polymul, polyval, polyder, polyint."""
from __future__ import annotations

import numpy as onp

import graphkiln.ops as ops

from ..common.tensor import Tensor
from ._base import as_float, promote, to_tensor
from .numeric import convolve


def _poly(p) -> Tensor:
    p = to_tensor(p)
    if p.ndim == 0:
        p = ops.reshape(p, (1,))
    if p.ndim != 1:
        raise ValueError("polynomial coefficients must be 1-D.")
    return p


def _align(a1, a2) -> tuple:
    a1, a2 = promote(_poly(a1), _poly(a2))
    n = max(a1.shape[0], a2.shape[0])
    pad = [ops.concat((ops.zeros((n - a.shape[0],), a.dtype), a)) if a.shape[0] < n else a
           for a in (a1, a2)]
    return pad[0], pad[1]


def polyadd(a1, a2) -> Tensor:
    """The sum of two polynomials."""
    a, b = _align(a1, a2)
    return a + b


def polysub(a1, a2) -> Tensor:
    """The difference of two polynomials."""
    a, b = _align(a1, a2)
    return a - b


def polymul(a1, a2) -> Tensor:
    """The product of two polynomials."""
    return convolve(_poly(a1), _poly(a2))


def polyval(p, x) -> Tensor:
    """``p`` evaluated at ``x`` by Horner's scheme."""
    p, x = promote(_poly(p), x)
    out = ops.zeros_like(x)
    for i in range(p.shape[0]):
        out = out * x + p[i]
    return out


def polyder(p, m=1) -> Tensor:
    """The ``m``-th derivative of ``p``."""
    p = _poly(p)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return ops.zeros((1,), p.dtype)
        p = p[:n] * Tensor(onp.arange(n, 0, -1).astype(p.dtype.np_dtype), p.dtype)
    return p


def polyint(p, m=1, k=None) -> Tensor:
    """The ``m``-th antiderivative of ``p``, with integration constants ``k``."""
    p = as_float(_poly(p))
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = [0.0] * m if k is None else list(onp.broadcast_to(onp.asarray(k, onp.float32), (m,)))
    for i in range(m):
        n = p.shape[0]
        scale = Tensor(onp.arange(n, 0, -1).astype(p.dtype.np_dtype), p.dtype)
        p = ops.concat((p / scale, ops.fill(p.dtype, (1,), float(ks[i]))))
    return p
