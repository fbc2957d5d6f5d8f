"""Sampling from given weights and distributions of a Tensor's shape: ``multinomial``
(category indices) and ``log_normal`` (``exp`` of normal draws), built from uniform and
normal draws (``seed`` as in :mod:`graphkiln.ops.random_functions`)."""
from __future__ import annotations

import graphkiln.ops.functional as F
import graphkiln.ops.random_functions as R

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["multinomial", "log_normal"]


def multinomial(input: Tensor, num_samples: int, replacement: bool = True,
                seed=None) -> Tensor:
    """int64 category indices drawn from the (unnormalised) weights of each row of a 1-D or
    2-D ``input``: by the inverse of the cumulative weights with replacement, as the top
    ``num_samples`` Gumbel-perturbed log-weights without."""
    if not isinstance(input, Tensor) or input.ndim not in (1, 2):
        raise ValueError("For 'multinomial', the 'input' must be a 1-D or 2-D Tensor.")
    if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples <= 0:
        raise ValueError(f"For 'multinomial', the 'num_samples' must be a positive int, but "
                         f"got {num_samples!r}.")
    if not replacement and num_samples > input.shape[-1]:
        raise ValueError(f"For 'multinomial', the 'num_samples' {num_samples} must not exceed "
                         f"the number of categories {input.shape[-1]} without replacement.")
    p = F.cast(input if input.ndim == 2 else F.expand_dims(input, 0), mstype.float32)
    rows, cats = p.shape
    if replacement:
        cdf = F.cumsum(F.div(p, F.reduce_sum(p, 1, True)), 1)
        u = R.rand(rows, num_samples, 1, seed=seed)
        below = F.cast(F.greater(u, F.expand_dims(cdf, 1)), mstype.int64)
        picked = F.minimum(F.reduce_sum(below, 2), Tensor(cats - 1, mstype.int64))
    else:
        u = F.maximum(R.rand(rows, cats, seed=seed), Tensor(1e-20, mstype.float32))
        gumbel = F.neg(F.log(F.neg(F.log(u))))
        picked = F.cast(F.topk(F.add(F.log(p), gumbel), num_samples)[1], mstype.int64)
    return picked if input.ndim == 2 else F.squeeze(picked, 0)


def log_normal(input: Tensor, mean: float = 1.0, std: float = 2.0) -> Tensor:
    """Draws of ``exp(N(mean, std**2))`` with ``input``'s shape and dtype."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'log_normal', the 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    draws = R.standard_normal(tuple(input.shape))
    return F.cast(F.exp(F.add(F.mul(draws, float(std)), float(mean))), input.dtype)
