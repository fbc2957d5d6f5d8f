"""Backward and batching rules of :mod:`..defs.sparse_coo` and :mod:`..defs.sparse_segment`."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ..defs import sparse_coo as SC
from ..defs import sparse_segment as SS
from ..dynamic_shape import shape_of
from .batching_nn import per_example_rule
from .bprop import bprop


@bprop("SparseReorder")
def _sparse_reorder(indices, values, shape, out, dout):
    """The values' cotangent is ``dout``'s values put back in the entries' order: the
    reorder of the entry numbers is the permutation, its argsort the inverse."""
    entries = F.range(0, shape_of(indices)[0], 1)
    perm = SC.SparseReorder(indices, F.cast(entries, mstype.int64), shape)[1]
    return None, F.gather(dout[1], F.argsort(perm), 0), None


@bprop("SparseTensorDenseAdd")
def _sparse_tensor_dense_add(x1_indices, x1_values, x1_shape, x2, out, dout):
    """The values' cotangent reads ``dout`` at their indices; ``x2``'s is ``dout``."""
    return None, F.gather_nd(dout, x1_indices), None, dout


@bprop("SparseTensorToCSRSparseMatrix")
def _sparse_tensor_to_csr(x_indices, x_values, x_dense_shape, out, dout):
    """The entries keep their order: the values' cotangent is the CSR values' one."""
    return None, dout[4], None


for _name in ("SparseReorder", "SparseAddmm", "SparseTensorDenseAdd"):
    per_example_rule(_name)
del _name


@bprop("SparseSegmentSqrtN")
def _sparse_segment_sqrt_n(x, indices, segment_ids, out, dout):
    return SS.SparseSegmentSqrtNGrad(dout, indices, segment_ids, shape_of(x)[0]), None, None


@bprop("SparseSegmentSqrtNGrad")
def _sparse_segment_sqrt_n_grad(dout_in, indices, segment_ids, output_dim0, out, dout):
    """Linear in its first input: the transpose is the forward op itself."""
    return SS.SparseSegmentSqrtN(dout, indices, segment_ids), None, None, None


@bprop("SparseSegmentMean")
def _sparse_segment_mean(x, indices, segment_ids, out, dout):
    return SS.SparseSegmentMeanGrad(dout, indices, segment_ids, shape_of(x)[0]), None, None


@bprop("SparseSegmentMeanGrad")
def _sparse_segment_mean_grad(dout_in, indices, segment_ids, output_dim0, out, dout):
    """Linear in its first input: the transpose is the forward op itself."""
    return SS.SparseSegmentMean(dout, indices, segment_ids), None, None, None


@bprop("SparseSegmentSqrtNWithNumSegments")
def _sparse_segment_sqrt_n_num(x, indices, segment_ids, num_segments, out, dout):
    """``dx[indices[i]] += dout[segment_ids[i]] / sqrt(count of segment_ids[i])``."""
    return _segment_rows_grad(x, indices, segment_ids, num_segments, dout, F.rsqrt)


@bprop("SparseSegmentMeanWithNumSegments")
def _sparse_segment_mean_num(x, indices, segment_ids, num_segments, out, dout):
    """``dx[indices[i]] += dout[segment_ids[i]] / count of segment_ids[i]``."""
    return _segment_rows_grad(x, indices, segment_ids, num_segments, dout, F.reciprocal)


def _segment_rows_grad(x, indices, segment_ids, num_segments, dout, scale_of):
    """Each entry's row of ``dout`` scaled by ``scale_of`` its segment's size, summed into the
    rows of ``x`` it was read from (the sizes by comparing the ids pairwise: no count of
    segments is needed while the graph is built)."""
    seg = F.cast(segment_ids, mstype.int32)
    same = F.equal(F.expand_dims(seg, 1), F.expand_dims(seg, 0))
    scale = scale_of(F.reduce_sum(F.cast(same, dout.dtype), 1))
    rows = F.mul(F.gather(dout, seg, 0), F.reshape(scale, (-1,) + (1,) * (dout.ndim - 1)))
    dx = F.unsorted_segment_sum(rows, F.cast(indices, mstype.int32), shape_of(x)[0])
    return dx, None, None, None


for _name in ("SparseSegmentSqrtN", "SparseSegmentSqrtNGrad",
              "SparseSegmentSqrtNWithNumSegments", "SparseSegmentMean", "SparseSegmentMeanGrad",
              "SparseSegmentMeanWithNumSegments"):
    per_example_rule(_name)
del _name
