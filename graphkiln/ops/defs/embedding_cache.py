"""MindSpore's embedding-cache primitives (``ops.operations._embedding_cache_ops``), as its
CPU kernels.

``UpdateCache`` writes ``updates[k]`` into row ``indices[k]`` of a weight, skipping indices
outside ``[0, max_num)``; ``SubAndFilter`` subtracts ``offset`` and keeps the results in
``[0, max_num)`` with their positions (a leading dimension known only at run time).

The index maps are integer-valued, so without gradients:
``MapUniform(input, per_group_size, group_num)`` sends id ``i`` to
``i % group_num * per_group_size + i / group_num`` (C integer division and remainder, which
truncate toward zero); a result ``>= group_num * per_group_size`` is an error.
``EmbeddingLookup(params, indices, offset)`` gives the rows ``params[indices - offset]``
(``indices.shape + params.shape[1:]``), a row of zeros where ``indices - offset`` falls
outside ``params``; its gradient adds ``dout``'s rows back onto those rows.
``PadAndShift(input_x, cum_sum_arr, shift_idx)`` gives ``cum_sum_arr[-1]`` elements, all -1
except the first ``cum_sum_arr[shift_idx + 1] - cum_sum_arr[shift_idx]`` elements of
``input_x``, copied in at ``cum_sum_arr[shift_idx]``: its size depends on the values (in a
graph, known when the graph runs).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..primitive import MEM_EFFECT, OpDef
from ._infer import (
    INDEX_TYPES,
    NUMBERS,
    SIGNED_INTS,
    UNKNOWN_DIM,
    describe,
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


_INDEX = (mstype.int32, mstype.int64)


def _int_input(name: str, arg: str, a, allowed) -> mstype.Type:
    t = tensor_type(name, arg, a)
    if t not in allowed:
        names = ", ".join(f"Tensor[{x}]" for x in allowed)
        raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                        f"{{{names}}}, but got {describe(a)}.")
    return t


def _scalar(v) -> int:
    return int(np.asarray(v).reshape(-1)[0])


def _map_uniform_infer(x, per_group_size, group_num):
    t = _int_input("MapUniform", "input", x, SIGNED_INTS)
    return AbstractTensor(t, tuple(x.shape))


def _map_uniform(x, per_group_size, group_num):
    x = np.asarray(x)
    size, groups = _scalar(per_group_size), _scalar(group_num)
    if groups <= 0:
        raise RuntimeError(f"For 'MapUniform', the 'group_num' must be greater than 0, but got "
                           f"{groups}")
    out = np.fmod(x, groups) * size + (np.sign(x) * (np.abs(x) // groups))
    too_big = out >= groups * size
    if too_big.any():
        raise RuntimeError(f"For 'MapUniform', all elements in output must be less than "
                           f"{groups * size}, but got {out[too_big].reshape(-1)[0]}")
    return out.astype(x.dtype)


# MapUniform(input, per_group_size, group_num): ids spread uniformly over the groups
MapUniform = OpDef("MapUniform", _map_uniform_infer, _map_uniform, differentiable=False)


def _pad_and_shift_infer(x, cum_sum_arr, shift_idx):
    t = _int_input("PadAndShift", "input_x", x, _INDEX)
    _int_input("PadAndShift", "cum_sum_arr", cum_sum_arr, _INDEX)
    if len(x.shape) != 1:
        raise RuntimeError("Rank of PadAndShift's input must be 1.")
    if len(cum_sum_arr.shape) != 1:
        raise RuntimeError(f"For 'PadAndShift', the dimension of 'cum_sum_arr' must be 1, but "
                           f"got {len(cum_sum_arr.shape)}.")
    return AbstractTensor(t, (UNKNOWN_DIM,))


def _pad_and_shift(x, cum_sum_arr, shift_idx):
    x, sums = np.asarray(x), np.asarray(cum_sum_arr).reshape(-1)
    shift = _scalar(shift_idx)
    if shift < 0 or shift >= sums.size:
        raise RuntimeError(f"For 'PadAndShift', shift index must be large than 0 and less than "
                           f"cumsum size, but got shift index: {shift} and cumsum size: "
                           f"{sums.size}")
    size = int(sums[-1])
    if not 0 <= size <= x.size:
        raise RuntimeError(f"For 'PadAndShift', the output size cum_sum_arr[-1] = {size} must "
                           f"be in [0, {x.size}], the size of 'input_x'.")
    start = int(sums[shift])
    valid = int(sums[shift + 1]) - start if shift + 1 < sums.size else 0
    out = np.full(size, -1, x.dtype)
    out[start:start + valid] = x[:valid]
    return out


# PadAndShift(input_x, cum_sum_arr, shift_idx): a run of input_x placed into a -1 padding
PadAndShift = OpDef("PadAndShift", _pad_and_shift_infer, _pad_and_shift,
                    differentiable=False)


def _embedding_lookup_infer(params, indices, offset):
    name = "EmbeddingLookup"
    t = tensor_type(name, "params", params)
    ti = tensor_type(name, "indices", indices)
    if ti not in INDEX_TYPES:
        raise TypeError(f"For primitive[{name}], the input argument[indices] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{ti}].")
    ok_offset = isinstance(offset, AbstractScalar) and offset.kind in (int, np.int32, np.int64) \
        and offset.kind is not bool or isinstance(offset, AbstractTensor) \
        and offset.dtype in INDEX_TYPES and len(offset.shape) == 0
    if not ok_offset:
        raise TypeError(f"For primitive[{name}], the input argument[offset] must be a type of "
                        f"{{Int32, Int64}}, but got {describe(offset)}.")
    if len(params.shape) not in (1, 2):
        raise ValueError(f"For primitive[{name}], the dimension of params must be in [1,2], "
                         f"but got {len(params.shape)}.")
    if len(indices.shape) == 0:
        raise ValueError(f"For primitive[{name}], the dimension of indices  must be greater "
                         f"than 0 , but got 0.")
    return AbstractTensor(t, tuple(indices.shape) + tuple(params.shape[1:]))


def lookup_rows(indices, offset, rows: int):
    """``(indices - offset, inside)`` as int64 arrays: the row of each index and whether it
    is one of the ``rows`` rows."""
    idx = np.asarray(indices).astype(np.int64) - int(np.asarray(offset).reshape(()))
    return idx, (idx >= 0) & (idx < rows)


def _embedding_lookup(params, indices, offset):
    idx, inside = lookup_rows(indices, offset, params.shape[0])
    out = np.zeros(idx.shape + params.shape[1:], params.dtype)
    out[inside] = params[idx[inside]]
    return out


# EmbeddingLookup(params, indices, offset): rows params[indices - offset], zeros outside
EmbeddingLookup = OpDef("EmbeddingLookup", _embedding_lookup_infer, _embedding_lookup)
