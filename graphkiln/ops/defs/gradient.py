"""``StopGradient``: the identity, through which no gradient flows."""
from __future__ import annotations

from ...ir.abstract import AbstractTensor
from ..primitive import OpDef
from ._infer import tensor_type


def _stop_gradient_infer(x):
    return AbstractTensor(tensor_type("StopGradient", "x", x), x.shape)


# not differentiable: autodiff gives its input no cotangent
StopGradient = OpDef("StopGradient", _stop_gradient_infer, lambda x: x, differentiable=False)
