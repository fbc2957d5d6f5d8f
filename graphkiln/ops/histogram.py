"""``ops.histc``: counts of ``input`` in ``bins`` equal-width bins over ``[min, max]``
(the data's own range when ``min == max``), built from ``OneHot`` and a sum."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["histc"]


def _number(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For 'histc', the '{name}' must be an int or a float, but got "
                        f"{type(value).__name__}.")
    return float(value)


def histc(input, bins: int = 100, min=0., max=0.) -> Tensor:  # noqa: A002
    """A 1-D Tensor of ``bins`` counts (``input``'s dtype); values outside the range are
    left out and ``max`` falls in the last bin."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'histc', the 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if isinstance(bins, bool) or not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"For 'histc', the 'bins' must be a positive int, but got {bins!r}.")
    lo, hi = _number("min", min), _number("max", max)
    if lo > hi:
        raise ValueError(f"For 'histc', the 'max' must be >= 'min', but got min {lo} and "
                         f"max {hi}.")
    x = F.reshape(F.cast(input, mstype.float32), (-1,))
    if lo == hi:
        low, high = F.amin(x), F.amax(x)
        same = F.equal(low, high)
        low = F.select(same, F.sub(low, 1.0), low)
        high = F.select(same, F.add(high, 1.0), high)
    else:
        low, high = Tensor(lo, mstype.float32), Tensor(hi, mstype.float32)
    scaled = F.floor(F.mul(F.div(F.sub(x, low), F.sub(high, low)), float(bins)))
    index = F.cast(F.clip_by_value(scaled, 0.0, float(bins - 1)), mstype.int32)
    inside = F.cast(F.logical_and(F.greater_equal(x, low), F.less_equal(x, high)),
                    mstype.float32)
    hits = F.mul(F.one_hot(index, bins, Tensor(1.0, mstype.float32),
                           Tensor(0.0, mstype.float32)), F.expand_dims(inside, 1))
    return F.cast(F.reduce_sum(hits, 0), input.dtype)
