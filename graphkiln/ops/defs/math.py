"""Elementwise math, activation, comparison and logical primitives, and matrix products.

Binary ops promote their operands with MindSpore's rules (:func:`._infer.promote_types`;
a Python number is "weak" and takes the tensor's type), broadcast NumPy-style, and compute
in the promoted type. The dtypes each op accepts are the ones MindSpore 2.10's CPU kernels
accept (measured; see tests/ops/test_math.py).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import OUT_INPLACE, OUT_SEPARATE, OpDef
from ._infer import (
    ALL,
    COMPLEX,
    FLOATS,
    INTS,
    NUMBERS,
    SIGNED_INTS,
    as_type,
    broadcast_shapes,
    buffer_for,
    check_ndim,
    describe,
    dims_match,
    into,
    join_types,
    keep_where,
    operand_type,
    quiet,
    require_dtype,
    same_type,
    scratch_like,
    shape,
    shapes_match,
    tensor_type,
    value_type,
    wide_type,
)

# ------------------------------------------------------------------ binary

_LOGICAL = (np.logical_and, np.logical_or, np.logical_xor)


# uint16/32/64 tensors take part in arithmetic and comparisons (not in FloorMod/Mod), with
# operands of their own type only, as in MindSpore
_WIDE_UINTS = (mstype.uint16, mstype.uint32, mstype.uint64)


def _check_wide_uint_mix(tx: mstype.Type, wx: bool, ty: mstype.Type, wy: bool) -> None:
    """MindSpore refuses to mix uint16/32/64 with another type (``tx is not ty``)."""
    if tx in _WIDE_UINTS or ty in _WIDE_UINTS:
        shown_x, shown_y = (f"Tensor[{t}]" if weak else str(t) for t, weak in ((tx, wx),
                                                                              (ty, wy)))
        raise TypeError(f"Type implicit conversion between {shown_y} and {shown_x} is not "
                        f"supported.")


def _category(t: mstype.Type) -> str:
    return ("bool" if t is mstype.bool_ else "float" if t.is_float else
            "complex" if t.is_complex else "int")


def _zero_dim_weak(tx, wx, nx: int, ty, wy, ny: int) -> tuple[bool, bool]:
    """MindSpore's Mul and Div: a 0-d tensor next to a tensor of more dimensions and the
    same kind (both integers, both floats) takes that tensor's type, as a Python number
    would (``int32[3] * int64[]`` is int32, ``float16[3] / float32[]`` float16); Add, Sub
    and the others promote it as any tensor (measured on MindSpore 2.10, see
    tests/reliability/test_fuzz_ops.py)."""
    if wx or wy or tx is ty or _category(tx) != _category(ty):
        return wx, wy
    return (nx == 0 and ny > 0), (ny == 0 and nx > 0)


def _binary_infer(name: str, allowed, result: str, zero_dim_weak: bool = False):
    def infer(x, y):
        tx, wx = operand_type(name, "x", x)
        ty, wy = operand_type(name, "y", y)
        if zero_dim_weak:
            wx, wy = _zero_dim_weak(tx, wx, len(shape(x)), ty, wy, len(shape(y)))
        if tx is not ty:
            _check_wide_uint_mix(tx, wx, ty, wy)
        t = join_types(tx, wx, ty, wy)
        if t not in allowed:
            names = ", ".join(str(a) for a in allowed)
            raise TypeError(f"For '{name}', the inputs must promote to one of [{names}], but "
                            f"got x: {describe(x)} and y: {describe(y)} (promoted: {t}).")
        out_shape = broadcast_shapes(name, shape(x), shape(y))
        if result == "bool":
            t = mstype.bool_
        elif result == "float" and not (t.is_float or t.is_complex):
            t = mstype.float32
        return AbstractTensor(t, out_shape)
    return infer


def _binary_kernel(fn, result: str, zero_dim_weak: bool = False):
    @quiet
    def kernel(x, y):
        tx, wx = value_type(x)
        ty, wy = value_type(y)
        if zero_dim_weak:
            wx, wy = _zero_dim_weak(tx, wx, np.ndim(x), ty, wy, np.ndim(y))
        t = join_types(tx, wx, ty, wy)
        if result == "float" and not (t.is_float or t.is_complex):
            t = mstype.float32
        r = fn(as_type(x, t), as_type(y, t))
        return np.asarray(r, np.bool_) if result == "bool" else as_type(np.asarray(r), t)
    kernel.__name__ = getattr(fn, "__name__", "kernel")
    return kernel


def _exact_operand(a, t: mstype.Type) -> bool:
    """True when NumPy computes ``a`` combined with a ``t`` tensor exactly in ``t``."""
    if isinstance(a, AbstractTensor):
        return a.dtype is t
    if isinstance(a, AbstractScalar):
        v = a.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return False
        if t.is_float:
            return True
        return isinstance(v, int) and t.bits >= 32 and -2**31 <= v < 2**31
    return False


def _binary_specialize(fn, result: str):
    """The bare ufunc when both operands already have the computation's type."""
    if not isinstance(fn, np.ufunc):
        return None

    def specialize(ins, out, attrs):
        if attrs:
            return None
        x, y = ins
        t = out.dtype
        if result == "bool":
            tx = x.dtype if isinstance(x, AbstractTensor) else None
            ty = y.dtype if isinstance(y, AbstractTensor) else None
            t = tx or ty
            if t is None or t is mstype.bool_ and fn not in _LOGICAL:
                return None
        elif not isinstance(x, AbstractTensor) and not isinstance(y, AbstractTensor):
            return None
        if any(isinstance(a, AbstractScalar) for a in ins) and \
                any(isinstance(a, AbstractTensor) and a.shape == () for a in ins):
            # a 0-d value may be a NumPy scalar (a full reduction's result), which NumPy 1
            # combines with a Python number in float64/int64: keep the casting kernel
            return None
        return fn if _exact_operand(x, t) and _exact_operand(y, t) else None
    return specialize


