"""Backward and batching rules of ``Betainc`` (:mod:`..defs.betainc`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from .batching import batch_size, front
from .bprop import bprop


def _rule(a, b, x, *, dims, **attrs):
    size = batch_size((a, b, x), dims)
    return REGISTRY["Betainc"](*(front(v, d, size) for v, d in zip((a, b, x), dims))), 0


REGISTRY["Betainc"].def_vmap(_rule)


@bprop("Betainc")
def _betainc(a, b, x, out, dout):
    """``d/dx = x^(a-1) (1-x)^(b-1) / B(a, b)``; MindSpore gives ``a`` and ``b`` zero
    cotangents (the parameter derivatives have no closed form)."""
    log_beta = F.sub(F.add(F.lgamma(a), F.lgamma(b)), F.lgamma(F.add(a, b)))
    log_dx = F.sub(F.add(F.mul(F.sub(b, 1.0), F.log1p(F.neg(x))), F.mul(F.sub(a, 1.0), F.log(x))),
                   log_beta)
    return F.zeros_like(a), F.zeros_like(b), F.mul(dout, F.exp(log_dx))
