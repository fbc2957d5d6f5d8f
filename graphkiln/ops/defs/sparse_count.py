"""``SparseCountSparseOutput`` (MindSpore's ``ops.operations.sparse_ops``): per batch of a
sparse tensor (the first index of each stored value; one batch for a 1-D tensor), the
weighted count of each value, as a sparse tensor ``(indices, values, dense_shape)`` whose
stored values are ordered by batch, then value (so, inside a graph, an unknown leading
dimension, as ``Unique``'s).

Values at or beyond ``maxlength`` (when it is not negative) are not counted; the dense
shape is ``[batches, n]`` with ``n`` = ``maxlength``, else the largest value plus one (at
least ``minlength``). ``binary_output`` counts 1 for each (batch, value) seen; empty
``weights`` count 1 for each value. MindSpore 2.10's CPU kernel gives wrong counts for
float64 weights (graphkiln counts them as the other types)."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, tensor_type

_NAME = "SparseCountSparseOutput"
_WEIGHTS = (mstype.float32, mstype.float64, mstype.int32, mstype.int64)
_ATTRS = {"binary_output": False, "minlength": -1, "maxlength": -1}


def _allowed(arg: str, a, allowed) -> None:
    t = tensor_type(_NAME, arg, a)
    if t not in allowed:
        names = ", ".join(sorted(f"Tensor[{x}]" for x in allowed))
        raise TypeError(f"For primitive[{_NAME}], the input argument[{arg}] must be a type of "
                        f"{{{names}}}, but got Tensor[{t}].")


def _check_attrs(attrs: dict) -> None:
    if not isinstance(attrs.get("binary_output", False), bool):
        raise TypeError(f"For '{_NAME}', the 'binary_output' must be a bool, but got "
                        f"{type(attrs['binary_output']).__name__}.")
    for name in ("minlength", "maxlength"):
        v = attrs.get(name, -1)
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"For '{_NAME}', the '{name}' must be an int, but got "
                            f"{type(v).__name__}.")


def _infer(indices, values, dense_shape, weights, binary_output=False, minlength=-1,
           maxlength=-1):
    _allowed("indices", indices, (mstype.int64,))
    _allowed("values", values, (mstype.int32, mstype.int64))
    _allowed("dense_shape", dense_shape, (mstype.int64,))
    _allowed("weights", weights, _WEIGHTS)
    if len(indices.shape) != 2:
        raise ValueError(f"For '{_NAME}', the 'indices' must be 2-D, but got shape "
                         f"{list(indices.shape)}.")
    for arg, a in (("values", values), ("dense_shape", dense_shape)):
        if len(a.shape) != 1:
            raise ValueError(f"For '{_NAME}', the '{arg}' must be 1-D, but got shape "
                             f"{list(a.shape)}.")
    rank = indices.shape[1]
    out_rank = UNKNOWN_DIM if rank < 0 else min(rank, 2)
    return AbstractTuple([AbstractTensor(mstype.int64, (UNKNOWN_DIM, out_rank)),
                          AbstractTensor(weights.dtype, (UNKNOWN_DIM,)),
                          AbstractTensor(mstype.int64, (out_rank,))])


def _count(indices, values, dense_shape, weights, binary_output=False, minlength=-1,
           maxlength=-1):
    n = values.size
    if weights.size and weights.size != n:
        raise RuntimeError(f"For '{_NAME}', weights and values must have the same shape, but "
                           f"got {weights.size} weights for {n} values.")
    if indices.shape[0] != n:
        raise RuntimeError(f"For '{_NAME}', the number of indices {indices.shape[0]} must be "
                           f"the number of values {n}.")
    if np.any(values < 0):
        raise RuntimeError(f"For '{_NAME}', the input values must be non-negative.")
    one_d = indices.shape[1] == 1
    batches = 1 if one_d else int(dense_shape[0])
    batch = np.zeros(n, np.int64) if one_d else indices[:, 0]
    bad = (batch < 0) | (batch >= batches)
    if bad.any():
        raise RuntimeError(f"For '{_NAME}', the input index value {int(batch[bad][0])} must be "
                           f"in [0, {batches}) as given by dense shape.")
    values = values.astype(np.int64)
    keep = values < maxlength if maxlength >= 0 else np.ones(n, bool)
    w = weights.ravel() if weights.size else np.ones(n, weights.dtype)
    pairs, where = np.unique(np.stack([batch[keep], values[keep]], 1), axis=0,
                             return_inverse=True)
    sums = np.zeros(len(pairs), weights.dtype)
    np.add.at(sums, where.ravel(), w[keep])
    if binary_output:
        sums = np.ones(len(pairs), weights.dtype)
    size = maxlength if maxlength >= 0 else max(int(values.max(initial=-1)) + 1, minlength, 0)
    if one_d:
        return pairs[:, 1:].copy(), sums, np.array([size], np.int64)
    return pairs.astype(np.int64), sums, np.array([batches, size], np.int64)


SparseCountSparseOutput = OpDef(_NAME, _infer, _count, differentiable=False,
                                attrs=dict(_ATTRS), check_attrs=_check_attrs)
