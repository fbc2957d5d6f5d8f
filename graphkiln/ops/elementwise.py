"""Elementwise math functions composed of the primitives (``ops.log2``, ``ops.isnan``,
``ops.logaddexp``...), with MindSpore 2.10's names, arguments and result dtypes.

Built from differentiable primitives, they trace into graphs and get their gradients from
the primitives' rules. Integer and bool inputs of the transcendental ones compute in float32.
"""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .clip_ops import stop_gradient
from .defs import activations as ACT
from .defs import bessel as BES
from .defs import elementwise as EW
from .defs import math as M
from .defs import special as SP

__all__ = ["log2", "log10", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "trunc",
           "fix", "frac", "sgn", "signbit", "erfc", "sinc", "deg2rad", "rad2deg", "copysign",
           "heaviside", "hypot", "logaddexp", "logaddexp2", "xlogy", "float_power",
           "true_divide", "fmod", "positive", "lerp", "hardshrink", "fmax", "fmin",
           "nan_to_num", "isclose", "logsumexp", "nansum", "nanmean", "count_nonzero", "asinh",
           "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "ldexp", "isreal",
           "relu6", "bessel_i0", "bessel_i1", "i0", "logit", "exp2", "gcd", "lcm",
           "bitwise_left_shift", "bitwise_right_shift", "polar", "view_as_real", "addcdiv",
           "addcmul", "mvlgamma", "nextafter", "population_count", "bessel_j0", "bessel_j1",
           "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k1", "bessel_k0e", "bessel_k1e",
           "bessel_i0e", "bessel_i1e", "zeta", "approximate_equal"]


def _tensor(x) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor(x)


def _as_float(x: Tensor) -> Tensor:
    """``x``, or ``x`` cast to float32 when it holds integers or bools."""
    x = _tensor(x)
    return x if x.dtype.is_float or x.dtype.is_complex else F.cast(x, mstype.float32)


def _all(x: Tensor, value: bool) -> Tensor:
    """A bool Tensor shaped like ``x``, every element ``value``."""
    return F.cast(F.ones_like(x) if value else F.zeros_like(x), mstype.bool_)


def log2(input) -> Tensor:
    """Base-2 logarithm (integers give float32)."""
    x = _as_float(input)
    return F.mul(F.log(x), 1.0 / math.log(2.0))


def log10(input) -> Tensor:
    """Base-10 logarithm (integers give float32)."""
    x = _as_float(input)
    return F.mul(F.log(x), 1.0 / math.log(10.0))


def isnan(input) -> Tensor:
    """True where ``input`` is NaN."""
    x = _tensor(input)
    return F.not_equal(x, x) if x.dtype.is_float or x.dtype.is_complex else _all(x, False)


def isinf(input) -> Tensor:
    """True where ``input`` is +inf or -inf."""
    x = _tensor(input)
    return F.equal(F.abs(x), math.inf) if x.dtype.is_float else _all(x, False)


def isposinf(input) -> Tensor:
    x = _tensor(input)
    return F.equal(x, math.inf) if x.dtype.is_float else _all(x, False)


def isneginf(input) -> Tensor:
    x = _tensor(input)
    return F.equal(x, -math.inf) if x.dtype.is_float else _all(x, False)


def isfinite(input) -> Tensor:
    """True where ``input`` is neither NaN nor infinite."""
    x = _tensor(input)
    if not x.dtype.is_float:
        return _all(x, True)
    return F.equal(F.sub(x, x), 0)  # inf - inf and NaN - NaN are NaN


def isreal(input) -> Tensor:
    """True where ``input`` has no imaginary part."""
    x = _tensor(input)
    return F.equal(F.imag(x), 0) if x.dtype.is_complex else _all(x, True)


def trunc(input) -> Tensor:
    """Round toward zero (integers stay as they are)."""
    x = _tensor(input)
    if not x.dtype.is_float:
        return x
    return F.select(F.less(x, 0), F.ceil(x), F.floor(x))


fix = trunc


def frac(input) -> Tensor:
    """The fractional part, ``input - trunc(input)`` (with ``input``'s sign)."""
    x = _tensor(input)
    return F.sub(x, trunc(x))


