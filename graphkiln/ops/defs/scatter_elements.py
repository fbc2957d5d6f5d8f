"""``TensorScatterElements(input_x, indices, updates, axis, reduction)``: a copy of
``input_x`` with ``updates[i][j]...`` written at ``indices[i][j]...`` along ``axis`` (the
other coordinates kept), as ``out[indices[i][j]][j] = updates[i][j]`` for axis 0.

As MindSpore's CPU kernel: any dtype, ``updates`` of ``input_x``'s dtype and of the shape of
``indices`` (int32/int64, the rank of ``input_x``); ``reduction`` 'none' (the last of
repeated indices wins) or 'add' (they accumulate); a negative index counts from the end.
MindSpore 2.10 leaves ``input_x`` unchanged when an index is out of range; graphkiln
raises a RuntimeError naming it.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import ALL, INDEX_TYPES, norm_axis, require_dtype, shapes_match, tensor_type

_NAME = "TensorScatterElements"
REDUCTIONS = ("none", "add")


def check_reduction(reduction) -> None:
    if reduction not in REDUCTIONS:
        raise ValueError(f"Failed to convert the value \"{reduction}\" of input 'reduce' of "
                         f"'{_NAME}' to enum: it must be one of {list(REDUCTIONS)}.")


def _infer(input_x, indices, updates, axis=0, reduction="none"):
    t = tensor_type(_NAME, "input_x", input_x)
    require_dtype(_NAME, "input_x", t, ALL)
    require_dtype(_NAME, "indices", tensor_type(_NAME, "indices", indices), INDEX_TYPES)
    tu = tensor_type(_NAME, "updates", updates)
    if tu is not t:
        raise TypeError(f"For primitive[{_NAME}], the input type must be same.\n"
                        f"name:[input_x]:Tensor[{t}].\nname:[updates]:Tensor[{tu}].")
    check_reduction(reduction)
    rank = len(input_x.shape)
    norm_axis(_NAME, axis, rank)
    if not shapes_match(tuple(indices.shape), tuple(updates.shape)):
        raise ValueError(f"For '{_NAME}', the shape of 'indices' and the shape of 'updates' "
                         f"should be same, but got indices shape: {list(indices.shape)}; "
                         f"updates shape: {list(updates.shape)}.")
    if len(indices.shape) != rank:
        raise ValueError(f"For '{_NAME}', the rank of 'indices' must equal the rank of "
                         f"'input_x' {rank}, but got {len(indices.shape)}.")
    return AbstractTensor(t, tuple(input_x.shape))


def element_index(indices: np.ndarray, axis: int, dim: int) -> tuple:
    """The full index tuple ``indices`` stands for along ``axis`` (range-checked against
    ``dim``, negatives wrapped)."""
    indices = np.asarray(indices)
    bad = (indices < -dim) | (indices >= dim)
    if bad.any():
        raise RuntimeError(f"For '{_NAME}', the 'indices' must be in the range [{-dim}, "
                           f"{dim}) along axis {axis}, but got {int(indices[bad][0])}.")
    grid = list(np.indices(indices.shape, sparse=True))
    grid[axis] = indices % dim if dim else indices
    return tuple(grid)


def _kernel(input_x, indices, updates, axis=0, reduction="none"):
    axis = axis % max(input_x.ndim, 1)
    out = np.array(input_x, copy=True)
    where = element_index(indices, axis, out.shape[axis] if out.ndim else 1)
    if reduction == "add":
        np.add.at(out, where, updates)
    else:
        out[where] = updates
    return out


TensorScatterElements = OpDef(_NAME, _infer, _kernel, attrs={"axis": 0, "reduction": "none"})