def _tensor_operand_infer(name: str, allowed, infer):
    """``infer`` of an op that MindSpore types as a tensor op only (``Mod``): a Python
    number may join a Tensor operand, but some operand must be a Tensor of ``allowed``."""
    def checked(x, y):
        tensors = [(arg, a) for arg, a in (("x", x), ("y", y)) if isinstance(a, AbstractTensor)]
        bad = next(((arg, a) for arg, a in tensors if a.dtype not in allowed),
                   None if tensors else ("x", x))
        if bad is not None:
            names = ", ".join(f"Tensor[{t}]" for t in allowed)
            raise TypeError(f"For '{name}', the element of '{bad[0]}' must be one of "
                            f"{names}, but got {describe(bad[1])}.")
        return infer(x, y)
    return checked


_ADD_V2_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8,
                 mstype.float16, mstype.float32, mstype.float64) + COMPLEX


def _add_v2_infer(infer):
    """``AddV2``'s checks before ``Add``'s promotion: two Tensors of one shape (it does not
    broadcast), each of MindSpore's listed types (uint16/32/64 there have no CPU kernel)."""
    listed = ", ".join(sorted(f"Tensor[{t}]" for t in _ADD_V2_TYPES + _WIDE_UINTS))

    def checked(x, y):
        if not (isinstance(x, AbstractTensor) or isinstance(y, AbstractTensor)):
            raise TypeError(f"The primitive[AddV2]'s input arguments[x, y] must be all tensor "
                            f"and those type must be same. But got input argument[x]:"
                            f"{describe(x)} But got input argument[y]:{describe(y)}.")
        for arg, a in (("x", x), ("y", y)):  # a Python number joins as a 0-d tensor
            if not isinstance(a, AbstractTensor) and not (
                    isinstance(a, AbstractScalar) and a.kind in (int, float, bool)):
                raise TypeError(f"For primitive[AddV2], the input argument[{arg}] must be a "
                                f"type of {{{listed}}}, but got {describe(a)}.")
        if not shapes_match(shape(x), shape(y)):
            raise ValueError(f"For primitive[AddV2], the input_shape: {list(shape(x))} must "
                             f"be equal to {list(shape(y))}.")
        tensors = [(arg, a) for arg, a in (("x", x), ("y", y)) if isinstance(a, AbstractTensor)]
        for arg, a in tensors:
            if a.dtype not in _ADD_V2_TYPES + _WIDE_UINTS:
                raise TypeError(f"For primitive[AddV2], the input argument[{arg}] must be a "
                                f"type of {{{listed}}}, but got {describe(a)}.")
        for _, a in tensors:
            if a.dtype in _WIDE_UINTS:
                raise TypeError(f"Select CPU operator[AddV2] fail! Unsupported data type! "
                                f"{a.dtype} has no AddV2 kernel.")
        return infer(x, y)
    return checked


