"""Element-wise arithmetic and reductions of ``mindspore.numpy``.

Inputs may be Tensors, numbers, lists or NumPy arrays; numbers join a Tensor's type as
NumPy's weak scalars do, and ``dtype`` casts the result. All are built on ``ops``, so they
run eagerly and inside graphs alike.
"""
from __future__ import annotations

import builtins
import math

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._base import as_float, cast_to, norm_axes, promote, to_tensor


def _binary(fn, name: str, floating: bool = False):
    def apply(x1, x2, dtype=None):
        a, b = promote(x1, x2)
        if floating:
            a, b = as_float(a), as_float(b)
        return cast_to(fn(a, b), dtype)
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"NumPy's ``{name}`` element-wise, with broadcasting."
    return apply


def _unary(fn, name: str, floating: bool = False):
    def apply(x, dtype=None):
        x = to_tensor(x)
        return cast_to(fn(as_float(x) if floating else x), dtype)
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"NumPy's ``{name}`` element-wise."
    return apply


def _fmod(a, b):
    return a - ops.trunc(a / b) * b if a.dtype.np_dtype.kind == "f" else ops.fmod(a, b)


def _remainder(a, b):
    if a.dtype.np_dtype.kind == "f":
        return a - ops.floor(a / b) * b
    return ops.floor_mod(a, b)


def _floor_divide(a, b):
    return ops.floor(a / b) if a.dtype.np_dtype.kind == "f" else ops.floor_div(a, b)


def _heaviside(a, b):
    zero = ops.zeros_like(a)
    return ops.select(a < 0, zero, ops.select(a > 0, ops.ones_like(a), b + zero))


def _copysign(a, b):
    neg = ops.signbit(b) if b.dtype.np_dtype.kind == "f" else b < 0
    return ops.select(ops.broadcast_to(neg, _bshape(a, b)), -ops.abs(a) + 0 * b,
                      ops.abs(a) + 0 * b)


def _bshape(a, b) -> tuple:
    return tuple(onp.broadcast_shapes(tuple(a.shape), tuple(b.shape)))


def _logaddexp2(a, b):
    ln2 = math.log(2.0)
    return ops.logaddexp(a * ln2, b * ln2) / ln2


def _integral(fn):
    """``fn`` on integers; float inputs (integral values, as mnp documents) are computed
    as Int32 and cast back."""
    def apply(a, b):
        if a.dtype.np_dtype.kind != "f":
            return fn(a, b)
        return ops.cast(fn(ops.cast(a, mstype.int32), ops.cast(b, mstype.int32)), a.dtype)
    return apply


def _lcm(a, b):
    g = ops.gcd(a, b)
    return ops.abs(ops.select(g == 0, ops.zeros_like(g), ops.floor_div(a, ops.select(
        g == 0, ops.ones_like(g), g)) * b))


add = _binary(ops.add, "add")
subtract = _binary(ops.sub, "subtract")
multiply = _binary(ops.mul, "multiply")
divide = _binary(ops.div, "divide", floating=True)
true_divide = _binary(ops.div, "true_divide", floating=True)
power = _binary(ops.pow, "power")
float_power = _binary(lambda a, b: ops.pow(ops.cast(a, mstype.float32), ops.cast(
    b, mstype.float32)), "float_power")
maximum = _binary(ops.maximum, "maximum")
minimum = _binary(ops.minimum, "minimum")
fmod = _binary(_fmod, "fmod")
remainder = _binary(_remainder, "remainder")
mod = remainder
floor_divide = _binary(_floor_divide, "floor_divide")
arctan2 = _binary(ops.atan2, "arctan2", floating=True)
hypot = _binary(ops.hypot, "hypot", floating=True)
heaviside = _binary(_heaviside, "heaviside")
copysign = _binary(_copysign, "copysign")
logaddexp = _binary(ops.logaddexp, "logaddexp", floating=True)
logaddexp2 = _binary(_logaddexp2, "logaddexp2", floating=True)
gcd = _binary(_integral(ops.gcd), "gcd")
lcm = _binary(_integral(_lcm), "lcm")
bitwise_and = _binary(ops.bitwise_and, "bitwise_and")
bitwise_or = _binary(ops.bitwise_or, "bitwise_or")
bitwise_xor = _binary(ops.bitwise_xor, "bitwise_xor")


def divmod_(x1, x2, dtype=None) -> tuple:
    """``(floor_divide(x1, x2), remainder(x1, x2))``."""
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def _rint(x):
    return ops.round(x) if x.dtype.np_dtype.kind == "f" else x


def _fix(x):
    return ops.trunc(x) if x.dtype.np_dtype.kind == "f" else x


def _cbrt(x):
    return ops.sign(x) * ops.pow(ops.abs(x), 1.0 / 3)


