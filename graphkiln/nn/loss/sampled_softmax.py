"""``SampledSoftmaxLoss``: softmax cross entropy over the true classes and a sample of
``num_sampled`` other classes (drawn uniformly without replacement), each logit corrected
by the log of its expected count in the sample."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.tensor import Tensor
from .loss import LossBase


def _check_tensor(name: str, value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For 'SampledSoftmaxLoss', the '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")


class SampledSoftmaxLoss(LossBase):
    """Per-example loss of ``(weights, biases, labels, logits)``: class weights ``(C, D)``,
    biases ``(C,)``, int labels ``(N, num_true)`` and activations ``(N, D)``.
    ``sampled_values`` ``(candidates, true_expected_count, sampled_expected_count)`` fixes
    the sample; without it a fresh one is drawn every call, uniformly without replacement,
    its expected counts those of the mean number of draws with replacement the sample
    takes (MindSpore counts the draws of its own sample). As MindSpore's, sampled classes
    that are true classes keep their logits (``remove_accidental_hits`` only reaches
    MindSpore's sampler) and the loss is not reduced (``reduction`` is accepted and
    ignored)."""

    def __init__(self, num_sampled: int, num_classes: int, num_true: int = 1,
                 sampled_values=None, remove_accidental_hits: bool = True, seed: int = 0,
                 reduction: str = "none"):
        super().__init__(reduction)
        if num_true < 1:
            raise ValueError(f"For 'SampledSoftmaxLoss', the 'num_true' must be greater than or "
                             f"equal to 1, but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For 'SampledSoftmaxLoss', the 'seed' must be greater than or "
                             f"equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For 'SampledSoftmaxLoss', the 'num_sampled' must be smaller than "
                             f"or equal to 'num_classes', but got 'num_sampled': {num_sampled} "
                             f"and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For 'SampledSoftmaxLoss', the 'num_true' must be smaller than or "
                             f"equal to 'num_classes', but got 'num_true': {num_true} amd "
                             f"'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For 'SampledSoftmaxLoss', the type of 'sampled_values' must "
                                f"be a list or tuple, but got "
                                f"{type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For 'SampledSoftmaxLoss', the length of 'sampled_values' "
                                 f"must be equal to 3,but got {len(sampled_values)}.")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed
        tries = sum(num_classes / (num_classes - i) for i in range(num_sampled))
        self._expected = float(-np.expm1(tries * np.log1p(-1.0 / num_classes)))

    def _sample(self, batch: int) -> tuple:
        order = ops.RandomShuffle(self.seed)(Tensor(np.arange(self.num_classes, dtype=np.int32)))
        sampled = order[:self.num_sampled]
        true_count = ops.fill(mstype.float32, (batch, self.num_true), self._expected)
        sampled_count = ops.fill(mstype.float32, (self.num_sampled,), self._expected)
        return sampled, true_count, sampled_count

    def construct(self, weights, biases, labels, logits):
        for name, v in (("weights", weights), ("biases", biases), ("labels", labels),
                        ("logits", logits)):
            _check_tensor(name, v)
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'SampledSoftmaxLoss', the 'labels' must be int32 or int64, "
                            f"but got {labels.dtype}.")
        labels = ops.reshape(ops.cast(labels, mstype.int32), (-1, self.num_true))
        batch = labels.shape[0]
        sampled, true_count, sampled_count = self.sampled_values or self._sample(batch)
        sampled = ops.cast(sampled, mstype.int32)
        true_w = ops.gather(weights, ops.reshape(labels, (-1,)), 0)
        true_w = ops.reshape(true_w, (batch, self.num_true, weights.shape[1]))
        true_logits = ops.reduce_sum(ops.mul(ops.expand_dims(logits, 1), true_w), 2)
        true_logits = ops.add(true_logits, ops.gather(biases, labels, 0))
        sampled_logits = ops.matmul(logits, ops.transpose(ops.gather(weights, sampled, 0),
                                                          (1, 0)))
        sampled_logits = ops.add(sampled_logits, ops.gather(biases, sampled, 0))
        true_logits = ops.sub(true_logits, ops.log(true_count))
        sampled_logits = ops.sub(sampled_logits, ops.log(sampled_count))
        out = ops.concat((true_logits, sampled_logits), 1)
        targets = ops.concat((ops.fill(out.dtype, (batch, self.num_true), 1.0 / self.num_true),
                              ops.zeros_like(sampled_logits)), 1)
        shifted = ops.sub(out, ops.amax(out, 1, True))
        pred = ops.div(ops.exp(shifted), ops.reduce_sum(ops.exp(shifted), 1, True))
        return ops.neg(ops.reduce_sum(ops.mul(targets, ops.log(ops.add(pred, 1.0e-20))), 1))
