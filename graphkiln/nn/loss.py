"""Loss cells: ``MSELoss``, ``L1Loss``, ``CrossEntropyLoss`` (``reduction`` as MindSpore)."""
from __future__ import annotations

import graphkiln.ops as ops

from .cell import Cell

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Applies ``reduction`` ('mean', 'sum' or 'none') to elementwise losses."""

    def __init__(self, reduction: str = "mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in "
                             f"{list(_REDUCTIONS)}, but got {reduction}.")
        self.reduction = reduction

    def get_loss(self, x):
        if self.reduction == "mean":
            return ops.mean(x)
        if self.reduction == "sum":
            return ops.sum(x)
        return x


class MSELoss(LossBase):
    """Mean squared error."""

    def construct(self, logits, labels):
        return self.get_loss(ops.square(logits - labels))


class L1Loss(LossBase):
    """Mean absolute error."""

    def construct(self, logits, labels):
        return self.get_loss(ops.abs(logits - labels))


class CrossEntropyLoss(LossBase):
    """Softmax cross entropy of ``logits`` [N, C] against class indices [N] (or one-hot
    / probability targets of shape [N, C])."""

    def construct(self, logits, labels):
        logp = ops.log_softmax(logits, -1)
        if labels.ndim == logits.ndim:
            return self.get_loss(-ops.sum(logp * labels, -1))
        target = ops.one_hot(labels, logits.shape[-1], 1.0, 0.0).astype(logits.dtype)
        return self.get_loss(-ops.sum(logp * target, -1))