absolute = _unary(ops.abs, "absolute")
negative = _unary(ops.neg, "negative")
positive = _unary(lambda x: x + 0, "positive")
square = _unary(ops.square, "square")
sqrt = _unary(ops.sqrt, "sqrt", floating=True)
reciprocal = _unary(lambda x: 1 / x, "reciprocal", floating=True)
exp = _unary(ops.exp, "exp", floating=True)
expm1 = _unary(ops.expm1, "expm1", floating=True)
exp2 = _unary(lambda x: ops.pow(2.0, x), "exp2", floating=True)
log = _unary(ops.log, "log", floating=True)
log1p = _unary(ops.log1p, "log1p", floating=True)
log2 = _unary(ops.log2, "log2", floating=True)
log10 = _unary(ops.log10, "log10", floating=True)
sin = _unary(ops.sin, "sin", floating=True)
cos = _unary(ops.cos, "cos", floating=True)
tan = _unary(ops.tan, "tan", floating=True)
arcsin = _unary(ops.asin, "arcsin", floating=True)
arccos = _unary(ops.acos, "arccos", floating=True)
arctan = _unary(ops.atan, "arctan", floating=True)
sinh = _unary(ops.sinh, "sinh", floating=True)
cosh = _unary(ops.cosh, "cosh", floating=True)
tanh = _unary(ops.tanh, "tanh", floating=True)
arcsinh = _unary(ops.asinh, "arcsinh", floating=True)
arccosh = _unary(ops.acosh, "arccosh", floating=True)
arctanh = _unary(ops.atanh, "arctanh", floating=True)
floor = _unary(ops.floor, "floor", floating=True)
ceil = _unary(ops.ceil, "ceil", floating=True)
trunc = _unary(_fix, "trunc")
fix = _unary(_fix, "fix")
rint = _unary(_rint, "rint")
sign = _unary(ops.sign, "sign")
deg2rad = _unary(lambda x: x * (math.pi / 180), "deg2rad", floating=True)
radians = deg2rad
rad2deg = _unary(lambda x: x * (180 / math.pi), "rad2deg", floating=True)
cbrt = _unary(_cbrt, "cbrt", floating=True)
invert = _unary(ops.invert, "invert")


def around(a, decimals=0) -> Tensor:
    """Values rounded half to even at ``decimals`` places."""
    a = to_tensor(a)
    if a.dtype.np_dtype.kind != "f":
        return a
    if decimals == 0:
        return ops.round(a)
    scale = 10.0 ** decimals
    return ops.round(a * scale) / scale


def clip(a, a_min, a_max, dtype=None) -> Tensor:
    """``minimum(maximum(a, a_min), a_max)`` (either bound may be None)."""
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given.")
    out = to_tensor(a)
    if a_min is not None:
        out = maximum(out, a_min)
    if a_max is not None:
        out = minimum(out, a_max)
    return cast_to(out, dtype)


# ------------------------------------------------------------------------------ reductions

def _where_fill(a, where, fill) -> Tensor:
    if where is None or where is True:
        return a
    mask = ops.broadcast_to(to_tensor(where, mstype.bool_), tuple(a.shape))
    return ops.select(mask, a, ops.fill(a.dtype, tuple(a.shape), fill))


def _reduce(fn, a, axis, keepdims: bool) -> Tensor:
    axes = norm_axes(axis, a.ndim)
    if not axes:
        return a
    return fn(a, axes, keepdims)


def sum_(a, axis=None, dtype=None, keepdims=False, initial=None) -> Tensor:
    """Sum over ``axis`` (integers and booleans accumulate in Int64, as MindSpore's)."""
    a = to_tensor(a)
    if a.dtype.np_dtype.kind in "biu" and a.dtype != mstype.int64:
        a = ops.cast(a, mstype.int64)
    out = _reduce(ops.reduce_sum, a, axis, keepdims)
    if initial is not None:
        out = out + initial
    return cast_to(out, dtype)


def mean(a, axis=None, dtype=None, keepdims=False) -> Tensor:
    """Arithmetic mean over ``axis``."""
    a = as_float(to_tensor(a))
    return cast_to(_reduce(ops.reduce_mean, a, axis, keepdims), dtype)


def _extreme(fn, fill, a, axis, keepdims, initial, where) -> Tensor:
    a = to_tensor(a)
    if where is not None and where is not True and initial is None:
        raise ValueError("reduction operation has no identity; 'initial' is needed with "
                         "'where'.")
    if initial is not None:
        a = _where_fill(a, where, initial)
    out = _reduce(fn, a, axis, keepdims)
    if initial is not None:
        limit = ops.fill(out.dtype, tuple(out.shape), initial)
        out = (ops.maximum if fill == "max" else ops.minimum)(out, limit)
    return out


def amax(a, axis=None, keepdims=False, initial=None, where=True) -> Tensor:
    """The largest element over ``axis``; ``where`` masks elements (needs ``initial``)."""
    return _extreme(ops.reduce_max, "max", a, axis, keepdims, initial, where)


def amin(a, axis=None, keepdims=False, initial=None, where=True) -> Tensor:
    """The smallest element over ``axis``; ``where`` masks elements (needs ``initial``)."""
    return _extreme(ops.reduce_min, "min", a, axis, keepdims, initial, where)


