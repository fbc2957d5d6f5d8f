"""``ops.pdist``: the p-norm distances between the rows of a matrix, for every pair
``i < j`` in row-major order (the condensed distance vector, as SciPy's ``pdist``);
``ops.cdist`` (every row of one batch of matrices against every row of another),
``ops.dist`` (the p-norm of a difference) and ``ops.cosine_similarity``.

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
    return _lp(diff, (1,), p)


def _lp(diff: Tensor, axes: tuple, p: float) -> Tensor:
    """The ``p``-norm of ``diff`` over ``axes`` (0: the count of non-zeros, inf: the largest
    magnitude)."""
    if p == 0:
        return A.ReduceSum(A.Cast(M.NotEqual(diff, 0), diff.dtype), axes, keep_dims=False)
    magnitude = M.Abs(diff)
    if math.isinf(p):
        return A.ReduceMax(magnitude, axes, keep_dims=False)
    if p == 1:
        return A.ReduceSum(magnitude, axes, keep_dims=False)
    if p == 2:
        return _root(A.ReduceSum(M.Mul(diff, diff), axes, keep_dims=False), 2.0)
    return _root(A.ReduceSum(M.Pow(magnitude, float(p)), axes, keep_dims=False), float(p))


def _root(total: Tensor, p: float) -> Tensor:
    """``total ** (1 / p)``, 0 with a zero gradient where ``total`` is 0 (two equal points,
    as MindSpore's)."""
    zero = M.Equal(total, 0)
    safe = A.Select(zero, A.OnesLike(total), total)
    root = M.Sqrt(safe) if p == 2 else M.Pow(safe, 1.0 / p)
    return A.Select(zero, A.ZerosLike(total), root)


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0) -> Tensor:
    """``||x1[..., i, :] - x2[..., j, :]||_p`` for every row ``i`` of ``x1`` and ``j`` of
    ``x2`` (batched over the leading dimensions)."""
    for name, x in (("x1", x1), ("x2", x2)):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'cdist', '{name}' must be a Tensor, but got "
                            f"{type(x).__name__}.")
    if x1.ndim < 2 or x1.ndim != x2.ndim or x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"For 'cdist', the inputs must have the same rank (at least 2) and "
                         f"the same last dimension, but got {x1.shape} and {x2.shape}.")
    if p < 0:
        raise ValueError(f"For 'cdist', 'p' must be non-negative, but got {p}.")
    gap = M.Sub(A.ExpandDims(x1, -2), A.ExpandDims(x2, -3))
    return _lp(gap, (-1,), p)


def cdist_grad(grad: Tensor, x1: Tensor, x2: Tensor, dist: Tensor, p: float) -> Tensor:
    """The gradient of ``cdist(x1, x2, p)`` with respect to ``x1`` from the cotangent ``grad``
    and the distances ``dist`` (MindSpore's ``CdistGrad``): ``sum_j grad_ij * sign(d) *
    |d|^(p-1) / dist_ij^(p-1)`` with ``d = x1_i - x2_j`` (``inf``: the coordinates where
    ``|d|`` is the distance; 0 where a distance is 0)."""
    for name, x in (("grad", grad), ("x1", x1), ("x2", x2), ("dist", dist)):
        if not isinstance(x, Tensor) or x.dtype not in _FLOATS:
            got = f"Tensor[{x.dtype}]" if isinstance(x, Tensor) else type(x).__name__
            raise TypeError(f"For 'CdistGrad', the '{name}' must be a Tensor of float16, "
                            f"float32 or float64, but got {got}.")
    if x1.ndim < 2 or x1.ndim != x2.ndim or x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"For 'CdistGrad', 'x1' and 'x2' must have the same rank (at least "
                         f"2) and the same last dimension, but got {x1.shape} and "
                         f"{x2.shape}.")
    if p < 0:
        raise ValueError(f"For 'CdistGrad', 'p' must be non-negative, but got {p}.")
    diff = M.Sub(A.ExpandDims(x1, -2), A.ExpandDims(x2, -3))  # (..., n, m, d)
    g, d = A.ExpandDims(grad, -1), A.ExpandDims(dist, -1)
    sign = M.Sign(diff)
    if p == 0:
        return A.ZerosLike(x1)
    if p == 1:
        per = M.Mul(sign, g)
    elif math.isinf(p):
        per = M.Mul(M.Mul(sign, A.Cast(M.Equal(M.Abs(diff), d), diff.dtype)), g)
    else:
        safe = A.Select(M.Equal(d, 0), A.OnesLike(d), d)
        ratio = M.Div(diff, safe) if p == 2 else M.Mul(sign, M.Pow(
            M.Div(M.Abs(diff), safe), float(p) - 1.0))
        per = M.Mul(M.Mul(ratio, g), A.Cast(M.NotEqual(d, 0), diff.dtype))
    return A.ReduceSum(per, (-2,), keep_dims=False)


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:  # noqa: A002
    """The ``p``-norm of ``input - other`` over all its elements."""
    for name, x in (("input", input), ("other", other)):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'dist', '{name}' must be a tensor, but got {type(x)}")
    z = M.Sub(input, other)
    if z.ndim == 0:
        return M.Abs(z)
    return _lp(A.Reshape(z, (-1,)), (0,), p)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """``sum(x1 * x2) / max(||x1|| ||x2||, eps)`` along ``dim``."""
    dot = A.ReduceSum(M.Mul(x1, x2), (dim,), keep_dims=False)
    norms = M.Mul(_lp(x1, (dim,), 2), _lp(x2, (dim,), 2))
    return M.Div(dot, M.Maximum(norms, eps))