def sgn(input) -> Tensor:
    """``sign`` of a real tensor; ``input / |input|`` (0 at 0) of a complex one."""
    x = _tensor(input)
    if not x.dtype.is_complex:
        return F.sign(x)
    modulus = F.abs(x)
    if modulus.dtype.is_complex:  # Abs of a complex Tensor keeps the dtype
        modulus = F.real(modulus)
    zero = F.equal(modulus, 0)
    safe = F.complex(F.select(zero, F.ones_like(modulus), modulus), F.zeros_like(modulus))
    return F.select(zero, F.zeros_like(x), F.div(x, safe))


def signbit(input) -> Tensor:
    """True where ``input`` is negative (``-0.0`` is not, as MindSpore's CPU kernel has it)."""
    x = _tensor(input)
    return F.less(x, 0) if x.dtype.kind in "if" else _all(x, False)


def erfc(input) -> Tensor:
    """``1 - erf(input)``."""
    x = _as_float(input)
    return F.sub(1, F.erf(x))


def sinc(input) -> Tensor:
    """``sin(pi x) / (pi x)``, 1 at 0 (integers give float32)."""
    x = _as_float(input)
    pix = F.mul(x, math.pi)
    zero = F.equal(x, 0)
    safe = F.select(zero, F.ones_like(pix), pix)
    return F.select(zero, F.ones_like(x), F.div(F.sin(safe), safe))


def _check_float(name: str, x: Tensor) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the 'x' must be a Tensor, but got {type(x).__name__}.")
    if not x.dtype.is_float:
        raise TypeError(f"For '{name}', the dtype of 'x' must be float16, float32 or float64, "
                        f"but got {x.dtype}.")


def deg2rad(x) -> Tensor:
    """Degrees to radians."""
    _check_float("deg2rad", x)
    return F.mul(x, math.pi / 180.0)


def rad2deg(x) -> Tensor:
    """Radians to degrees."""
    _check_float("rad2deg", x)
    return F.mul(x, 180.0 / math.pi)


def copysign(input, other) -> Tensor:
    """``|input|`` with the sign of ``other``."""
    x = _as_float(input)
    negative = signbit(_tensor(other)) if isinstance(other, Tensor) else (
        math.copysign(1.0, other) < 0)
    magnitude = F.abs(x)
    if isinstance(negative, bool):
        return F.neg(magnitude) if negative else magnitude
    return F.select(negative, F.neg(magnitude), magnitude)


def heaviside(input, values) -> Tensor:
    """0 where ``input < 0``, ``values`` where it is 0, 1 where it is positive."""
    x = _tensor(input)
    step = F.cast(F.greater(x, 0), x.dtype)
    return F.select(F.equal(x, 0), F.broadcast_to(F.cast(values, x.dtype), x.shape), step)


def hypot(input, other) -> Tensor:
    """``sqrt(input**2 + other**2)``."""
    x, y = _as_float(input), _as_float(other)
    return F.sqrt(F.add(F.square(x), F.square(y)))


def logaddexp(input, other) -> Tensor:
    """``log(exp(input) + exp(other))`` without overflow."""
    x, y = _as_float(input), _as_float(other)
    big = F.maximum(x, y)
    return F.add(big, F.log1p(F.exp(F.neg(F.abs(F.sub(x, y))))))


def logaddexp2(input, other) -> Tensor:
    """``log2(2**input + 2**other)`` without overflow."""
    x, y = _as_float(input), _as_float(other)
    big = F.maximum(x, y)
    gap = F.mul(F.neg(F.abs(F.sub(x, y))), math.log(2.0))
    return F.add(big, F.mul(F.log1p(F.exp(gap)), 1.0 / math.log(2.0)))


