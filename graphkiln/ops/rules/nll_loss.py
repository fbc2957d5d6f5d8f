"""Backward and batching rules of :mod:`..defs.nll_loss`."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import nll_loss as NL
from .batching_nn import per_example_rule
from .bprop import _output, bprop


@bprop("NLLLoss")
def _nll_loss(logits, labels, weight, out, dout, reduction="mean", ignore_index=-100):
    """``NLLLossGrad`` of the loss's cotangent; none for the labels and (as MindSpore
    gives) the weight; the total weight's cotangent is not used."""
    total = _output(out, 1, lambda: NL.NLLLoss(logits, labels, weight, reduction=reduction,
                                               ignore_index=ignore_index))
    grad = NL.NLLLossGrad(logits, dout[0], labels, weight, total, reduction=reduction,
                          ignore_index=ignore_index)
    return grad, None, None


@bprop("NLLLossGrad")
def _nll_loss_grad(logits, loss_grad, labels, weight, total_weight, out, dout, reduction="mean",
                   ignore_index=-100):
    """Linear in ``loss_grad`` (``out = loss_grad * M`` per example, or as a whole): its
    cotangent sums ``dout * M`` over the classes (and examples); no other input gets one
    (as MindSpore, which defines none)."""
    ones = F.ones_like(loss_grad)
    m = NL.NLLLossGrad(logits, ones, labels, weight, total_weight, reduction=reduction,
                       ignore_index=ignore_index)
    picked = F.mul(dout, m)
    d = F.reduce_sum(picked, 1) if reduction == "none" else F.reduce_sum(picked)
    return None, F.reshape(F.cast(d, loss_grad.dtype), loss_grad.shape), None, None, None


for _name in ("NLLLoss", "NLLLossGrad"):
    per_example_rule(_name)  # (a reduction over the batch is per example under vmap)
del _name
