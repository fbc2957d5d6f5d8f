"""Comparisons, predicates and set tests of ``mindspore.numpy``."""
from __future__ import annotations

import builtins

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._base import as_float, cast_to, norm_axes, promote, to_tensor


def _compare(fn, name: str):
    def apply(x1, x2, dtype=None):
        a, b = promote(x1, x2)
        return cast_to(fn(a, b), dtype)
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"NumPy's ``{name}`` element-wise (a boolean Tensor)."
    return apply


def _predicate(fn, name: str):
    def apply(x, dtype=None):
        x = to_tensor(x)
        return cast_to(fn(x), dtype)
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"NumPy's ``{name}`` element-wise (a boolean Tensor)."
    return apply


def _bool(x):
    return x if x.dtype == mstype.bool_ else ops.not_equal(x, ops.zeros_like(x))


def _on_floats(fn, default: bool):
    def apply(x):
        if x.dtype.np_dtype.kind != "f":
            return ops.fill(mstype.bool_, tuple(x.shape), default)
        return fn(x)
    return apply


equal = _compare(ops.equal, "equal")
not_equal = _compare(ops.not_equal, "not_equal")
less = _compare(ops.less, "less")
less_equal = _compare(ops.less_equal, "less_equal")
greater = _compare(ops.greater, "greater")
greater_equal = _compare(ops.greater_equal, "greater_equal")
logical_and = _compare(lambda a, b: ops.logical_and(_bool(a), _bool(b)), "logical_and")
logical_or = _compare(lambda a, b: ops.logical_or(_bool(a), _bool(b)), "logical_or")
logical_xor = _compare(lambda a, b: ops.not_equal(_bool(a), _bool(b)), "logical_xor")
logical_not = _predicate(lambda x: ops.logical_not(_bool(x)), "logical_not")
isfinite = _predicate(_on_floats(ops.isfinite, True), "isfinite")
isnan = _predicate(_on_floats(ops.isnan, False), "isnan")
isinf = _predicate(_on_floats(ops.isinf, False), "isinf")
isposinf = _predicate(_on_floats(lambda x: ops.logical_and(ops.isinf(x), x > 0), False),
                      "isposinf")
isneginf = _predicate(_on_floats(lambda x: ops.logical_and(ops.isinf(x), x < 0), False),
                      "isneginf")
signbit = _predicate(lambda x: ops.signbit(x) if x.dtype.np_dtype.kind == "f" else x < 0,
                     "signbit")


def isscalar(element) -> bool:
    """True for Python numbers and strings (a Tensor is never a scalar here)."""
    return isinstance(element, (builtins.int, builtins.float, builtins.complex, builtins.bool,
                                builtins.str))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    """``|a - b| <= atol + rtol * |b|`` element-wise (NaNs equal when ``equal_nan``)."""
    a, b = promote(a, b)
    a, b = as_float(a), as_float(b)
    close = ops.less_equal(ops.abs(a - b), atol + rtol * ops.abs(b))
    same = ops.equal(a, b)  # equal infinities
    out = ops.logical_or(close, same)
    if equal_nan:
        out = ops.logical_or(out, ops.logical_and(ops.isnan(a), ops.isnan(b)))
    return out


def in1d(ar1, ar2, invert=False) -> Tensor:
    """Whether each element of the flattened ``ar1`` occurs in ``ar2``."""
    a, b = promote(ar1, ar2)
    hits = ops.equal(ops.reshape(a, (-1, 1)), ops.reshape(b, (1, -1)))
    out = ops.reduce_any(hits, (1,)) if b.size else ops.zeros((a.size,), mstype.bool_)
    return ops.logical_not(out) if invert else out


def isin(element, test_elements, invert=False) -> Tensor:
    """``in1d`` in the shape of ``element``."""
    element = to_tensor(element)
    return ops.reshape(in1d(element, test_elements, invert), tuple(element.shape))


def sometrue(a, axis=None, keepdims=False) -> Tensor:
    """Whether any element along ``axis`` is true."""
    a = _bool(to_tensor(a))
    axes = norm_axes(axis, a.ndim)
    return ops.reduce_any(a, axes, keepdims) if axes else a


def array_equal(a1, a2, equal_nan=False) -> Tensor:
    """True if both have one shape and equal elements."""
    a1, a2 = to_tensor(a1), to_tensor(a2)
    if tuple(a1.shape) != tuple(a2.shape):
        return Tensor(False)
    eq = ops.equal(*promote(a1, a2))
    if equal_nan:
        eq = ops.logical_or(eq, ops.logical_and(isnan(a1), isnan(a2)))
    return ops.reduce_all(eq)


def array_equiv(a1, a2) -> Tensor:
    """True if the arrays broadcast to one shape with equal elements."""
    a1, a2 = to_tensor(a1), to_tensor(a2)
    try:
        onp.broadcast_shapes(tuple(a1.shape), tuple(a2.shape))
    except ValueError:
        return Tensor(False)
    return ops.reduce_all(ops.equal(*promote(a1, a2)))


def setdiff1d(ar1, ar2, assume_unique=False) -> Tensor:
    """The sorted unique values of ``ar1`` that are not in ``ar2`` (a run-time length)."""
    a = ops.reshape(to_tensor(ar1), (-1,))
    if not assume_unique:
        a = ops.sort(ops.unique(a)[0])[0]
    keep = in1d(a, ar2, invert=True)
    return ops.masked_select(a, keep)
