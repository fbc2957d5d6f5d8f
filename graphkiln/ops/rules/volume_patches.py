"""Backward and batching rules of ``ExtractVolumePatches`` (:mod:`..defs.volume_patches`):
the backward sums each output cotangent into the input element it was read from (none for
the zero padding); vmap applies the op to every example."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ...ir.primitive import REGISTRY
from ..defs.segment import UnsortedSegmentSum
from ..defs.volume_patches import patch_index
from .batching import _loop_over_batch
from .bprop import bprop


@bprop("ExtractVolumePatches")
def _extract_volume_patches(x, out, dout, kernel_size=1, strides=1, padding="VALID"):
    n, *per_example = x.shape
    size = int(np.prod(per_example))
    idx = patch_index(tuple(per_example), kernel_size, strides, padding).ravel()
    ids = Tensor(np.where(idx >= 0, idx, size).astype(np.int32))  # padding: a dropped row
    rows = F.transpose(F.reshape(dout, (n, -1)), (1, 0))
    sums = UnsortedSegmentSum(rows, ids, size + 1)[:size]
    return (F.reshape(F.transpose(sums, (1, 0)), x.shape),)


REGISTRY["ExtractVolumePatches"].def_vmap(_loop_over_batch(REGISTRY["ExtractVolumePatches"]))
