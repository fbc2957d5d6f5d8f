"""More elementwise primitives: the inverse hyperbolic functions, erfc/erfinv, ``Inv`` and
``Invert``, float classification (``IsNan``/``IsInf``/``IsFinite``), the ELU family and the
shrink/fast-GeLU activations, the backward kernels MindSpore exposes for some of them
(``InvGrad``, ``ReciprocalGrad``, ``RsqrtGrad``, ``SqrtGrad``, ``TanhGrad``, ``AtanGrad``,
``EluGrad``, ``HShrinkGrad``, ``FastGeLUGrad``, ``HSigmoidGrad``, ``HSwishGrad``, ``GeLUGrad``,
``SoftplusGrad``), and ``Ger``, the product of every element of one vector with every
element of another.

The dtypes each op accepts are the ones MindSpore 2.10's CPU kernels accept (measured).
"""
from __future__ import annotations

import math

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OUT_INPLACE, OpDef
from ._infer import (
    ALL,
    COMPLEX,
    FLOATS,
    IEEE_FLOATS,
    SIGNED_INTS,
    buffer_for,
    into,
    quiet,
    require_dtype,
    same_type,
    scratch_like,
    shape,
    shapes_match,
    tensor_type,
    wide_type,
)
from .math import _WIDE_UINTS, erf64, erfc_tail, unary

_F16_F32 = (mstype.float16, mstype.float32)


def _wide(x: np.ndarray) -> np.ndarray:
    """float16 computed in float32 (the kernel wrapper casts the result back)."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


# ------------------------------------------------------------------ math

def _inv(x):
    """``1 / x``. Integers divide in floating point and truncate, as MindSpore's kernel:
    ``1 / 0`` is the most negative int32 (int64 for int64 inputs), cut to the input's width."""
    if x.dtype.kind != "i":
        return np.reciprocal(_wide(x))
    wide = np.int64 if x.dtype == np.int64 else np.int32
    safe = np.where(x == 0, 1, x)
    r = np.where(x == 0, np.iinfo(wide).min, np.trunc(1.0 / safe).astype(wide))
    return r.astype(wide).astype(x.dtype)


def _erfc(x):
    x64 = np.asarray(x, np.float64)
    tail = x64 >= 2.0
    return np.where(tail, erfc_tail(np.where(tail, x64, 2.0)),
                    1.0 - erf64(np.where(tail, 0.0, x64)))


# erfinv: Giles' single-precision approximation, then Newton steps on erf for float64
_ERFINV_CENTRAL = (1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087,
                   -4.39150654e-06, -3.5233877e-06, 3.43273939e-07, 2.81022636e-08)
_ERFINV_TAIL = (2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773,
                -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257)
_NEWTON_STEPS = 3


def _horner(coefs, t):
    acc = np.full_like(t, coefs[-1])
    for c in coefs[-2::-1]:
        acc = acc * t + c
    return acc


def _erfinv(y):
    y64 = np.asarray(y, np.float64)
    inside = np.abs(y64) < 1
    ys = np.where(inside, y64, 0.0)
    w = -np.log((1.0 - ys) * (1.0 + ys))
    central = w < 5.0
    guess = np.where(central, _horner(_ERFINV_CENTRAL, w - 2.5),
                     _horner(_ERFINV_TAIL, np.sqrt(np.maximum(w, 5.0)) - 3.0)) * ys
    for _ in range(_NEWTON_STEPS):
        guess = guess - (erf64(guess) - ys) / (2 / math.sqrt(math.pi) * np.exp(-guess * guess))
    edge = np.where(np.abs(y64) == 1, np.copysign(np.inf, y64), np.nan)
    return np.where(inside, guess, edge)


Inv = unary("Inv", _inv, (mstype.int16, mstype.int32, mstype.int64) + FLOATS + COMPLEX)
Invert = unary("Invert", np.invert, SIGNED_INTS + (mstype.uint8,) + _WIDE_UINTS,
               differentiable=False)
Erfc = unary("Erfc", _erfc, FLOATS)
Erfinv = unary("Erfinv", _erfinv, FLOATS)
Asinh = unary("Asinh", lambda x: np.arcsinh(_wide(x)), FLOATS + COMPLEX)
Acosh = unary("Acosh", lambda x: np.arccosh(_wide(x)), FLOATS + COMPLEX)
Atanh = unary("Atanh", lambda x: np.arctanh(_wide(x)), FLOATS + COMPLEX)
IsNan = unary("IsNan", np.isnan, ALL + _WIDE_UINTS, "bool", differentiable=False)
IsInf = unary("IsInf", np.isinf, FLOATS, "bool", differentiable=False)
IsFinite = unary("IsFinite", np.isfinite, ALL + _WIDE_UINTS, "bool", differentiable=False)


# ------------------------------------------------------------------ activations

