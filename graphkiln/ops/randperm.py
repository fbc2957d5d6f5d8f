"""``ops.randperm``: a random permutation of ``0 .. n-1`` (:mod:`graphkiln.ops.defs.randperm`
draws it as MindSpore 2.10 CPU does)."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs.randperm import RandpermV2


def randperm(n, seed: int = 0, offset: int = 0, dtype: mstype.Type = mstype.int64) -> Tensor:
    """``0 .. n-1`` shuffled by ``seed`` (``-1``: fresh each call) or, when not 0,
    ``offset``; ``n`` an int or a one-element int Tensor."""
    return RandpermV2(n, seed=seed, offset=offset, dtype=dtype)
