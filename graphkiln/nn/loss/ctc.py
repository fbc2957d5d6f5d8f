"""``nn.CTCLoss``: PyTorch-style CTC loss of log-probabilities ``(T, N, C)`` (or one
unbatched sequence ``(T, C)``), over ``ops.ctc_loss``."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common.tensor import Tensor
from ..cell import Cell


def _require_tensor(name: str, v) -> None:
    if not isinstance(v, Tensor):
        raise TypeError(f"For 'CTCLoss', the '{name}' must be a Tensor, but got "
                        f"{type(v).__name__}.")


class CTCLoss(Cell):
    """The CTC loss of ``log_probs`` against padded ``targets`` (``blank`` the blank class)."""

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        _require_tensor("log_probs", log_probs)
        _require_tensor("targets", targets)
        if log_probs.ndim == 2:
            if targets.ndim > 2 or targets.ndim == 2 and targets.shape[0] != 1:
                raise ValueError(f"For CTCLoss, when the shape of log_probs is (T, C), the "
                                 f"targets must be 1-D or of shape (1, S), but got shape "
                                 f"{targets.shape}.")
            if targets.ndim == 1:
                targets = ops.expand_dims(targets, 0)
            loss, _ = ops.ctc_loss(ops.expand_dims(log_probs, -2), targets, input_lengths,
                                   target_lengths, self.blank, self.reduction,
                                   self.zero_infinity)
            return ops.squeeze(loss, 0) if loss.ndim else loss
        loss, _ = ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                               self.reduction, self.zero_infinity)
        return loss
