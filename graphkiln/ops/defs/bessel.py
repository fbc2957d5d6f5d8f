"""Modified Bessel functions of the first kind: ``BesselI0`` (NumPy's ``i0``) and
``BesselI1`` (``I1(x) = 1/pi * integral_0^pi exp(x cos t) cos t dt`` by the trapezoid rule,
exact to rounding for a smooth periodic integrand once the nodes outnumber ``|x|``).
``I0' = I1`` and ``I1' = I0 - I1 / x`` (1 at 0, as MindSpore's) close the pair under
differentiation.
Float16 computes in float32, as MindSpore's CPU kernels."""
from __future__ import annotations

import numpy as np

from ._infer import FLOATS
from .math import unary


def _wide(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _i0(x):
    return np.i0(_wide(x)).astype(_wide(x).dtype, copy=False)


def _i1(x):
    w = _wide(x)
    v = w.astype(np.float64)
    top = float(np.max(np.abs(v[np.isfinite(v)]), initial=0.0))
    nodes = 32 + int(min(top, 2048.0))
    t = np.linspace(0.0, np.pi, nodes + 1)
    weight = np.full(nodes + 1, 1.0 / nodes)
    weight[[0, -1]] *= 0.5
    with np.errstate(over="ignore", invalid="ignore"):
        out = (np.exp(v[..., None] * np.cos(t)) * (np.cos(t) * weight)).sum(-1)
    return np.where(np.isnan(v) | (v == 0), v, out).astype(w.dtype, copy=False)


BesselI0 = unary("BesselI0", _i0, FLOATS)
BesselI1 = unary("BesselI1", _i1, FLOATS)
