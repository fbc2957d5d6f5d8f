"""Functional losses, as ``mindspore.ops`` has them: ``cross_entropy``, ``nll_loss``,
``binary_cross_entropy``, ``binary_cross_entropy_with_logits``, ``smooth_l1_loss``,
``huber_loss``, ``kl_div``, ``cosine_embedding_loss``, ``mse_loss``, ``l1_loss``,
``margin_ranking_loss``, ``hinge_embedding_loss``, ``gaussian_nll_loss``,
``multilabel_soft_margin_loss``.

Built from primitives, so they differentiate and trace like any op. Softmax-based losses
go through ``LogSoftmax`` (max-shifted log-sum-exp, float16 computed in float32), and the
logits form of binary cross entropy uses ``max(x, 0) - x y + log(1 + exp(-|x|))``.
"""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import kl_div as KL
from .dynamic_shape import shape_of

__all__ = ["cross_entropy", "nll_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "smooth_l1_loss", "huber_loss", "kl_div",
           "cosine_embedding_loss", "mse_loss", "l1_loss", "margin_ranking_loss",
           "hinge_embedding_loss", "gaussian_nll_loss", "multilabel_soft_margin_loss"]

_REDUCTIONS = ("mean", "sum", "none")


def check_reduction(owner: str, reduction) -> str:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For '{owner}', the 'reduction' must be in {list(_REDUCTIONS)}, "
                         f"but got {reduction}.")
    return reduction


def reduce_loss(x, reduction: str, weights=None):
    """``x`` (times ``weights``) reduced as ``reduction`` says, computed in float32 for
    float16 inputs like MindSpore's ``LossBase.get_loss``."""
    dtype = x.dtype
    if dtype is mstype.float16:
        x = F.cast(x, mstype.float32)
    if weights is not None:
        x = F.mul(x, weights)
    if reduction == "mean":
        x = F.mean(x)
    elif reduction == "sum":
        x = F.sum(x)
    return F.cast(x, dtype) if x.dtype is not dtype else x


def _class_axis(x) -> int:
    return 1 if x.ndim > 1 else 0


def _at_class_axis(v, ndim: int, axis: int):
    """A per-class vector shaped to broadcast along ``axis`` of a rank-``ndim`` tensor."""
    return F.reshape(v, (1,) * axis + (-1,) + (1,) * (ndim - axis - 1))


def _one_hot_at(target, classes: int, axis: int, dtype):
    hot = F.one_hot(target, classes, Tensor(1.0, dtype), Tensor(0.0, dtype), -1)
    if axis != hot.ndim - 1:
        perm = tuple(range(axis)) + (hot.ndim - 1,) + tuple(range(axis, hot.ndim - 1))
        hot = F.transpose(hot, perm)
    return hot


def _nll(logp, target, weight, ignore_index: int, reduction: str, label_smoothing: float):
    axis = _class_axis(logp)
    classes = shape_of(logp)[axis]  # a run-time int when dynamic
    hot = _one_hot_at(target, classes, axis, logp.dtype)
    keep = F.cast(F.not_equal(target, ignore_index), logp.dtype)
    w = None if weight is None else _at_class_axis(F.cast(weight, logp.dtype), logp.ndim,
                                                   axis)
    wlogp = logp if w is None else F.mul(logp, w)
    loss = F.mul(F.neg(F.reduce_sum(F.mul(wlogp, hot), axis)), keep)
    wy = keep if w is None else F.mul(F.reduce_sum(F.mul(hot, w), axis), keep)
    if label_smoothing > 0:
        smooth = F.mul(F.neg(F.reduce_sum(wlogp, axis)), keep)
        loss = F.add(F.mul(loss, 1.0 - label_smoothing),
                     F.mul(smooth, label_smoothing / classes))
    if reduction == "none":
        return loss
    total = F.sum(loss)
    return F.div(total, F.sum(wy)) if reduction == "mean" else total


def nll_loss(inputs, target, weight=None, ignore_index: int = -100, reduction: str = "mean",
             label_smoothing: float = 0.0):
    """Negative log-likelihood of class indices ``target`` under log-probabilities
    ``inputs`` (classes on axis 1)."""
    check_reduction("nll_loss", reduction)
    return _nll(inputs, target, weight, ignore_index, reduction, label_smoothing)


def cross_entropy(input, target, weight=None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0):
    """Softmax cross entropy of logits ``input`` (classes on axis 1) against class indices
    or class probabilities ``target``."""
    check_reduction("cross_entropy", reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For 'cross_entropy', the 'label_smoothing' must be in [0.0, 1.0], "
                         f"but got {label_smoothing}.")
    axis = _class_axis(input)
    logp = F.log_softmax(input, axis)
    if target.dtype.is_float:
        classes = shape_of(input)[axis]  # a run-time int when dynamic
        if label_smoothing > 0:
            target = F.add(F.mul(target, 1.0 - label_smoothing), label_smoothing / classes)
        if weight is not None:
            logp = F.mul(logp, _at_class_axis(F.cast(weight, logp.dtype), logp.ndim, axis))
        loss = F.neg(F.reduce_sum(F.mul(logp, target), axis))
        if reduction == "mean":
            return F.div(F.sum(loss), float(input.shape[0]) if input.ndim > 1 else 1.0)
        return F.sum(loss) if reduction == "sum" else loss
    return _nll(logp, target, weight, ignore_index, reduction, label_smoothing)


