"""Batching rules of ``Multinomial`` (:mod:`..defs.random`) and ``UniformCandidateSampler``
(:mod:`..defs.candidate_sampler`): as MindSpore's, the examples become rows of one batched
call (so a vmapped call draws what one call on the stacked inputs draws, not what a loop of
per-example calls would). ``LogUniformCandidateSampler`` has no batched kernel: as
MindSpore's general rule, each example is a call of its own (a kernel of its own, so every
example draws the same classes)."""
from __future__ import annotations

from ..defs import array as A
from ..defs import candidate_sampler as CS
from ..defs import random as RD
from .batching import rule_for, to_front
from .batching_nn import per_example


@rule_for("Multinomial")
def _multinomial(x, num_samples, *, dims, **attrs):
    if dims[1] is not None:
        raise ValueError("For 'Multinomial' under vmap, the 'num_samples' must not be batched.")
    x = to_front(x, dims[0])
    rows = A.Reshape(x, (-1, x.shape[-1]))
    out = RD.Multinomial(rows, num_samples, **attrs)
    return A.Reshape(out, tuple(x.shape[:-1]) + (-1,)), 0


@rule_for("UniformCandidateSampler")
def _uniform_candidate_sampler(true_classes, *, dims, batch_rank=0, **attrs):
    """The batches draw one after another from one engine (``batch_rank`` one more)."""
    if dims[0] is None:
        out = CS.UniformCandidateSampler(true_classes, batch_rank=batch_rank, **attrs)
        return out, (None, None, None)
    out = CS.UniformCandidateSampler(to_front(true_classes, dims[0]),
                                     batch_rank=batch_rank + 1, **attrs)
    return out, (0, 0, 0)


@rule_for("LogUniformCandidateSampler")
def _log_uniform_candidate_sampler(true_classes, *, dims, state=None, **attrs):
    if dims[0] is None:
        return CS.LogUniformCandidateSampler(true_classes, **attrs), (None, None, None)
    return per_example(CS.LogUniformCandidateSampler, (true_classes,), dims, attrs)
