"""Sampling from given weights and distributions of a Tensor's shape: ``multinomial``
(category indices) and ``log_normal`` (``exp`` of normal draws), built from uniform and
normal draws (``seed`` as in :mod:`graphkiln.ops.random_functions`)."""
from __future__ import annotations

import graphkiln.ops.functional as F
import graphkiln.ops.random_functions as R

from ..common.tensor import Tensor
from .defs import random as RD

__all__ = ["multinomial", "log_normal"]


def multinomial(input: Tensor, num_samples: int, replacement: bool = True,
                seed=None) -> Tensor:
    """int32 category indices drawn from the (unnormalised) weights of each row of a 1-D or
    2-D ``input``, as MindSpore composes them: a ``Multinomial`` primitive with replacement;
    without, the top ``num_samples`` of ``log(u) / (input + 1e-6)`` for uniform draws ``u``
    (a ``UniformReal`` primitive). Both take the seeds of ``multinomial``'s counter."""
    if not isinstance(input, Tensor) or input.ndim not in (1, 2):
        raise ValueError("For 'multinomial', the 'input' must be a 1-D or 2-D Tensor.")
    if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples <= 0:
        raise ValueError(f"For 'multinomial', the 'num_samples' must be a positive int, but "
                         f"got {num_samples!r}.")
    if not replacement and num_samples > input.shape[-1]:
        raise ValueError(f"For 'multinomial', the 'num_samples' {num_samples} must not exceed "
                         f"the number of categories {input.shape[-1]} without replacement.")
    seeds = R.primitive_seeds("multinomial", seed)
    if replacement:
        return RD.Multinomial(input, num_samples, **seeds)
    u = RD.UniformReal((input.size,), **seeds)
    if input.ndim == 2:
        u = F.reshape(u, input.shape)
    return F.topk(F.div(F.log(u), F.add(input, 1e-6)), num_samples)[1]


def log_normal(input: Tensor, mean: float = 1.0, std: float = 2.0) -> Tensor:
    """Draws of ``exp(N(mean, std**2))`` with ``input``'s shape and dtype."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'log_normal', the 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    draws = R.standard_normal(tuple(input.shape))
    return F.cast(F.exp(F.add(F.mul(draws, float(std)), float(mean))), input.dtype)
