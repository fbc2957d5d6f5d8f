"""Modified Bessel functions of the first kind: ``BesselI0`` (NumPy's ``i0``) and
``BesselI1`` (``I1(x) = 1/pi * integral_0^pi exp(x cos t) cos t dt`` by the trapezoid rule,
exact to rounding for a smooth periodic integrand once the nodes outnumber ``|x|``).
``I0' = I1`` and ``I1' = I0 - I1 / x`` (1 at 0, as MindSpore's) close the pair under
differentiation.
Float16 computes in float32, as MindSpore's CPU kernels."""
from __future__ import annotations

import functools

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


# ------------------------------------------------------------------ the other kinds and orders
# Each is a quadrature of one of its integral representations, in float64, over chunks of
# elements (so the (elements, nodes) table stays small):
#   J_n(x) = 1/(2 pi) int_{-pi}^{pi} cos(n t - x sin t) dt
#   I_n(x) exp(-|x|) = 1/(2 pi) int_{-pi}^{pi} exp(x cos t - |x|) cos(n t) dt
#   (periodic: the trapezoid rule is exact to rounding with more nodes than |x|)
#   K_n(x) exp(x) = int_0^inf exp(-x (cosh t - 1)) cosh(n t) dt          (x > 0)
#   Y_n(x) = 1/pi int_0^pi sin(x sin t - n t) dt
#            - 1/pi int_0^inf (exp(n t) + (-1)^n exp(-n t)) exp(-x sinh t) dt   (x > 0)
#   (Gauss-Legendre nodes, the infinite range cut where the integrand is below 1e-17).

_CHUNK = 2048
_NODE_CAP = 4096


