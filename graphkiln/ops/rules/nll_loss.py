"""Backward and batching rules of :mod:`..defs.nll_loss`."""
from __future__ import annotations

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


for _name in ("NLLLoss", "NLLLossGrad"):
    per_example_rule(_name)  # (a reduction over the batch is per example under vmap)
del _name