def softmax_cross_entropy(logits, labels):
    """Per-example ``-sum(labels * log_softmax(logits))`` along the last axis."""
    return F.neg(F.reduce_sum(F.mul(F.log_softmax(logits, -1), labels), -1))


def binary_cross_entropy(logits, labels, weight=None, reduction: str = "mean"):
    """``-w (y log x + (1 - y) log(1 - x))`` on probabilities ``logits``; the logs are
    clamped at -100 so that 0 and 1 give finite losses."""
    check_reduction("binary_cross_entropy", reduction)
    log_x = F.maximum(F.log(logits), -100.0)
    log_1mx = F.maximum(F.log(F.sub(1.0, logits)), -100.0)
    loss = F.neg(F.add(F.mul(labels, log_x), F.mul(F.sub(1.0, labels), log_1mx)))
    return reduce_loss(loss, reduction, weight)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction: str = "mean"):
    """Binary cross entropy of ``sigmoid(input)``, computed stably from the logits."""
    check_reduction("binary_cross_entropy_with_logits", reduction)
    soft = F.softplus(F.neg(F.abs(input)))  # log(1 + exp(-|x|))
    if pos_weight is None:
        loss = F.add(F.sub(F.relu(input), F.mul(input, target)), soft)
    else:
        log_weight = F.add(F.mul(F.sub(pos_weight, 1.0), target), 1.0)
        loss = F.add(F.mul(F.sub(1.0, target), input),
                     F.mul(log_weight, F.add(soft, F.relu(F.neg(input)))))
    return reduce_loss(loss, reduction, weight)


def smooth_l1_loss(input, target, beta: float = 1.0, reduction: str = "none"):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``."""
    check_reduction("smooth_l1_loss", reduction)
    if beta == 0:  # MindSpore takes beta=0 as the L1 loss, a kernel its CPU lacks
        raise RuntimeError("For 'smooth_l1_loss', beta=0 selects the L1 loss: the kernel "
                           "L1LossExt unregistered (MindSpore 2.10 has no CPU kernel for it).")
    if beta < 0:
        raise RuntimeError(f"For 'SmoothL1Loss', the values for beta not support negative "
                           f"values, but got {beta:g}.")
    d = F.abs(F.sub(input, target))
    loss = F.select(F.less(d, beta), F.div(F.mul(F.square(d), 0.5), beta), F.sub(d, 0.5 * beta))
    return reduce_loss(loss, reduction)


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``."""
    check_reduction("huber_loss", reduction)
    if delta <= 0:
        raise ValueError(f"For 'huber_loss', the 'delta' must be > 0, but got {delta}.")
    d = F.abs(F.sub(input, target))
    loss = F.select(F.less(d, delta), F.mul(F.square(d), 0.5),
                    F.mul(F.sub(d, 0.5 * delta), delta))
    return reduce_loss(loss, reduction)


