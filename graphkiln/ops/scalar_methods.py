"""Operators of run-time scalars (:class:`~graphkiln.common.symbolic_scalar.SymbolicScalar`):
with numbers and other run-time scalars they record scalar primitives (``ScalarAdd``...),
with a Tensor they are the tensor operation (the scalar is a weak-typed operand)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from .defs import scalar as S

_NUMBER = (bool, int, float)


def _operator(scalar_op, tensor_fn, reflected: bool):
    def method(self, other):
        x, y = (other, self) if reflected else (self, other)
        if isinstance(other, Tensor):
            return tensor_fn(x, y)
        if isinstance(other, (SymbolicScalar, *_NUMBER)):
            return scalar_op(x, y)
        return NotImplemented
    return method


def install() -> None:
    """Attach the operators to :class:`SymbolicScalar`."""
    for name, op, fn in [("add", S.ScalarAdd, F.add), ("sub", S.ScalarSub, F.sub),
                         ("mul", S.ScalarMul, F.mul), ("truediv", S.ScalarDiv, F.div),
                         ("floordiv", S.ScalarFloorDiv, F.floor_div),
                         ("mod", S.ScalarMod, F.mod), ("pow", S.ScalarPow, F.pow)]:
        setattr(SymbolicScalar, f"__{name}__", _operator(op, fn, False))
        setattr(SymbolicScalar, f"__r{name}__", _operator(op, fn, True))
    for name, op, fn in [("eq", S.ScalarEq, F.equal), ("ne", S.ScalarNe, F.not_equal),
                         ("lt", S.ScalarLt, F.less), ("le", S.ScalarLe, F.less_equal),
                         ("gt", S.ScalarGt, F.greater), ("ge", S.ScalarGe, F.greater_equal)]:
        setattr(SymbolicScalar, f"__{name}__", _operator(op, fn, False))
    SymbolicScalar.__neg__ = lambda self: S.ScalarUsub(self)
    SymbolicScalar.__pos__ = lambda self: self


install()
