"""Backward and batching rules of :mod:`..defs.fractional_pool`."""
from __future__ import annotations

from ..defs import fractional_pool as FP
from .batching_nn import per_example_rule
from .bprop import _output, bprop


def _rule(name: str, grad_op) -> None:
    @bprop(name)
    def rule(x, samples, out, dout, data_format=None, **attrs):
        argmax = _output(out, 1, lambda: getattr(FP, name)(x, samples, **attrs))
        return grad_op(x, dout[0], argmax), None


_rule("FractionalMaxPoolWithFixedKsize", FP.FractionalMaxPoolGradWithFixedKsize)
_rule("FractionalMaxPool3DWithFixedKsize", FP.FractionalMaxPool3DGradWithFixedKsize)
for _name in ("FractionalMaxPoolWithFixedKsize", "FractionalMaxPool3DWithFixedKsize",
              "FractionalMaxPoolGradWithFixedKsize", "FractionalMaxPool3DGradWithFixedKsize"):
    per_example_rule(_name)
del _name
