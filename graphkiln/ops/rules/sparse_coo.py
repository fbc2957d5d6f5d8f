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


for _name in ("SparseReorder", "SparseAddmm"):
    per_example_rule(_name)
del _name


@bprop("SparseSegmentSqrtN")
def _sparse_segment_sqrt_n(x, indices, segment_ids, out, dout):
    return SS.SparseSegmentSqrtNGrad(dout, indices, segment_ids, shape_of(x)[0]), None, None


@bprop("SparseSegmentSqrtNGrad")
def _sparse_segment_sqrt_n_grad(dout_in, indices, segment_ids, output_dim0, out, dout):
    """Linear in its first input: the transpose is the forward op itself."""
    return SS.SparseSegmentSqrtN(dout, indices, segment_ids), None, None, None


def _num_segments_rule(name: str, power: float) -> None:
    @bprop(name)
    def rule(x, indices, segment_ids, num_segments, out, dout):
        """``dx[indices[i]] += dout[segment_ids[i]] / (count of segment_ids[i]) ** power``."""
        seg = F.cast(segment_ids, mstype.int32)
        ones = F.ones(tuple(segment_ids.shape), dout.dtype)
        counts = F.unsorted_segment_sum(ones, seg, F.shape(dout)[0])
        picked = F.gather(counts, seg, 0)
        scale = F.rsqrt(picked) if power == 0.5 else F.div(F.ones_like(picked), picked)
        rows = F.mul(F.gather(dout, seg, 0), F.reshape(scale, (-1,) + (1,) * (dout.ndim - 1)))
        dx = F.unsorted_segment_sum(rows, F.cast(indices, mstype.int32), shape_of(x)[0])
        return dx, None, None, None


for _name, _power in SS.NUM_SEGMENTS_POWER.items():
    _num_segments_rule(_name, _power)
del _power


for _name in ("SparseSegmentSqrtN", "SparseSegmentSqrtNGrad", *SS.NUM_SEGMENTS_POWER):
    per_example_rule(_name)
del _name
