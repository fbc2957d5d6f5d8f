"""Shared helpers of ``mindspore.numpy``: MindSpore's default types and the conversion of
Python numbers, lists and NumPy arrays into Tensors (eagerly or as graph constants)."""
from __future__ import annotations

import builtins

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor

# mnp's defaults: Python ints give Int32, floats Float32 (NumPy's 64-bit types narrowed)
_DEFAULT = {"b": mstype.bool_, "i": mstype.int32, "u": mstype.int32, "f": mstype.float32}


def dtype_of(dtype) -> mstype.Type | None:
    """A MindSpore type from a MindSpore type, a NumPy dtype or its name (None stays)."""
    if dtype is None:
        return None
    if isinstance(dtype, (str, onp.dtype)) or (isinstance(dtype, type)
                                              and issubclass(dtype, onp.generic)):
        return mstype.from_numpy(onp.dtype(dtype))
    if dtype in (builtins.int, builtins.float, builtins.bool):
        return _DEFAULT[onp.dtype(dtype).kind]
    return mstype.to_type(dtype)


def default_type(array: onp.ndarray) -> mstype.Type:
    """The type mnp gives a NumPy value: 64-bit ints/floats narrowed to 32 bits."""
    if array.dtype.kind in _DEFAULT and array.dtype.itemsize == 8 or array.dtype == bool:
        return _DEFAULT[array.dtype.kind]
    return mstype.from_numpy(array.dtype)


def to_tensor(value, dtype=None) -> Tensor:
    """``value`` as a Tensor: Tensors pass through (cast to ``dtype`` if given); numbers,
    nested lists/tuples (possibly holding Tensors) and NumPy arrays become constants."""
    want = dtype_of(dtype)
    if isinstance(value, Tensor):
        return value if want is None or value.dtype == want else ops.cast(value, want)
    if isinstance(value, (list, tuple)) and any(isinstance(v, (Tensor, list, tuple))
                                                for v in value):
        parts = [to_tensor(v) for v in value]
        if any(isinstance(v, Tensor) for v in value):
            common = result_dtype(*parts)
            return to_tensor(ops.stack(tuple(ops.cast(p, common) for p in parts)), want)
    if not isinstance(value, (builtins.int, builtins.float, builtins.bool, list, tuple,
                              onp.ndarray, onp.generic)):
        raise TypeError(f"For mindspore.numpy, expect input to be a Tensor, number, list, "
                        f"tuple or numpy.ndarray, but got {type(value)}.")
    array = onp.asarray(value)
    t = want or default_type(array)
    return Tensor(array.astype(t.np_dtype), t)


def to_tensors(*values) -> tuple:
    return tuple(to_tensor(v) for v in values)


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def promote_pair(t1: mstype.Type, t2: mstype.Type) -> mstype.Type:
    """mnp's promotion of two types: a float type wins over any integer or bool type
    (Int64 with Float16 gives Float16); otherwise NumPy's rule."""
    k1, k2 = t1.np_dtype.kind, t2.np_dtype.kind
    if k1 in "fc" and k2 not in "fc":
        return t1
    if k2 in "fc" and k1 not in "fc":
        return t2
    return mstype.from_numpy(onp.promote_types(t1.np_dtype, t2.np_dtype))


def result_dtype(*tensors) -> mstype.Type:
    """The type mnp's promotion gives the Tensors' types."""
    out = tensors[0].dtype
    for t in tensors[1:]:
        out = promote_pair(out, t.dtype)
    return out


def promote(*values) -> tuple:
    """Tensors of one common type (Python numbers join a Tensor's type as NumPy's weak
    scalars do: an int keeps a float or int tensor's type, a float makes it Float32)."""
    tensors = [v for v in values if isinstance(v, Tensor)]
    kinds = [v.dtype.np_dtype.kind for v in tensors]
    best = builtins.max(kinds, key=_KIND_RANK.get) if kinds else None
    out = []
    for v in values:
        if not isinstance(v, Tensor) and best is not None:
            kind = onp.asarray(v).dtype.kind
            v = to_tensor(v) if _KIND_RANK[kind] > _KIND_RANK[best] else to_tensor(
                v, next(t.dtype for t in tensors if t.dtype.np_dtype.kind == best))
        out.append(to_tensor(v))
    common = result_dtype(*out)
    return tuple(o if o.dtype == common else ops.cast(o, common) for o in out)


def cast_to(out: Tensor, dtype) -> Tensor:
    """``out`` cast to ``dtype`` when one is given."""
    want = dtype_of(dtype)
    return out if want is None or out.dtype == want else ops.cast(out, want)


def as_float(x: Tensor) -> Tensor:
    """``x`` itself if it holds floats, else cast to Float32."""
    return x if x.dtype.np_dtype.kind in "fc" else ops.cast(x, mstype.float32)


def norm_axis(axis, ndim: int) -> int:
    """``axis`` in ``[0, ndim)``; ValueError naming the bound when out of range."""
    if not isinstance(axis, (builtins.int, onp.integer)) or isinstance(axis, builtins.bool):
        raise TypeError(f"axis should be an int, but got {type(axis)}.")
    if not -builtins.max(ndim, 1) <= axis < builtins.max(ndim, 1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return builtins.int(axis) % builtins.max(ndim, 1)


def norm_axes(axis, ndim: int) -> tuple:
    """``axis`` (None: all, an int, or a sequence) as a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (builtins.int, onp.integer)) else tuple(axis)
    out = tuple(sorted(norm_axis(a, ndim) for a in axes))
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in 'axis': {axis}")
    return out


def int_const(values, dtype=mstype.int32) -> Tensor:
    return Tensor(onp.asarray(values).astype(dtype.np_dtype), dtype)