def _check_elu(alpha=1.0):
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"For 'Elu', the type of 'alpha' should be float, but got "
                        f"{type(alpha).__name__}.")
    if alpha != 1.0:
        raise ValueError(f"For 'Elu', 'alpha' only supports 1.0, but got {alpha}.")


def _check_celu(alpha=1.0):
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"For 'CeLU', the type of 'alpha' should be float, but got "
                        f"{type(alpha).__name__}.")
    if alpha == 0:
        raise ValueError("For 'CeLU', 'alpha' can not be 0.")


def _check_lambd(name: str):
    """MindSpore 2.10's check: a bool, int or float of any sign (a negative one keeps
    every element)."""
    def check(lambd=0.5):
        if not isinstance(lambd, (bool, int, float)):
            raise TypeError(f"For '{name}', the type of 'lambd' should be one of '[bool, int, "
                            f"float]', but got {type(lambd)}.")
    return check


def _elu(x, alpha=1.0):
    x = _wide(x)
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def _celu(x, alpha=1.0):
    x = _wide(x)  # (MindSpore computes float64 in float32; here float64 keeps its precision)
    return np.maximum(x, 0) + np.minimum(0, alpha * np.expm1(np.minimum(x, 0) / alpha))


def _hshrink(x, lambd=0.5):
    return np.where(np.abs(x) > lambd, x, 0)


_FAST_GELU_K = 1.702


def _fast_gelu(x):
    """``x * sigmoid(1.702 x)``, written so that no exponential overflows."""
    x = _wide(x)
    ax = np.abs(x)
    return x * np.exp(0.5 * _FAST_GELU_K * (x - ax)) / (1 + np.exp(-_FAST_GELU_K * ax))


Elu = unary("Elu", _elu, FLOATS, attrs={"alpha": 1.0}, check_attrs=_check_elu)
CeLU = unary("CeLU", _celu, FLOATS, attrs={"alpha": 1.0}, check_attrs=_check_celu)
HShrink = unary("HShrink", _hshrink, _F16_F32, attrs={"lambd": 0.5},
                check_attrs=_check_lambd("HShrink"))
FastGeLU = unary("FastGeLU", _fast_gelu, _F16_F32)


# ------------------------------------------------------------------ backward kernels

def _grad_infer(name: str, first: str, second: str, allowed, **checks):
    """Two same-shaped inputs of one type in ``allowed``; the result is like them."""
    def infer(a, b, **attrs):
        for check in checks.values():
            check(**attrs)
        t = same_type(name, {first: a, second: b})
        require_dtype(name, first, t, allowed)
        if not shapes_match(tuple(shape(a)), tuple(shape(b))):
            raise ValueError(f"For '{name}', '{first}' and '{second}' must have the same "
                             f"shape, but got {list(shape(a))} and {list(shape(b))} (not "
                             f"equal).")
        return AbstractTensor(t, tuple(shape(a)))
    return infer


def _grad_kernel(fn):
    @quiet
    def kernel(a, b, **attrs):
        a, b = np.asarray(a), np.asarray(b)
        return np.asarray(fn(_wide(a), _wide(b), **attrs)).astype(a.dtype, copy=False)
    kernel.__name__ = fn.__name__
    return kernel


def _inv_grad(y, dy):
    return -dy * np.conj(y * y)  # complex: dout times the conjugate derivative


