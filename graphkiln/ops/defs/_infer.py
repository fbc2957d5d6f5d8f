"""Shared shape/dtype inference helpers with MindSpore's error types and texts.

Everything an ``infer`` needs more than once lives here: reading input types (tensors and
Python numbers), MindSpore's type promotion, broadcasting, axis checks, constant inputs.
Kernels use :func:`quiet` and :func:`value_type` so that they compute in the dtype infer
promised and never print NumPy warnings (genuine float errors still reach the emulated
float-status register).
"""
from __future__ import annotations

import functools

import numpy as np

from ...common import dtype as mstype
from ...common import float_status
from ...errors import DynamicRankError
from ...ir.abstract import (
    UNKNOWN,
    AbstractPyObject,
    AbstractScalar,
    AbstractTensor,
    AbstractTuple,
)

FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
IEEE_FLOATS = FLOATS[:3]  # without bfloat16
INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)
SIGNED_INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)
NUMBERS = INTS + FLOATS
COMPLEX = (mstype.complex64, mstype.complex128)
ALL = (mstype.bool_,) + NUMBERS
INDEX_TYPES = (mstype.int32, mstype.int64)

_PY_NUMBER = (bool, int, float)


# ------------------------------------------------------------------ describing inputs

def describe(a) -> str:
    if isinstance(a, AbstractTensor):
        return f"Tensor[{a.dtype}] with shape {list(a.shape)}"
    if isinstance(a, AbstractTuple):
        return "tuple" if not a.is_list else "list"
    if isinstance(a, AbstractScalar):
        return a.kind.__name__
    if isinstance(a, AbstractPyObject):
        return "a Python object computed when the graph runs (asnumpy(), NumPy...)"
    return type(a).__name__


def shape(a) -> tuple:
    return a.shape if isinstance(a, AbstractTensor) else ()


def tensor_type(name: str, arg: str, a) -> mstype.Type:
    """The dtype of a tensor (or NumPy scalar constant) input, else MindSpore's TypeError."""
    if isinstance(a, AbstractTensor):
        return a.dtype
    if isinstance(a, AbstractScalar) and isinstance(a.value, np.generic):
        return mstype.from_numpy(a.value.dtype)
    raise TypeError(f"For '{name}', the input '{arg}' must be a Tensor, "
                    f"but got {describe(a)}.")


def is_py_number(v) -> bool:
    """A Python number (``np.float64`` subclasses ``float`` but is a typed 0-d value)."""
    return isinstance(v, _PY_NUMBER) and not isinstance(v, np.generic)


def operand_type(name: str, arg: str, a) -> tuple[mstype.Type, bool]:
    """``(dtype, weak)`` of an elementwise operand: a tensor, a NumPy scalar (strong) or a
    Python number (weak: it adapts to the tensor's type, as MindSpore's scalars do)."""
    if isinstance(a, AbstractScalar) and issubclass(a.kind, _PY_NUMBER):  # constant or run-time
        return mstype.scalar_type(a.kind()), True
    if isinstance(a, AbstractScalar) and not isinstance(a.value, np.generic):
        raise TypeError(f"For '{name}', the input '{arg}' must be a Tensor or a number, "
                        f"but got {describe(a)}.")
    return tensor_type(name, arg, a), False


# ------------------------------------------------------------------ type promotion

def promote_types(a: mstype.Type, b: mstype.Type) -> mstype.Type:
    """Tensor-tensor promotion as MindSpore 2.10 does it (checked against it in
    tests/ops/test_promotion.py): bool yields to anything, a float beats any integer
    (``int64 + float16 -> float16``), two floats give the wider, two integers and a complex
    number with anything follow NumPy (``int8 + uint8 -> int16``, ``complex64 + float64 ->
    complex128``)."""
    if a is b:
        return a
    if a is mstype.bool_:
        return b
    if b is mstype.bool_:
        return a
    if a.is_complex or b.is_complex:
        return mstype.from_numpy(np.promote_types(a.np_dtype, b.np_dtype))
    if a.is_float and b.is_float:
        return a if a.bits >= b.bits else b
    if a.is_float:
        return a
    if b.is_float:
        return b
    return mstype.from_numpy(np.promote_types(a.np_dtype, b.np_dtype))


