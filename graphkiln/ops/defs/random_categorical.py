"""``RandomCategorical(dtype)(logits, num_sample, seed)``: ``(batch, num_sample)`` class
indices drawn from ``softmax(logits)`` row by row, MindSpore CPU's numbers.

MindSpore's CPU kernel mixes ``seed`` into a 64-bit engine seed with one Philox4x32-10
block (``random::GetSeed(0, seed)``), seeds ``std::default_random_engine`` (libstdc++'s
``minstd_rand0``) with it and draws one ``uniform_real_distribution<double>`` number per
sample, rounded to float and then to the logits' dtype; every row uses the same draws. Each
row's unnormalised cumulative ``exp(logit - max)`` is summed in the logits' dtype, and a
sample is the first class whose cumulative weight reaches ``total * u``. All of this is
reproduced here, so a nonzero seed gives MindSpore's indices. Seed 0 takes MindSpore's
``std::random_device`` path: the engine is seeded from the process-wide stream (fresh
draws on every call, reproducible after ``graphkiln.set_seed``). A MindSpore primitive
instance continues its engine from call to call while the seed stays the same; here every
call with a nonzero seed starts it again (as a fresh primitive does). Not differentiable.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...common.philox import mix_seeds
from ...common.std_random import MinstdRand0
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import describe, quiet
from .nn import next_seed

_NAME = "RandomCategorical"
_OUT_TYPES = (mstype.int16, mstype.int32, mstype.int64)
_LOGIT_TYPES = (mstype.float16, mstype.float32, mstype.float64)
def _int32(v) -> int:
    """The value as the kernel reads it: the low 32 bits as a signed int."""
    return (int(v) + 2**31) % 2**32 - 2**31


def _check_int_input(arg: str, a) -> None:
    if isinstance(a, AbstractScalar) and a.kind in (int, np.int32, np.int64) \
            and a.kind is not bool:
        return
    if isinstance(a, AbstractTensor) and a.dtype in (mstype.int32, mstype.int64) \
            and len(a.shape) == 0:
        return
    raise TypeError(f"For primitive[{_NAME}], the input argument[{arg}] must be a type of "
                    f"{{Int32, Int64}}, but got {describe(a)}.")


def _check_attrs(attrs: dict) -> None:
    if attrs.get("dtype", mstype.int64) not in _OUT_TYPES:
        raise TypeError(f"For '{_NAME}', the 'dtype' should be one of [mindspore.int32, "
                        f"mindspore.int16, mindspore.int64], but got '{attrs['dtype']}'.")


def _infer(logits, num_sample, seed, dtype=mstype.int64):
    if not isinstance(logits, AbstractTensor) or logits.dtype not in _LOGIT_TYPES:
        raise TypeError(f"For primitive[{_NAME}], the input argument[logits] must be a type "
                        f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                        f"{describe(logits)}.")
    if len(logits.shape) != 2:
        raise ValueError(f"For '{_NAME}', the 'logits' must be 2-D, but got shape "
                         f"{list(logits.shape)}.")
    _check_int_input("num_sample", num_sample)
    _check_int_input("seed", seed)
    if not isinstance(num_sample, AbstractScalar) or not num_sample.is_known:
        raise ValueError(f"For '{_NAME}', the 'num_sample' must be an int known when the "
                         f"graph is built, but got {describe(num_sample)}.")
    n = int(num_sample.value)
    if n <= 0:
        raise ValueError(f"For '{_NAME}', num_sample can't has negative value, but got {n}")
    return AbstractTensor(dtype, (logits.shape[0], n))


@quiet
def _draw(logits, num_sample, seed, dtype=mstype.int64):
    t = logits.dtype.type
    seed = _int32(np.ravel(seed)[0])
    engine = MinstdRand0(mix_seeds(0, seed) if seed else next_seed())
    u = engine.canonical_doubles(int(num_sample)).astype(np.float32).astype(t)
    # exp in float of (logit - max) in the logits' dtype; running sums in that dtype
    shifted = (logits - logits.max(axis=1, keepdims=True)).astype(t)
    weights = np.exp(shifted.astype(np.float32)).astype(t)
    cdf = np.cumsum(weights, axis=1, dtype=t)
    to_find = (cdf[:, -1:] * u[None, :]).astype(t)  # (batch, num_sample)
    # the first class whose cumulative weight is not below to_find (the last one at most)
    picked = (cdf[:, None, :] < to_find[:, :, None]).sum(axis=2)
    return np.minimum(picked, logits.shape[1] - 1).astype(mstype.dtype_to_nptype(dtype))


RandomCategorical = OpDef(_NAME, _infer, _draw, differentiable=False, pure_eval=False,
                          attrs={"dtype": mstype.int64}, check_attrs=_check_attrs)
