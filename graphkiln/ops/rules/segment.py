"""Backward and batching rules of the segment reductions (:mod:`..defs.segment`) and of
``TensorScatterElements`` (:mod:`..defs.scatter_elements`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ..defs import array as A
from ..defs import segment as SG
from ..defs.scatter_elements import TensorScatterElements
from .batching import batch_size, front, move_axis, rule_for
from .batching_nn import per_example
from .bprop import bprop


def _spread(v, segment_ids):
    """Each segment's row of ``v`` at the positions of its members (``x``'s shape)."""
    return A.Gather(v, segment_ids, 0)


@bprop("UnsortedSegmentSum")
def _segment_sum(x, segment_ids, num_segments, out, dout):
    return _spread(dout, segment_ids), None, None


def _extremum_rule(name: str):
    @bprop(name)
    def rule(x, segment_ids, num_segments, out, dout):
        # ties share the cotangent evenly, as MindSpore's rule does
        hit = F.cast(F.equal(x, _spread(out, segment_ids)), x.dtype)
        count = SG.UnsortedSegmentSum(hit, segment_ids, num_segments)
        share = F.div(dout, F.maximum(count, F.ones_like(count)))
        return F.mul(hit, _spread(share, segment_ids)), None, None
    return rule


_extremum_rule("UnsortedSegmentMax")
_extremum_rule("UnsortedSegmentMin")


@bprop("UnsortedSegmentProd")
def _segment_prod(x, segment_ids, num_segments, out, dout):
    """The product of the segment's other members: ``out / x`` without zeros, the product
    of the nonzero members for a segment's only zero, else 0."""
    zero = F.equal(x, F.zeros_like(x))
    zeros = _spread(SG.UnsortedSegmentSum(F.cast(zero, mstype.int32), segment_ids,
                                          num_segments), segment_ids)
    safe = F.select(zero, F.ones_like(x), x)
    others = _spread(SG.UnsortedSegmentProd(safe, segment_ids, num_segments), segment_ids)
    nothing = F.zeros_like(x)
    deriv = F.select(zero, F.select(F.equal(zeros, 1), others, nothing),
                     F.select(F.equal(zeros, 0), F.div(others, safe), nothing))
    return F.mul(deriv, _spread(dout, segment_ids)), None, None


def _segment_rule(opdef):
    def rule(x, segment_ids, num_segments, *, dims):
        if dims[1] is not None or dims[2] is not None:
            return per_example(opdef, (x, segment_ids, num_segments), dims, {})
        lead = segment_ids.ndim
        return opdef(move_axis(x, dims[0], lead), segment_ids, num_segments), 1
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _opdef in SG.SEGMENT_OPS.values():
    _opdef.def_vmap(_segment_rule(_opdef))
del _opdef


@bprop("TensorScatterElements")
def _scatter_elements(x, indices, updates, out, dout, axis=0, reduction="none"):
    d_updates = A.GatherD(dout, axis, indices)
    if reduction == "add":
        return dout, None, d_updates
    cleared = TensorScatterElements(dout, indices, F.zeros_like(updates), axis=axis)
    return cleared, None, d_updates


@rule_for("TensorScatterElements")
def _scatter_elements_vmap(x, indices, updates, *, dims, axis=0, reduction="none"):
    size = batch_size((x, indices, updates), dims)
    rank = x.ndim - (dims[0] is not None)
    args = [front(a, d, size) for a, d in zip((x, indices, updates), dims)]
    return TensorScatterElements(*args, axis=axis % max(rank, 1) + 1, reduction=reduction), 0
