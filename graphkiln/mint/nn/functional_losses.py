"""``mint.nn.functional`` losses with PyTorch's argument order (``reduction`` before
``pos_weight``, ``kl_div``'s ``log_target``...) over graphkiln's loss ops."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common.tensor import Tensor


def _check_reduction(owner: str, reduction: str, extra=()) -> None:
    allowed = ("none", "mean", "sum") + tuple(extra)
    if reduction not in allowed:
        raise ValueError(f"For '{owner}', the 'reduction' must be in {list(allowed)}, but got "
                         f"{reduction}.")


def _reduce(loss, reduction: str):
    if reduction == "none":
        return loss
    return ops.reduce_sum(loss) if reduction == "sum" else ops.reduce_mean(loss)


def binary_cross_entropy(input, target, weight=None, reduction="mean") -> Tensor:
    """``-(target * log(input) + (1 - target) * log(1 - input))`` of probabilities."""
    return ops.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",
                                     pos_weight=None) -> Tensor:
    """Binary cross entropy of ``sigmoid(input)``, ``pos_weight`` scaling the positive term."""
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0) -> Tensor:
    """Cross entropy of logits ``(N, C, *)`` against class indices or probabilities."""
    return ops.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean") -> Tensor:
    """``-input[n, target[n]]`` (weighted) of log-probabilities ``(N, C, *)``."""
    return ops.nll_loss(input, target, weight, ignore_index, reduction)


def kl_div(input, target, reduction="mean", log_target=False) -> Tensor:
    """``target * (log(target) - input)`` of log-probabilities ``input`` (``target`` given as
    a log with ``log_target``); 'batchmean' divides the sum by the batch size."""
    _check_reduction("kl_div", reduction, ("batchmean",))
    if log_target:
        loss = ops.mul(ops.exp(target), ops.sub(target, input))
    else:
        loss = ops.kl_div(input, target, "none")
    if reduction != "batchmean":
        return _reduce(loss, reduction)
    return ops.div(ops.reduce_sum(loss), float(input.shape[0] if input.ndim else 1))


def smooth_l1_loss(input, target, reduction="mean", beta=1.0) -> Tensor:
    """``0.5 * d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 * beta``."""
    _check_reduction("smooth_l1_loss", reduction)
    return ops.smooth_l1_loss(input, target, float(beta), reduction)


def soft_margin_loss(input, target, reduction="mean") -> Tensor:
    """``log(1 + exp(-target * input))``."""
    _check_reduction("soft_margin_loss", reduction)
    return _reduce(ops.softplus(ops.neg(ops.mul(target, input))), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean") -> Tensor:
    """``1 - cos`` where ``target`` is 1, ``max(0, cos - margin)`` where it is -1."""
    return ops.cosine_embedding_loss(input1, input2, target, float(margin), reduction)


__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy",
           "nll_loss", "kl_div", "smooth_l1_loss", "soft_margin_loss", "cosine_embedding_loss"]
