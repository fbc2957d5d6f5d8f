"""Backward rules of the convolution, pooling, batch-norm and loss primitives.

The convolution family is closed under transposition: the input gradient of ``Conv`` is
``ConvBackpropInput``, the filter gradient ``ConvBackpropFilter``, and each of those
differentiates back into the other two; likewise ``MaxPoolGrad``/``MaxPoolGradGrad`` and
``AvgPool``/``AvgPoolGrad`` (each linear in ``dout``).
"""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.defs.conv as C
import graphkiln.ops.defs.image as IMG
import graphkiln.ops.defs.nn_losses as NL
import graphkiln.ops.defs.norm as N
import graphkiln.ops.defs.pool as P
import graphkiln.ops.defs.resize_linear_1d as RL
import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..dynamic_shape import shape_of
from .bprop import _as, _is_zero, _output, _wide, bprop, count


def _conv_rules(forward, input_grad, filter_grad):
    @bprop(forward.name)
    def _forward(x, w, out, dout, **attrs):
        return (input_grad(dout, w, tuple(shape_of(x)), **attrs),
                filter_grad(dout, x, tuple(w.shape), **attrs))

    @bprop(input_grad.name)
    def _input(dy, w, size, out, dout, **attrs):
        return (forward(dout, w, **attrs), filter_grad(dy, dout, tuple(w.shape), **attrs),
                None)

    @bprop(filter_grad.name)
    def _filter(dy, x, size, out, dout, **attrs):
        return (forward(x, dout, **attrs), input_grad(dy, dout, tuple(shape_of(x)), **attrs),
                None)


_conv_rules(C.Conv2D, C.Conv2DBackpropInput, C.Conv2DBackpropFilter)
_conv_rules(C.Conv3D, C.Conv3DBackpropInput, C.Conv3DBackpropFilter)


@bprop("MaxPool")
def _max_pool(x, out, dout, **attrs):
    return (P.MaxPoolGrad(x, out, dout, **attrs),)


@bprop("MaxPoolGrad")
def _max_pool_grad(x, out, dy, _, dout, **attrs):
    return F.zeros_like(x), F.zeros_like(out), P.MaxPoolGradGrad(x, out, dout, **attrs)


@bprop("MaxPoolGradGrad")
def _max_pool_grad_grad(x, out, g, _, dout, **attrs):
    return F.zeros_like(x), F.zeros_like(out), P.MaxPoolGrad(x, out, dout, **attrs)


def _masked_ids(idx, size: int):
    """``idx`` (int64) with the ids outside ``[0, size)`` set to 0, and the mask of the
    ones inside."""
    inside = F.logical_and(F.greater_equal(idx, 0), F.less(idx, size))
    return F.select(inside, idx, F.zeros_like(idx)), inside


@bprop("MaxPoolGradGradWithArgmax")
def _max_pool_grad_grad_argmax(x, grad, argmax, out, dout, **attrs):
    """``dout`` summed back onto the elements of ``grad`` it was read from (indices outside
    ``grad`` read nothing)."""
    plane = math.prod(x.shape[1:])
    lead = np.arange(argmax.shape[0], dtype=np.int64).reshape((-1, 1, 1, 1)) * plane
    ids, inside = _masked_ids(F.add(F.cast(argmax, mstype.int64), Tensor(lead)),
                              math.prod(grad.shape))
    picked = F.select(inside, dout, F.zeros_like(dout))
    g = F.unsorted_segment_sum(F.reshape(picked, (-1,)), F.reshape(ids, (-1,)),
                               math.prod(grad.shape))
    return F.zeros_like(x), F.reshape(g, tuple(grad.shape)), None


@bprop("MaxPoolGradWithArgmax")
def _max_pool_grad_argmax(x, grad, argmax, out, dout, **attrs):
    """Each element of ``grad`` gets ``dout`` at the flat index it was added to (nothing for
    an index outside the output)."""
    plane = math.prod(x.shape[1:])
    lead = np.arange(argmax.shape[0], dtype=np.int64).reshape((-1, 1, 1, 1)) * plane
    ids, inside = _masked_ids(F.add(F.cast(argmax, mstype.int64), Tensor(lead)),
                              math.prod(x.shape))
    picked = F.reshape(F.gather(F.reshape(dout, (-1,)), F.reshape(ids, (-1,)), 0),
                       tuple(argmax.shape))
    return F.zeros_like(x), F.select(inside, picked, F.zeros_like(picked)), None