def _rsqrt_grad(y, dy):
    """``-y**3 dy / 2``; integers halve ``dy`` first, truncating, as MindSpore's kernel."""
    if y.dtype.kind == "i":
        half = np.sign(dy) * (np.abs(dy) // 2)
        return -half * y * y * y
    return dy * np.conj(y * y * y) * -0.5


def _sqrt_grad(y, dy):
    return dy / (2 * np.conj(y))


def _tanh_grad(y, dy):
    return dy * (1 - y * y)  # complex too: MindSpore's kernel does not conjugate


def _atan_grad(x, dy):
    return dy / np.conj(1 + x * x)


def _elu_grad(dy, y):
    return np.where(y > 0, dy, dy * (y + 1))


def _hshrink_grad(gradients, features, lambd=0.5):
    return np.where(np.abs(features) > lambd, gradients, 0)


def _fast_gelu_grad(dy, x):
    """``dy`` times the derivative of ``x * sigmoid(1.702 x)``."""
    s = np.exp(-_FAST_GELU_K * np.abs(x))
    sig = np.where(x >= 0, 1 / (1 + s), s / (1 + s))
    return dy * (sig + _FAST_GELU_K * x * sig * (1 - sig))


# ``FastGeLUGrad(dy, x)``: the backward of ``FastGeLU`` from its input
FastGeLUGrad = OpDef("FastGeLUGrad", _grad_infer("FastGeLUGrad", "dy", "x", _F16_F32),
                     _grad_kernel(_fast_gelu_grad))
# ``InvGrad(y, dy)``: the backward of ``Inv`` from its output ``y``
InvGrad = OpDef("InvGrad", _grad_infer("InvGrad", "x", "grad",
                                           (mstype.int8, mstype.int32, mstype.int64) + FLOATS
                                           + COMPLEX),
                _grad_kernel(_inv_grad))
# ``ReciprocalGrad(y, dy)``: the same, MindSpore's name for floats and complex numbers
ReciprocalGrad = OpDef("ReciprocalGrad", _grad_infer("ReciprocalGrad", "y", "dy",
                                                     FLOATS + COMPLEX),
                       _grad_kernel(_inv_grad))
# ``RsqrtGrad(y, dy)``: the backward of ``Rsqrt`` from its output ``y``
RsqrtGrad = OpDef("RsqrtGrad", _grad_infer("RsqrtGrad", "y", "dy",
                                           (mstype.int8, mstype.int32, mstype.int64) + FLOATS
                                           + COMPLEX),
                  _grad_kernel(_rsqrt_grad))
# ``SqrtGrad(y, dy)``: the backward of ``Sqrt`` from its output ``y``
SqrtGrad = OpDef("SqrtGrad", _grad_infer("SqrtGrad", "y", "dy", FLOATS + COMPLEX),
                 _grad_kernel(_sqrt_grad))
# ``TanhGrad(y, dy)``: the backward of ``Tanh`` from its output ``y``
TanhGrad = OpDef("TanhGrad", _grad_infer("TanhGrad", "y", "dy", FLOATS[:3] + COMPLEX),
                 _grad_kernel(_tanh_grad))
# ``AtanGrad(x, dy)``: the backward of ``Atan`` from its input
AtanGrad = OpDef("AtanGrad", _grad_infer("AtanGrad", "x", "dout", FLOATS + COMPLEX),
                 _grad_kernel(_atan_grad))
# ``EluGrad(dy, y)``: the backward of ``Elu`` from its output
EluGrad = OpDef("EluGrad", _grad_infer("EluGrad", "dy", "y", FLOATS), _grad_kernel(_elu_grad))
# ``HShrinkGrad(gradients, features)``: the backward of ``HShrink`` from its input
HShrinkGrad = OpDef("HShrinkGrad", _grad_infer("HShrinkGrad", "gradients", "features",
                                               _F16_F32, lambd=_check_lambd("HShrinkGrad")),
                    _grad_kernel(_hshrink_grad), attrs={"lambd": 0.5})


# ``HSigmoidGrad(grads, x)`` and ``HSwishGrad(dy, x)``: the backward of ``HSigmoid`` and
# ``HSwish`` from their input


def _hsigmoid_grad(grads, x):
    return np.where((x > -3) & (x < 3), grads / 6, 0)


def _hswish_grad(dy, x):
    return dy * np.where(x < -3, 0, np.where(x > 3, 1, (2 * x + 3) / 6))  # as MindSpore at 3


HSigmoidGrad = OpDef("HSigmoidGrad", _grad_infer("HSigmoidGrad", "grads", "x", FLOATS),
                     _grad_kernel(_hsigmoid_grad))
HSwishGrad = OpDef("HSwishGrad", _grad_infer("HSwishGrad", "y_grad", "x", FLOATS),
                   _grad_kernel(_hswish_grad))


def _softplus_grad(dout, x):
    """``dout * sigmoid(x)``, the backward of ``Softplus`` from its input."""
    return dout / (1 + np.exp(-x))


SoftplusGrad = OpDef("SoftplusGrad", _grad_infer("SoftplusGrad", "dout", "x", IEEE_FLOATS),
                     _grad_kernel(_softplus_grad))

_SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))
_GELU_A = 0.044715


def _gelu_grad_infer(dy, x, y):
    out = _grad_infer("GeLUGrad", "dy", "x", FLOATS)(dy, x)
    _grad_infer("GeLUGrad", "x", "y", FLOATS)(x, y)
    return out


