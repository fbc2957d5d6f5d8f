"""Backward and batching rules of :mod:`..defs.fractional_pool` and
:mod:`..defs.fractional_max_pool`."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..defs import fractional_max_pool as FMP
from ..defs import fractional_pool as FP
from ..dynamic_shape import shape_of
from .batching_nn import per_example_rule
from .bprop import _output, bprop


def _rule(name: str, grad_op) -> None:
    @bprop(name)
    def rule(x, samples, out, dout, data_format=None, **attrs):
        argmax = _output(out, 1, lambda: getattr(FP, name)(x, samples, **attrs))
        return grad_op(x, dout[0], argmax), None


def _grad_rule(name: str, k: int) -> None:
    @bprop(name)
    def rule(origin, dout_in, argmax, out, dout, data_format=None):
        """Linear in ``out_backprop``: its cotangent reads ``dout`` at each argmax."""
        lead = len(argmax.shape) - k
        flat = F.reshape(dout, shape_of(dout)[:lead] + (-1,))
        index = F.reshape(F.cast(argmax, mstype.int64), shape_of(argmax)[:lead] + (-1,))
        picked = F.gather_elements(flat, lead, index)
        return None, F.reshape(picked, shape_of(dout_in)), None


_grad_rule("FractionalMaxPoolGradWithFixedKsize", 2)
_grad_rule("FractionalMaxPool3DGradWithFixedKsize", 3)
_rule("FractionalMaxPoolWithFixedKsize", FP.FractionalMaxPoolGradWithFixedKsize)
_rule("FractionalMaxPool3DWithFixedKsize", FP.FractionalMaxPool3DGradWithFixedKsize)


@bprop("FractionalMaxPool")
def _fractional_max_pool(x, out, dout, overlapping=False, **attrs):
    """``dout[0]`` at the first maximum of each region (the regions the forward drew)."""
    return (FMP.FractionalMaxPoolGrad(x, out[0], dout[0], out[1], out[2],
                                      overlapping=overlapping),)


@bprop("FractionalMaxPoolGrad")
def _fractional_max_pool_grad(x, y, dy, rows, cols, out, dout, overlapping=False):
    """Linear in ``out_backprop``: its cotangent reads ``dout`` at each region's maximum."""
    n, h, w, c = shape_of(x)
    where = FMP.FractionalMaxPoolArgmax(x, rows, cols, overlapping=overlapping)
    picked = F.gather_elements(F.reshape(dout, (n, h * w, c)), 1, F.reshape(where, (n, -1, c)))
    return None, None, F.reshape(picked, shape_of(dy)), None, None


@bprop("FractionalAvgPool")
def _fractional_avg_pool(x, out, dout, overlapping=False, **attrs):
    """``dout[0]`` spread evenly over each region (the regions the forward drew)."""
    shape = F.dyn_shape(x) if any(d < 0 for d in x.shape) else \
        Tensor(np.array(x.shape, np.int64))
    return (FMP.FractionalAvgPoolGrad(shape, dout[0], out[1], out[2],
                                      overlapping=overlapping),)


def _membership(seq: Tensor, size: int, overlapping: bool) -> Tensor:
    """``(regions, size)`` float32: 1 where a position lies in a region, else 0."""
    pos = F.reshape(F.range(0, size, 1), (1, -1))
    lo, hi = F.expand_dims(seq[:-1], 1), F.expand_dims(seq[1:], 1)
    inside = F.logical_and(F.greater_equal(pos, lo),
                           F.less(pos, F.add(hi, 1) if overlapping else hi))
    return F.cast(inside, mstype.float32)


@bprop("FractionalAvgPoolGrad")
def _fractional_avg_pool_grad(shape, dy, rows, cols, out, dout, overlapping=False):
    """Linear in ``out_backprop``: its cotangent is the mean of ``dout`` over each region."""
    _, h, w, _ = out.shape if all(d >= 0 for d in out.shape) else shape_of(dout)
    r, c = _membership(rows, h, overlapping), _membership(cols, w, overlapping)
    g = F.transpose(F.cast(dout, mstype.float32), (0, 3, 1, 2))  # (N, C, H, W)
    sums = F.matmul(F.matmul(r, g), F.transpose(c, (1, 0)))  # (N, C, rows, cols)
    counts = F.mul(F.expand_dims(F.reduce_sum(r, 1), 1), F.expand_dims(F.reduce_sum(c, 1), 0))
    mean = F.transpose(F.div(sums, counts), (0, 2, 3, 1))
    return None, F.cast(mean, dy.dtype), None, None


for _name in ("FractionalMaxPoolWithFixedKsize", "FractionalMaxPool3DWithFixedKsize",
              "FractionalMaxPoolGradWithFixedKsize", "FractionalMaxPool3DGradWithFixedKsize",
              "FractionalMaxPool", "FractionalMaxPoolGrad", "FractionalMaxPoolArgmax",
              "FractionalAvgPool", "FractionalAvgPoolGrad"):
    per_example_rule(_name)
del _name