def binary(name, fn, allowed=NUMBERS, result="promote", differentiable=True,
           tensor_operand=False, zero_dim_weak=False) -> OpDef:
    """An elementwise binary op. ``result``: ``promote`` (the promoted type), ``float``
    (promoted, integers and bool giving float32) or ``bool``. ``tensor_operand``: some
    operand must be a Tensor (two Python numbers are a TypeError). ``zero_dim_weak``: see
    :func:`_zero_dim_weak`."""
    infer = _binary_infer(name, allowed, result, zero_dim_weak)
    if tensor_operand:
        infer = _tensor_operand_infer(name, allowed, infer)
    op = OpDef(name, infer, _binary_kernel(fn, result, zero_dim_weak),
               differentiable=differentiable)
    op.specialize = _binary_specialize(fn, result)
    return op


def _pow(x, y):
    if x.dtype.kind not in "iub":
        return np.power(x, y)
    if x.dtype.kind == "b":
        return np.power(x.astype(np.int8), y.astype(np.int8))
    neg = y < 0
    if not neg.any():
        return np.power(x, y)
    # integer ** negative: 1 and -1 have exact answers, every other base truncates to 0
    r = np.power(x, np.where(neg, 0, y).astype(y.dtype))
    sign = np.where(y % 2 == 0, 1, -1).astype(x.dtype)
    exact = np.where(x == 1, np.ones_like(x), np.where(x == -1, sign, np.zeros_like(x)))
    return np.where(neg, exact, r)


def by_zero_saturated(x, y, divide):
    """``divide(x, y)`` for integer arrays, with MindSpore's CPU result where ``y == 0``:
    the dtype's extreme of the dividend's sign (0 for 0 / 0) instead of NumPy's 0."""
    zero = y == 0
    if x.dtype.kind not in "iu" or not zero.any():
        return divide(x, y)
    q = divide(x, np.where(zero, np.ones_like(y), y))
    info = np.iinfo(q.dtype)
    # the extremes as arrays of q's dtype (NumPy 1 would take 2**64 - 1 with a 0 as float64)
    high, low = np.array(info.max, q.dtype), np.array(info.min, q.dtype)
    edge = np.where(x > 0, high, np.where(x < 0, low, np.zeros((), q.dtype)))
    return np.where(zero, edge, q)


def int_quotient(x, y):
    """x / y rounded toward zero, for integer arrays (no division by zero)."""
    q = np.floor_divide(x, y)
    r = x - q * y
    return q + ((r != 0) & ((x < 0) != (y < 0))).astype(q.dtype)


def _floor_div(x, y):
    return by_zero_saturated(x, y, np.floor_divide)


def _floor_mod(x, y):
    """``x mod y`` with the divisor's sign; 0 for an integer ``y == 0`` (MindSpore 2.10's
    CPU kernel gives 0 for 8/16-bit integers but INT_MIN for int32/int64 there, an
    artifact of a float detour; 0 here for every width)."""
    if x.dtype.kind not in "iu":
        return np.mod(x, y)
    zero = y == 0
    return np.where(zero, np.zeros_like(x), np.mod(x, np.where(zero, np.ones_like(y), y)))


_ARITH = NUMBERS + _WIDE_UINTS
_ANY = ALL + _WIDE_UINTS

Add = binary("Add", np.add, _ARITH + COMPLEX)
Sub = binary("Sub", np.subtract, _ARITH + COMPLEX)
AddV2 = binary("AddV2", np.add, _ADD_V2_TYPES)
AddV2.infer = _add_v2_infer(AddV2.infer)
Mul = binary("Mul", np.multiply, _ANY + COMPLEX, zero_dim_weak=True)
Div = binary("Div", np.true_divide, _ANY + COMPLEX, "float", zero_dim_weak=True)
FloorDiv = binary("FloorDiv", _floor_div, _ANY)
FloorMod = binary("FloorMod", _floor_mod)
Mod = binary("Mod", np.fmod, tensor_operand=True)  # truncated: the result has x's sign
Pow = binary("Pow", _pow, _ARITH + COMPLEX)
Maximum = binary("Maximum", np.maximum, _ANY)
Minimum = binary("Minimum", np.minimum, _ARITH)

