"""Backward and batching rules of :mod:`..defs.grid_sampler`."""
from __future__ import annotations

from ..defs import grid_sampler as GS
from .batching_nn import per_example_rule
from .bprop import bprop


def _rule(k: int) -> None:
    grad_op = getattr(GS, f"GridSampler{k}DGrad")

    @bprop(f"GridSampler{k}D")
    def rule(x, grid, out, dout, **attrs):
        dx, dgrid = grad_op(dout, x, grid, **attrs)
        return dx, dgrid


for _k in (2, 3):
    _rule(_k)
    per_example_rule(f"GridSampler{_k}D")
    per_example_rule(f"GridSampler{_k}DGrad")
del _k
