"""Batching rule of ``Multinomial`` (:mod:`..defs.random`): as MindSpore's, the examples'
rows of weights become rows of one batched call (so a vmapped call draws what one call on
the stacked weights draws, not what a loop of per-example calls would)."""
from __future__ import annotations

from ..defs import array as A
from ..defs import random as RD
from .batching import rule_for, to_front


@rule_for("Multinomial")
def _multinomial(x, num_samples, *, dims, **attrs):
    if dims[1] is not None:
        raise ValueError("For 'Multinomial' under vmap, the 'num_samples' must not be batched.")
    x = to_front(x, dims[0])
    rows = A.Reshape(x, (-1, x.shape[-1]))
    out = RD.Multinomial(rows, num_samples, **attrs)
    return A.Reshape(out, tuple(x.shape[:-1]) + (-1,)), 0