@quiet
def _gelu_grad(dy, x, y, out=None, scratch=None):
    """``dy`` times the derivative of the tanh-approximated GeLU at ``x`` (``y``, the
    forward's output, is not needed): with ``s = sigmoid(2u)`` (``0.5 (1 + tanh(u))``, ``u``
    the tanh's argument, from ``x`` clipped to [-20, 20] as the forward), ``s + 2 x s (1 - s)
    u'``, free of ``1 - tanh(u)**2``'s cancellation. In place in three scratch arrays, into
    ``out`` when given (it may be ``dy`` or ``x``)."""
    w, dw = _wide(np.asarray(x)), _wide(np.asarray(dy))
    a, b, s = (buffer_for(buf, w) for buf in (scratch or (None,) * 3))
    c = w.dtype.type
    np.clip(w, -20, 20, out=a)
    x2 = np.multiply(a, a, out=b)
    np.multiply(x2, c(-2 * _SQRT_2_OVER_PI * _GELU_A), out=s)
    s -= c(2 * _SQRT_2_OVER_PI)
    s *= a
    with np.errstate(over="ignore"):  # inf for x < -10: sigmoid(2u) is 0 there
        np.exp(s, out=s)
    s += c(1)
    np.reciprocal(s, out=s)  # sigmoid(2u)
    x_du = x2  # x u' = x (sqrt(2/pi) + 3 sqrt(2/pi) A x^2)
    x_du *= c(3 * _SQRT_2_OVER_PI * _GELU_A)
    x_du += c(_SQRT_2_OVER_PI)
    x_du *= w
    np.subtract(c(1), s, out=a)
    x_du *= a
    x_du *= s
    x_du *= c(2)
    s += x_du
    if out is not None and out.dtype == w.dtype:
        return np.multiply(s, dw, out=out)
    return into(out, np.multiply(s, dw, out=s).astype(x.dtype, copy=False))


# ``GeLUGrad(dy, x, y)``: the backward of ``GeLU`` (tanh approximation)
GeLUGrad = OpDef("GeLUGrad", _gelu_grad_infer, _gelu_grad, out_buffer=OUT_INPLACE,
                 scratch=scratch_like(wide_type, 3))


# ------------------------------------------------------------------ outer product

def _ger_infer(x1, x2):
    for arg, a in (("x1", x1), ("x2", x2)):
        t = tensor_type("Ger", arg, a)
        if t not in FLOATS:
            raise TypeError(f"For primitive[Ger], the input argument[{arg}] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                            f"Tensor[{t}].")
    if x1.dtype is not x2.dtype:
        raise TypeError(f"For primitive[Ger], the input type must be same, but got "
                        f"Tensor[{x1.dtype}] and Tensor[{x2.dtype}].")
    for arg, a in (("x1", x1), ("x2", x2)):
        if len(a.shape) != 1:
            raise ValueError(f"For primitive[Ger], the {arg} rank must be equal to 1, but got "
                             f"{len(a.shape)}.")
    return AbstractTensor(x1.dtype, (x1.shape[0], x2.shape[0]))


# ``Ger(x1, x2)``: ``x1[i] * x2[j]`` at ``[i, j]``
Ger = OpDef("Ger", _ger_infer, quiet(np.multiply.outer))


# ------------------------------------------------------------------ approximate equality

def check_tolerance(attrs: dict) -> None:
    """MindSpore's TypeError for a ``tolerance`` that is not a Python float."""
    tol = attrs["tolerance"]
    if not isinstance(tol, float):
        raise TypeError(f"For 'ApproximateEqual', the type of 'tolerance' should be 'float', "
                        f"but got type '{type(tol).__name__}'.")


def _shape_text(s: tuple) -> str:
    return "(" + ", ".join(map(str, s)) + ")"


def _approximate_equal_infer(x1, x2, tolerance=1e-05):
    check_tolerance({"tolerance": tolerance})
    for arg, a in (("x1", x1), ("x2", x2)):
        t = tensor_type("ApproximateEqual", arg, a)
        if t not in FLOATS:
            raise TypeError(f"For primitive[ApproximateEqual], the input argument[{arg}] must "
                            f"be a type of {{Tensor[Float16], Tensor[Float32], "
                            f"Tensor[Float64]}}, but got Tensor[{t}].")
    if not shapes_match(x1.shape, x2.shape):
        raise RuntimeError(f"For 'ApproximateEqual', arg 'x1' must have the same shape as "
                           f"'x2'. But got 'x1' shape: {_shape_text(x1.shape)}, 'x2' shape: "
                           f"{_shape_text(x2.shape)}.")
    if len(x1.shape) >= 8:
        raise RuntimeError(f"For 'ApproximateEqual', the x's rank should be less than 8, but "
                           f"got: {len(x1.shape)}")
    return AbstractTensor(mstype.bool_, x1.shape)


@quiet
def _approximate_equal(x1, x2, tolerance=1e-05):
    """``|x1 - x2| < tolerance`` in the wider of the two dtypes (MindSpore casts the
    narrower input up)."""
    t = np.result_type(x1, x2)
    return np.abs(np.asarray(x1, t) - np.asarray(x2, t)) < t.type(tolerance)


# ``ApproximateEqual(x1, x2, tolerance=1e-05)``: ``|x1 - x2| < tolerance``, same shapes
ApproximateEqual = OpDef("ApproximateEqual", _approximate_equal_infer, _approximate_equal,
                         attrs={"tolerance": 1e-05}, differentiable=False,
                         check_attrs=check_tolerance)