@bprop("ResizeLinear1D")
def _resize_linear_1d(x, size, out, dout, **attrs):
    return RL.ResizeLinear1DGrad(dout, x, **attrs), None


@bprop("ResizeLinear1DGrad")
def _resize_linear_1d_grad(grads, x, out, dout, **attrs):
    """Linear in ``grads``: its adjoint is the forward resize to ``grads``' width."""
    return RL.ResizeLinear1D(dout, (shape_of(grads)[2],), **attrs), F.zeros_like(x)


@bprop("AvgPool")
def _avg_pool(x, out, dout, **attrs):
    return (P.AvgPoolGrad(x, out, dout, **attrs),)


@bprop("AdaptiveAvgPool2D")
def _adaptive_avg_pool(x, out, dout, **attrs):
    return (P.AdaptiveAvgPool2DGrad(x, dout, **attrs),)


@bprop("AdaptiveAvgPool2DGrad")
def _adaptive_avg_pool_grad(x, dy, out, dout, **attrs):
    return F.zeros_like(x), P.AdaptiveAvgPool2D(dout, **attrs)


@bprop("AvgPoolGrad")
def _avg_pool_grad(x, out, dy, _, dout, **attrs):
    return F.zeros_like(x), F.zeros_like(out), P.AvgPool(dout, **attrs)


def _channel(v, ndim: int):
    """A per-channel vector shaped to broadcast over NC... inputs."""
    return F.reshape(v, (1, -1) + (1,) * (ndim - 2))


@bprop("BatchNorm")
def _batch_norm(x, scale, bias, mean, variance, out, dout, **attrs):
    a = {**N.BN_ATTRS, **attrs}
    nd = x.ndim
    axes = N.stat_axes(nd)
    t = mstype.float64 if x.dtype is mstype.float64 else mstype.float32
    w = F.cast(x, t)
    dy = F.cast(dout[0], t)
    sc = _channel(F.cast(scale, t), nd)
    dmean = [F.cast(d, t) for d in (dout[1], dout[3]) if not _is_zero(d)]
    dvar = [F.cast(d, t) for d in (dout[2], dout[4]) if not _is_zero(d)]
    if a["is_training"]:
        dx, dscale, dbias = _batch_norm_training(w, dy, sc, dmean, dvar, out, a["epsilon"])
        return (_as(dx, x), _as(dscale, scale), _as(dbias, bias), F.zeros_like(mean),
                F.zeros_like(variance))
    mu = _channel(F.cast(mean, t), nd)
    v = F.add(_channel(F.cast(variance, t), nd), a["epsilon"])
    inv = F.rsqrt(v)
    xc = F.sub(w, mu)
    sum_dy = F.reduce_sum(dy, axes, False)
    sum_dy_xc = F.reduce_sum(F.mul(dy, xc), axes, False)
    flat_inv = F.reshape(inv, (-1,))
    sc_flat = F.cast(scale, t)
    dx = F.mul(dy, F.mul(sc, inv))
    dscale = F.mul(sum_dy_xc, flat_inv)
    dm = F.neg(F.mul(sum_dy, F.mul(sc_flat, flat_inv)))
    dv = F.mul(F.mul(sum_dy_xc, sc_flat), F.mul(F.mul(flat_inv, flat_inv), flat_inv))
    dv = F.mul(dv, -0.5)
    for d in dmean:
        dm = F.add(dm, d)
    for d in dvar:
        dv = F.add(dv, d)
    return (_as(dx, x), _as(dscale, scale), _as(sum_dy, bias), _as(dm, mean),
            _as(dv, variance))


