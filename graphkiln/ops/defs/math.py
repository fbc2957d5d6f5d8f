"""Elementwise math, comparison and logical primitives."""
from __future__ import annotations

import math

import numpy as np

from ...common import dtype as mstype
from ...compiler.ir.abstract import AbstractTensor
from ..primitive import OpDef
from ._infer import ALL, FLOATS, NUMBERS, broadcast_shapes, require_dtype, shape, tensor_type


def _binary_infer(name: str, allowed, result: str = "promote"):
    def infer(x, y):
        tx, ty = tensor_type(name, "x", x), tensor_type(name, "y", y)
        require_dtype(name, "x", tx, allowed)
        require_dtype(name, "y", ty, allowed)
        out_shape = broadcast_shapes(name, shape(x), shape(y))
        if result == "bool":
            t = mstype.bool_
        else:
            t = mstype.promote(tx, ty)
            if result == "float" and not t.is_float:
                t = mstype.float32
        return AbstractTensor(t, out_shape)
    return infer


def _unary_infer(name: str, allowed, result: str = "same"):
    def infer(x):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, allowed)
        if result == "bool":
            t = mstype.bool_
        return AbstractTensor(t, shape(x))
    return infer


def binary(name, kernel, allowed=NUMBERS, result="promote", differentiable=True) -> OpDef:
    return OpDef(name, _binary_infer(name, allowed, result), kernel,
                 differentiable=differentiable)


def unary(name, kernel, allowed=NUMBERS, result="same", differentiable=True) -> OpDef:
    return OpDef(name, _unary_infer(name, allowed, result), kernel,
                 differentiable=differentiable)


def _true_div(x, y):
    r = np.true_divide(x, y)
    if r.dtype.kind != "f":
        return r
    want = np.result_type(x, y)
    return r if want.kind == "f" else r.astype(np.float32)


def _floor_div(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.floor_divide(x, y)


def _floor_mod(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.mod(x, y)


def _pow(x, y):
    return np.power(x, y)


def _erf(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if np.ndim(x) else \
        np.asarray(math.erf(float(x)), dtype=np.asarray(x).dtype)


def _gelu(x):
    return (0.5 * x * (1.0 + _erf(x / np.sqrt(2.0).astype(x.dtype)))).astype(x.dtype)


def _sigmoid(x):
    return (1.0 / (1.0 + np.exp(-x))).astype(np.asarray(x).dtype)


def _hswish(x):
    return (x * np.clip(x + 3, 0, 6) / 6).astype(np.asarray(x).dtype)


def _softplus(x):
    return np.logaddexp(0, x).astype(np.asarray(x).dtype)


def _rsqrt(x):
    return (1 / np.sqrt(x)).astype(np.asarray(x).dtype)


Add = binary("Add", np.add)
Sub = binary("Sub", np.subtract)
Mul = binary("Mul", np.multiply)
Div = binary("Div", _true_div, result="float")
FloorDiv = binary("FloorDiv", _floor_div)
FloorMod = binary("FloorMod", _floor_mod)
Pow = binary("Pow", _pow)
Maximum = binary("Maximum", np.maximum)
Minimum = binary("Minimum", np.minimum)

Neg = unary("Neg", np.negative)
Abs = unary("Abs", np.abs)
Square = unary("Square", np.square)
Exp = unary("Exp", np.exp, FLOATS)
Log = unary("Log", np.log, FLOATS)
Sqrt = unary("Sqrt", np.sqrt, FLOATS)
Rsqrt = unary("Rsqrt", _rsqrt, FLOATS)
Sin = unary("Sin", np.sin, FLOATS)
Cos = unary("Cos", np.cos, FLOATS)
Tanh = unary("Tanh", np.tanh, FLOATS)
Sigmoid = unary("Sigmoid", _sigmoid, FLOATS)
ReLU = unary("ReLU", lambda x: np.maximum(x, np.zeros((), np.asarray(x).dtype)))
GeLU = unary("GeLU", _gelu, FLOATS)
HSwish = unary("HSwish", _hswish, FLOATS)
Softplus = unary("Softplus", _softplus, FLOATS)
Erf = unary("Erf", _erf, FLOATS)

Less = binary("Less", np.less, ALL, "bool", differentiable=False)
LessEqual = binary("LessEqual", np.less_equal, ALL, "bool", differentiable=False)
Greater = binary("Greater", np.greater, ALL, "bool", differentiable=False)
GreaterEqual = binary("GreaterEqual", np.greater_equal, ALL, "bool", differentiable=False)
Equal = binary("Equal", np.equal, ALL, "bool", differentiable=False)
NotEqual = binary("NotEqual", np.not_equal, ALL, "bool", differentiable=False)
LogicalAnd = binary("LogicalAnd", np.logical_and, (mstype.bool_,), "bool",
                    differentiable=False)
LogicalOr = binary("LogicalOr", np.logical_or, (mstype.bool_,), "bool",
                   differentiable=False)
LogicalXor = binary("LogicalXor", np.logical_xor, (mstype.bool_,), "bool",
                    differentiable=False)
LogicalNot = unary("LogicalNot", np.logical_not, (mstype.bool_,), "bool",
                   differentiable=False)
