"""``MultinomialWithReplacement(numsamples, replacement)(x, seed, offset)``: int64 category
indices drawn from the (unnormalised) weights of each row of a 1-D or 2-D ``x``.

``seed`` and ``offset`` are inputs (ints or int Tensors, possibly known only when the graph
runs), as MindSpore's: the same pair gives the same draws; ``(-1, 0)`` draws fresh ones from
the process-wide stream (see :mod:`.random`). With replacement each sample inverts the
cumulative weights at a uniform draw; without, the ``numsamples`` largest Gumbel-perturbed
log-weights win. The numbers are NumPy's, not MindSpore's; nothing here is differentiable.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import describe, quiet
from .random import generator

_NAME = "MultinomialWithReplacement"
_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _check_attrs(attrs: dict) -> None:
    n = attrs.get("numsamples")
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise ValueError(f"For '{_NAME}', the 'numsamples' must be a positive int, but got "
                         f"{n!r}.")
    if not isinstance(attrs.get("replacement", False), bool):
        raise TypeError(f"For '{_NAME}', the 'replacement' must be a bool, but got "
                        f"{type(attrs['replacement']).__name__}.")


def _check_seed(arg: str, a) -> None:
    if isinstance(a, AbstractScalar) and a.kind in (int, np.int64, np.int32):
        return
    if isinstance(a, AbstractTensor) and a.dtype.is_int and len(a.shape) <= 1:
        return
    raise TypeError(f"For '{_NAME}', the '{arg}' must be an int or an int Tensor, but got "
                    f"{describe(a)}.")


def _infer(x, seed, offset, numsamples=1, replacement=False):
    if not isinstance(x, AbstractTensor) or x.dtype not in _FLOATS or len(x.shape) not in (1, 2):
        raise ValueError(f"For '{_NAME}', the 'x' must be a 1-D or 2-D float Tensor, but got "
                         f"{describe(x)}.")
    _check_seed("seed", seed)
    _check_seed("offset", offset)
    cats = x.shape[-1]
    if not replacement and cats >= 0 and numsamples > cats:
        raise ValueError(f"For '{_NAME}', the 'numsamples' {numsamples} must not exceed the "
                         f"number of categories {cats} without replacement.")
    return AbstractTensor(mstype.int64, tuple(x.shape[:-1]) + (numsamples,))


@quiet
def _draw(x, seed, offset, numsamples=1, replacement=False):
    p = np.asarray(x, np.float64)
    rows = p.reshape(-1, p.shape[-1])
    seed, offset = int(np.ravel(seed)[0]), int(np.ravel(offset)[0])
    rng = generator(0, 0) if (seed, offset) == (-1, 0) else \
        np.random.default_rng([seed % (1 << 63), offset % (1 << 63)])
    if replacement:
        cdf = np.cumsum(rows / rows.sum(axis=1, keepdims=True), axis=1)
        u = rng.random((rows.shape[0], numsamples, 1))
        picked = np.minimum((u > cdf[:, None, :]).sum(axis=2), rows.shape[1] - 1)
    else:
        gumbel = -np.log(-np.log(np.maximum(rng.random(rows.shape), 1e-20)))
        with np.errstate(divide="ignore"):
            score = np.log(rows) + gumbel
        picked = np.argsort(-score, axis=1, kind="stable")[:, :numsamples]
    return picked.astype(np.int64).reshape(p.shape[:-1] + (numsamples,))


MultinomialWithReplacement = OpDef(_NAME, _infer, _draw, differentiable=False,
                                   pure_eval=False,
                                   attrs={"numsamples": 1, "replacement": False},
                                   check_attrs=_check_attrs)
