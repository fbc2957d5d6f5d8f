"""Backward and batching rules of ``DepthToSpace``, ``BatchToSpaceND`` and ``SpaceToBatchND``
(:mod:`..defs.space_rearrange`): the backward moves ``dout`` back where each element came
from; vmap applies the op to every example."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from ..defs import space_rearrange as SR
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
    """The cropped borders got nothing: their zeros go back with ``dout`` to the batch."""
    return (SR.SpaceToBatchND(dout, block_shape=block_list(block_shape),
                              paddings=tuple(tuple(int(v) for v in c) for c in crops)),)


@bprop("SpaceToBatchND")
def _space_to_batch(x, out, dout, block_shape=2, paddings=((0, 0), (0, 0))):
    blocks = [block_shape] * len(paddings) if isinstance(block_shape, int) else block_shape
    return (SR.BatchToSpaceND(dout, block_shape=list(blocks), crops=paddings),)


for _name in ("DepthToSpace", "BatchToSpaceND", "SpaceToBatchND"):
    REGISTRY[_name].def_vmap(_loop_over_batch(REGISTRY[_name]))
del _name