def _batch_norm_training(w, dy, sc, dmean, dvar, out, eps):
    """``(dx, dscale, dbias)`` in training, in the compute dtype of ``w`` (the input):
    ``dx = k1*dy + k2*(x - mean) + k3`` with per-channel ``k``, so two reductions and four
    passes over the input. The batch statistics are the forward's outputs when they are kept
    in the compute dtype (else recomputed)."""
    nd, t = w.ndim, w.dtype
    axes = N.stat_axes(nd)
    m = count(w, axes)  # a run-time int under dynamic shapes
    m1 = max(m - 1, 1) if isinstance(m, int) else m - 1
    if out[1].dtype is t:
        mu = _channel(out[1], nd)
        var = _channel(F.mul(out[2], m1 / m), nd)  # the forward's is unbiased
        xc = F.sub(w, mu)
    else:
        xc = F.sub(w, F.reduce_mean(w, axes, True))
        var = F.reduce_mean(F.mul(xc, xc), axes, True)
    inv = F.rsqrt(F.add(var, eps))
    sum_dy = F.reduce_sum(dy, axes, True)
    sum_dy_xhat = F.mul(F.reduce_sum(F.mul(dy, xc), axes, True), inv)
    k1 = F.mul(sc, inv)
    k2 = F.neg(F.mul(F.mul(k1, inv), F.div(sum_dy_xhat, m)))
    k3 = F.neg(F.mul(k1, F.div(sum_dy, m)))
    for d in dmean:
        k3 = F.add(k3, F.div(_channel(d, nd), m))
    for d in dvar:
        k2 = F.add(k2, F.mul(_channel(d, nd), 2.0 / m1))
    dx = F.add(F.add(F.mul(dy, k1), F.mul(xc, k2)), k3)
    return dx, F.reshape(sum_dy_xhat, (-1,)), F.reshape(sum_dy, (-1,))


@bprop("SigmoidCrossEntropyWithLogits")
def _sigmoid_ce(logits, label, out, dout):
    # as MindSpore: the label gets a zero cotangent
    return (_as(F.mul(F.sub(F.sigmoid(logits), label), dout), logits), F.zeros_like(label))


@bprop("SoftmaxCrossEntropyWithLogits")
def _softmax_ce(logits, labels, out, dout):
    # as MindSpore: the loss's cotangent scales the backprop output; labels get zeros
    backprop = _output(out, 1, lambda: NL.SoftmaxCrossEntropyWithLogits(logits, labels))
    return (_as(F.mul(backprop, F.expand_dims(dout[0], 1)), logits), F.zeros_like(labels))


@bprop("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_ce(logits, labels, out, dout, is_grad=False, sens=1.0):
    # as MindSpore: the gradient kernel (is_grad) scaled by the loss's cotangent
    if not is_grad:
        grad = NL.SparseSoftmaxCrossEntropyWithLogits(logits, labels, is_grad=True, sens=sens)
        return _as(F.mul(grad, dout), logits), F.zeros_like(labels)
    # of the gradient (softmax - one_hot) * c: the softmax's Jacobian, p * (g - sum(p * g))
    p = F.softmax(_wide(logits), -1)
    examples = math.prod(logits.shape[:-1]) or 1
    inner = F.reduce_sum(F.mul(p, dout), -1, True)
    dx = F.mul(F.mul(p, F.sub(dout, inner)), float(sens) / examples)
    return _as(dx, logits), F.zeros_like(labels)


@bprop("SmoothL1Loss")
def _smooth_l1(logits, labels, out, dout, beta=1.0, reduction="none"):
    slope = F.minimum(F.maximum(F.div(F.sub(logits, labels), beta), -1.0), 1.0)
    g = F.mul(slope, dout)
    if reduction == "mean":
        g = F.div(g, float(math.prod(logits.shape)))
    return _as(g, logits), _as(F.neg(g), labels)


@bprop("L2Normalize")
def _l2_normalize(x, out, dout, axis=0, epsilon=1e-4):
    # MindSpore's rule: (dout - y * sum(y * dout)) / max(||x||, epsilon), which is the
    # derivative wherever ||x||**2 >= epsilon
    axes = NL.l2_axes(axis, x.ndim)
    inner = F.reduce_sum(F.mul(out, dout), axes, True)
    norm = F.maximum(F.sqrt(F.reduce_sum(F.mul(x, x), axes, True)), float(epsilon))
    return (_as(F.div(F.sub(dout, F.mul(out, inner)), norm), x),)


@bprop("ResizeNearestNeighbor")
def _resize_nearest(x, out, dout, size=None, align_corners=False, half_pixel_centers=False):
    return (_as(IMG.ResizeNearestNeighborGrad(dout, x, align_corners=align_corners,
                                              half_pixel_centers=half_pixel_centers), x),)


@bprop("ResizeNearestNeighborGrad")
def _resize_nearest_grad(dout, x, out, ddx, align_corners=False, half_pixel_centers=False):
    size = tuple(dout.shape[2:])
    return IMG.ResizeNearestNeighbor(ddx, size=size, align_corners=align_corners,
                                     half_pixel_centers=half_pixel_centers), None
