"""Backward and batching rules of ``MaskedScatter`` (:mod:`..defs.masked_scatter`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...ir.primitive import REGISTRY
from ..defs import cumulative as C
from ..defs import segment as SG
from .batching import _loop_over_batch
from .bprop import bprop


@bprop("MaskedScatter")
def _masked_scatter(x, mask, updates, out, dout):
    """A replaced position sends its cotangent to the element of ``updates`` it took (the
    k-th True of the mask takes element k), the others to ``x``."""
    where = F.broadcast_to(mask, tuple(x.shape))
    dx = F.select(where, F.zeros_like(dout), dout)
    flat = F.reshape(where, (-1,))
    taken = F.sub(C.CumSum(F.cast(flat, mstype.int32), 0), 1)
    size = 1
    for d in updates.shape:
        size *= d
    spare = F.fill(mstype.int32, (flat.shape[0],), size)  # not taken: a dropped segment
    ids = F.select(flat, taken, spare)
    dupdates = SG.UnsortedSegmentSum(F.reshape(dout, (-1,)), ids, size + 1)
    return dx, None, F.reshape(F.getitem(dupdates, slice(0, size)), tuple(updates.shape))


# each example takes its own updates from the first on
REGISTRY["MaskedScatter"].def_vmap(_loop_over_batch(REGISTRY["MaskedScatter"]))