Less = binary("Less", np.less, _ANY, "bool", differentiable=False)
LessEqual = binary("LessEqual", np.less_equal, _ANY, "bool", differentiable=False)
Greater = binary("Greater", np.greater, _ANY, "bool", differentiable=False)
GreaterEqual = binary("GreaterEqual", np.greater_equal, _ANY, "bool", differentiable=False)
Equal = binary("Equal", np.equal, _ANY, "bool", differentiable=False)
NotEqual = binary("NotEqual", np.not_equal, _ANY, "bool", differentiable=False)
# MindSpore's logical ops accept any dtype and treat non-zero as True.
LogicalAnd = binary("LogicalAnd", np.logical_and, ALL, "bool", differentiable=False)
LogicalOr = binary("LogicalOr", np.logical_or, ALL, "bool", differentiable=False)
LogicalXor = binary("LogicalXor", np.logical_xor, ALL, "bool", differentiable=False)
# ``x & y``, ``x | y``, ``x ^ y`` of Tensors: bits of integers (uint16/32/64 too), logic of bools
_BITS = (mstype.bool_,) + INTS + _WIDE_UINTS
BitwiseAnd = binary("BitwiseAnd", np.bitwise_and, _BITS, differentiable=False)
BitwiseOr = binary("BitwiseOr", np.bitwise_or, _BITS, differentiable=False)
BitwiseXor = binary("BitwiseXor", np.bitwise_xor, _BITS, differentiable=False)
Gcd = binary("Gcd", np.gcd, INTS, differentiable=False)
Lcm = binary("Lcm", np.lcm, INTS, differentiable=False)
LeftShift = binary("LeftShift", np.left_shift, INTS + _WIDE_UINTS, differentiable=False)
RightShift = binary("RightShift", np.right_shift, INTS + _WIDE_UINTS, differentiable=False)
NextAfter = binary("NextAfter", np.nextafter, (mstype.float32, mstype.float64))


def _same_tensor_types(name: str, infer):
    """``infer``, after checking that two Tensor operands have one dtype (no promotion)."""
    def checked(x, y):
        tx, wx = operand_type(name, "x", x)
        ty, wy = operand_type(name, "y", y)
        if not (wx or wy) and tx is not ty:
            raise TypeError(f"For primitive[{name}], the input type must be same, but got "
                            f"x: {describe(x)} and y: {describe(y)}.")
        return infer(x, y)
    return checked


NextAfter.infer = _same_tensor_types("NextAfter", NextAfter.infer)


def _popcount_infer(x):
    t = tensor_type("PopulationCount", "input_x", x)
    require_dtype("PopulationCount", "input_x", t, (mstype.int8, mstype.int16, mstype.uint8,
                                                    mstype.uint16))
    return AbstractTensor(mstype.uint8, tuple(x.shape))


def _popcount(x):
    """The number of 1 bits of each element (two's complement for negative ones)."""
    x = np.asarray(x)
    as_bytes = np.ascontiguousarray(x).view(np.uint8).reshape(x.shape + (x.dtype.itemsize,))
    return np.unpackbits(as_bytes, -1).sum(-1).astype(np.uint8)


PopulationCount = OpDef("PopulationCount", _popcount_infer, _popcount, differentiable=False)


# ------------------------------------------------------------------ unary

def _unary_infer(name: str, allowed, result: str, check_attrs=None):
    def infer(x, **attrs):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, allowed)
        if check_attrs is not None:
            check_attrs(**attrs)
        if result == "bool":
            t = mstype.bool_
        elif result == "float" and not (t.is_float or t.is_complex):
            t = mstype.float32
        return AbstractTensor(t, shape(x))
    return infer


def _unary_kernel(fn, result: str):
    @quiet
    def kernel(x, **attrs):
        x = np.asarray(x)
        if result == "float" and x.dtype.kind not in "fc":
            x = x.astype(np.float32)
        r = np.asarray(fn(x, **attrs))
        return r.astype(np.bool_, copy=False) if result == "bool" else \
            r.astype(x.dtype, copy=False)
    kernel.__name__ = getattr(fn, "__name__", "kernel")
    return kernel


def _unary_specialize(fn, result: str):
    """The bare ufunc on float32/float64 tensors (the result has the input's type)."""
    if not isinstance(fn, np.ufunc) or result == "bool":
        return None

    def specialize(ins, out, attrs):
        x = ins[0]
        if attrs or not isinstance(x, AbstractTensor) or x.dtype is not out.dtype:
            return None
        return fn if x.dtype in (mstype.float32, mstype.float64) else None
    return specialize