def ptp(x, axis=None, keepdims=False) -> Tensor:
    """Range (max - min) over ``axis``."""
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def var(x, axis=None, ddof=0, keepdims=False) -> Tensor:
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom."""
    x = as_float(to_tensor(x))
    axes = norm_axes(axis, x.ndim)
    centered = x - ops.reduce_mean(x, axes, True)
    count = builtins.int(onp.prod([x.shape[i] for i in axes]))
    return ops.reduce_sum(ops.square(centered), axes, keepdims) / (count - ddof)


def std(x, axis=None, ddof=0, keepdims=False) -> Tensor:
    """Standard deviation over ``axis``."""
    return ops.sqrt(var(x, axis, ddof, keepdims))


def average(x, axis=None, weights=None, returned=False):
    """Weighted mean over ``axis`` (``weights`` shaped as ``x`` or 1-D along one axis)."""
    x = as_float(to_tensor(x))
    if weights is None:
        out = mean(x, axis)
        total = ops.fill(out.dtype, tuple(out.shape),
                         builtins.int(onp.prod([x.shape[i] for i in norm_axes(axis, x.ndim)])))
    else:
        w = as_float(to_tensor(weights))
        if w.shape != x.shape:
            if axis is None or w.ndim != 1 or not isinstance(axis, builtins.int):
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            view = [1] * x.ndim
            view[axis] = w.shape[0]
            w = ops.broadcast_to(ops.reshape(w, tuple(view)), tuple(x.shape))
        total = sum_(w, axis)
        out = sum_(x * w, axis) / total
    return (out, total) if returned else out


def count_nonzero(x, axis=None, keepdims=False) -> Tensor:
    """How many elements are not zero over ``axis`` (Int32)."""
    x = to_tensor(x)
    nonzero = ops.cast(ops.not_equal(x, ops.zeros_like(x)), mstype.int32)
    return _reduce(ops.reduce_sum, nonzero, axis, keepdims)


def _nan_fill(a, fill) -> Tensor:
    a = to_tensor(a)
    if a.dtype.np_dtype.kind != "f":
        return a
    return ops.select(ops.isnan(a), ops.fill(a.dtype, tuple(a.shape), fill), a)


def nansum(a, axis=None, dtype=None, keepdims=False) -> Tensor:
    """Sum over ``axis`` with NaNs as zero."""
    return sum_(_nan_fill(a, 0), axis, dtype, keepdims)


def _nan_count(a, axis, keepdims):
    a = to_tensor(a)
    valid = ops.cast(ops.logical_not(ops.isnan(a)), a.dtype)
    return _reduce(ops.reduce_sum, valid, axis, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False) -> Tensor:
    """Mean over ``axis`` ignoring NaNs."""
    a = as_float(to_tensor(a))
    return cast_to(nansum(a, axis, None, keepdims) / _nan_count(a, axis, keepdims), dtype)


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False) -> Tensor:
    """Variance over ``axis`` ignoring NaNs."""
    a = as_float(to_tensor(a))
    centered = a - nanmean(a, axis, keepdims=True)
    sq = nansum(ops.square(centered), axis, None, keepdims)
    return cast_to(sq / (_nan_count(a, axis, keepdims) - ddof), dtype)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False) -> Tensor:
    """Standard deviation over ``axis`` ignoring NaNs."""
    return cast_to(ops.sqrt(nanvar(a, axis, None, ddof, keepdims)), dtype)


def nanmax(a, axis=None, keepdims=False) -> Tensor:
    """The largest element over ``axis`` ignoring NaNs."""
    return amax(_nan_fill(a, -onp.inf), axis, keepdims)


def nanmin(a, axis=None, keepdims=False) -> Tensor:
    """The smallest element over ``axis`` ignoring NaNs."""
    return amin(_nan_fill(a, onp.inf), axis, keepdims)


def _scan(fn, a, axis, dtype) -> Tensor:
    a = to_tensor(a)
    if a.dtype == mstype.bool_ or a.dtype.np_dtype.kind in "iu" and a.dtype.np_dtype.itemsize < 4:
        a = ops.cast(a, mstype.int32)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    return cast_to(fn(a, axis), dtype)


def cumsum(a, axis=None, dtype=None) -> Tensor:
    """Running sum along ``axis`` (over the flattened array when None)."""
    return _scan(ops.cumsum, a, axis, dtype)


def cumprod(a, axis=None, dtype=None) -> Tensor:
    """Running product along ``axis`` (over the flattened array when None)."""
    return _scan(ops.cumprod, a, axis, dtype)


def nancumsum(a, axis=None, dtype=None) -> Tensor:
    """Running sum along ``axis`` with NaNs as zero."""
    return cumsum(_nan_fill(a, 0), axis, dtype)


def _arg(fn, a, axis, dtype) -> Tensor:
    a = to_tensor(a)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    return ops.cast(fn(a, axis), dtype)


def argmax(a, axis=None) -> Tensor:
    """Index of the first largest element along ``axis`` (of the flattened array when None);
    Int64, as MindSpore's."""
    return _arg(ops.argmax, a, axis, mstype.int64)


def argmin(a, axis=None) -> Tensor:
    """Index of the first smallest element along ``axis``; Int32, as MindSpore's."""
    return _arg(ops.argmin, a, axis, mstype.int32)
