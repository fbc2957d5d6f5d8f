"""Backward and batching rules of the 3-D pooling primitives (:mod:`..defs.pool3d`): each
gradient op is the adjoint of its forward op in ``dout``; a batch folds into N. The argmax
pools (:mod:`..defs.pool_argmax`) scatter ``dout`` to the maxima; MaxPoolGradWithArgmaxV2,
linear in its ``grad``, gathers ``dout`` back from them."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...common.tensor import Tensor
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


@bprop("MaxPoolGradWithArgmaxV2")
def _max_pool_grad_argmax_v2(x, grad, argmax, out, dout, **attrs):
    """Linear in ``grad``: each element of ``grad`` gets ``dout`` at the position it was
    added to (nothing where its index left its window)."""
    kernel, stride, pads, dilation = PA.v2_geometry({**PA.MaxPoolGradWithArgmaxV2.attrs,
                                                     **attrs})
    n, c, h, w = x.shape
    idx = F.cast(argmax, mstype.int64)
    inside = F.logical_and(F.greater_equal(idx, 0), F.less(idx, h * w))
    for axis, (pos, k, s, p, d) in enumerate(zip(
            (F.floor_div(idx, w), F.sub(idx, F.mul(F.floor_div(idx, w), w))),
            kernel, stride, pads, dilation)):
        start = (np.arange(argmax.shape[2 + axis]) * s - p).reshape(
            (-1, 1) if axis == 0 else (-1,))
        inside = F.logical_and(inside, F.logical_and(
            F.greater_equal(pos, Tensor(start)), F.less_equal(pos, Tensor(start + (k - 1) * d))))
    lead = Tensor((np.arange(n * c, dtype=np.int64) * (h * w)).reshape(n, c, 1, 1))
    ids = F.select(inside, F.add(idx, lead), F.zeros_like(idx))
    picked = F.reshape(F.gather(F.reshape(dout, (-1,)), F.reshape(ids, (-1,)), 0),
                       tuple(argmax.shape))
    dgrad = F.cast(F.select(inside, picked, F.zeros_like(picked)), grad.dtype)
    return F.zeros_like(x), dgrad, None


PA.MaxPoolGradWithArgmaxV2.def_vmap(_pool_rule(PA.MaxPoolGradWithArgmaxV2))


for _op in (P3.MaxPool3D, P3.MaxPool3DGrad, P3.MaxPool3DGradGrad, P3.AvgPool3D,
            P3.AvgPool3DGrad):
    _op.def_vmap(_pool_rule(_op))
del _op
