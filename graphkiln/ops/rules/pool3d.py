"""Backward and batching rules of the 3-D pooling primitives (:mod:`..defs.pool3d`): each
gradient op is the adjoint of its forward op in ``dout``; a batch folds into N. The argmax
pools (:mod:`..defs.pool_argmax`) scatter ``dout`` to the maxima."""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ..defs import pool3d as P3
from ..defs import pool_argmax as PA
from ..defs.scatter_elements import TensorScatterElements
from .batching_nn import _pool_rule, per_example_rule
from .bprop import _output, bprop


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


def _argmax_rule(opdef):
    @bprop(opdef.name)
    def rule(x, out, dout, **attrs):
        """``dout`` added at each maximum's flat index (TensorScatterElements)."""
        index = _output(out, 1, lambda: opdef(x, **attrs))
        n, c = x.shape[:2]
        flat = (n, c, -1)
        dx = TensorScatterElements(F.zeros((n, c, math.prod(x.shape[2:])), x.dtype),
                                   F.reshape(index, flat), F.reshape(dout[0], flat), axis=2,
                                   reduction="add")
        return (F.reshape(dx, x.shape),)
    per_example_rule(opdef.name)


_argmax_rule(PA.MaxPoolWithArgmaxV2)
_argmax_rule(PA.MaxPool3DWithArgmax)


for _op in (P3.MaxPool3D, P3.MaxPool3DGrad, P3.MaxPool3DGradGrad, P3.AvgPool3D,
            P3.AvgPool3DGrad):
    _op.def_vmap(_pool_rule(_op))
del _op
