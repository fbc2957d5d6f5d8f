"""``linear_sum_assignment``: the optimal rows-to-columns matching of a cost matrix."""
from __future__ import annotations

import sys

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...ops import LinearSumAssignment


def linear_sum_assignment(cost_matrix, maximize: bool, dimension_limit=None):
    """``(row_idx, col_idx)`` of a minimum (or maximum) weight matching; only the first
    ``dimension_limit`` columns take part (the rest of the outputs is -1)."""
    if not isinstance(maximize, bool):
        raise TypeError(f"For 'linear_sum_assignment', 'maximize' must be a bool, but got "
                        f"{type(maximize).__name__}.")
    if dimension_limit is None:
        dimension_limit = Tensor(sys.maxsize, mstype.int64)
    elif not isinstance(dimension_limit, Tensor):
        dimension_limit = Tensor(int(dimension_limit), mstype.int64)
    return LinearSumAssignment()(cost_matrix, dimension_limit, maximize)
