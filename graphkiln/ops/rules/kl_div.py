"""Backward and batching rules of ``KLDivLoss`` and ``KLDivLossGrad`` (:mod:`..defs.kl_div`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from ..defs import kl_div as K
from .batching import batch_size, front
from .bprop import bprop


@bprop("KLDivLoss")
def _kl_div_loss(x, target, out, dout, reduction="mean"):
    return K.KLDivLossGrad(dout, x, target, reduction=reduction), F.zeros_like(target)


@bprop("KLDivLossGrad")
def _kl_div_loss_grad(dy, x, target, out, dout, reduction="mean"):
    # out = -target * dy * scale, with a reduced loss's dy broadcast from its one element
    scale = -1.0 / K.reduction_scale(reduction, tuple(x.shape))
    if reduction == "none":
        return (F.mul(F.mul(target, dout), scale), F.zeros_like(x),
                F.mul(F.mul(dy, dout), scale))
    d_dy = F.reshape(F.reduce_sum(F.mul(F.mul(target, dout), scale)), dy.shape)
    dy_value = F.reshape(dy, ())
    return d_dy, F.zeros_like(x), F.mul(F.mul(dout, dy_value), scale)


def _per_example(opdef):
    """Each example on its own (a reduction's scale is per example), results stacked."""
    def rule(*args, dims, **attrs):
        size = batch_size(args, dims)
        outs = [opdef(*[F.getitem(front(a, d, size), k) for a, d in zip(args, dims)], **attrs)
                for k in range(size)]
        return F.stack(outs, 0), 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("KLDivLoss", "KLDivLossGrad"):
    REGISTRY[_name].def_vmap(_per_example(REGISTRY[_name]))
del _name
