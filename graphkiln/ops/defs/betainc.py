"""``Betainc``: the regularized incomplete beta function ``I_x(a, b)`` of same-shaped
``a``, ``b``, ``x`` (float32 or float64, as MindSpore's CPU kernel), by the continued
fraction of Numerical Recipes' ``betacf`` (modified Lentz) in float64, on the side of
``(a + 1) / (a + b + 2)`` where it converges fast. ``x`` outside [0, 1] or a non-positive
``a``/``b`` gives NaN."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ..primitive import OpDef
from ._infer import quiet, require_dtype, same_type, shape, shapes_match
from .special import _lgamma

_TINY = 1e-300
_STEPS = 300


def _continued_fraction(a, b, x):
    """The continued fraction of ``I_x(a, b)`` (elementwise, float64)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d.copy()
    for m in range(1, _STEPS + 1):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
            c = 1.0 + aa / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            delta = d * c
            h = h * delta
        if np.all(np.abs(delta - 1.0) < 1e-15):
            break
    return h


def regularized_incomplete_beta(a, b, x) -> np.ndarray:
    """``I_x(a, b)`` in float64."""
    a, b, x = (np.asarray(v, np.float64) for v in (a, b, x))
    bad = (a <= 0) | (b <= 0) | (x < 0) | (x > 1) | np.isnan(a + b + x)
    a, b = np.where(bad, 1.0, a), np.where(bad, 1.0, b)
    xs = np.clip(np.where(bad, 0.5, x), 0.0, 1.0)
    flip = xs > (a + 1.0) / (a + b + 2.0)
    pa, pb, px = np.where(flip, b, a), np.where(flip, a, b), np.where(flip, 1.0 - xs, xs)
    inner = (px > 0) & (px < 1)
    safe = np.where(inner, px, 0.5)
    log_front = (_lgamma(pa + pb) - _lgamma(pa) - _lgamma(pb) + pa * np.log(safe)
                 + pb * np.log1p(-safe))
    part = np.where(inner, np.exp(log_front) * _continued_fraction(pa, pb, safe) / pa,
                    np.where(px >= 1, 1.0, 0.0))
    return np.where(bad, np.nan, np.where(flip, 1.0 - part, part))


def _infer(a, b, x):
    t = same_type("Betainc", {"a": a, "b": b, "x": x})
    require_dtype("Betainc", "a", t, (mstype.float32, mstype.float64))
    for arg, v in (("a", a), ("b", b)):
        if not shapes_match(tuple(shape(v)), tuple(shape(x))):
            raise ValueError(f"For 'Betainc', the shape of '{arg}' {list(shape(v))} must be "
                             f"the shape of 'x' {list(shape(x))}.")
    return AbstractTensor(t, tuple(shape(x)))


@quiet
def _betainc(a, b, x):
    return regularized_incomplete_beta(a, b, x).astype(np.asarray(x).dtype)


Betainc = OpDef("Betainc", _infer, _betainc)
