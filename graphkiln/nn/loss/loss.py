"""Loss cells with MindSpore's names, arguments and defaults; each is a thin cell over its
functional form in ``graphkiln.ops`` (``ops/losses.py``)."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common.tensor import Tensor
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
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"For 'SmoothL1Loss', the 'beta' must be a float greater than 0, "
                             f"but got {beta}.")
        self.beta = float(beta)

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


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

    def construct(self, logits, labels):
        if self.sparse:
            if self.reduction == "mean":
                return ops.cross_entropy(logits, labels, reduction="mean")
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
