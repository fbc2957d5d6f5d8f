"""MindSpore's backward kernels that user code calls directly and graphkiln composes of its
primitives (``_grad_ops.StridedSliceGrad``, ``LayerNormGrad``, ``BatchNormGrad``,
``PReLUGrad``): the call traces the parts, so their own gradients and vmap come from the
parts' rules. (``SqrtGrad`` and the other element-wise
backward kernels are primitives: ``ops/defs/elementwise.py``.)"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.distance as DI
import graphkiln.ops.functional as F
import graphkiln.ops.interpolation as IP
import graphkiln.ops.nn_functions as NF

from ..common.tensor import Tensor
from ..ir.primitive import REGISTRY
from .composed_primitives import _Composed
from .defs.array import strided_index
from .defs.grad_ops import GetitemGrad
from .interpolation import upsample_nearest_grad

__all__ = ["StridedSliceGrad", "LayerNormGrad", "BatchNormGrad", "PReLUGrad", "SoftmaxBackward",
           "SigmoidCrossEntropyWithLogitsGrad", "CdistGrad",
           "UpsampleTrilinear3DGrad", "UpsampleNearest1DGrad", "UpsampleNearest2DGrad",
           "UpsampleNearest3DGrad", "LRNGrad"]


class StridedSliceGrad(_Composed):
    """``(dy, shapex, begin, end, strides) ->`` zeros of ``shapex`` holding ``dy`` where
    ``StridedSlice(begin, end, strides)`` (with the same masks) reads them."""

    def __init__(self, begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0,
                 new_axis_mask: int = 0, shrink_axis_mask: int = 0):
        self.masks = {"begin_mask": begin_mask, "end_mask": end_mask,
                      "ellipsis_mask": ellipsis_mask, "new_axis_mask": new_axis_mask,
                      "shrink_axis_mask": shrink_axis_mask}

    def __call__(self, dy: Tensor, shapex, begin, end, strides) -> Tensor:
        shape = tuple(int(d) for d in shapex)
        index = strided_index(begin, end, strides, **self.masks)
        want = np.broadcast_to(np.empty((), np.bool_), shape)[index].shape
        if tuple(dy.shape) != want and -1 not in tuple(dy.shape) and \
                int(np.prod(dy.shape)) == int(np.prod(want)):
            dy = F.reshape(dy, want)  # (MindSpore's kernel reads dy's elements in order)
        return GetitemGrad(dy, index, shape=shape)


class LayerNormGrad(_Composed):
    """``(x, dy, variance, mean, gamma) -> (dx, dgamma, dbeta)``: the backward of
    ``LayerNorm(begin_norm_axis, begin_params_axis)`` at the given statistics (epsilon
    1e-12, as MindSpore's kernel); ``dgamma`` and ``dbeta`` have ``gamma``'s shape."""

    EPSILON = 1e-12

    def __init__(self, begin_norm_axis: int = 1, begin_params_axis: int = 1):
        for name, v in (("begin_norm_axis", begin_norm_axis),
                        ("begin_params_axis", begin_params_axis)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For 'LayerNormGrad', the '{name}' must be an int, but got "
                                f"{type(v).__name__}.")
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis

    def __call__(self, x: Tensor, dy: Tensor, variance: Tensor, mean: Tensor, gamma: Tensor):
        nd = x.ndim
        for name, v in (("begin_norm_axis", self.begin_norm_axis),
                        ("begin_params_axis", self.begin_params_axis)):
            if not -nd <= v < nd:
                raise ValueError(f"For 'LayerNormGrad', the '{name}' must be in [{-nd}, {nd}), "
                                 f"but got {v}.")
        norm_axes = tuple(range(self.begin_norm_axis % nd, nd))
        param_axes = tuple(range(self.begin_params_axis % nd))
        xc = F.sub(x, mean)
        rstd = F.rsqrt(F.add(variance, self.EPSILON))
        dxhat = F.mul(dy, gamma)
        # the terms of MindSpore's kernel, which hold for any given mean and variance, as
        # means over the normalised axes (their size may be known only when the graph runs)
        m_var = F.reduce_mean(F.mul(F.mul(dxhat, xc), F.mul(F.mul(rstd, rstd), rstd)),
                              norm_axes, True) * -0.5
        m_dy = F.reduce_mean(dxhat, norm_axes, True)
        m_xc = F.reduce_mean(xc, norm_axes, True) * -2.0
        dx = F.add(F.add(F.mul(dxhat, rstd), F.mul(m_var, xc) * 2.0),
                   F.add(F.mul(F.neg(rstd), m_dy), F.mul(m_var, m_xc)))
        dgamma = F.mul(dy, F.mul(xc, rstd))
        if not param_axes:  # (an empty axis tuple would sum over every axis)
            return dx, dgamma, dy
        return dx, F.reduce_sum(dgamma, param_axes, False), F.reduce_sum(dy, param_axes, False)


class BatchNormGrad(_Composed):
    """``(dout, x, scale, saved_mean, saved_variance, reserve) -> (dx, dscale, dbias)``:
    ``BatchNorm``'s backward (NCHW...) with the statistics given; in training ``dx`` also
    goes through the batch statistics, in inference only through ``x``."""

    def __init__(self, is_training: bool = False, epsilon: float = 1e-5,
                 data_format: str = "NCHW"):
        if data_format not in ("NCHW", "NCDHW"):
            raise ValueError(f"For 'BatchNormGrad', graphkiln supports the data_format 'NCHW' "
                             f"on the CPU, but got {data_format!r}.")
        self.is_training = bool(is_training)
        self.epsilon = float(epsilon)

    def __call__(self, dout: Tensor, x: Tensor, scale: Tensor, saved_mean: Tensor,
                 saved_variance: Tensor, reserve=None) -> tuple:
        view = (1, -1) + (1,) * (x.ndim - 2)
        axes = tuple(a for a in range(x.ndim) if a != 1)
        rstd = F.reshape(F.rsqrt(F.add(saved_variance, self.epsilon)), view)
        xhat = F.mul(F.sub(x, F.reshape(saved_mean, view)), rstd)
        dbias = F.reduce_sum(dout, axes, False)
        dscale = F.reduce_sum(F.mul(dout, xhat), axes, False)
        k = F.mul(F.reshape(scale, view), rstd)
        if not self.is_training:
            return F.mul(dout, k), dscale, dbias
        centred = F.sub(dout, F.reduce_mean(dout, axes, True))
        spread = F.mul(xhat, F.reduce_mean(F.mul(dout, xhat), axes, True))
        return F.mul(k, F.sub(centred, spread)), dscale, dbias


class PReLUGrad(_Composed):
    """``(dy, x, weight) -> (dx, dweight)``: ``PReLU``'s backward."""

    def __call__(self, dy: Tensor, x: Tensor, weight: Tensor) -> tuple:
        return tuple(REGISTRY["PReLU"].bprop(x, weight, None, dy))


class SoftmaxBackward(_Composed):
    """``(dout, out, dim=-1) -> out * (dout - sum(dout * out, dim))``: ``Softmax``'s backward
    from its output (MindSpore 2.10 has no CPU kernel for it outside a graph; graphkiln runs
    it in both modes)."""

    def __call__(self, dout: Tensor, out: Tensor, dim: int = -1) -> Tensor:
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise TypeError(f"For 'SoftmaxBackward', the 'dim' must be an int, but got "
                            f"{type(dim).__name__}.")
        for name, a in (("dout", dout), ("out", out)):
            if not isinstance(a, Tensor):
                raise TypeError(f"For 'SoftmaxBackward', the '{name}' must be a Tensor, but "
                                f"got {type(a).__name__}.")
        if out.ndim and not -out.ndim <= dim < out.ndim:
            raise ValueError(f"For 'SoftmaxBackward', the 'dim' must be in [{-out.ndim}, "
                             f"{out.ndim}), but got {dim}.")
        return REGISTRY["Softmax"].bprop(out, out, dout, axis=dim)[0]


class SigmoidCrossEntropyWithLogitsGrad(_Composed):
    """``(logits, label, dout) -> (sigmoid(logits) - label) * dout``: the backward of
    ``SigmoidCrossEntropyWithLogits`` with respect to ``logits``."""

    def __call__(self, logits: Tensor, label: Tensor, dout: Tensor) -> Tensor:
        for name, a in (("logits", logits), ("label", label), ("dout", dout)):
            if not isinstance(a, Tensor):
                raise TypeError(f"For 'SigmoidCrossEntropyWithLogitsGrad', the '{name}' must "
                                f"be a Tensor, but got {type(a).__name__}.")
            if tuple(a.shape) != tuple(logits.shape):
                raise ValueError(f"For 'SigmoidCrossEntropyWithLogitsGrad', the shape of "
                                 f"'{name}' must be the same as 'logits' "
                                 f"{list(logits.shape)}, but got {list(a.shape)}.")
            if a.dtype != logits.dtype:
                raise TypeError(f"For 'SigmoidCrossEntropyWithLogitsGrad', the inputs must "
                                f"have one dtype, but 'logits' is {logits.dtype} and "
                                f"'{name}' is {a.dtype}.")
        return REGISTRY["SigmoidCrossEntropyWithLogits"].bprop(logits, label, None, dout)[0]


class CdistGrad(_Composed):
    """``(grad, x1, x2, dist) -> dx1``: the backward of ``Cdist(p)`` with respect to ``x1``
    (see ``ops.distance.cdist_grad``)."""

    def __init__(self, p: float = 2.0):
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise TypeError(f"For 'CdistGrad', the 'p' must be a float, but got "
                            f"{type(p).__name__}.")
        self.p = float(p)

    def __call__(self, grad: Tensor, x1: Tensor, x2: Tensor, dist: Tensor) -> Tensor:
        return DI.cdist_grad(grad, x1, x2, dist, self.p)


class UpsampleTrilinear3DGrad(_Composed):
    """``(dy, input_size, output_size=None, scales=None) -> dx``: the backward of
    ``UpsampleTrilinear3D(align_corners)`` from an input of shape ``input_size`` (NCDHW) to
    ``dy``'s shape; ``scales`` (output over input per axis) as the forward's."""

    def __init__(self, align_corners: bool = False):
        self.align_corners = align_corners

    def __call__(self, dy: Tensor, input_size, output_size=None, scales=None) -> Tensor:
        if len(tuple(input_size)) != 5 or dy.ndim != 5:
            raise ValueError(f"For 'UpsampleTrilinear3DGrad', 'dy' and 'input_size' must be "
                             f"5-D, but got {dy.ndim}-D and {list(input_size)}.")
        ratios = None if scales is None else [1.0 / float(f) for f in scales]
        return IP.resize_adjoint(dy, tuple(input_size), ratios, "trilinear", self.align_corners)


class _UpsampleNearestGrad(_Composed):
    """``(dy, input_size, output_size=None, scales=None) ->`` the gradient of nearest
    resizing to ``dy``'s shape, of ``input_size`` (see ``interpolation.upsample_nearest_grad``)."""

    RANK = 0

    def __call__(self, dy: Tensor, input_size, output_size=None, scales=None) -> Tensor:
        if dy.ndim != self.RANK + 2 or len(tuple(input_size)) != self.RANK + 2:
            raise ValueError(f"For '{type(self).__name__}', 'dy' and 'input_size' must be "
                             f"{self.RANK + 2}-D, but got {dy.ndim} and {len(input_size)}.")
        return upsample_nearest_grad(dy, input_size, output_size, scales)


class UpsampleNearest1DGrad(_UpsampleNearestGrad):
    RANK = 1


class UpsampleNearest2DGrad(_UpsampleNearestGrad):
    RANK = 2


class UpsampleNearest3DGrad(_UpsampleNearestGrad):
    RANK = 3


class LRNGrad(_Composed):
    """``(grads, x, y) ->`` the gradient of ``LRN(depth_radius, bias, alpha, beta)`` at
    ``x``; ``y`` (the forward output) is not read: the normalisation is recomputed from
    ``x``, as MindSpore's CPU kernel does."""

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
                 beta: float = 0.5):
        for name, v, kind in (("depth_radius", depth_radius, int), ("bias", bias, float),
                              ("alpha", alpha, float), ("beta", beta, float)):
            if isinstance(v, bool) or not isinstance(v, kind):
                raise TypeError(f"For 'LRNGrad', the type of '{name}' should be "
                                f"'{kind.__name__}', but got '{v}' with type "
                                f"'{type(v).__name__}'.")
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta

    def __call__(self, grads: Tensor, x: Tensor, y: Tensor) -> Tensor:
        return NF.lrn_grad(grads, x, self.depth_radius, self.bias, self.alpha, self.beta)