def xlogy(input, other) -> Tensor:
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN)."""
    x = _as_float(input)
    y = _as_float(other)
    product = F.mul(x, F.log(y))
    return F.select(F.logical_and(F.equal(x, 0), F.logical_not(isnan(y))),
                    F.zeros_like(product), product)


def float_power(input, exponent) -> Tensor:
    """``input ** exponent`` in double precision (complex128 for complex operands)."""
    wide = mstype.complex128 if any(isinstance(v, Tensor) and v.dtype.is_complex
                                    for v in (input, exponent)) else mstype.float64
    x = F.cast(input, wide) if isinstance(input, Tensor) else input
    y = F.cast(exponent, wide) if isinstance(exponent, Tensor) else exponent
    if not isinstance(x, Tensor):
        x = Tensor(x, wide)
    return F.pow(x, y)


def true_divide(dividend, divisor) -> Tensor:
    return F.div(dividend, divisor)


def fmod(input, other) -> Tensor:
    """The remainder of truncated division: it has ``input``'s sign. A 0-d ``other`` of
    ``input``'s kind (both integers, both floats) is a scalar to MindSpore 2.10: the result
    keeps ``input``'s type (``fmod(int32[3], int64[])`` is int32)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"For 'fmod', at least one of 'input' and 'other' must be a Tensor, "
                        f"but got {type(input).__name__} and {type(other).__name__}.")
    if (isinstance(input, Tensor) and isinstance(other, Tensor) and other.ndim == 0
            and input.ndim > 0 and _same_kind(input.dtype, other.dtype)):
        other = F.cast(other, input.dtype)
    return M.Mod(input, other)


def _same_kind(a, b) -> bool:
    """Both integers or both floats."""
    return (a.is_float and b.is_float) or (a.is_int and b.is_int)


def positive(input) -> Tensor:
    """``input`` itself (bool tensors are refused, as ``+`` of a bool)."""
    if input.dtype == mstype.bool_:
        raise TypeError("For 'positive', the input can not be a bool Tensor.")
    return input


def lerp(input, end, weight) -> Tensor:
    """``input + weight * (end - input)``."""
    return F.add(input, F.mul(weight, F.sub(end, input)))


