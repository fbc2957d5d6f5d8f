"""Backward and batching rules of ``AsinGrad``, ``ACosGrad``, ``AsinhGrad`` and ``AcoshGrad``
(:mod:`..defs.arc_grads`)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...ir.primitive import REGISTRY
from .bprop import _as, _wide, bprop
from .elementwise import _conj, _same_shape_pair

for _name in ("AsinGrad", "ACosGrad", "AsinhGrad", "AcoshGrad"):
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


def _hyperbolic_grad_rule(divisor, other):
    """``out = dy / d(y)`` with ``d`` = ``divisor`` (cosh or sinh) and ``d'`` = ``other``:
    ``d/dy = -dy d'(y) / d(y)^2``, ``d/d dy = 1 / d(y)`` (conjugated for complex inputs)."""
    def rule(y, dy, out, dout):
        yw, dyw, dw = _wide(y), _wide(dy), _wide(dout)
        r = F.div(1.0, divisor(yw))
        dx = F.mul(dw, _conj(F.neg(F.mul(F.mul(dyw, other(yw)), F.mul(r, r)))))
        return _as(dx, y), _as(F.mul(dw, _conj(r)), dy)
    return rule


bprop("AsinhGrad")(_hyperbolic_grad_rule(F.cosh, F.sinh))
bprop("AcoshGrad")(_hyperbolic_grad_rule(F.sinh, F.cosh))
