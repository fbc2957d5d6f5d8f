"""Backward and batching rules of the 3-D pooling primitives (:mod:`..defs.pool3d`): each
gradient op is the adjoint of its forward op in ``dout``; a batch folds into N."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import pool3d as P3
from .batching_nn import _pool_rule
from .bprop import bprop


@bprop("MaxPool3D")
def _max_pool3d(x, out, dout, **attrs):
    return (P3.MaxPool3DGrad(x, out, dout, **attrs),)


@bprop("MaxPool3DGrad")
def _max_pool3d_grad(x, y, dy, _, dout, **attrs):
    return F.zeros_like(x), F.zeros_like(y), P3.MaxPool3DGradGrad(x, y, dout, **attrs)


@bprop("MaxPool3DGradGrad")
def _max_pool3d_grad_grad(x, y, g, _, dout, **attrs):
    return F.zeros_like(x), F.zeros_like(y), P3.MaxPool3DGrad(x, y, dout, **attrs)


@bprop("AvgPool3D")
def _avg_pool3d(x, out, dout, **attrs):
    return (P3.AvgPool3DGrad(x, out, dout, **attrs),)


@bprop("AvgPool3DGrad")
def _avg_pool3d_grad(x, y, dy, _, dout, **attrs):
    return F.zeros_like(x), F.zeros_like(y), P3.AvgPool3D(dout, **attrs)


for _op in (P3.MaxPool3D, P3.MaxPool3DGrad, P3.MaxPool3DGradGrad, P3.AvgPool3D,
            P3.AvgPool3DGrad):
    _op.def_vmap(_pool_rule(_op))
del _op
