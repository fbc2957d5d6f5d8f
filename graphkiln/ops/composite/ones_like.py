"""``C.ones_like``: ones shaped like every element of a (nested) tuple or list of tensors
and numbers; sequences come back as tuples. (MindSpore's ``C.zeros_like`` is not this
mapping: it gives 0 for a tuple and refuses a list, so it is not defined here.)"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...common.tensor import Tensor


def ones_like(x):
    """Ones like each tensor (and 1 like each number) of ``x``, nested tuples and lists
    too."""
    if isinstance(x, (tuple, list)):
        return tuple(ones_like(e) for e in x)
    if isinstance(x, Tensor):
        return F.ones_like(x)
    if isinstance(x, (bool, int, float)):
        return type(x)(1)
    raise TypeError(f"For 'ones_like', the input must be a Tensor, a number or a tuple or "
                    f"list of them, but got {type(x).__name__}.")
