"""``ops.unsorted_segment_{sum,max,min,prod}``, ``ops.sparse_segment_mean`` and
``ops.tensor_scatter_elements`` (the primitives are in :mod:`.defs.segment`,
:mod:`.defs.sparse_segment` and :mod:`.defs.scatter_elements`)."""
from __future__ import annotations

from ..common.tensor import Tensor
from .defs import segment as SG
from .defs.scatter_elements import TensorScatterElements
from .defs.sparse_segment import SparseSegmentMean

__all__ = ["unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
           "unsorted_segment_prod", "tensor_scatter_elements", "sparse_segment_mean"]


def sparse_segment_mean(x: Tensor, indices: Tensor, segment_ids: Tensor) -> Tensor:
    """Row ``s``: the mean of the rows ``x[indices[i]]`` with ``segment_ids[i] == s`` (the
    ids sorted; a segment without rows is zeros)."""
    return SparseSegmentMean(x, indices, segment_ids)


def unsorted_segment_sum(input_x: Tensor, segment_ids: Tensor, num_segments) -> Tensor:
    """Row ``k``: the sum of the slices of ``input_x`` whose ``segment_ids`` are ``k``."""
    return SG.UnsortedSegmentSum(input_x, segment_ids, num_segments)


def unsorted_segment_max(x: Tensor, segment_ids: Tensor, num_segments) -> Tensor:
    """Row ``k``: the maximum of the slices of ``x`` whose ``segment_ids`` are ``k``."""
    return SG.UnsortedSegmentMax(x, segment_ids, num_segments)


def unsorted_segment_min(x: Tensor, segment_ids: Tensor, num_segments) -> Tensor:
    """Row ``k``: the minimum of the slices of ``x`` whose ``segment_ids`` are ``k``."""
    return SG.UnsortedSegmentMin(x, segment_ids, num_segments)


def unsorted_segment_prod(x: Tensor, segment_ids: Tensor, num_segments) -> Tensor:
    """Row ``k``: the product of the slices of ``x`` whose ``segment_ids`` are ``k``."""
    return SG.UnsortedSegmentProd(x, segment_ids, num_segments)


def tensor_scatter_elements(input_x: Tensor, indices: Tensor, updates: Tensor, axis: int = 0,
                            reduction: str = "none") -> Tensor:
    """``input_x`` with ``updates`` written (``'none'``) or added (``'add'``) at
    ``indices`` along ``axis``."""
    return TensorScatterElements(input_x, indices, updates, axis=axis, reduction=reduction)
