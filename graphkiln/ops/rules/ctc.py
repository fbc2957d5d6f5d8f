"""Backward and batching rules of the CTC losses (:mod:`..defs.ctc`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import ctc as CT
from .batching_nn import per_example_rule
from .bprop import _output, bprop


@bprop("CTCLoss")
def _ctc_loss(inputs, labels_indices, labels_values, sequence_length, out, dout, **attrs):
    """The kernel's own gradient (its second output), scaled per example by the loss's
    cotangent; the gradient output's cotangent is not used (as MindSpore's rule)."""
    grad = _output(out, 1, lambda: CT.CTCLoss(inputs, labels_indices, labels_values,
                                              sequence_length, **attrs))
    return F.mul(grad, F.expand_dims(dout[0], -1)), None, None, None


@bprop("CTCLossV2")
def _ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, out, dout, blank=0,
                 reduction="none", zero_infinity=False):
    def recompute():
        return CT.CTCLossV2(log_probs, targets, input_lengths, target_lengths, blank=blank)
    nll, log_alpha = _output(out, 0, recompute), _output(out, 1, recompute)
    grad = CT.CTCLossV2Grad(dout[0], log_probs, targets, input_lengths, target_lengths, nll,
                            log_alpha, blank=blank, zero_infinity=zero_infinity)
    return grad, None, None, None


for _name in ("CTCLoss", "CTCLossV2", "CTCLossV2Grad"):
    per_example_rule(_name)  # each example on its own (CTCLoss's sparse labels index the batch)
del _name
