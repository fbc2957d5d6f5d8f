"""Batching rules of the convolution, pooling, batch-norm and optimizer primitives.

Where every example only touches its own rows (a convolution's input, pooling), the batch
folds into the N axis: one call on ``(B*N, ...)``. Otherwise (a batched filter, batch
statistics) the op runs once per example and the results are stacked.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.defs.array as A
import graphkiln.ops.defs.conv as C
import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ..primitive import REGISTRY
from .batching import NOT_BATCHED, batch_size, batched, front, move_axis, rule_for, to_front

# element-wise updates of weights the vmap transform batches on the caller's weights
# (``_Batcher.batched_update``, tests/transforms/test_vmap_weight_updates.py)
ELEMENTWISE_UPDATES = ("ApplyMomentum", "ApplyRMSProp", "ApplyAdagrad", "ApplyAdagradV2",
                       "ApplyAdaMax", "ApplyAdadelta", "ApplyAddSign", "ApplyPowerSign",
                       "ApplyGradientDescent", "ApplyProximalGradientDescent", "ApplyAdagradDA",
                       "ApplyFtrl", "ApplyProximalAdagrad", "ApplyCenteredRMSProp",
                       "ApplyAdamWithAmsgrad", "Adam")
NOT_BATCHED.update({
    name: "memory effect (an optimizer update): a vmapped function must be pure "
          "(clear error)"
    for name in ("AdamWeightDecay", "ApplyAdamWithAmsgradV2", "SGD", "FusedSparseAdam",
                 "FusedSparseLazyAdam", "FusedSparseFtrl", "FusedSparseProximalAdagrad",
                 "FusedAdaFactor", "FusedAdaFactorWithGlobalNorm")})
# row updates of weights: each example's indices address its own rows (``batch_rank``)
ROW_UPDATES = ("SparseApplyAdagrad", "SparseApplyAdagradV2", "SparseApplyFtrl")
# a row update whose learning rate is an input, before the gradient (tests/ops/test_wide_s15o7.py)
LR_ROW_UPDATES = ("SparseApplyRMSProp",)
NOT_BATCHED.update({name: "memory effect: the vmap transform writes the caller's weights "
                          "(tests/transforms/test_vmap_weight_updates.py)"
                    for name in ELEMENTWISE_UPDATES + ROW_UPDATES + LR_ROW_UPDATES})


def _update_rule(opdef):
    """Batch an element-wise weight update: the weights (``opdef.ref_inputs``) batched on
    one axis ``d`` are updated whole; every other input (a gradient, a hyper-parameter per
    example) gets the weights' rank, its batch axis at ``d`` (a unit one when unbatched) and
    its own dimensions last, so that it broadcasts as it did against each example."""
    n_refs = len(opdef.ref_inputs)

    def rule(*args, dims, **attrs):
        d = dims[0]
        if any(dims[i] != d for i in range(n_refs)):
            raise ValueError(f"For '{opdef.name}' under vmap, the weights it updates must be "
                             f"batched on one axis, but got axes {list(dims[:n_refs])}.")
        rank = args[0].ndim
        new = list(args[:n_refs])
        for a, e in zip(args[n_refs:], dims[n_refs:]):
            if not isinstance(a, Tensor) or e is None and int(np.prod(a.shape)) <= 1:
                new.append(a)  # a hyper-parameter shared by every example
                continue
            a = to_front(a, e) if e is not None else A.ExpandDims(a, 0)
            own = tuple(a.shape[1:])
            a = A.Reshape(a, (a.shape[0],) + (1,) * (rank - 1 - len(own)) + own)
            a = move_axis(a, 0, d) if d else a
            if e is None:  # shared by every example (a gradient): the weights' shape
                a = F.broadcast_to(a, tuple(args[0].shape))
            new.append(a)
        out = opdef(*new, **attrs)
        return out, (tuple(d for _ in out) if isinstance(out, tuple) else d)
    return rule


for _name in ELEMENTWISE_UPDATES:
    REGISTRY[_name].def_vmap(_update_rule(REGISTRY[_name]))


def _row_update_rule(opdef):
    """Batch a row update (``SparseApplyAdagrad``...) of weights batched on axis 0, as
    MindSpore does: the gradient rows and indices move to axis 0 (repeated when unbatched)
    and the op runs once with one more leading batch dimension (``batch_rank``)."""
    n_refs = len(opdef.ref_inputs)

    def rule(*args, dims, batch_rank=0, **attrs):
        if any(d != 0 for d in dims[:n_refs]):
            raise ValueError(f"For '{opdef.name}' under vmap, the weights it updates must be "
                             f"batched on axis 0, but got axes {list(dims[:n_refs])}.")
        size = args[0].shape[0]
        rows = tuple(front(a, d, size) for a, d in zip(args[n_refs:], dims[n_refs:]))
        out = opdef(*args[:n_refs], *rows, batch_rank=batch_rank + 1, **attrs)
        return out, tuple(0 for _ in out)
    return rule


for _name in ROW_UPDATES + LR_ROW_UPDATES:
    REGISTRY[_name].def_vmap(_row_update_rule(REGISTRY[_name]))


def per_example(opdef, args, dims, attrs):
    """``opdef`` applied to each example, results stacked on axis 0."""
    size = batch_size(args, dims)
    results = []
    for k in range(size):
        picked = [a if d is None else A.Getitem(a, (slice(None),) * d + (k,))
                  for a, d in zip(args, dims)]
        results.append(opdef(*picked, **attrs))
    if isinstance(results[0], tuple):
        outs = tuple(A.Stack(tuple(r[i] for r in results), axis=0)
                     for i in range(len(results[0])))
        return outs, (0,) * len(outs)
    return A.Stack(tuple(results), axis=0), 0


def _fold(x, d):
    """``x`` with its batch axis first and merged into N: ``((B*N, ...), B)``."""
    x = to_front(x, d)
    return A.Reshape(x, (x.shape[0] * x.shape[1],) + tuple(x.shape[2:])), x.shape[0]


def _unfold(y, size: int):
    return A.Reshape(y, (size, y.shape[0] // size) + tuple(y.shape[1:]))


def _data_only_rule(opdef, data_positions: tuple, size_position: int | None):
    """Fold the batch into N when only the inputs at ``data_positions`` are batched."""
    def rule(*args, dims, **attrs):
        if any(batched(d) for i, d in enumerate(dims) if i not in data_positions) or \
                len(data_positions) > 1 and not all(dims[i] is not None
                                                    for i in data_positions):
            return per_example(opdef, args, dims, attrs)
        size = batch_size(args, dims)
        args = list(args)
        for i in data_positions:
            args[i], _ = _fold(args[i], dims[i])
        if size_position is not None:
            s = tuple(args[size_position])
            args[size_position] = (s[0] * size,) + s[1:]
        return _unfold(opdef(*args, **attrs), size), 0
    return rule


for _fwd, _inp, _flt in ((C.Conv2D, C.Conv2DBackpropInput, C.Conv2DBackpropFilter),
                         (C.Conv3D, C.Conv3DBackpropInput, C.Conv3DBackpropFilter)):
    _fwd.def_vmap(_data_only_rule(_fwd, (0,), None))
    _inp.def_vmap(_data_only_rule(_inp, (0,), 2))
    _flt.def_vmap(lambda *args, dims, _op=_flt, **attrs: per_example(_op, args, dims, attrs))


def _pool_rule(opdef):
    def rule(*args, dims, **attrs):
        size = batch_size(args, dims)
        folded = [_fold(front(a, d, size), 0)[0] for a, d in zip(args, dims)]
        return _unfold(opdef(*folded, **attrs), size), 0
    return rule


for _name in ("MaxPool", "AvgPool", "MaxPoolGrad", "MaxPoolGradGrad", "AvgPoolGrad",
              "AdaptiveAvgPool2D", "AdaptiveAvgPool2DGrad"):
    REGISTRY[_name].def_vmap(_pool_rule(REGISTRY[_name]))


@rule_for("BatchNorm")
def _batch_norm(*args, dims, **attrs):
    return per_example(REGISTRY["BatchNorm"], args, dims, attrs)


@rule_for("StopGradient")
def _stop_gradient(x, *, dims):
    return REGISTRY["StopGradient"](x), dims[0]


def per_example_rule(name: str) -> None:
    """Batch primitive ``name`` by applying it to each example (:func:`per_example`)."""
    op = REGISTRY[name]

    @rule_for(name)
    def rule(*args, dims, **attrs):
        return per_example(op, args, dims, attrs)


for _name in ("SigmoidCrossEntropyWithLogits", "SmoothL1Loss", "L2Normalize",
              "ResizeNearestNeighbor", "ResizeNearestNeighborGrad", "BoundingBoxDecode",
              "NMSWithMask", "IOU", "BoundingBoxEncode", "CheckValid",
              "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
              "CombinedNonMaxSuppression",
              "LayerNormGradGrad", "PSROIPoolingGrad", "UniqueWithPad",
              "SparseReshape", "TraceV2Grad"):
    per_example_rule(_name)


@rule_for("BiasAdd")
def _bias_add(*args, dims, **attrs):
    return per_example(REGISTRY["BiasAdd"], args, dims, attrs)


# per example: folding the batch into N would let an index past its entry reach (read or
# write) another example
for _name in ("MaxPoolGradGradWithArgmax", "MaxPoolGradWithArgmax"):
    REGISTRY[_name].def_vmap(
        lambda *args, dims, _op=REGISTRY[_name], **attrs: per_example(_op, args, dims, attrs))
del _name


# the batch folds into N: each example's rows are resized on their own
REGISTRY["ResizeLinear1D"].def_vmap(_data_only_rule(REGISTRY["ResizeLinear1D"], (0,), None))
REGISTRY["ResizeLinear1DGrad"].def_vmap(_data_only_rule(REGISTRY["ResizeLinear1DGrad"], (0, 1),
                                                        None))
