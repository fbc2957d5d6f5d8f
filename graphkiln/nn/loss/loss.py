"""Loss cells with MindSpore's names, arguments and defaults; each is a thin cell over its
functional form in ``graphkiln.ops`` (``ops/losses.py``)."""
from __future__ import annotations

import math

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...ops.defs.nn_losses import check_smooth_l1_beta_type
from ...ops.losses import check_reduction, reduce_loss, softmax_cross_entropy
from ..cell import Cell


class LossBase(Cell):
    """Base of the losses: holds ``reduction`` ('mean', 'sum' or 'none') and applies it in
    ``get_loss`` (in float32 for float16 losses, as MindSpore does)."""

    def __init__(self, reduction: str = "mean"):
        super().__init__()
        self.reduction = check_reduction(type(self).__name__, reduction)

    def get_loss(self, x, weights=1.0):
        w = None if isinstance(weights, (int, float)) and weights == 1.0 else weights
        return reduce_loss(x, self.reduction, w)


def _check_tensor_or_none(owner: str, name: str, value):
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor or None, but got "
                        f"{type(value).__name__}.")
    return value


class MSELoss(LossBase):
    """Mean squared error."""

    def construct(self, logits, labels):
        return self.get_loss(ops.square(ops.sub(logits, labels)))


class L1Loss(LossBase):
    """Mean absolute error."""

    def construct(self, logits, labels):
        return self.get_loss(ops.abs(ops.sub(logits, labels)))


class SmoothL1Loss(LossBase):
    """Quadratic below ``beta``, linear above; ``reduction='none'`` by default."""

    def __init__(self, beta: float = 1.0, reduction: str = "none"):
        super().__init__(reduction)
        check_smooth_l1_beta_type(beta)
        self.beta = float(beta)  # beta <= 0: MindSpore's RuntimeError when called

    def construct(self, logits, labels):
        return ops.SmoothL1Loss(self.beta, self.reduction)(logits, labels)


class HuberLoss(LossBase):
    """Quadratic below ``delta``, ``delta``-scaled linear above."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0):
        super().__init__(reduction)
        if isinstance(delta, bool) or not isinstance(delta, (int, float)) or delta <= 0:
            raise ValueError(f"For 'HuberLoss', the 'delta' must be a float greater than 0, "
                             f"but got {delta}.")
        self.delta = float(delta)

    def construct(self, logits, labels):
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Softmax cross entropy along the last axis; ``sparse=True`` takes class indices.
    ``reduction='none'`` by default (one loss per example)."""

    def __init__(self, sparse: bool = False, reduction: str = "none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', the 'sparse' must be bool, "
                            f"but got {type(sparse).__name__}.")
        self.sparse = sparse
        self.sparse_softmax_cross_entropy = ops.SparseSoftmaxCrossEntropyWithLogits()

    def construct(self, logits, labels):
        if self.sparse:
            if self.reduction == "mean":  # MindSpore's fused primitive (labels in range)
                return self.sparse_softmax_cross_entropy(logits, labels)
            labels = ops.one_hot(labels, ops.shape(logits)[-1], ops.ones((), logits.dtype),
                                 ops.zeros((), logits.dtype))
        return self.get_loss(softmax_cross_entropy(logits, labels))


class CrossEntropyLoss(LossBase):
    """Softmax cross entropy of logits (classes on axis 1) against class indices or class
    probabilities, with per-class ``weight``, ``ignore_index`` and ``label_smoothing``."""

    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0):
        super().__init__(reduction)
        self.weight = _check_tensor_or_none("CrossEntropyLoss", "weight", weight)
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(f"For 'CrossEntropyLoss', the 'ignore_index' must be int, but got "
                            f"{type(ignore_index).__name__}.")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', the 'label_smoothing' must be in "
                             f"[0.0, 1.0], but got {label_smoothing}.")
        self.ignore_index = ignore_index
        self.label_smoothing = float(label_smoothing)

    def construct(self, logits, labels):
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index,
                                 self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log-likelihood of class indices under log-probabilities."""

    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean"):
        super().__init__(reduction)
        self.weight = _check_tensor_or_none("NLLLoss", "weight", weight)
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    """Binary cross entropy on probabilities, with an optional elementwise ``weight``."""

    def __init__(self, weight=None, reduction: str = "mean"):
        super().__init__(reduction)
        self.weight = _check_tensor_or_none("BCELoss", "weight", weight)

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy on logits (stable), with ``weight`` and ``pos_weight``."""

    def __init__(self, reduction: str = "mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = _check_tensor_or_none("BCEWithLogitsLoss", "weight", weight)
        self.pos_weight = _check_tensor_or_none("BCEWithLogitsLoss", "pos_weight",
                                                pos_weight)

    def construct(self, logits, labels):
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight,
                                                    self.pos_weight, self.reduction)


