"""Rules of :mod:`..defs.embedding_cache`: the gradient and batching of ``EmbeddingLookup``;
why ``UpdateCache`` and ``SubAndFilter`` have no batching rule."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..defs import array as A
from ..defs import embedding_cache as EC
from .batching import NOT_BATCHED, batch_size, front, rule_for, to_front
from .bprop import bprop

NOT_BATCHED.update({
    "UpdateCache": "memory effect (writes rows of a weight): a vmapped function must be pure "
                   "(clear error)",
    "SubAndFilter": "data-dependent output size: the examples of a batch may keep different "
                    "numbers of elements",
})


def _in_table(idx, rows: int):
    return F.logical_and(F.greater_equal(idx, 0), F.less(idx, rows))


@bprop("EmbeddingLookup")
def _embedding_lookup(params, indices, offset, out, dout):
    """``dout``'s rows added onto the rows they were read from (MindSpore's rule gives the
    same rows as a RowTensor; a row looked up outside ``params`` gets nothing)."""
    rows = params.shape[0]
    idx = F.reshape(F.sub(F.cast(indices, mstype.int64), F.cast(offset, mstype.int64)),
                    (-1,))
    inside = _in_table(idx, rows)
    tail = tuple(params.shape[1:])
    g = F.reshape(dout, (-1,) + tail)
    mask = F.reshape(inside, (-1,) + (1,) * len(tail))
    g = F.select(F.broadcast_to(mask, tuple(g.shape)), g, F.zeros_like(g))
    summed = F.unsorted_segment_sum(g, F.select(inside, idx, F.zeros_like(idx)), rows)
    return summed, None, None


@rule_for("EmbeddingLookup")
def _embedding_lookup_batched(params, indices, offset, *, dims):
    dp, di = dims[0], dims[1]
    if dims[2] is not None:
        raise ValueError("For 'EmbeddingLookup' under vmap, the 'offset' must not be batched.")
    if dp is None:
        return EC.EmbeddingLookup(params, to_front(indices, di), offset), 0
    # the examples' tables stacked into one: example b's row r is row b * rows + r, and an
    # index outside its own table is sent past the stacked one (-1 with offset 0)
    size = batch_size((params, indices), (dp, di))
    p, i = to_front(params, dp), front(indices, di, size)
    rows = p.shape[1]
    idx = F.sub(F.cast(i, mstype.int64), F.cast(offset, mstype.int64))
    base = Tensor(np.arange(size, dtype=np.int64).reshape((size,) + (1,) * (i.ndim - 1)) * rows)
    flat = F.select(_in_table(idx, rows), F.add(idx, base), F.fill(mstype.int64, idx.shape, -1))
    table = A.Reshape(p, (size * rows,) + tuple(p.shape[2:]))
    return EC.EmbeddingLookup(table, flat, 0), 0
