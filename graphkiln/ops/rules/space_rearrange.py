"""Backward and batching rules of ``DepthToSpace`` and ``BatchToSpaceND``
(:mod:`..defs.space_rearrange`): the backward moves ``dout`` back where each element came
from; vmap applies the op to every example."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from ..defs import array as A
from ..defs.space_rearrange import block_list
from .batching import _loop_over_batch
from .bprop import bprop


@bprop("DepthToSpace")
def _depth_to_space(x, out, dout, block_size=2, data_format="NCHW"):
    n, c, h, w = x.shape
    b = block_size
    tiles = F.reshape(dout, (n, c // (b * b), h, b, w, b))  # (n, c', h, i, w, j)
    return (F.reshape(F.transpose(tiles, (0, 3, 5, 1, 2, 4)), (n, c, h, w)),)


@bprop("BatchToSpaceND")
def _batch_to_space(x, out, dout, block_shape=2, crops=((0, 0), (0, 0))):
    blocks = block_list(block_shape)
    k = len(blocks)
    mid, sp = tuple(x.shape[1:-k]), tuple(x.shape[-k:])
    # the cropped borders got nothing: zeros around dout
    pads = ((0, 0),) * (1 + len(mid)) + tuple((int(lo), int(hi)) for lo, hi in crops)
    full = A.Pad(dout, paddings=pads) if any(p != (0, 0) for p in pads) else dout
    n = full.shape[0]
    v = F.reshape(full, (n, *mid, *(e for d, b in zip(sp, blocks) for e in (d, b))))
    # (n, *mid, sp0, b0, sp1, b1, ...) -> (b0, b1, ..., n, *mid, sp0, sp1, ...)
    first = 1 + len(mid)
    perm = ([first + 2 * i + 1 for i in range(k)] + list(range(first))
            + [first + 2 * i for i in range(k)])
    return (F.reshape(F.transpose(v, tuple(perm)), (int(np.prod(blocks)) * n, *mid, *sp)),)


for _name in ("DepthToSpace", "BatchToSpaceND"):
    REGISTRY[_name].def_vmap(_loop_over_batch(REGISTRY[_name]))
del _name
