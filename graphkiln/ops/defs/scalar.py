"""Scalar primitives: arithmetic, comparisons and logic on Python numbers, the casts
``bool()``/``int()``/``float()``, ``ScalarToTensor`` and ``TensorToScalar``.

They are recorded when an operand is a run-time scalar (a ``mutable`` number, see
:mod:`graphkiln.common.symbolic_scalar`); on constants they are plain Python. Their
outputs carry no gradient (MindSpore gives a mutable scalar a zero gradient).
"""
from __future__ import annotations

import math
import operator

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import UNKNOWN, AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import describe

_NUMBERS = (bool, int, float)


def _kind(name: str, arg: str, a) -> type:
    if isinstance(a, AbstractScalar) and issubclass(a.kind, _NUMBERS):
        return a.kind
    raise TypeError(f"For '{name}', the input '{arg}' must be a bool, int or float scalar, "
                    f"but got {describe(a)}.")


def _result(fn, inputs: tuple, kind: type) -> AbstractScalar:
    """The constant ``fn(*values)`` when every input is a constant (and it computes),
    else a run-time scalar of type ``kind``."""
    if all(a.is_known for a in inputs):
        try:
            return AbstractScalar(kind(fn(*[a.value for a in inputs])))
        except (ArithmeticError, ValueError):
            pass  # (a division by zero...): raised by the kernel when the graph runs
    return AbstractScalar.unknown(kind)


def _binary(name: str, fn, result_kind=None) -> OpDef:
    """``name(x, y) = fn(x, y)``; the result's type follows Python's (``int / int`` is a
    float, ``bool + bool`` an int) unless ``result_kind`` fixes it."""
    def infer(x, y):
        kx, ky = _kind(name, "x", x), _kind(name, "y", y)
        return _result(fn, (x, y), result_kind or type(fn(kx(1), ky(1))))

    return OpDef(name, infer, fn, differentiable=False)


def _unary(name: str, fn, result_kind=None) -> OpDef:
    def infer(x):
        kx = _kind(name, "x", x)
        return _result(fn, (x,), result_kind or type(fn(kx(1))))

    return OpDef(name, infer, fn, differentiable=False)


ScalarAdd = _binary("ScalarAdd", operator.add)
ScalarSub = _binary("ScalarSub", operator.sub)
ScalarMul = _binary("ScalarMul", operator.mul)
ScalarDiv = _binary("ScalarDiv", operator.truediv)
ScalarFloorDiv = _binary("ScalarFloorDiv", operator.floordiv)
ScalarMod = _binary("ScalarMod", operator.mod)
ScalarPow = _binary("ScalarPow", operator.pow)
ScalarEq = _binary("ScalarEq", operator.eq, bool)
ScalarNe = _binary("ScalarNe", operator.ne, bool)
ScalarLt = _binary("ScalarLt", operator.lt, bool)
ScalarLe = _binary("ScalarLe", operator.le, bool)
ScalarGt = _binary("ScalarGt", operator.gt, bool)
ScalarGe = _binary("ScalarGe", operator.ge, bool)
BoolAnd = _binary("BoolAnd", lambda x, y: bool(x) and bool(y), bool)
BoolOr = _binary("BoolOr", lambda x, y: bool(x) or bool(y), bool)
BoolNot = _unary("BoolNot", operator.not_, bool)
ScalarUsub = _unary("ScalarUsub", operator.neg)
ScalarUadd = _unary("ScalarUadd", operator.pos)
ScalarLog = _unary("ScalarLog", math.log, float)


def _promoted(fn):
    """``fn(x, y)`` as the type ``x + y`` has (the larger of an int and a float is a float)."""
    return lambda x, y: type(x + y)(fn(x, y))


ScalarMax = _binary("ScalarMax", _promoted(max))
ScalarMin = _binary("ScalarMin", _promoted(min))

_CASTS = {"bool": bool, "int": int, "float": float}


def _cast_infer(x, to: str = "int"):
    _kind("ScalarCast", "x", x)
    if to not in _CASTS:
        raise ValueError(f"For 'ScalarCast', 'to' must be one of {sorted(_CASTS)}, "
                         f"but got {to!r}.")
    return _result(_CASTS[to], (x,), _CASTS[to])