def promote_weak(t: mstype.Type, weak: mstype.Type) -> mstype.Type:
    """``tensor(t) op python_number`` where ``weak`` is the number's own type: a number
    never widens a tensor of its kind (``int8 + 300 -> int8``, ``float16 + 2.5 -> float16``);
    an int with a bool tensor gives int64, a float with a non-float tensor float32 (a
    complex tensor stays complex, as on MindSpore)."""
    if weak is mstype.bool_:
        return t
    if weak.is_int:
        return mstype.int64 if t is mstype.bool_ else t
    return t if t.is_float or t.is_complex else mstype.float32


def join_types(tx: mstype.Type, wx: bool, ty: mstype.Type, wy: bool) -> mstype.Type:
    if wx and not wy:
        return promote_weak(ty, tx)
    if wy and not wx:
        return promote_weak(tx, ty)
    return promote_types(tx, ty)


def value_type(v) -> tuple[mstype.Type, bool]:
    """Kernel-side twin of :func:`operand_type`, on run-time values."""
    if is_py_number(v):
        return mstype.scalar_type(v), True
    return mstype.from_numpy(np.asarray(v).dtype), False


def as_type(v, t: mstype.Type) -> np.ndarray:
    """``v`` as an array of ``t`` (wrapping like a C cast; Python ints never overflow). Call
    it from a :func:`quiet` kernel: a float that overflows ``t`` is a float error."""
    if isinstance(v, np.ndarray) and v.dtype == t.np_dtype:
        return v
    return np.asarray(v).astype(t.np_dtype, copy=False)


def quiet(kernel):
    """Run a kernel without NumPy floating-point warnings. Inside graphkiln's dispatch
    (``common.float_status.fp_guard``, which routes NumPy's float errors to the emulated
    status register) the caller's error handling is kept, so a real overflow still sets the
    status; anywhere else the errors are ignored (inf/nan are results, never messages)."""
    @functools.wraps(kernel)
    def run(*args, **kwargs):
        if float_status.active():
            return kernel(*args, **kwargs)
        with np.errstate(all="ignore"):
            return kernel(*args, **kwargs)
    return run


def into(out: np.ndarray | None, result: np.ndarray) -> np.ndarray:
    """``result``, written into the buffer ``out`` a memory plan gave the kernel (see
    ``OpDef.out_buffer``) unless it already is that buffer."""
    if out is None or result is out:
        return result
    np.copyto(out, result)
    return out


def keep_where(values: np.ndarray, mask: np.ndarray, out: np.ndarray | None = None
               ) -> np.ndarray:
    """``np.where(mask, values, 0)`` with the same bits (+0 where ``mask`` is false), into
    ``out`` when given (it may be ``values``): a float's bits times the boolean mask as
    integers, one pass at the speed of a copy (``where`` is over 10x slower; a float
    product would give -0 and keep NaN)."""
    if values.dtype.kind != "f" or values.dtype.itemsize not in (2, 4, 8):
        return np.multiply(values, mask, out=out, dtype=values.dtype)
    result = np.empty(np.broadcast_shapes(values.shape, mask.shape), values.dtype) \
        if out is None else out
    bits = f"i{values.dtype.itemsize}"
    np.multiply(values.view(bits), mask, out=result.view(bits), dtype=bits)
    return result


def buffer_for(buf: np.ndarray | None, like: np.ndarray) -> np.ndarray:
    """An array for a result computed element-wise from ``like``: ``buf`` (an ``out=`` or
    scratch array) when it can stand for a new one, with the same dtype (float16 is
    computed in float32) and both C-contiguous (so a reduction over it adds in the same
    order), else a new array like ``like``."""
    if buf is not None and buf.dtype == like.dtype and buf.flags.c_contiguous and \
            like.flags.c_contiguous:
        return buf
    return np.empty_like(like)


def scratch_like(compute_dtype=None, n: int = 1):
    """An ``OpDef.scratch`` rule: ``n`` arrays shaped like the first input, of its dtype
    or of ``compute_dtype(dtype)`` (float16 computed in float32)."""
    def scratch(x, *rest, **attrs):
        t = x.dtype if compute_dtype is None else compute_dtype(x.dtype)
        return [(tuple(x.shape), t)] * n
    return scratch


def wide_type(t: mstype.Type) -> mstype.Type:
    """The dtype a float kernel computes ``t`` in: float16 in float32."""
    return mstype.float32 if t is mstype.float16 else t


def norm_type(t: mstype.Type) -> mstype.Type:
    """The dtype a normalisation computes ``t`` in: float64 stays, the rest is float32."""
    return t if t is mstype.float64 else mstype.float32