class KLDivLoss(LossBase):
    """Kullback-Leibler divergence of ``labels`` from ``exp(logits)``."""

    def __init__(self, reduction: str = "mean"):
        if reduction not in ("none", "mean", "sum", "batchmean"):
            raise ValueError(f"For 'KLDivLoss', the 'reduction' must be in ['none', 'mean', "
                             f"'batchmean', 'sum'], but got {reduction}.")
        super().__init__("mean" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.kl_div(logits, labels, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """``1 - cos`` for similar pairs (label 1), ``max(0, cos - margin)`` for others (-1)."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean"):
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or \
                not -1.0 <= margin <= 1.0:
            raise ValueError(f"For 'CosineEmbeddingLoss', the 'margin' must be a float in "
                             f"[-1.0, 1.0], but got {margin}.")
        self.margin = float(margin)

    def construct(self, logits_x1, logits_x2, labels):
        return ops.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin,
                                         self.reduction)


class MarginRankingLoss(LossBase):
    """``max(0, -target * (input1 - input2) + margin)``."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return ops.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``x`` for similar pairs (label 1), ``max(0, margin - x)`` for others (-1)."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean"):
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)):
            raise TypeError(f"For 'HingeEmbeddingLoss', the type of 'margin' should be one of "
                            f"['float', 'int'], but got type '{type(margin).__name__}'.")
        self.margin = margin

    def construct(self, logits, labels):
        return ops.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class GaussianNLLLoss(LossBase):
    """Negative log likelihood of ``labels`` under a Gaussian of mean ``logits`` and
    variance ``var``."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
        super().__init__(reduction)
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or eps <= 0:
            raise ValueError(f"For 'GaussianNLLLoss', the 'eps' must be in range of (0, inf), "
                             f"but got {eps}.")
        if not isinstance(full, bool):
            raise TypeError(f"For 'GaussianNLLLoss', the type of 'full' should be 'bool', but "
                            f"got type '{type(full).__name__}'.")
        self.full = full
        self.eps = float(eps)

    def construct(self, logits, labels, var):
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """Multi-label one-versus-all loss from logits, averaged over the classes."""

    def __init__(self, weight=None, reduction: str = "mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        return ops.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


def _check_is_tensor(owner: str, name: str, value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")


class MAELoss(LossBase):
    """Mean absolute error (the ``|logits - label|`` of ``L1Loss``, MindSpore's older name)."""

    def construct(self, logits, label):
        _check_is_tensor("MAELoss", "logits", logits)
        _check_is_tensor("MAELoss", "labels", label)
        return self.get_loss(ops.abs(ops.sub(logits, label)))


class RMSELoss(LossBase):
    """``sqrt(mean((logits - label)^2))``."""

    def __init__(self):
        super().__init__()

    def construct(self, logits, label):
        for name, v in (("logits", logits), ("label", label)):
            if v.dtype in (mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64):
                raise TypeError(f"For 'RMSELoss', the dtype of '{name}' must not be an "
                                f"unsigned int, but got {v.dtype}.")
        return ops.sqrt(self.get_loss(ops.square(ops.sub(logits, label))))


class PoissonNLLLoss(LossBase):
    """Poisson negative log likelihood: ``exp(input) - target * input`` for log-rate inputs
    (``log_input``), else ``input - target * log(input + eps)``; ``full`` adds Stirling's
    term for targets above 1."""

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08,
                 reduction: str = "mean"):
        super().__init__(reduction)
        for name, v in (("log_input", log_input), ("full", full)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'PoissonNLLLoss', the '{name}' must be bool, but got "
                                f"{type(v).__name__}.")
        if isinstance(eps, bool) or not isinstance(eps, (int, float)):
            raise TypeError(f"For 'PoissonNLLLoss', the 'eps' must be float, but got "
                            f"{type(eps).__name__}.")
        self.log_input, self.full, self.eps = log_input, full, float(eps)

    def construct(self, input, target):
        _check_is_tensor("PoissonNLLLoss", "input", input)
        _check_is_tensor("PoissonNLLLoss", "target", target)
        target = ops.cast(target, input.dtype)
        if self.log_input:
            loss = ops.sub(ops.exp(input), ops.mul(target, input))
        else:
            loss = ops.sub(input, ops.mul(target, ops.log(ops.add(input, self.eps))))
        if self.full:
            t = ops.maximum(target, self.eps)
            stirling = ops.add(ops.sub(ops.mul(ops.add(t, 0.5), ops.log(t)), t),
                               0.5 * math.log(2 * math.pi))
            loss = ops.add(loss, ops.select(ops.gt(t, 1.0), stirling, ops.zeros_like(t)))
        return self.get_loss(loss)


