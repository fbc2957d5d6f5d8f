"""``NLLLoss(logits, labels, weight)`` and its gradient ``NLLLossGrad``, as MindSpore's.

``logits`` ``(N, C)`` (log-probabilities), ``labels`` ``(N,)`` class indices, ``weight``
``(C,)``. Each example's loss is ``-weight[t] * logits[n, t]`` (0 where ``t ==
ignore_index``); ``NLLLoss`` gives ``(loss, total_weight)``, ``total_weight`` the sum of
``weight[t]`` over the examples not ignored, ``loss`` per example (``'none'``), summed, or
summed and divided by ``total_weight`` (``'mean'``). ``NLLLossGrad(logits, loss_grad,
labels, weight, total_weight)`` is the gradient in ``logits``: ``-weight[t] * loss_grad``
at ``(n, t)`` (divided by ``total_weight`` for ``'mean'``), zero elsewhere. A label
outside ``[0, C)`` (and not ignored) is a ValueError when the kernel runs.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import FLOATS, dims_match, quiet, require_dtype, tensor_type

_ATTRS = {"reduction": "mean", "ignore_index": -100}
_LABEL_TYPES = (mstype.uint8, mstype.int32, mstype.int64)


def _check(name: str, logits, labels, weight, reduction) -> tuple:
    t = tensor_type(name, "logits", logits)
    require_dtype(name, "logits", t, FLOATS)
    require_dtype(name, "labels", tensor_type(name, "labels", labels), _LABEL_TYPES)
    tw = tensor_type(name, "weight", weight)
    require_dtype(name, "weight", tw, FLOATS)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{name}', the 'reduction' must be in ['none', 'mean', 'sum'], "
                         f"but got {reduction}.")
    if len(logits.shape) != 2 or len(labels.shape) != 1 or len(weight.shape) != 1:
        raise ValueError(f"For '{name}', the 'logits' must be 2-D (N, C), the 'labels' 1-D "
                         f"(N,) and the 'weight' 1-D (C,), but got shapes "
                         f"{list(logits.shape)}, {list(labels.shape)} and "
                         f"{list(weight.shape)}.")
    if not dims_match(logits.shape[0], labels.shape[0]) or \
            not dims_match(logits.shape[1], weight.shape[0]):
        raise ValueError(f"For '{name}', the 'labels' shape must be (N,) and the 'weight' "
                         f"shape (C,) for 'logits' of shape {list(logits.shape)}, but got "
                         f"{list(labels.shape)} and {list(weight.shape)}.")
    return t, tw


def _picked(name: str, classes: int, labels, weight, ignore_index: int):
    """Per example: the label (0 where ignored) and its weight (0 where ignored)."""
    labels = np.asarray(labels).astype(np.int64)
    keep = labels != ignore_index
    bad = keep & ((labels < 0) | (labels >= classes))
    if bad.any():
        raise ValueError(f"For '{name}', each label must be in [0, {classes}) or be the "
                         f"'ignore_index' {ignore_index}, but got {labels[bad][0]}.")
    safe = np.where(keep, labels, 0)
    return safe, np.where(keep, np.asarray(weight)[safe], 0)


def _infer(logits, labels, weight, reduction="mean", ignore_index=-100):
    t, tw = _check("NLLLoss", logits, labels, weight, reduction)
    loss = (logits.shape[0],) if reduction == "none" else ()
    return AbstractTuple([AbstractTensor(t, loss), AbstractTensor(tw, ())])


@quiet
def _nll_loss(logits, labels, weight, reduction="mean", ignore_index=-100):
    logits = np.asarray(logits)
    safe, w = _picked("NLLLoss", logits.shape[1], labels, weight, ignore_index)
    loss = -w * logits[np.arange(len(safe)), safe]
    total = np.sum(w, dtype=np.asarray(weight).dtype)
    if reduction != "none":
        loss = np.sum(loss)
        loss = loss / total if reduction == "mean" else loss
    return np.asarray(loss, logits.dtype), np.asarray(total)


NLLLoss = OpDef("NLLLoss", _infer, _nll_loss, attrs=dict(_ATTRS))


def _grad_infer(logits, loss_grad, labels, weight, total_weight, reduction="mean",
                ignore_index=-100):
    t, _ = _check("NLLLossGrad", logits, labels, weight, reduction)
    require_dtype("NLLLossGrad", "loss_grad", tensor_type("NLLLossGrad", "loss_grad",
                                                          loss_grad), FLOATS)
    require_dtype("NLLLossGrad", "total_weight", tensor_type("NLLLossGrad", "total_weight",
                                                             total_weight), FLOATS)
    return AbstractTensor(t, tuple(logits.shape))


@quiet
def _nll_loss_grad(logits, loss_grad, labels, weight, total_weight, reduction="mean",
                   ignore_index=-100):
    logits = np.asarray(logits)
    safe, w = _picked("NLLLossGrad", logits.shape[1], labels, weight, ignore_index)
    scale = np.asarray(loss_grad).reshape(-1) if reduction == "none" else \
        np.asarray(loss_grad).reshape(-1)[0]
    if reduction == "mean":
        scale = scale / np.asarray(total_weight).reshape(-1)[0]
    out = np.zeros(logits.shape, logits.dtype)
    out[np.arange(len(safe)), safe] = -w * scale
    return out


# (logits, loss_grad, labels, weight, total_weight) -> d logits
NLLLossGrad = OpDef("NLLLossGrad", _grad_infer, _nll_loss_grad, attrs=dict(_ATTRS))