def _unary_out_kernel(fn):
    """The kernel of an op whose ``fn(x, out=None, **attrs)`` keeps ``x``'s type and may
    write into ``out`` (``scratch=`` arrives among the attributes)."""
    @quiet
    def kernel(x, out=None, **attrs):
        return fn(np.asarray(x), out=out, **attrs)
    kernel.__name__ = fn.__name__
    return kernel


def unary(name, fn, allowed=NUMBERS, result="same", differentiable=True, attrs=None,
          check_attrs=None, out_buffer: str | None = None,
          scratch: Callable | None = None) -> OpDef:
    """An elementwise unary op. ``result``: ``same`` (the input's type), ``float``
    (integers and bool give float32) or ``bool``. With ``out_buffer`` and ``scratch`` (see
    :class:`OpDef`), ``fn(x, out=None, **attrs)`` keeps ``x``'s type (``result`` is
    ``same``)."""
    kernel = _unary_out_kernel(fn) if out_buffer else _unary_kernel(fn, result)
    op = OpDef(name, _unary_infer(name, allowed, result, check_attrs), kernel,
               differentiable=differentiable, attrs=attrs, out_buffer=out_buffer,
               scratch=scratch)
    op.specialize = _unary_specialize(fn, result)
    return op


def _wide(x):
    """Compute float16 in float32 (the result is cast back by the kernel wrapper)."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


# erf: a power series near 0 and a continued fraction for erfc in the tails; float64
# accurate to a few ulp (tests compare with math.erf), fully vectorised.
_ERF_SPLIT = 2.0
_ERF_SERIES = np.array([2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1))
                        for n in range(30)])
_ERFC_TERMS = 40
_ERF_ONE = 6.0  # erf(x) rounds to 1.0 in float64 beyond this


def erfc_tail(xb: np.ndarray) -> np.ndarray:
    """erfc of float64 values >= 2 by its continued fraction (no cancellation)."""
    f = xb.copy()
    for k in range(_ERFC_TERMS, 0, -1):  # erfc(x) = e^{-x^2}/sqrt(pi) / (x + (1/2)/(x + 1/...))
        np.divide(0.5 * k, f, out=f)
        f += xb
    return np.exp(-xb * xb) / (math.sqrt(math.pi) * f)


def erf64(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float64)
    out = np.empty_like(x)
    ax = np.abs(x)
    small = ax < _ERF_SPLIT
    xs = x[small]
    x2 = xs * xs
    acc = np.full_like(xs, _ERF_SERIES[-1])
    for c in _ERF_SERIES[-2::-1]:
        acc *= x2
        acc += c
    out[small] = xs * acc
    far = ax >= _ERF_ONE
    out[far] = np.sign(x[far])
    big = ~small & ~far
    out[big] = np.copysign(1.0 - erfc_tail(ax[big]), x[big])
    out[np.isnan(x)] = np.nan
    return out


def _erf(x):
    return erf64(x)


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _gelu(x, approximate="tanh", out=None, scratch=None):
    """Into ``out`` when given (it must not overlap ``x``), with the clipped input in
    ``scratch[0]``."""
    w = _wide(x)
    if approximate != "tanh":
        return into(out, (0.5 * w * (1.0 + erf64(w / math.sqrt(2.0)))).astype(x.dtype,
                                                                          copy=False))
    # 0.5 * x * (1 + tanh(u)) as x * sigmoid(2u), u = c * (xc + 0.044715 * xc**3): the same
    # function without 1 + tanh(u)'s cancellation for negative x (7e-4 relative error at
    # x = -3.9 in float32 before). tanh saturates long before x**3 could overflow: the
    # argument is clipped, not the result.
    xc = np.clip(w, -20, 20, out=buffer_for(scratch and scratch[0], w))
    r = np.multiply(0.044715, xc, out=buffer_for(out, w))
    r *= xc
    r *= xc
    r += xc
    r *= -2.0 * _SQRT_2_OVER_PI
    with np.errstate(over="ignore"):  # inf for x < -10 gives GeLU's 0: no float error
        np.exp(r, out=r)
    r += 1.0
    np.divide(w, r, out=r)
    return into(out, r.astype(x.dtype, copy=False))


def _check_gelu(approximate="tanh"):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'GeLU', 'approximate' must be 'none' or 'tanh', but got "
                         f"{approximate!r}.")


def _sigmoid(x):
    x = _wide(x)
    e = np.exp(-np.abs(x))  # never overflows (the float-status register stays clean)
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _hswish(x):
    if x.dtype.kind == "f":
        return x * np.clip(x + 3, 0, 6) / 6 + 0.0  # + 0.0: -0.0 becomes 0.0, as on MindSpore
    xi = x.astype(np.int64)
    r = xi * np.clip(xi + 3, 0, 6)
    return np.sign(r) * (np.abs(r) // 6)  # C-style truncation, as MindSpore's int kernel


def _softplus(x):
    return np.logaddexp(0, _wide(x))


def _rsqrt(x):
    return 1 / np.sqrt(x)


def _relu(x, out=None, scratch=None):
    """``x`` where ``x > 0``, else +0 (NaN gives 0, as on MindSpore): the bits of
    ``fmax(0, x) + 0`` in two passes at a copy's speed (``fmax`` alone is 6x slower). Into
    ``out`` when given (it may be ``x``), with the mask ``x > 0`` in ``scratch[0]``."""
    positive = np.greater(x, 0, out=scratch[0] if scratch else None)
    return keep_where(x, positive, out)


def _relu_scratch(x, **attrs):
    """The mask ``x > 0``."""
    return [(tuple(x.shape), mstype.bool_)]


Neg = unary("Neg", np.negative, NUMBERS + _WIDE_UINTS + COMPLEX)  # (unsigned: wraps)
Abs = unary("Abs", np.abs, ALL + COMPLEX)  # of a complex tensor: the modulus, complex typed
# complex inputs as on MindSpore's CPU (gradients: the conjugate convention, bprop.py)
Square = unary("Square", np.square, NUMBERS + COMPLEX)
Exp = unary("Exp", np.exp, FLOATS + COMPLEX)
Log = unary("Log", np.log, FLOATS + COMPLEX)
# integers and bool: float32
Sqrt = unary("Sqrt", np.sqrt, ALL + _WIDE_UINTS + COMPLEX, "float")
Rsqrt = unary("Rsqrt", _rsqrt, FLOATS)
Sin = unary("Sin", np.sin, FLOATS + COMPLEX)
Cos = unary("Cos", np.cos, FLOATS + COMPLEX)
Tanh = unary("Tanh", np.tanh, FLOATS + COMPLEX)
Sigmoid = unary("Sigmoid", _sigmoid, FLOATS)
ReLU = unary("ReLU", _relu, ALL, out_buffer=OUT_INPLACE, scratch=_relu_scratch)
# MindSpore's GeLU primitive uses the tanh approximation; ops.gelu defaults to the exact
# erf form. One primitive with an ``approximate`` attribute serves both.
GeLU = unary("GeLU", _gelu, FLOATS, attrs={"approximate": "tanh"}, check_attrs=_check_gelu,
             out_buffer=OUT_SEPARATE, scratch=scratch_like(wide_type))
HSwish = unary("HSwish", _hswish, SIGNED_INTS + FLOATS)
Softplus = unary("Softplus", _softplus, FLOATS)
Erf = unary("Erf", _erf, FLOATS)
LogicalNot = unary("LogicalNot", np.logical_not, ALL, "bool", differentiable=False)


# ------------------------------------------------------------------ matrix products

def _swap_last(s: tuple, flag: bool) -> tuple:
    return s[:-2] + (s[-1], s[-2]) if flag else s


def _check_k(name: str, sx: tuple, sy: tuple, ta: bool, tb: bool, x, y) -> None:
    if not dims_match(sx[-1], sy[-2]):
        raise ValueError(f"For '{name}', the input dimensions must be equal, but got "
                         f"'x1_col': {sx[-1]} and 'x2_row': {sy[-2]} (x1 shape "
                         f"{list(x.shape)}, x2 shape {list(y.shape)}, transpose_a={ta}, "
                         f"transpose_b={tb}).")


def _matmul_infer(x, y, transpose_a=False, transpose_b=False):
    t = same_type("MatMul", {"x1": x, "x2": y})
    require_dtype("MatMul", "x1", t, NUMBERS + COMPLEX)
    check_ndim("MatMul", "x1", x, (2,))
    check_ndim("MatMul", "x2", y, (2,))
    sx, sy = _swap_last(x.shape, transpose_a), _swap_last(y.shape, transpose_b)
    _check_k("MatMul", sx, sy, transpose_a, transpose_b, x, y)
    return AbstractTensor(t, (sx[0], sy[1]))


def _batch_matmul_infer(x, y, transpose_a=False, transpose_b=False):
    t = same_type("BatchMatMul", {"x1": x, "x2": y})
    require_dtype("BatchMatMul", "x1", t, NUMBERS + _WIDE_UINTS + COMPLEX)
    for arg, a in (("x1", x), ("x2", y)):
        if a.ndim < 2:
            raise ValueError(f"For 'BatchMatMul', the rank of '{arg}' must be at least 2, "
                             f"but got shape {list(a.shape)}.")
    sx, sy = _swap_last(x.shape, transpose_a), _swap_last(y.shape, transpose_b)
    _check_k("BatchMatMul", sx, sy, transpose_a, transpose_b, x, y)
    batch = broadcast_shapes("BatchMatMul", sx[:-2], sy[:-2], "x1[:-2]", "x2[:-2]")
    return AbstractTensor(t, batch + (sx[-2], sy[-1]))


@quiet
def _matmul(x, y, transpose_a=False, transpose_b=False, out=None):
    """``x @ y`` (each transposed first if asked), into ``out`` when given (it must not
    overlap ``x`` or ``y``)."""
    if transpose_a:
        x = np.swapaxes(x, -1, -2)
    if transpose_b:
        y = np.swapaxes(y, -1, -2)
    return np.asarray(np.matmul(x, y, out=out))


MatMul = OpDef("MatMul", _matmul_infer, _matmul,
               attrs={"transpose_a": False, "transpose_b": False}, out_buffer=OUT_SEPARATE)
# Batch dimensions broadcast (MindSpore's Ascend behaviour; its CPU kernel wants them equal).
BatchMatMul = OpDef("BatchMatMul", _batch_matmul_infer, _matmul,
                    attrs={"transpose_a": False, "transpose_b": False},
                    out_buffer=OUT_SEPARATE)


# ------------------------------------------------------------------ more elementwise ops

# RealDiv divides in the promoted type (integers stay integers), unlike Div
def _real_div(x, y):
    """``x / y``; integers rounded toward zero, a division by zero giving the dtype's
    extreme of the dividend's sign (0 for 0 / 0), as MindSpore's CPU kernel."""
    if x.dtype.kind in "iu":
        return by_zero_saturated(x, y, int_quotient)
    return np.true_divide(x, y)


RealDiv = binary("RealDiv", _real_div, _ARITH + COMPLEX)
Reciprocal = unary("Reciprocal", np.reciprocal, NUMBERS + COMPLEX, "float")


def _sign(x):
    """MindSpore's sign: 0 for NaN, +0.0 for -0.0."""
    r = np.asarray(np.sign(x))
    if r.dtype.kind == "f":
        r[np.isnan(r)] = 0
        r += 0  # -0.0 + 0 is +0.0
    return r


Sign = unary("Sign", _sign, NUMBERS)
Floor = unary("Floor", np.floor, FLOATS)
Ceil = unary("Ceil", np.ceil, FLOATS)
Round = unary("Round", np.round, NUMBERS)
Log1p = unary("Log1p", lambda x: np.log1p(_wide(x)), FLOATS + COMPLEX)
Expm1 = unary("Expm1", lambda x: np.expm1(_wide(x)), FLOATS + COMPLEX)
Tan = unary("Tan", lambda x: np.tan(_wide(x)), FLOATS + COMPLEX)
Atan = unary("Atan", lambda x: np.arctan(_wide(x)), FLOATS + COMPLEX)
Sinh = unary("Sinh", lambda x: np.sinh(_wide(x)), FLOATS + COMPLEX)
Cosh = unary("Cosh", lambda x: np.cosh(_wide(x)), FLOATS + COMPLEX)
Asin = unary("Asin", lambda x: np.arcsin(_wide(x)), FLOATS)
Acos = unary("Acos", lambda x: np.arccos(_wide(x)), FLOATS)
SquaredDifference = binary("SquaredDifference", lambda x, y: np.square(x - y))
Atan2 = binary("Atan2", np.arctan2, FLOATS, "float")
