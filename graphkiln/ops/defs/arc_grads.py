"""``AsinGrad`` and ``ACosGrad``: the backward kernels of ``Asin`` and ``Acos`` that MindSpore
exposes (``ops.operations._grad_ops``), from the forward input ``x`` and the cotangent
``dout``: ``dout / sqrt(1 - x*x)``, negated for ``ACosGrad``. Complex inputs divide by the
conjugate root, as MindSpore's CPU kernels do; outside [-1, 1] a real input gives NaN.
``AsinhGrad`` and ``AcoshGrad``, the backward kernels of ``Asinh`` and ``Acosh``, take the
forward *output* ``y`` and the cotangent ``dy``: ``dy / cosh(y)`` and ``dy / sinh(y)``
(conjugated for complex inputs)."""
from __future__ import annotations

import numpy as np

from ...ir.primitive import OpDef
from ._infer import COMPLEX, FLOATS
from .elementwise import _grad_infer, _grad_kernel


def _asin_grad(x, dout):
    return dout / np.conj(np.sqrt(1 - x * x))


def _acos_grad(x, dout):
    return -_asin_grad(x, dout)


AsinGrad = OpDef("AsinGrad", _grad_infer("AsinGrad", "x", "dout", FLOATS + COMPLEX),
                 _grad_kernel(_asin_grad))
ACosGrad = OpDef("ACosGrad", _grad_infer("ACosGrad", "x", "dout", FLOATS + COMPLEX),
                 _grad_kernel(_acos_grad))


def _asinh_grad(y, dy):
    return dy / np.conj(np.cosh(y))


def _acosh_grad(y, dy):
    return dy / np.conj(np.sinh(y))


AsinhGrad = OpDef("AsinhGrad", _grad_infer("AsinhGrad", "y", "dy", FLOATS + COMPLEX),
                  _grad_kernel(_asinh_grad))
AcoshGrad = OpDef("AcoshGrad", _grad_infer("AcoshGrad", "y", "dy", FLOATS + COMPLEX),
                  _grad_kernel(_acosh_grad))