def kl_div(logits, labels, reduction: str = "mean"):
    """``labels * (log(labels) - logits)`` (0 where ``labels`` is 0); ``'batchmean'``
    divides the sum by the batch size."""
    if reduction not in _REDUCTIONS + ("batchmean",):
        raise ValueError(f"For 'kl_div', the 'reduction' must be in ['none', 'mean', "
                         f"'batchmean', 'sum'], but got {reduction}.")
    return KL.KLDivLoss(logits, labels, reduction=reduction)


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0,
                          reduction: str = "mean"):
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos - margin)`` where it is -1
    (cosine along the last axis)."""
    check_reduction("cosine_embedding_loss", reduction)
    if not -1.0 <= margin <= 1.0:
        raise ValueError(f"For 'cosine_embedding_loss', the 'margin' must be in [-1, 1], but "
                         f"got {margin}.")
    dot = F.reduce_sum(F.mul(input1, input2), -1)
    norms = F.mul(F.reduce_sum(F.square(input1), -1), F.reduce_sum(F.square(input2), -1))
    cos = F.div(dot, F.sqrt(F.add(norms, 1e-12)))
    pos = F.sub(1.0, cos)
    neg = F.relu(F.sub(cos, margin))
    loss = F.select(F.equal(target, 1), pos, F.select(F.equal(target, -1), neg, 0.0))
    return reduce_loss(loss, reduction)


def mse_loss(input, target, reduction: str = "mean"):
    check_reduction("mse_loss", reduction)
    return reduce_loss(F.square(F.sub(input, target)), reduction)


def l1_loss(input, target, reduction: str = "mean"):
    check_reduction("l1_loss", reduction)
    return reduce_loss(F.abs(F.sub(input, target)), reduction)



def _check_tensor(owner: str, name: str, value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")


def _check_same_dtype(owner: str, names: tuple, a, b) -> None:
    if a.dtype != b.dtype:
        raise TypeError(f"For '{owner}', the dtype of '{names[0]}' and '{names[1]}' must be the "
                        f"same, but got {a.dtype} and {b.dtype}.")


def margin_ranking_loss(input1, input2, target, margin: float = 0.0,
                        reduction: str = "mean"):
    """``max(0, -target * (input1 - input2) + margin)``."""
    owner = "margin_ranking_loss"
    if isinstance(margin, bool) or not isinstance(margin, float):
        raise TypeError(f"For '{owner}', the type of 'margin' should be 'float', but got type "
                        f"'{type(margin).__name__}'.")
    check_reduction(owner, reduction)
    for name, value in (("input1", input1), ("input2", input2), ("target", target)):
        _check_tensor(owner, name, value)
    _check_same_dtype(owner, ("input1", "input2"), input1, input2)
    _check_same_dtype(owner, ("target", "input1"), target, input1)
    loss = F.maximum(F.add(F.mul(F.neg(target), F.sub(input1, input2)), margin), 0.0)
    return reduce_loss(loss, reduction)


def hinge_embedding_loss(inputs, targets, margin: float = 1.0, reduction: str = "mean"):
    """``inputs`` where ``targets > 0`` plus ``max(0, margin - inputs)`` where
    ``targets < 0`` (targets are 1 or -1)."""
    owner = "HingeEmbeddingLoss"
    if isinstance(margin, bool) or not isinstance(margin, (float, int)):
        raise TypeError(f"For '{owner}', 'margin' must be a float or int, but got "
                        f"{type(margin)}.")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For '{owner}', 'reduction' must be one of 'none', 'mean', 'sum', "
                         f"but got {reduction}.")
    for place, value in (("first", inputs), ("second", targets)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{owner}', the {place} input must be a Tensor, but got "
                            f"{type(value)}.")
        if not value.dtype.is_float:
            raise TypeError(f"For '{owner}', the dtype of the {place} input must be float, but "
                            f"got {value.dtype}.")
    dtype = inputs.dtype
    positive = F.cast(F.greater(targets, 0.0), dtype)
    negative = F.cast(F.less(targets, 0.0), dtype)
    hinge = F.maximum(F.sub(F.mul(negative, float(margin)), F.mul(negative, inputs)), 0.0)
    loss = F.add(F.mul(positive, inputs), hinge)
    if reduction == "mean":
        return F.mean(loss)
    return F.sum(loss) if reduction == "sum" else loss


def gaussian_nll_loss(x, target, var, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean"):
    """``0.5 * (log(max(var, eps)) + (x - target)^2 / max(var, eps))``, plus
    ``0.5 * log(2 pi)`` when ``full``; a ``var`` without ``x``'s last axis gets it."""
    owner = "gaussian_nll_loss"
    for name, value in (("x", x), ("target", target), ("var", var)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{owner}', '{name}' must be a tensor, but got "
                            f"{type(value)}.")
    if not isinstance(full, bool):
        raise TypeError(f"For '{owner}', 'full' must be a bool, but got {type(full)}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{owner}', 'eps' must be a positive float, but got {eps}.")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For '{owner}', 'reduction' must be one of 'none', 'mean', or "
                         f"'sum', but got {reduction}.")
    if x.shape != var.shape and x.shape[:-1] == var.shape:
        var = F.expand_dims(var, -1)
    clamped = F.maximum(var, eps)
    loss = F.mul(F.add(F.log(clamped), F.div(F.square(F.sub(x, target)), clamped)), 0.5)
    if full:
        loss = F.add(loss, 0.5 * math.log(2 * math.pi))
    if reduction == "mean":
        return F.mean(loss)
    return F.sum(loss) if reduction == "sum" else loss


def multilabel_soft_margin_loss(input, target, weight=None, reduction: str = "mean"):
    """Per sample, the mean over classes of ``-(t log sigmoid(x) + (1 - t) log sigmoid(-x))``
    (times ``weight``)."""
    owner = "multilabel_soft_margin_loss"
    _check_tensor(owner, "input", input)
    _check_tensor(owner, "target", target)
    check_reduction(owner, reduction)
    positive = F.log(F.add(F.exp(F.neg(input)), 1.0))
    negative = F.log(F.add(F.exp(input), 1.0))
    loss = F.add(F.mul(target, positive), F.mul(F.sub(1.0, target), negative))
    if weight is not None:
        loss = F.mul(loss, weight)
    classes = input.shape[-1]
    return reduce_loss(F.div(F.sum(loss, -1), float(classes)), reduction)