ScalarCast = OpDef("ScalarCast", _cast_infer, lambda x, to="int": _CASTS[to](x),
                   differentiable=False, attrs={"to": "int"})


def _to_tensor_infer(x, dtype=mstype.float32):
    _kind("ScalarToTensor", "input_x", x)
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"For 'ScalarToTensor', 'dtype' must be a mindspore dtype, "
                        f"but got {dtype!r}.")
    value = None
    if x.value is not UNKNOWN:
        value = np.asarray(x.value, dtype.np_dtype)
    return AbstractTensor(dtype, (), value)


ScalarToTensor = OpDef("ScalarToTensor", _to_tensor_infer,
                       lambda x, dtype=mstype.float32: np.asarray(x, dtype.np_dtype),
                       differentiable=False, attrs={"dtype": mstype.float32})



def _tensor_to_scalar_infer(x):
    if not isinstance(x, AbstractTensor):
        raise TypeError(f"For 'TensorToScalar', the input must be a Tensor, but got "
                        f"{describe(x)}.")
    if tuple(x.shape) not in ((), (1,), (-1,)):
        raise ValueError(f"For 'TensorToScalar', the input must be a 0-D Tensor or hold one "
                         f"element, but got shape {list(x.shape)}.")
    kind = bool if x.dtype is mstype.bool_ else int if x.dtype.is_int else float
    if x.value is not None:
        return AbstractScalar(kind(np.asarray(x.value).reshape(-1)[0]))
    return AbstractScalar.unknown(kind)


def _tensor_to_scalar(x):
    x = np.asarray(x)
    if x.size != 1:
        raise ValueError(f"For 'TensorToScalar', the input must hold one element, but got "
                         f"shape {list(x.shape)}.")
    return x.item()


# the number a one-element Tensor holds (a slice bound computed by the graph)
TensorToScalar = OpDef("TensorToScalar", _tensor_to_scalar_infer, _tensor_to_scalar,
                       differentiable=False)


def _make_slice_infer(start, stop, step):
    for arg, a in (("start", start), ("stop", stop), ("step", step)):
        if not (isinstance(a, AbstractScalar) and (a.kind is int or a.value is None)):
            raise TypeError(f"For 'MakeSlice', the slice's '{arg}' must be an int or None, "
                            f"but got {describe(a)}.")
    if step.is_known and step.value == 0:
        raise ValueError("For 'MakeSlice', the slice step cannot be zero.")
    if all(a.is_known for a in (start, stop, step)):
        return AbstractScalar(slice(start.value, stop.value, step.value))
    return AbstractScalar.unknown(slice)


# ``slice(start, stop, step)`` with run-time int bounds: ``x[a:b]`` of a Tensor by sizes
# read from a dynamic shape
MakeSlice = OpDef("MakeSlice", _make_slice_infer, slice, differentiable=False)


def _tuple_to_array_infer(x):
    if not (isinstance(x, AbstractTuple) and not x.is_list):
        got = "list" if isinstance(x, AbstractTuple) else describe(x)
        raise TypeError(f"For 'TupleToArray', the type of 'x' should be 'tuple', but got "
                        f"type '{got}'.")
    if not x.elements:
        raise ValueError("For 'TupleToArray', the size of x should be > : 0, but got 0.")
    kinds = set()
    for e in x.elements:
        if not isinstance(e, AbstractScalar) or e.kind not in (int, float):
            raise TypeError(f"For 'TupleToArray', every element of 'x' must be an int or "
                            f"float, but got {describe(e)}.")
        kinds.add(e.kind)
    if len(kinds) > 1:
        raise TypeError("For 'TupleToArray', all elements of 'input_x' must be have same "
                        "type.")
    dtype = mstype.int32 if kinds == {int} else mstype.float32
    values = [e.value for e in x.elements]
    known = UNKNOWN not in values
    return AbstractTensor(dtype, (len(values),),
                          np.asarray(values, dtype.np_dtype) if known else None)


TupleToArray = OpDef(
    "TupleToArray", _tuple_to_array_infer,
    lambda x: np.asarray(x, np.int32 if all(isinstance(v, int) for v in x) else np.float32),
    differentiable=False)
