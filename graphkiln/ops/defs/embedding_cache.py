"""MindSpore's embedding-cache helpers (``ops.operations._embedding_cache_ops``):
``UpdateCache`` writes ``updates[k]`` into row ``indices[k]`` of a weight, skipping indices
outside ``[0, max_num)``; ``SubAndFilter`` subtracts ``offset`` and keeps the results in
``[0, max_num)`` with their positions (a leading dimension known only at run time)."""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor, AbstractTuple
from ..primitive import MEM_EFFECT, OpDef
from ._infer import (
    INDEX_TYPES,
    NUMBERS,
    UNKNOWN_DIM,
    dims_match,
    prod_dims,
    require_dtype,
    shapes_match,
    tensor_type,
)


def _update_cache_infer(x, indices, updates, max_num, u=None):
    t = tensor_type("UpdateCache", "input_x", x)
    require_dtype("UpdateCache", "indices", tensor_type("UpdateCache", "indices", indices),
                  INDEX_TYPES)
    rows = tuple(updates.shape[len(updates.shape) - len(x.shape) + 1:])
    n_idx, n_upd = prod_dims(indices.shape), prod_dims(updates.shape[:len(updates.shape) - len(
        x.shape) + 1])
    if not shapes_match(rows, tuple(x.shape[1:])) or not dims_match(n_idx, n_upd):
        raise ValueError(f"For 'UpdateCache', 'updates' must hold one row of 'input_x' "
                         f"{list(x.shape[1:])} per index ({list(indices.shape)}), but got "
                         f"shape {list(updates.shape)}.")
    return AbstractTensor(t, (1,))


def _update_cache(x, indices, updates, max_num, u=None):
    idx = np.asarray(indices).reshape(-1)
    rows = np.asarray(updates).reshape((idx.size,) + x.shape[1:])
    keep = (idx >= 0) & (idx < int(max_num)) & (idx < x.shape[0])
    x[idx[keep]] = rows[keep]
    return np.zeros(1, x.dtype)


def _sub_and_filter_infer(x, max_num, offset):
    t = tensor_type("SubAndFilter", "input_x", x)
    require_dtype("SubAndFilter", "input_x", t, NUMBERS)
    return AbstractTuple([AbstractTensor(t, (UNKNOWN_DIM,)), AbstractTensor(t, (UNKNOWN_DIM,))])


def _sub_and_filter(x, max_num, offset):
    flat = np.asarray(x).reshape(-1)
    shifted = flat - np.asarray(offset, flat.dtype)
    where = np.nonzero((shifted >= 0) & (shifted < int(max_num)))[0]
    return shifted[where], where.astype(flat.dtype)


UpdateCache = OpDef("UpdateCache", _update_cache_infer, _update_cache, effect=MEM_EFFECT,
                    differentiable=False)
SubAndFilter = OpDef("SubAndFilter", _sub_and_filter_infer, _sub_and_filter,
                     differentiable=False)
