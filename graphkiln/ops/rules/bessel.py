"""Backward and batching rules of the Bessel functions of :mod:`..defs.bessel` beyond
``BesselI0``/``BesselI1``: each derivative is a combination of the same family (``J0' =
-J1``, ``J1' = J0 - J1/x``, ``K1' = -K0 - K1/x``, the scaled ones adding the scale's
derivative); ``J1/x`` and ``I1e/x`` are taken as their limit 1/2 at 0."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from ..defs import bessel as B
from .batching import _elementwise
from .bprop import _unary


def _over_x(v, x, at_zero: float):
    """``v / x``, ``at_zero`` where ``x`` is 0."""
    zero = F.equal(x, 0)
    return F.select(zero, F.fill(x.dtype, x.shape, at_zero),
                    F.div(v, F.select(zero, F.ones_like(x), x)))


@_unary("BesselJ0", wide=True)
def _j0(x, out):
    return F.neg(B.BesselJ1(x))


@_unary("BesselJ1", wide=True)
def _j1(x, out):
    return F.sub(B.BesselJ0(x), _over_x(out, x, 0.5))


@_unary("BesselY0", wide=True)
def _y0(x, out):
    return F.neg(B.BesselY1(x))


@_unary("BesselY1", wide=True)
def _y1(x, out):
    return F.sub(B.BesselY0(x), F.div(out, x))


@_unary("BesselK0", wide=True)
def _k0(x, out):
    return F.neg(B.BesselK1(x))


@_unary("BesselK1", wide=True)
def _k1(x, out):
    return F.neg(F.add(B.BesselK0(x), F.div(out, x)))


@_unary("BesselK0e", wide=True)
def _k0e(x, out):
    return F.sub(out, B.BesselK1e(x))


@_unary("BesselK1e", wide=True)
def _k1e(x, out):
    return F.sub(F.sub(out, F.div(out, x)), B.BesselK0e(x))


@_unary("BesselI0e", wide=True)
def _i0e(x, out):
    return F.sub(B.BesselI1e(x), F.mul(F.sign(x), out))


@_unary("BesselI1e", wide=True)
def _i1e(x, out):
    return F.sub(F.sub(B.BesselI0e(x), F.mul(F.sign(x), out)), _over_x(out, x, 0.5))


for _name in ("BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "BesselK0", "BesselK1",
              "BesselK0e", "BesselK1e", "BesselI0e", "BesselI1e"):
    REGISTRY[_name].def_vmap(_elementwise(REGISTRY[_name]))
del _name
