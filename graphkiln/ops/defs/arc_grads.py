"""``AsinGrad`` and ``ACosGrad``: the backward kernels of ``Asin`` and ``Acos`` that MindSpore
exposes (``ops.operations._grad_ops``), from the forward input ``x`` and the cotangent
``dout``: ``dout / sqrt(1 - x*x)``, negated for ``ACosGrad``. Complex inputs divide by the
conjugate root, as MindSpore's CPU kernels do; outside [-1, 1] a real input gives NaN.
``AsinhGrad`` and ``AcoshGrad`` take the forward *output* ``y``: ``dout / cosh(y)`` and
``dout / sinh(y)`` (complex: the conjugate); a ``dy`` of another float type is computed in
``y``'s, as MindSpore's kernel selection casts it."""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import COMPLEX, FLOATS, require_dtype, shape, shapes_match, tensor_type
from .elementwise import _grad_infer, _grad_kernel


def _asin_grad(x, dout):
    return dout / np.conj(np.sqrt(1 - x * x))


def _acos_grad(x, dout):
    return -_asin_grad(x, dout)


AsinGrad = OpDef("AsinGrad", _grad_infer("AsinGrad", "x", "dout", FLOATS + COMPLEX),
                 _grad_kernel(_asin_grad))
ACosGrad = OpDef("ACosGrad", _grad_infer("ACosGrad", "x", "dout", FLOATS + COMPLEX),
                 _grad_kernel(_acos_grad))


def _asinh_grad(y, dout):
    return dout / np.conj(np.cosh(y))


def _acosh_grad(y, dout):
    return dout / np.conj(np.sinh(y))


def _hyperbolic_infer(name: str):
    def infer(y, dy):
        t = tensor_type(name, "y", y)
        require_dtype(name, "y", t, FLOATS + COMPLEX)
        td = tensor_type(name, "dy", dy)
        if td not in FLOATS + COMPLEX or (t in COMPLEX) != (td in COMPLEX):
            raise TypeError(f"Select CPU operator[{name}] fail! Unsupported data type! 'y' "
                            f"is {t} and 'dy' is {td}.")
        if not shapes_match(tuple(shape(y)), tuple(shape(dy))):
            raise RuntimeError(f"For '{name}', the shape of 'dy' must be the shape of 'y' "
                               f"{list(shape(y))}, but got {list(shape(dy))}.")
        return AbstractTensor(t, tuple(shape(y)))
    return infer


AsinhGrad = OpDef("AsinhGrad", _hyperbolic_infer("AsinhGrad"), _grad_kernel(_asinh_grad))
AcoshGrad = OpDef("AcoshGrad", _hyperbolic_infer("AcoshGrad"), _grad_kernel(_acosh_grad))
