"""Backward and batching rules of :mod:`..defs.reduced_dims`."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..dynamic_shape import shape_of
from .batching_nn import per_example_rule
from .bprop import bprop


@bprop("KeepReducedDims")
def _keep_reduced_dims(g, x, axis, out, dout):
    """A reshape: the cotangent goes back to ``g``'s shape; ``x`` gives only a shape."""
    return F.reshape(dout, shape_of(g)), None, None


per_example_rule("KeepReducedDims")  # (the axes may be computed at run time)
