"""``ops.pdist``: the p-norm distances between the rows of a matrix, for every pair
``i < j`` in row-major order (the condensed distance vector, as SciPy's ``pdist``).

A composite of primitives (a gather of the row pairs, then a reduction), so it
differentiates and batches like its parts. As MindSpore 2.10: a 2-D float16/32/64 input,
``p >= 0`` (0: the number of differing coordinates, ``inf``: the largest difference).
"""
from __future__ import annotations

import math

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import math as M

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """``||input[i] - input[j]||_p`` for every row pair ``i < j``."""
    if not isinstance(input, Tensor) or input.dtype not in _FLOATS:
        got = f"Tensor[{input.dtype}]" if isinstance(input, Tensor) else type(input).__name__
        raise TypeError(f"For primitive[Pdist], the input argument[x] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got {got}.")
    if input.ndim != 2:
        raise ValueError(f"For primitive[Pdist], the x dim must be equal to 2, but got "
                         f"{input.ndim}.")
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"For 'Pdist', the 'p' must be a float, but got {type(p).__name__}.")
    if p < 0:
        raise ValueError(f"Pdist p must be a non-negative value, but got `{float(p)}`.")
    first, second = np.triu_indices(input.shape[0], k=1)
    diff = M.Sub(A.Gather(input, Tensor(first.astype(np.int64)), 0),
                 A.Gather(input, Tensor(second.astype(np.int64)), 0))
    if p == 0:
        return A.ReduceSum(A.Cast(M.NotEqual(diff, 0), input.dtype), (1,), keep_dims=False)
    magnitude = M.Abs(diff)
    if math.isinf(p):
        return A.ReduceMax(magnitude, (1,), keep_dims=False)
    if p == 1:
        return A.ReduceSum(magnitude, (1,), keep_dims=False)
    if p == 2:
        return M.Sqrt(A.ReduceSum(M.Mul(diff, diff), (1,), keep_dims=False))
    return M.Pow(A.ReduceSum(M.Pow(magnitude, float(p)), (1,), keep_dims=False), 1.0 / p)
