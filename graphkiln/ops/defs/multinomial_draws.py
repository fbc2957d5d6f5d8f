"""``MultinomialWithReplacement(numsamples, replacement)(x, seed, offset)``: int64 category
indices drawn from the (unnormalised) weights of each row of a 1-D or 2-D ``x``.

``seed`` and ``offset`` are inputs (ints or int Tensors, possibly known only when the graph
runs), as MindSpore's, and the draws are MindSpore 2.10 CPU's: float32 uniforms (23 bits of
each output) of a Philox stream keyed by ``seed``, the counter's high half ``offset``
(``(0, 0)``: fresh seeds from the process-wide stream, see :mod:`.random`). A primitive
instance or graph node keeps its stream, and the outputs left in its last block, from
launch to launch while the seeds stay the same (new seeds restart the stream after those
leftovers); a functional call starts afresh. Nothing here is differentiable.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...common.philox import philox_blocks, unit_floats
from ...common.std_random import KernelStreams
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import describe, quiet
from .nn import next_seed

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


def _infer(x, seed, offset, numsamples=1, replacement=False, state=None):
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


def _uniforms(state, seed: int, offset: int, n: int) -> np.ndarray:
    """The kernel's next ``n`` uniform floats (see the module docstring)."""
    kernel = {"seeds": None} if state is None else state.slot(_NAME, lambda: {"seeds": None})
    if kernel["seeds"] != (seed, offset):
        kernel["seeds"], kernel["block"] = (seed, offset), 0
        kernel["key"] = (next_seed(), next_seed()) if (seed, offset) == (0, 0) else \
            (seed, offset)
        kernel.setdefault("left", np.empty(0, np.uint32))
    left = kernel["left"]
    old = left[:n]
    fresh = n - len(old)
    blocks = (fresh + 3) // 4
    words = philox_blocks(*kernel["key"], np.arange(kernel["block"], kernel["block"] + blocks))
    words = words.reshape(-1)
    kernel["block"] += blocks
    kernel["left"] = np.concatenate([left[len(old):], words[fresh:]])
    return unit_floats(np.concatenate([old, words[:fresh]]))


def _pick(cdf: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The kernel's inversion of uniforms ``r``: for each, the last category whose running
    sum is the least one at or above ``r * total`` (categories of weight 0 keep a running
    sum of 0)."""
    total = cdf.max(initial=0.0)
    values = np.unique(cdf)
    at = np.searchsorted(values, r * total)
    smallest = np.where(at < len(values), values[np.minimum(at, len(values) - 1)], total)
    last = np.array([np.flatnonzero(cdf == v)[-1] for v in values])
    return last[np.searchsorted(values, smallest)]


def _running_sums(w: np.ndarray) -> np.ndarray:
    cdf = np.cumsum(w)
    return np.where(w != 0, cdf, 0.0)


@quiet
def _draw(x, seed, offset, numsamples=1, replacement=False, state=None):
    p = np.asarray(x)
    rows = p.reshape(-1, p.shape[-1])
    weights = rows.astype(np.float64)
    if (weights < 0).any():
        raise ValueError(f"For '{_NAME}', each element of 'x' must be equal or greater than 0.")
    if (weights.sum(axis=1) <= 0).any():
        raise ValueError(f"For '{_NAME}', the sum of each row of 'x' must be greater than 0.")
    seed, offset = int(np.ravel(seed)[0]), int(np.ravel(offset)[0])
    u = _uniforms(state, seed, offset, len(rows) * numsamples).astype(p.dtype)
    u = u.astype(np.float64).reshape(len(rows), numsamples)
    picked = np.empty((len(rows), numsamples), np.int64)
    for i, w in enumerate(weights):
        if replacement:
            picked[i] = _pick(_running_sums(w), u[i])
            continue
        zeros = np.flatnonzero(w == 0)
        w = w.copy()
        for j in range(numsamples):
            if j >= len(w) - len(zeros):  # every weight left is 0: those in order
                picked[i, j] = zeros[j - len(w) + len(zeros)]
                continue
            picked[i, j] = _pick(_running_sums(w), u[i, j:j + 1])[0]
            w[picked[i, j]] = 0.0
    return picked.reshape(p.shape[:-1] + (numsamples,))


MultinomialWithReplacement = OpDef(_NAME, _infer, _draw, differentiable=False,
                                   pure_eval=False,
                                   attrs={"numsamples": 1, "replacement": False},
                                   check_attrs=_check_attrs, state=KernelStreams)