def hardshrink(input, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0."""
    x = _tensor(input)
    return F.select(F.greater(F.abs(x), lambd), x, F.zeros_like(x))


def _nan_aware(pick):
    def fn(input, other):
        x, y = _tensor(input), _tensor(other)
        best = pick(x, y)
        return F.select(isnan(x), F.broadcast_to(F.cast(y, best.dtype), best.shape),
                        F.select(isnan(y), F.broadcast_to(F.cast(x, best.dtype), best.shape),
                                 best))
    return fn


fmax = _nan_aware(F.maximum)
fmax.__doc__ = "Elementwise maximum that ignores a NaN when the other value is a number."
fmin = _nan_aware(F.minimum)
fmin.__doc__ = "Elementwise minimum that ignores a NaN when the other value is a number."


def nan_to_num(input, nan=0.0, posinf=None, neginf=None) -> Tensor:
    """NaN -> ``nan``, +inf -> ``posinf`` (the dtype's max), -inf -> ``neginf`` (its min)."""
    x = _tensor(input)
    if not x.dtype.is_float:
        return x
    info = np.finfo(x.dtype.np_dtype)
    nan = 0.0 if nan is None else nan
    posinf = float(info.max) if posinf is None else posinf
    neginf = float(info.min) if neginf is None else neginf

    def const(v):
        return F.cast(F.fill(x.dtype, (), v), x.dtype)

    out = F.select(isnan(x), F.broadcast_to(const(nan), x.shape), x)
    out = F.select(isposinf(x), F.broadcast_to(const(posinf), x.shape), out)
    return F.select(isneginf(x), F.broadcast_to(const(neginf), x.shape), out)


def isclose(input, other, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """``|input - other| <= atol + rtol * |other|`` elementwise (equal infinities too)."""
    x, y = _tensor(input), _tensor(other)
    if rtol < 0 or atol < 0:
        raise ValueError(f"For 'isclose', 'rtol' and 'atol' must be non-negative, but got "
                         f"rtol={rtol} and atol={atol}.")
    xf, yf = _as_float(x), _as_float(y)
    near = F.less_equal(F.abs(F.sub(xf, yf)), F.add(atol, F.mul(rtol, F.abs(yf))))
    near = F.logical_and(near, F.logical_and(isfinite(xf), isfinite(yf)))
    out = F.logical_or(near, F.equal(x, y))
    if equal_nan:
        out = F.logical_or(out, F.logical_and(isnan(xf), isnan(yf)))
    return out


def _axes(dim):
    return () if dim is None else dim


def logsumexp(input, dim, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input), dim))`` computed stably."""
    x = _as_float(input)
    top = stop_gradient(F.reduce_max(x, _axes(dim), True))
    top = F.select(isfinite(top), top, F.zeros_like(top))
    total = F.reduce_sum(F.exp(F.sub(x, top)), _axes(dim), True)
    out = F.add(F.log(total), top)
    return out if keepdim else F.squeeze(out, _squeezed_axes(dim, x.ndim))


def _squeezed_axes(dim, rank: int) -> tuple:
    if dim is None or dim == ():
        return tuple(range(rank))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(d % rank for d in dims) if rank else ()


def nansum(input, axis=None, keepdims: bool = False, *, dtype=None) -> Tensor:
    """Sum treating NaNs as zero (integers and bools sum in int64 unless ``dtype``);
    MindSpore 2.10's parameter names (``mint.nansum`` has ``dim``/``keepdim``)."""
    x = _tensor(input)
    if x.dtype.is_float:
        x = F.select(isnan(x), F.zeros_like(x), x)
    if dtype is not None:
        x = F.cast(x, mstype.to_type(dtype))
    elif not (x.dtype.is_float or x.dtype.is_complex):
        x = F.cast(x, mstype.int64)
    return F.reduce_sum(x, _axes(axis), keepdims)


def nanmean(input, axis=None, keepdims: bool = False, *, dtype=None) -> Tensor:
    """Mean of the non-NaN elements of a floating-point ``input``."""
    x = _tensor(input)
    if not x.dtype.is_float:
        raise TypeError(f"For 'nanmean', input should be floating point dtype, but got "
                        f"{x.dtype}.")
    if dtype is not None:
        x = F.cast(x, mstype.to_type(dtype))
    count = F.reduce_sum(F.cast(F.logical_not(isnan(x)), x.dtype), _axes(axis), keepdims)
    return F.div(nansum(x, axis, keepdims), count)


def count_nonzero(input, dim=None) -> Tensor:
    """The number of non-zero elements (int64), over ``dim`` (all when None)."""
    x = _tensor(input)
    return F.reduce_sum(F.cast(F.not_equal(x, 0), mstype.int64), _axes(dim), False)


def asinh(input) -> Tensor:
    """Inverse hyperbolic sine."""
    x = _as_float(input)
    a = F.abs(x)
    return F.mul(F.sign(x), F.log(F.add(a, F.sqrt(F.add(F.square(a), 1)))))


def acosh(input) -> Tensor:
    """Inverse hyperbolic cosine (NaN below 1)."""
    x = _as_float(input)
    return F.log(F.add(x, F.sqrt(F.sub(F.square(x), 1))))


def atanh(input) -> Tensor:
    """Inverse hyperbolic tangent."""
    x = _as_float(input)
    return F.mul(F.log1p(F.div(F.mul(x, 2), F.sub(1, x))), 0.5)


arcsinh, arccosh, arctanh = asinh, acosh, atanh


def ldexp(x, other) -> Tensor:
    """``x * 2**other``."""
    return F.mul(_as_float(x), F.pow(2.0, _as_float(other)))


def relu6(input) -> Tensor:
    """``min(max(input, 0), 6)`` (``ReLU6``)."""
    return ACT.ReLU6(_tensor(input))


def bessel_i0(x) -> Tensor:
    """The modified Bessel function of the first kind of order 0 (``BesselI0``)."""
    return BES.BesselI0(_tensor(x))


def bessel_i1(x) -> Tensor:
    """The modified Bessel function of the first kind of order 1 (``BesselI1``)."""
    return BES.BesselI1(_tensor(x))


def i0(input) -> Tensor:
    """``bessel_i0``; integers and bools compute in float32."""
    return BES.BesselI0(_as_float(input))


def logit(input, eps=None) -> Tensor:
    """``log(x / (1 - x))``, ``x`` being ``input`` limited to ``[eps, 1 - eps]`` when
    ``eps`` is given."""
    x = _tensor(input)
    if not x.dtype.is_float:
        raise TypeError(f"For 'Logit', the input must be a float Tensor, but got {x.dtype}.")
    if eps is not None and eps >= 0:
        x = F.minimum(F.maximum(x, eps), 1.0 - eps)
    return F.log(F.div(x, F.sub(1.0, x)))


def exp2(input) -> Tensor:
    """``2 ** input`` (float32 for integer and bool inputs)."""
    return F.pow(2.0, _as_float(input))


def gcd(input, other) -> Tensor:
    """The greatest common divisor of integer elements."""
    return M.Gcd(input, other)


def lcm(input, other) -> Tensor:
    """The least common multiple of integer elements."""
    return M.Lcm(input, other)


def bitwise_left_shift(input, other) -> Tensor:
    """The bits of integer ``input`` shifted left by ``other``."""
    return M.LeftShift(input, other)


def bitwise_right_shift(input, other) -> Tensor:
    """The bits of integer ``input`` shifted right by ``other``."""
    return M.RightShift(input, other)


def polar(abs, angle) -> Tensor:  # noqa: A002 - MindSpore's argument name
    """The complex numbers ``abs * (cos(angle) + i sin(angle))``."""
    return F.complex(F.mul(abs, F.cos(angle)), F.mul(abs, F.sin(angle)))


def view_as_real(input) -> Tensor:
    """The real and imaginary parts of a complex Tensor along a new last axis."""
    if not isinstance(input, Tensor) or not input.dtype.is_complex:
        raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
    return F.stack([F.real(input), F.imag(input)], -1)


def addcdiv(input, tensor1, tensor2, value=1) -> Tensor:
    """``input + value * tensor1 / tensor2``."""
    return F.add(input, F.mul(F.div(tensor1, tensor2), value))


def addcmul(input, tensor1, tensor2, value=1) -> Tensor:
    """``input + value * tensor1 * tensor2``."""
    return F.add(input, F.mul(F.mul(tensor1, tensor2), value))


def mvlgamma(input, p: int) -> Tensor:
    """The multivariate log-gamma of dimension ``p``: ``sum_i lgamma(input - i / 2)`` plus
    ``p (p - 1) / 4 log(pi)``; every element must exceed ``(p - 1) / 2``."""
    x = _tensor(input)
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError(f"For 'Mvlgamma', 'p' must be an int >= 1, but got {p!r}.")
    if not x.is_symbolic and (x.asnumpy() <= (p - 1) / 2).any():
        raise ValueError("For Mvlgamma, all elements of 'x' must be greater than (p-1)/2.")
    steps = Tensor(-np.arange(p, dtype=x.dtype.np_dtype) / 2)
    terms = F.lgamma(F.add(F.expand_dims(x, -1), steps))
    return F.add(F.reduce_sum(terms, -1), p * (p - 1) / 4 * math.log(math.pi))


def nextafter(input, other) -> Tensor:
    """The next representable float after ``input`` towards ``other``."""
    return M.NextAfter(input, other)


def population_count(input_x) -> Tensor:
    """The number of 1 bits of each integer element, as uint8."""
    return M.PopulationCount(input_x)


def _bessel(opdef, name: str):
    def fn(x) -> Tensor:
        return opdef(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{opdef.name}`` (a Bessel function, see :mod:`.defs.bessel`)."
    return fn


bessel_j0 = _bessel(BES.BesselJ0, "bessel_j0")
bessel_j1 = _bessel(BES.BesselJ1, "bessel_j1")
bessel_y0 = _bessel(BES.BesselY0, "bessel_y0")
bessel_y1 = _bessel(BES.BesselY1, "bessel_y1")
bessel_k0 = _bessel(BES.BesselK0, "bessel_k0")
bessel_k1 = _bessel(BES.BesselK1, "bessel_k1")
bessel_k0e = _bessel(BES.BesselK0e, "bessel_k0e")
bessel_k1e = _bessel(BES.BesselK1e, "bessel_k1e")
bessel_i0e = _bessel(BES.BesselI0e, "bessel_i0e")
bessel_i1e = _bessel(BES.BesselI1e, "bessel_i1e")


def zeta(input, other) -> Tensor:
    """The Hurwitz zeta function ``sum_k (other + k) ** -input`` (float Tensors of one
    dtype)."""
    return SP.Zeta(input, other)


def approximate_equal(x, y, tolerance: float = 1e-05) -> Tensor:
    """Whether ``|x - y| < tolerance``, elementwise (float Tensors of one shape)."""
    return EW.ApproximateEqual(x, y, tolerance=tolerance)
