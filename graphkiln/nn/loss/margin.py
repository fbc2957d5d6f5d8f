"""Margin losses of MindSpore's ``nn``: ``SoftMarginLoss``, ``MultiMarginLoss``,
``MultilabelMarginLoss``, ``TripletMarginLoss`` and ``TripletMarginWithDistanceLoss``,
composed from element-wise ops and masks so they trace into graphs and differentiate."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.tensor import Tensor
from .loss import LossBase


def _check_tensor(owner: str, name: str, value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")


def _check_float(owner: str, name: str, x) -> None:
    _check_tensor(owner, name, x)
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For '{owner}', the '{name}' must be a float16, float32 or float64 "
                        f"Tensor, but got {x.dtype}.")


def _check_same_shape(owner: str, a: str, x, b: str, y) -> None:
    if tuple(x.shape) != tuple(y.shape):
        raise ValueError(f"For '{owner}', the shape of '{b}' must be the shape of '{a}' "
                         f"{tuple(x.shape)}, but got {tuple(y.shape)}.")


class SoftMarginLoss(LossBase):
    """``log(1 + exp(-labels * logits))``, reduced."""

    def construct(self, logits, labels):
        _check_float("SoftMarginLoss", "logits", logits)
        _check_tensor("SoftMarginLoss", "labels", labels)
        _check_same_shape("SoftMarginLoss", "logits", logits, "labels", labels)
        labels = ops.cast(labels, logits.dtype)
        return self.get_loss(ops.softplus(ops.neg(ops.mul(labels, logits))))


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss of ``(N, C)`` scores and ``(N,)`` int64 targets:
    ``sum_{j != y} w[y] * max(0, margin - x[y] + x[j]) ** p / C`` per sample."""

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean",
                 weight=None):
        super().__init__(reduction)
        if p not in (1, 2) or isinstance(p, bool):
            raise ValueError(f"For 'MultiMarginLoss', the 'p' must be 1 or 2, but got {p}.")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)):
            raise TypeError(f"For 'MultiMarginLoss', the 'margin' must be float, but got "
                            f"{type(margin).__name__}.")
        if weight is not None:
            _check_tensor("MultiMarginLoss", "weight", weight)
        self.p, self.margin, self.weight = p, float(margin), weight

    def construct(self, x, target, weight=None):
        _check_float("MultiMarginLoss", "x", x)
        _check_tensor("MultiMarginLoss", "target", target)
        if x.ndim != 2 or target.ndim != 1 or target.shape[0] != x.shape[0]:
            raise ValueError(f"For 'MultiMarginLoss', 'x' must be (N, C) and 'target' (N,), "
                             f"but got {tuple(x.shape)} and {tuple(target.shape)}.")
        if target.dtype != mstype.int64:
            raise TypeError(f"For 'MultiMarginLoss', the 'target' must be an int64 Tensor, but "
                            f"got {target.dtype}.")
        weight = self.weight if self.weight is not None else weight
        classes = x.shape[1]
        target = ops.cast(target, mstype.int32)
        picked = ops.gather_elements(x, 1, ops.expand_dims(target, 1))
        hinge = ops.relu(ops.add(ops.sub(x, picked), self.margin))
        if self.p == 2:
            hinge = ops.mul(hinge, hinge)
        others = ops.sub(1.0, ops.one_hot(target, classes, Tensor(1.0, x.dtype),
                                          Tensor(0.0, x.dtype)))
        loss = ops.mul(hinge, others)
        if weight is not None:
            loss = ops.mul(loss, ops.expand_dims(ops.gather(ops.cast(weight, x.dtype), target,
                                                            0), 1))
        return self.get_loss(ops.div(ops.reduce_sum(loss, 1), float(classes)))


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss: ``target`` (int32, shaped like ``x``) lists each sample's
    classes, ended by -1; per sample ``sum_{j in targets, k not in targets}
    max(0, 1 - (x[j] - x[k])) / C``."""

    def construct(self, x, target):
        _check_float("MultilabelMarginLoss", "x", x)
        _check_tensor("MultilabelMarginLoss", "target", target)
        if target.dtype != mstype.int32:
            raise TypeError(f"For 'MultilabelMarginLoss', the 'target' must be an int32 "
                            f"Tensor, but got {target.dtype}.")
        _check_same_shape("MultilabelMarginLoss", "x", x, "target", target)
        if x.ndim not in (1, 2):
            raise ValueError(f"For 'MultilabelMarginLoss', the rank of 'x' must be 1 or 2, but "
                             f"got {x.ndim}.")
        vector = x.ndim == 1
        if vector:
            x, target = ops.expand_dims(x, 0), ops.expand_dims(target, 0)
        classes = x.shape[1]
        # a label counts until the first -1: positions before it
        ended = ops.cumsum(ops.cast(ops.lt(target, 0), mstype.int32), 1)
        valid = ops.cast(ops.equal(ended, 0), mstype.int32)
        safe = ops.mul(ops.relu(target), valid)
        hot = ops.one_hot(safe, classes, Tensor(1.0, x.dtype), Tensor(0.0, x.dtype))
        hot = ops.mul(hot, ops.expand_dims(ops.cast(valid, x.dtype), -1))
        is_target = ops.minimum(ops.reduce_sum(hot, 1), 1.0)           # (N, C)
        target_score = ops.reduce_sum(ops.mul(hot, ops.expand_dims(x, 1)), 2)  # (N, C)
        # hinge[n, j, k] for the j-th listed label against class k
        hinge = ops.relu(ops.sub(1.0, ops.sub(ops.expand_dims(target_score, 2),
                                              ops.expand_dims(x, 1))))
        pair = ops.mul(ops.expand_dims(ops.cast(valid, x.dtype), 2),
                       ops.expand_dims(ops.sub(1.0, is_target), 1))
        loss = ops.div(ops.reduce_sum(ops.mul(hinge, pair), (1, 2)), float(classes))
        if vector and self.reduction == "none":
            loss = ops.squeeze(loss, 0)
        return self.get_loss(loss)


def _pairwise_distance(x, y, p: float, eps: float):
    """``||x - y + eps||_p`` over the last axis."""
    d = ops.abs(ops.add(ops.sub(x, y), eps))
    if p == 2:
        return ops.sqrt(ops.reduce_sum(ops.mul(d, d), -1))
    if p == 1:
        return ops.reduce_sum(d, -1)
    return ops.pow(ops.reduce_sum(ops.pow(d, float(p)), -1), 1.0 / p)


class TripletMarginLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with ``d`` the p-norm of the
    difference (plus ``eps``); ``swap`` uses ``min(d(x, neg), d(pos, neg))``."""

    def __init__(self, p=2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean",
                 margin=1.0):
        super().__init__(reduction)
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise TypeError(f"For 'TripletMarginLoss', the 'p' must be a non-negative int, but "
                            f"got {p!r}.")
        if not isinstance(swap, bool):
            raise TypeError(f"For 'TripletMarginLoss', the 'swap' must be bool, but got "
                            f"{type(swap).__name__}.")
        if isinstance(eps, bool) or not isinstance(eps, float):
            raise TypeError(f"For 'TripletMarginLoss', the 'eps' must be float, but got "
                            f"{type(eps).__name__}.")
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative, margin=1.0):
        for name, v in (("x", x), ("positive", positive), ("negative", negative)):
            _check_float("TripletMarginLoss", name, v)
        margin = self.margin if self.margin != 1.0 else margin
        d_pos = _pairwise_distance(x, positive, self.p, self.eps)
        d_neg = _pairwise_distance(x, negative, self.p, self.eps)
        if self.swap:
            d_neg = ops.minimum(d_neg, _pairwise_distance(positive, negative, self.p,
                                                          self.eps))
        return self.get_loss(ops.relu(ops.add(ops.sub(d_pos, d_neg), margin)))


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with a user ``distance_function``
    (default: the 2-norm of the difference over axis 1)."""

    def __init__(self, distance_function=None, swap: bool = False, reduction: str = "mean",
                 margin: float = 1.0):
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, float):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', the 'margin' must be float, "
                            f"but got {type(margin).__name__}.")
        if not isinstance(swap, bool):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', the 'swap' must be bool, "
                            f"but got {type(swap).__name__}.")
        self.distance_function = distance_function or _l2_over_axis1
        self.swap, self.margin = swap, margin

    def construct(self, x, positive, negative):
        for name, v in (("x", x), ("positive", positive), ("negative", negative)):
            _check_tensor("TripletMarginWithDistanceLoss", name, v)
        d_pos = self.distance_function(x, positive)
        d_neg = self.distance_function(x, negative)
        if self.swap:
            d_neg = ops.minimum(d_neg, self.distance_function(positive, negative))
        return self.get_loss(ops.relu(ops.add(ops.sub(d_pos, d_neg), self.margin)))


def _l2_over_axis1(x, y):
    d = ops.sub(x, y)
    if d.ndim == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' "
                         "of the input must be positive, but got 0")
    return ops.sqrt(ops.reduce_sum(ops.mul(d, d), 1))