class FocalLoss(LossBase):
    """Focal loss ``-(1 - p)^gamma log p`` over axis 1 of ``(N, C, ...)`` logits, with
    one-hot (or probability) labels shaped like the logits, or ``(N, 1, ...)`` class
    indices; ``weight`` weighs the classes."""

    def __init__(self, weight=None, gamma: float = 2.0, reduction: str = "mean"):
        super().__init__(reduction)
        if isinstance(gamma, bool) or not isinstance(gamma, float):
            raise TypeError(f"For 'FocalLoss', the 'gamma' must be float, but got "
                            f"{type(gamma).__name__}.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got "
                             f"{weight.ndim}.")
        self.gamma, self.weight = gamma, weight

    def construct(self, logits, labels):
        _check_is_tensor("FocalLoss", "logits", logits)
        _check_is_tensor("FocalLoss", "labels", labels)
        if logits.ndim < 2 or labels.ndim < 2:
            raise ValueError(f"For 'FocalLoss', the dimensions of 'logits' and 'labels' must be "
                             f"at least 2, but got {logits.ndim} and {labels.ndim}.")
        if labels.shape[1] != 1 and tuple(labels.shape) != tuple(logits.shape):
            raise ValueError(f"For 'FocalLoss', the 'labels' must have 1 channel or the shape "
                             f"of 'logits' {tuple(logits.shape)}, but got "
                             f"{tuple(labels.shape)}.")
        if labels.dtype not in (mstype.int32, mstype.float16, mstype.float32):
            raise TypeError(f"For 'FocalLoss', the dtype of 'labels' must be int32, float16 "
                            f"or float32, but got {labels.dtype}.")
        n, c = logits.shape[0], logits.shape[1]
        logits = ops.reshape(logits, (n, c, -1))
        labels = ops.reshape(labels, (labels.shape[0], labels.shape[1], -1))
        log_p = ops.log_softmax(logits, 1)
        index = labels.shape[1] == 1
        if index:
            log_p = ops.squeeze(ops.gather_d(log_p, 1, ops.cast(labels, mstype.int32)), 1)
        focus = ops.pow(ops.sub(1.0, ops.exp(log_p)), self.gamma)  # unweighted probability
        if self.weight is not None:
            w = ops.reshape(ops.cast(self.weight, log_p.dtype), (1, c, 1))
            if index:
                full = tuple(labels.shape[:1]) + (c,) + tuple(labels.shape[2:])
                w = ops.squeeze(ops.gather_d(ops.broadcast_to(w, full), 1,
                                             ops.cast(labels, mstype.int32)), 1)
            log_p = ops.mul(log_p, w)
        term = ops.mul(focus, log_p)
        if index:
            loss = ops.neg(ops.mean(term, 1))
        else:
            loss = ops.neg(ops.mean(ops.mul(term, ops.cast(labels, term.dtype)), -1))
        return self.get_loss(loss)