def require_dtype(name: str, arg: str, t: mstype.Type, allowed) -> None:
    if t not in allowed:
        names = ", ".join(str(a) for a in allowed)
        raise TypeError(f"For '{name}', the type of '{arg}' should be one of [{names}], "
                        f"but got {t}.")


def same_type(name: str, args: dict) -> mstype.Type:
    """All named tensor inputs share one dtype (MatMul, AddN...), else TypeError."""
    items = list(args.items())
    n0, t0 = items[0][0], tensor_type(name, items[0][0], items[0][1])
    for n, a in items[1:]:
        t = tensor_type(name, n, a)
        if t is not t0:
            raise TypeError(f"For '{name}', the type of '{n}' should be same as '{n0}', but "
                            f"got '{n0}' with type Tensor[{t0}] and '{n}' with type "
                            f"Tensor[{t}].")
    return t0


# ------------------------------------------------------------------ shapes

UNKNOWN_DIM = -1  # a dimension known only at run time, as MindSpore prints it


def is_dynamic(shape: tuple) -> bool:
    """True when some dimension of ``shape`` is known only at run time."""
    return any(d < 0 for d in shape)


def dims_match(a: int, b: int) -> bool:
    """Two dimensions that may be equal at run time (an unknown one matches anything)."""
    return a == b or a < 0 or b < 0


def shapes_match(sx: tuple, sy: tuple) -> bool:
    return len(sx) == len(sy) and all(dims_match(a, b) for a, b in zip(sx, sy))


def merge_dims(a: int, b: int) -> int:
    """What two matching dimensions tell together (the known one, if any)."""
    return a if a >= 0 else b


def prod_dims(dims) -> int:
    """The number of elements of ``dims``, or :data:`UNKNOWN_DIM` when one is unknown
    (a known zero still gives zero)."""
    dims = tuple(dims)
    if 0 in dims:
        return 0
    if is_dynamic(dims):
        return UNKNOWN_DIM
    return int(np.prod(dims, dtype=np.int64))


def sum_dims(dims) -> int:
    dims = tuple(dims)
    return UNKNOWN_DIM if is_dynamic(dims) else sum(dims)


def broadcast_shapes(name: str, sx: tuple, sy: tuple, nx: str = "x", ny: str = "y") -> tuple:
    """NumPy broadcasting, with an error naming the op, both inputs and both shapes. An
    unknown dimension broadcast with a known one other than 1 is taken to be that one (as
    MindSpore does; the kernel checks it when the graph runs)."""
    if sx == sy:
        return tuple(sx)
    n = max(len(sx), len(sy))
    px = (1,) * (n - len(sx)) + tuple(sx)
    py = (1,) * (n - len(sy)) + tuple(sy)
    out = []
    for i, (a, b) in enumerate(zip(px, py)):
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        elif a < 0 or b < 0:
            out.append(merge_dims(a, b))
        else:
            k = i - n
            raise ValueError(
                f"For '{name}', {nx}.shape and {ny}.shape need to broadcast: at dimension "
                f"{k} they are {a} and {b}, which must be equal or 1, but got "
                f"{nx}.shape = {list(sx)} and {ny}.shape = {list(sy)}.")
    return tuple(out)


def require_constructor_args(attrs: dict, names) -> None:
    """The TypeError MindSpore's primitive constructor raises (Python's, from its
    signature) when a required argument among ``names`` was not given (left ``None``)."""
    for arg in names:
        if attrs[arg] is None:
            raise TypeError(f"missing a required argument: '{arg}'")


def check_int(name: str, arg: str, v) -> int:
    if not isinstance(v, (int, np.integer)) or isinstance(v, (bool, np.bool_)):
        raise TypeError(f"For '{name}', the '{arg}' must be int, but got "
                        f"{type(v).__name__}.")
    return int(v)


def norm_axis(name: str, axis, ndim: int, arg: str = "axis") -> int:
    """``axis`` checked against ``[-ndim, ndim)`` (a 0-d tensor counts as rank 1) and made
    non-negative."""
    axis = check_int(name, arg, axis)
    lo, hi = -max(ndim, 1), max(ndim, 1)
    if axis < lo or axis >= hi:
        raise ValueError(f"For '{name}', the '{arg}' must be in range [{lo}, {hi}), "
                         f"but got {axis}.")
    return axis % max(ndim, 1)


