"""``ops.ctc_loss``: PyTorch-style CTC loss over log-probabilities (the primitive is
``CTCLossV2`` in :mod:`.defs.ctc`), with MindSpore's reductions."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs.ctc import CTCLossV2

__all__ = ["ctc_loss"]


def _lengths(v) -> Tensor:
    """A tuple of lengths as an int32 Tensor; of other numbers (floats), a Tensor of their
    dtype, which CTCLossV2 refuses as MindSpore's does."""
    if isinstance(v, Tensor):
        return v
    ints = all(isinstance(n, int) and not isinstance(n, bool) for n in v)
    return Tensor(tuple(v), mstype.int32) if ints else Tensor(tuple(v))


def check_ctc_args(name: str, blank, reduction, zero_infinity) -> None:
    if not isinstance(blank, int) or isinstance(blank, bool):
        raise TypeError(f"For '{name}', the 'blank' must be int, but got "
                        f"{type(blank).__name__}.")
    if reduction not in ("none", "sum", "mean"):
        raise ValueError(f"For '{name}', the 'reduction' must be str and must be in "
                         f"'['none', 'sum', 'mean']', but got '{reduction}'.")
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For '{name}', the 'zero_infinity' must be bool, but got "
                        f"{type(zero_infinity).__name__}.")


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> tuple:
    """``(loss, log_alpha)``: the negative log-likelihood of each target (``'none'``), summed
    (``'sum'``) or divided by the target lengths and averaged (``'mean'``)."""
    check_ctc_args("ctc_loss", blank, reduction, zero_infinity)
    target_lengths = _lengths(target_lengths)
    loss, log_alpha = CTCLossV2(log_probs, targets, _lengths(input_lengths), target_lengths,
                                blank=blank, reduction="none", zero_infinity=zero_infinity)
    if reduction == "sum":
        loss = F.reduce_sum(loss)
    elif reduction == "mean":
        scale = F.maximum(F.cast(target_lengths, mstype.float32), 1.0)
        loss = F.cast(F.reduce_mean(F.div(F.cast(loss, mstype.float32), scale)), loss.dtype)
    return loss, log_alpha
