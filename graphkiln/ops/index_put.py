"""``Tensor.index_put`` (MindSpore's IndexPut): ``input`` with the elements at the 1-D
``indices`` (one per leading axis, broadcast together) replaced by ``values``, or increased
by them when ``accumulate``; a composite of the TensorScatter primitives, so it traces and
differentiates like them."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor

__all__ = ["index_put"]

_NAME = "IndexPut"


def _checked_indices(indices, x: Tensor) -> list:
    if not isinstance(indices, (tuple, list)) or not indices or \
            not all(isinstance(i, Tensor) for i in indices):
        raise TypeError(f"For '{_NAME}', 'indices' must be a non-empty tuple or list of "
                        f"Tensors, but got {indices!r}.")
    if len(indices) > x.ndim:
        raise ValueError(f"For '{_NAME}', the size of 'indices' must be at most the rank of "
                         f"x1 ({x.ndim}), but got {len(indices)}.")
    dtypes = {i.dtype for i in indices}
    if len(dtypes) != 1 or not dtypes <= {mstype.int32, mstype.int64}:
        raise TypeError(f"For '{_NAME}', the tensors in 'indices' must all be int32 or all "
                        f"int64, but got {sorted(str(d) for d in dtypes)}.")
    for k, i in enumerate(indices):
        if i.ndim != 1:
            raise ValueError(f"For '{_NAME}', the tensors in 'indices' must be 1-D, but "
                             f"indices[{k}] has rank {i.ndim}.")
        if not i.is_symbolic:
            data = i.asnumpy()
            dim = x.shape[k]
            if data.size and (data.min() < -dim or data.max() >= dim):
                raise ValueError(f"For '{_NAME}', the elements of indices[{k}] must be in "
                                 f"[{-dim}, {dim}), but got {data.tolist()}.")
    return list(indices)


def index_put(input, indices, values, accumulate: bool = False) -> Tensor:  # noqa: A002
    """``input`` with ``input[indices] = values`` (``+=`` when ``accumulate``)."""
    if not isinstance(accumulate, bool):
        raise TypeError(f"For 'Tensor.index_put', the type of 'accumulate' must be bool, but "
                        f"got {type(accumulate).__name__}.")
    if not isinstance(values, Tensor) or values.dtype != input.dtype:
        got = values.dtype if isinstance(values, Tensor) else type(values).__name__
        raise TypeError(f"For '{_NAME}', 'values' must be a Tensor of the dtype of x1 "
                        f"({input.dtype}), but got {got}.")
    if values.ndim != 1:
        raise ValueError(f"For '{_NAME}', 'values' must be 1-D, but got rank {values.ndim}.")
    indices = _checked_indices(indices, input)
    try:
        (count,) = np.broadcast_shapes(*(tuple(i.shape) for i in indices))
    except ValueError:
        raise ValueError(f"For '{_NAME}', the tensors in 'indices' must be broadcastable, "
                         f"but got shapes {[tuple(i.shape) for i in indices]}.") from None
    k = len(indices)
    allowed = count if k == input.ndim else input.shape[-1]
    if values.shape[0] not in (1, allowed):
        raise ValueError(f"For '{_NAME}', the size of 'values' must be 1 or {allowed}, but "
                         f"got {values.shape[0]}.")
    columns = []
    for axis, i in enumerate(indices):
        i = F.cast(i, mstype.int64)
        wrap = F.mul(F.cast(F.less(i, 0), mstype.int64), input.shape[axis])
        columns.append(F.broadcast_to(F.add(i, wrap), (count,)))
    where = F.stack(columns, 1)
    updates = F.broadcast_to(values, (count,) + tuple(input.shape[k:]))
    scatter = F.tensor_scatter_add if accumulate else F.tensor_scatter_update
    return scatter(input, where, updates)
