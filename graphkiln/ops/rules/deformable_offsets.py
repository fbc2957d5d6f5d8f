"""Backward and batching rules of :mod:`..defs.deformable_offsets`."""
from __future__ import annotations

from ..defs import deformable_offsets as DO
from .batching_nn import per_example_rule
from .bprop import bprop


@bprop("DeformableOffsets")
def _deformable_offsets(x, offsets, out, dout, ksize=None, **attrs):
    dx, doffsets = DO.DeformableOffsetsGrad(dout, x, offsets, kernel_size=ksize, **attrs)
    return dx, doffsets


per_example_rule("DeformableOffsets")
per_example_rule("DeformableOffsetsGrad")