def norm_axes(name: str, axis, ndim: int, arg: str = "axis") -> tuple:
    """An int or a sequence of ints, each checked; duplicates are an error; ``()`` stays
    ``()`` (meaning every axis for reductions)."""
    if isinstance(axis, np.ndarray):
        axis = axis.tolist()
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(norm_axis(name, a, ndim, arg) for a in axes)
    if len(set(out)) != len(out):
        raise RuntimeError(f"For '{name}', the '{arg}' {list(axes)} names a dimension more "
                           f"than once.")
    return out


def const_value(name: str, arg: str, a):
    """The value of a constant input (axis, shape...), else a clear error."""
    if isinstance(a, AbstractScalar):
        return a.value
    if isinstance(a, AbstractTuple) and all(isinstance(e, AbstractScalar) for e in a.elements):
        return tuple(e.value for e in a.elements)
    if isinstance(a, AbstractTensor) and a.value is not None:
        return a.value
    raise ValueError(f"For '{name}', the input '{arg}' must be a constant, but got a "
                     f"value computed at run time ({describe(a)}).")


def const_shape(name: str, arg: str, a, allow_minus_one: bool = False,
                allow_unknown: bool = False) -> tuple:
    """A constant shape input: an int or a tuple/list of ints, each >= 0 (or -1).
    ``allow_unknown``: an int known only at run time (``x.shape[0]`` of a dynamic shape)
    is allowed and given as ``None``."""
    v = const_value(name, arg, a)
    if isinstance(v, np.ndarray):
        v = v.tolist()
    dims = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if allow_unknown and UNKNOWN in dims:
        elements = a.elements if isinstance(a, AbstractTuple) else (a,)
        known = const_shape(name, arg, AbstractTuple([e for e in elements if e.is_known]),
                            allow_minus_one)
        it = iter(known)
        return tuple(None if e.value is UNKNOWN else next(it) for e in elements)
    for d in dims:
        if not isinstance(d, (int, np.integer)) or isinstance(d, (bool, np.bool_)):
            raise TypeError(f"For '{name}', the '{arg}' must be a tuple of ints, but got "
                            f"{v!r}.")
        if d < 0 and not (allow_minus_one and d == -1):
            raise ValueError(f"For '{name}', every dimension of '{arg}' must be >= 0, "
                             f"but got {list(dims)}.")
    return tuple(int(d) for d in dims)


def tensor_shape_dims(name: str, arg: str, a: AbstractTensor) -> tuple:
    """The dims given by a shape input that is an integer Tensor: its values when it is a
    constant, else one unknown dimension per element (a 1-D Tensor of unknown length
    raises :class:`DynamicRankError`: the result's rank would be known only at run time)."""
    if not a.dtype.is_int:
        raise TypeError(f"For '{name}', the '{arg}' must be a tuple of ints or an integer "
                        f"Tensor, but got Tensor[{a.dtype}].")
    if a.ndim > 1:
        raise ValueError(f"For '{name}', the '{arg}' must be a 0-D or 1-D Tensor, but got "
                         f"shape {list(a.shape)}.")
    if a.value is not None:
        return const_shape(name, arg, a)
    length = a.shape[0] if a.shape else 1
    if length == UNKNOWN_DIM:
        raise DynamicRankError(f"For '{name}', the length of '{arg}' (the rank of the "
                               f"output) must be known when the graph is built, but "
                               f"'{arg}' has shape {list(a.shape)}.")
    return (UNKNOWN_DIM,) * length


def check_ndim(name: str, arg: str, a, ndims) -> None:
    if a.ndim not in ndims:
        want = " or ".join(str(n) for n in ndims)
        raise ValueError(f"For '{name}', the rank of '{arg}' must be {want}, but got "
                         f"{a.ndim} (shape {list(a.shape)}).")


def tensors_of(name: str, xs) -> list:
    """The elements of a tuple/list input of tensors (Concat, Stack, AddN)."""
    if not isinstance(xs, AbstractTuple):
        raise TypeError(f"For '{name}', the input must be a tuple or list of Tensors, but "
                        f"got {describe(xs)}.")
    if not xs.elements:
        raise ValueError(f"For '{name}', the input must hold at least one Tensor, but got "
                         f"an empty {describe(xs)}.")
    for i, e in enumerate(xs.elements):
        tensor_type(name, f"x[{i}]", e)
    return list(xs.elements)
