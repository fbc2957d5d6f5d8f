"""``LinearSumAssignment`` (``mindspore.scipy.ops``): the rows and columns of a minimum (or,
with ``maximize``, maximum) cost matching of a 2-D cost matrix, by the shortest augmenting
path method (Crouse, "On implementing 2D rectangular assignment algorithms", 2016, as SciPy's
``linear_sum_assignment``). ``dimension_limit`` keeps only the first columns; the outputs
(Int64) have ``min(M, N)`` entries, -1 after the matched pairs."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import describe, tensor_type

_COST_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.int8, mstype.int16,
               mstype.int32, mstype.int64, mstype.uint8, mstype.uint16, mstype.uint32,
               mstype.uint64, mstype.bool_)


def _infer(cost, dimension_limit, maximize):
    t = tensor_type("LinearSumAssignment", "cost_matrix", cost)
    if t not in _COST_TYPES:
        raise TypeError(f"For 'LinearSumAssignment', the type of 'cost_matrix' must be a real "
                        f"number or bool type, but got Tensor[{t}].")
    if len(cost.shape) != 2:
        raise ValueError(f"For 'LinearSumAssignment', the rank of 'cost_matrix' must be 2, "
                         f"but got {len(cost.shape)}.")
    if tensor_type("LinearSumAssignment", "dimension_limit", dimension_limit) != mstype.int64:
        raise TypeError("For 'LinearSumAssignment', the type of 'dimension_limit' must be "
                        "Int64.")
    if not (isinstance(maximize, AbstractScalar) and maximize.kind is bool):
        raise TypeError(f"For 'LinearSumAssignment', 'maximize' must be a bool, but got "
                        f"{describe(maximize)}.")
    n = min(cost.shape) if min(cost.shape) >= 0 else -1
    return AbstractTuple([AbstractTensor(mstype.int64, (n,)), AbstractTensor(mstype.int64, (n,))])


def _augment(cost: np.ndarray, cur: int, u, v, col4row, row4col) -> None:
    """Add row ``cur`` to the matching along a shortest augmenting path."""
    rows, cols = cost.shape
    shortest = np.full(cols, np.inf)
    path = np.full(cols, -1)
    seen_rows = np.zeros(rows, bool)
    seen_cols = np.zeros(cols, bool)
    remaining = list(range(cols - 1, -1, -1))
    low, i, sink = 0.0, cur, -1
    while sink == -1:
        seen_rows[i] = True
        index, lowest = -1, np.inf
        for it, j in enumerate(remaining):
            r = low + cost[i, j] - u[i] - v[j]
            if r < shortest[j]:
                path[j], shortest[j] = i, r
            if shortest[j] < lowest or shortest[j] == lowest and row4col[j] == -1:
                lowest, index = shortest[j], it
        low = lowest
        if not np.isfinite(low):
            raise ValueError("For 'LinearSumAssignment', the cost matrix is infeasible.")
        j = remaining[index]
        if row4col[j] == -1:
            sink = j
        else:
            i = row4col[j]
        seen_cols[j] = True
        remaining[index] = remaining[-1]
        remaining.pop()
    u[cur] += low
    others = seen_rows & (np.arange(rows) != cur)
    u[others] += low - shortest[col4row[others]]
    v[seen_cols] -= low - shortest[seen_cols]
    j = sink
    while True:
        i = path[j]
        row4col[j] = i
        col4row[i], j = j, col4row[i]
        if i == cur:
            break


def _kernel(cost, dimension_limit, maximize):
    cost = np.asarray(cost, np.float64)
    m, n = cost.shape
    width = min(n, int(dimension_limit))
    work = -cost[:, :width] if maximize else cost[:, :width]
    transposed = work.shape[0] > work.shape[1]
    if transposed:
        work = work.T
    rows, cols = work.shape
    u, v = np.zeros(rows), np.zeros(cols)
    col4row, row4col = np.full(rows, -1), np.full(cols, -1)
    for cur in range(rows):
        _augment(work, cur, u, v, col4row, row4col)
    row_ind, col_ind = np.arange(rows), col4row
    if transposed:
        order = np.argsort(col_ind)
        row_ind, col_ind = col_ind[order], row_ind[order]
    size = min(m, n)
    out_rows, out_cols = np.full(size, -1, np.int64), np.full(size, -1, np.int64)
    out_rows[:len(row_ind)], out_cols[:len(col_ind)] = row_ind, col_ind
    return out_rows, out_cols


LinearSumAssignment = OpDef("LinearSumAssignment", _infer, _kernel, differentiable=False)
