"""Joining and arranging Tensors: ``ops.atleast_1d/2d/3d``, ``hstack``, ``vstack``
(``row_stack``), ``dstack``, ``block_diag``, ``cartesian_prod``, ``combinations`` and
``rot90``, composites of ``Concat``/``Reshape``/``ReverseV2``/``Transpose``, with MindSpore
2.10's names, arguments and errors."""
from __future__ import annotations

import itertools

import numpy as np

import graphkiln.ops.functional as F

from ..common.tensor import Tensor
from .defs._infer import norm_axis

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack",
           "dstack", "block_diag", "cartesian_prod", "combinations", "rot90"]


def _expand(x: Tensor, ndim: int) -> Tensor:
    """``x`` with leading 1s up to ``ndim`` dims (a 1-D one becomes ``(1, n, 1)`` at 3)."""
    shape = tuple(x.shape)
    if len(shape) >= ndim:
        return x
    if ndim == 3 and len(shape) == 1:
        return F.reshape(x, (1,) + shape + (1,))
    if ndim == 3 and len(shape) == 2:
        return F.reshape(x, shape + (1,))
    return F.reshape(x, (1,) * (ndim - len(shape)) + shape)


def _atleast(name: str, ndim: int):
    def fn(inputs):
        if isinstance(inputs, Tensor):
            return _expand(inputs, ndim)
        for t in inputs:
            if not isinstance(t, Tensor):
                raise TypeError(f"For '{name}', each element of 'inputs' must be a tensor, "
                                f"but got {type(t)}")
        return tuple(_expand(t, ndim) for t in inputs)
    fn.__name__ = name
    fn.__doc__ = f"The Tensor (or each of a sequence) with at least {ndim} dimensions."
    return fn


atleast_1d = _atleast("atleast_1d", 1)
atleast_2d = _atleast("atleast_2d", 2)
atleast_3d = _atleast("atleast_3d", 3)


def _tensors(name: str, tensors, empty_error=ValueError) -> list:
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f"For '{name}', the input must be list or tuple of tensors, but got "
                        f"{type(tensors)}.")
    if not tensors:
        raise empty_error(f"For '{name}', the input must have at least 1 tensor, but got 0.")
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{name}', each element must be a Tensor, but got {type(t)}.")
    return list(tensors)


def hstack(tensors) -> Tensor:
    """The Tensors joined along their second axis (the first for 1-D ones)."""
    ts = [_expand(t, 1) for t in _tensors("hstack", tensors)]
    return F.concat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(inputs) -> Tensor:
    """The Tensors (1-D ones as rows) joined along their first axis."""
    return F.concat([_expand(t, 2) for t in _tensors("vstack", inputs, TypeError)], 0)


row_stack = vstack


def dstack(tensors) -> Tensor:
    """The Tensors (made at least 3-D) joined along their third axis."""
    return F.concat([_expand(t, 3) for t in _tensors("dstack", tensors, TypeError)], 2)


def block_diag(*inputs) -> Tensor:
    """The Tensors (0-, 1- or 2-D, as matrices) along the diagonal of a matrix of zeros."""
    if not inputs:
        raise RuntimeError("For 'block_diag', the input is empty.")
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'block_diag', each element of 'inputs' must be a tensor, but "
                            f"got {type(t)}")
        if t.ndim > 2:
            raise ValueError(f"For 'block_diag', the dimension of each elements in 'inputs' "
                             f"must be 0, 1, or 2, but got {t.ndim}")
    mats = [_expand(t, 2) for t in inputs]
    dtype = mats[0].dtype
    rows = []
    for i, m in enumerate(mats):
        row = [F.cast(m, dtype) if j == i else F.zeros((m.shape[0], o.shape[1]), dtype)
               for j, o in enumerate(mats)]
        rows.append(F.concat(row, 1))
    return F.concat(rows, 0)


def cartesian_prod(*inputs) -> Tensor:
    """Every combination of one element of each 1-D Tensor, one per row."""
    grids = F.meshgrid(*inputs, indexing="ij")
    return F.reshape(F.stack(grids, -1), (-1, len(inputs)))


def combinations(input, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The ``r``-element combinations of the 1-D ``input``'s elements, one per row."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'combinations', 'x' must be a Tensor, but got {type(input)}.")
    if input.ndim != 1:
        raise ValueError(f"For 'combinations', the dimension 'x' must be 1, but got "
                         f"{input.ndim}.")
    if isinstance(r, bool) or not isinstance(r, int) or r < 0:
        raise ValueError(f"For 'combinations', 'r' must be a non-negative int, but got {r}.")
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    index = np.array(list(pick(range(input.shape[0]), r)), np.int64).reshape(-1, r)
    if index.size == 0:
        return F.zeros((0,) if r else (0,), input.dtype)
    return F.gather(input, Tensor(index), 0)


def rot90(input, k: int, dims) -> Tensor:
    """``input`` turned ``k`` quarter turns in the plane of ``dims`` (from the first axis
    towards the second)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For `rot90`, the `input` must be Tensor!, but get {type(input)}.")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For `rot90`, the `k` must be int!, but get {type(k)}.")
    if not isinstance(dims, (list, tuple)):
        raise TypeError(f"For `rot90`, the `dims` must be list or tuple!, but get {type(dims)}.")
    if len(dims) != 2:
        raise ValueError(f"For `rot90`, total rotation dims must be 2, but get {len(dims)}.")
    n = input.ndim
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == n:
        raise RuntimeError(f"For `rot90`, rotation dims must be different, but get "
                           f"dim0={dims[0]}, dim1={dims[1]}.")
    for i, d in enumerate(dims):
        if not -n <= d < n:
            raise ValueError(f"For `rot90`, rotation dim{i} is out of range, dim{i}={d}.")
    d0, d1 = norm_axis("rot90", dims[0], n), norm_axis("rot90", dims[1], n)
    k %= 4
    if k == 0:
        return input
    if k == 2:
        return F.flip(input, (d0, d1))
    perm = list(range(n))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    if k == 1:
        return F.transpose(F.flip(input, (d1,)), tuple(perm))
    return F.flip(F.transpose(input, tuple(perm)), (d1,))
