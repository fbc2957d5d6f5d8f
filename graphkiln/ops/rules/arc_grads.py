"""Backward and batching rules of ``AsinGrad`` and ``ACosGrad`` (:mod:`..defs.arc_grads`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from .bprop import _as, _wide, bprop
from .elementwise import _conj, _same_shape_pair

for _name in ("AsinGrad", "ACosGrad"):
    REGISTRY[_name].def_vmap(_same_shape_pair(REGISTRY[_name]))
del _name


def _arc_grad_rule(sign: float):
    """``out = sign * dy * r`` with ``r = (1 - x*x)^(-1/2)``: ``d/dx = sign * dy * x * r^3``,
    ``d/d dy = sign * r`` (conjugated for complex inputs)."""
    def rule(x, dy, out, dout):
        xw, dyw, dw = _wide(x), _wide(dy), _wide(dout)
        r = F.div(1.0, F.sqrt(F.sub(1.0, F.mul(xw, xw))))
        dx = F.mul(dw, _conj(F.mul(F.mul(F.mul(dyw, xw), F.mul(r, F.mul(r, r))), sign)))
        return _as(dx, x), _as(F.mul(dw, _conj(F.mul(r, sign))), dy)
    return rule


bprop("AsinGrad")(_arc_grad_rule(1.0))
bprop("ACosGrad")(_arc_grad_rule(-1.0))
