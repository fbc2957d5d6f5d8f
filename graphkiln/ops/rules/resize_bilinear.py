"""Backward and batching rules of ``ResizeBilinearV2`` and ``ResizeBilinearGrad``
(:mod:`..defs.resize_bilinear`): both are linear, each one's backward is the other."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import resize_bilinear as RB
from .batching_nn import per_example_rule
from .bprop import _as, bprop

for _name in ("ResizeBilinearV2", "ResizeBilinearGrad"):
    per_example_rule(_name)
del _name


@bprop("ResizeBilinearV2")
def _resize_bilinear(x, size, out, dout, **attrs):
    return _as(RB.ResizeBilinearGrad(dout, x, **attrs), x), None


@bprop("ResizeBilinearGrad")
def _resize_bilinear_grad(grads, image, out, dout, **attrs):
    size = tuple(grads.shape[2:])
    return _as(RB.ResizeBilinearV2(dout, size, **attrs), grads), F.zeros_like(image)