def _chunked(x: np.ndarray, fn) -> np.ndarray:
    """``fn`` of the float64 values of ``x``, a chunk of elements at a time, in ``x``'s
    dtype (float16 computes in float32)."""
    w = _wide(x)
    flat = w.astype(np.float64).reshape(-1)
    out = np.empty_like(flat)
    step = max(16, _CHUNK * 64 // (64 + _nodes(flat)))  # about _CHUNK * 64 table entries
    for start in range(0, flat.size, step):
        part = flat[start:start + step]
        with np.errstate(all="ignore"):
            out[start:start + step] = fn(part)
    return out.reshape(w.shape).astype(w.dtype, copy=False)


def _nodes(v: np.ndarray) -> int:
    """Enough nodes for an integrand oscillating like ``exp(i x sin t)`` (its spectrum ends
    a little past ``|x|``)."""
    finite = np.abs(v[np.isfinite(v)])
    return 64 + int(1.25 * min(float(finite.max(initial=0.0)), _NODE_CAP))


def _periodic_mean(v: np.ndarray, integrand) -> np.ndarray:
    """The mean over a period of ``integrand(x, t)`` (the trapezoid rule)."""
    n = _nodes(v)
    t = np.linspace(-np.pi, np.pi, n, endpoint=False)
    return integrand(v[:, None], t[None, :]).mean(-1)


def _hankel(order: int, x: np.ndarray, second_kind: bool) -> np.ndarray:
    """``J_order``/``Y_order`` of large positive ``x`` by Hankel's expansion (relative error
    about ``x**-3``)."""
    mu = 4.0 * order * order
    p = 1.0 - (mu - 1.0) * (mu - 9.0) / (128.0 * x * x)
    q = (mu - 1.0) / (8.0 * x)
    chi = x - (2 * order + 1) * np.pi / 4.0
    scale = np.sqrt(2.0 / (np.pi * x))
    if second_kind:
        return scale * (np.sin(chi) * p + np.cos(chi) * q)
    return scale * (np.cos(chi) * p - np.sin(chi) * q)


def _j(order: int):
    def fn(v):
        big = np.abs(v) > _NODE_CAP
        small = np.where(big, 0.0, v)
        out = _periodic_mean(small, lambda x, t: np.cos(order * t - x * np.sin(t)))
        far = _hankel(order, np.where(big, np.abs(v), _NODE_CAP + 1.0), False)
        out = np.where(big, far * (np.sign(v) ** order), out)
        return np.where(np.isfinite(v), out, np.where(np.isnan(v), v, 0.0))
    return fn


def _ie(order: int):
    def fn(v):
        out = _periodic_mean(v, lambda x, t: np.exp(x * np.cos(t) - np.abs(x)) *
                             np.cos(order * t))
        return np.where(np.isfinite(v), out, np.where(np.isnan(v), v, 0.0))
    return fn


@functools.lru_cache(maxsize=32)
def _legendre(panels: int, points: int = 16) -> tuple:
    """Nodes and weights on [0, 1] of the ``points``-point Gauss-Legendre rule on each of
    ``panels`` equal panels."""
    nodes, weights = np.polynomial.legendre.leggauss(points)
    start = np.arange(panels)[:, None] / panels
    return ((start + (nodes + 1) / (2 * panels)).reshape(-1),
            np.tile(weights / (2 * panels), panels))


_GL = _legendre(16)


def _ke(order: int):
    """``K_order(x) exp(x)``: inf at and below 0, as MindSpore's."""
    def fn(v):
        x = np.where(v > 0, v, 1.0)[:, None]
        top = np.arccosh(1.0 + (45.0 + order * 20.0) / x)  # where the integrand is ~1e-20
        u, w = _GL
        t = u[None, :] * top
        out = (np.exp(-x * (np.cosh(t) - 1.0)) * np.cosh(order * t) * w).sum(-1) * top[:, 0]
        return np.where(v > 0, out, np.where(np.isnan(v), v, np.inf))
    return fn


def _y(order: int):
    """``Y_order(x)``: -inf below 0 and for ``Y0(0)``, NaN for ``Y1(0)``, as MindSpore's."""
    def fn(v):
        x = np.where(v > 0, v, 1.0)[:, None]
        big = v > _NODE_CAP
        x = np.where(big, 1.0, x[:, 0])[:, None]
        u, w = _legendre(-(-_nodes(x[:, 0]) // 8))  # 16-point panels, two per wave
        t = np.pi * u[None, :]
        first = (np.sin(x * np.sin(t) - order * t) * w).sum(-1)
        top = np.arcsinh((45.0 + order * 50.0) / x)
        s = _GL[0][None, :] * top
        tail = (np.exp(order * s) + (-1) ** order * np.exp(-order * s)) * np.exp(-x * np.sinh(s))
        second = (tail * _GL[1]).sum(-1) * top[:, 0] / np.pi
        out = np.where(big, _hankel(order, np.where(big, v, _NODE_CAP + 1.0), True),
                       first - second)
        edge = np.where((v == 0) & (order == 1), np.nan, -np.inf)
        return np.where(v > 0, out, np.where(np.isnan(v), v, edge))
    return fn


def _scaled_back(fn, sign: int):
    """``fn(x) * exp(sign * x)`` (the unscaled K from the scaled one)."""
    return lambda v: np.where(v > 0, fn(v) * np.exp(sign * v), fn(v))


def _bessel_op(name: str, fn):
    return unary(name, lambda x: _chunked(np.asarray(x), fn), FLOATS)


BesselJ0 = _bessel_op("BesselJ0", _j(0))
BesselJ1 = _bessel_op("BesselJ1", _j(1))
BesselY0 = _bessel_op("BesselY0", _y(0))
BesselY1 = _bessel_op("BesselY1", _y(1))
BesselI0e = _bessel_op("BesselI0e", _ie(0))
BesselI1e = _bessel_op("BesselI1e", _ie(1))
BesselK0e = _bessel_op("BesselK0e", _ke(0))
BesselK1e = _bessel_op("BesselK1e", _ke(1))
BesselK0 = _bessel_op("BesselK0", _scaled_back(_ke(0), -1))
BesselK1 = _bessel_op("BesselK1", _scaled_back(_ke(1), -1))
