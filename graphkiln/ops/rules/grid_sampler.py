"""Backward and batching rules of :mod:`..defs.grid_sampler`."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import grid_sampler as GS
from .batching_nn import per_example_rule
from .bprop import bprop


def _rule(k: int) -> None:
    grad_op = getattr(GS, f"GridSampler{k}DGrad")

    @bprop(f"GridSampler{k}D")
    def rule(x, grid, out, dout, **attrs):
        dx, dgrid = grad_op(dout, x, grid, **attrs)
        return dx, dgrid


def _grad_rule(k: int) -> None:
    sample = getattr(GS, f"GridSampler{k}D")

    @bprop(f"GridSampler{k}DGrad")
    def rule(grad, x, grid, out, dout, output_mask=(1, 1), **attrs):
        """Linear in ``grad``: d x is the sampling operator transposed (its transpose
        samples again), d grid the derivative along grid (its transpose is that derivative
        in the cotangent's direction); ``x`` and ``grid`` get none (MindSpore has no rule)."""
        gx, ggrid = dout
        parts = []
        if output_mask[0]:
            parts.append(sample(gx, grid, **attrs))
        if output_mask[1]:
            parts.append(GS.GridSamplerGridTangent(x, grid, ggrid, **attrs))
        total = parts[0] if len(parts) == 1 else F.add(parts[0], parts[1]) if parts else \
            F.zeros_like(grad)
        return total, None, None


for _k in (2, 3):
    _rule(_k)
    _grad_rule(_k)
    per_example_rule(f"GridSampler{_k}D")
    per_example_rule(f"GridSampler{_k}DGrad")
@bprop("GridSamplerGridTangent")
def _grid_tangent(x, grid, tangent, out, dout, **attrs):
    """Linear in ``tangent``: its transpose is the grid part of the sampler's gradient."""
    k = len(x.shape) - 2
    grad_op = getattr(GS, f"GridSampler{k}DGrad")
    return None, None, grad_op(dout, x, grid, output_mask=(0, 1), **attrs)[1]


per_example_rule("GridSamplerGridTangent")
del _k
