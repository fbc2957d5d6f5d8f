"""Functional ops (``ops.add(x, y)``, ``F.assign``...): thin wrappers over the primitives
that apply MindSpore's conventions for Python scalars and default arguments."""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import array as A
from .defs import effects as E
from .defs import math as M

_NUMBER = (bool, int, float, np.bool_, np.integer, np.floating)


def _is_number(x) -> bool:
    return isinstance(x, _NUMBER)


def _scalar_const(t: mstype.Type, v):
    return t.np_dtype.type(v)


def _promote(x, y):
    """Bring a (tensor, Python number) pair to one dtype, MindSpore's way."""
    if isinstance(x, Tensor):
        if _is_number(y):
            t = mstype.promote_scalar(x.dtype, y)
            return (x if t is x.dtype else cast(x, t)), _scalar_const(t, y)
        return x, y
    if isinstance(y, Tensor) and _is_number(x):
        t = mstype.promote_scalar(y.dtype, x)
        return _scalar_const(t, x), (y if t is y.dtype else cast(y, t))
    if _is_number(x) and _is_number(y):
        return Tensor(x), y if not _is_number(y) else Tensor(y)
    if isinstance(x, (list, tuple)):
        x = Tensor(x)
    if isinstance(y, (list, tuple)):
        y = Tensor(y)
    return x, y


def _binary(opdef):
    def fn(x, y):
        x, y = _promote(x, y)
        return opdef(x, y)
    fn.__name__ = opdef.name.lower()
    fn.__doc__ = f"Elementwise ``{opdef.name}`` with broadcasting and scalar promotion."
    return fn


add = _binary(M.Add)
sub = _binary(M.Sub)
mul = _binary(M.Mul)
div = _binary(M.Div)
floor_div = _binary(M.FloorDiv)
floor_mod = mod = _binary(M.FloorMod)
pow = _binary(M.Pow)  # noqa: A001 - MindSpore's name
maximum = _binary(M.Maximum)
minimum = _binary(M.Minimum)
less = _binary(M.Less)
less_equal = _binary(M.LessEqual)
greater = _binary(M.Greater)
greater_equal = _binary(M.GreaterEqual)
equal = _binary(M.Equal)
not_equal = _binary(M.NotEqual)
logical_and = _binary(M.LogicalAnd)
logical_or = _binary(M.LogicalOr)
logical_xor = _binary(M.LogicalXor)
lt, le, gt, ge, eq, ne = less, less_equal, greater, greater_equal, equal, not_equal
divide, multiply, subtract = div, mul, sub


def _unary(opdef):
    def fn(x):
        if _is_number(x):
            x = Tensor(x)
        return opdef(x)
    fn.__name__ = opdef.name.lower()
    fn.__doc__ = f"Elementwise ``{opdef.name}``."
    return fn


neg = negative = _unary(M.Neg)
abs = _unary(M.Abs)  # noqa: A001
square = _unary(M.Square)
exp = _unary(M.Exp)
log = _unary(M.Log)
sqrt = _unary(M.Sqrt)
rsqrt = _unary(M.Rsqrt)
sin = _unary(M.Sin)
cos = _unary(M.Cos)
tanh = _unary(M.Tanh)
sigmoid = _unary(M.Sigmoid)
relu = _unary(M.ReLU)
gelu = _unary(M.GeLU)
hswish = _unary(M.HSwish)
softplus = _unary(M.Softplus)
erf = _unary(M.Erf)
logical_not = _unary(M.LogicalNot)


def cast(x, dtype) -> Tensor:
    return A.Cast(x, mstype.to_type(dtype))


def reshape(x, shape) -> Tensor:
    return A.Reshape(x, tuple(shape))


def transpose(x, perm) -> Tensor:
    return A.Transpose(x, tuple(perm))


def expand_dims(x, axis: int) -> Tensor:
    return A.ExpandDims(x, axis)


def squeeze(x, axis=()) -> Tensor:
    s = x.shape
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(a % len(s) for a in axes) if axes else tuple(
        i for i, d in enumerate(s) if d == 1)
    for a in axes:
        if s[a] != 1:
            raise ValueError(f"For 'Squeeze', the shape of 'x' at axis {a} must be 1, but got "
                             f"{s[a]} (shape {list(s)}).")
    return A.Reshape(x, tuple(d for i, d in enumerate(s) if i not in axes))


def broadcast_to(x, shape) -> Tensor:
    return A.BroadcastTo(x, tuple(shape))


def tile(x, reps) -> Tensor:
    raise NotImplementedError("tile")


def select(cond, x, y) -> Tensor:
    """``cond ? x : y`` elementwise; Python numbers take the other branch's dtype."""
    if _is_number(x) and isinstance(y, Tensor):
        x = _scalar_const(y.dtype, x)
    if _is_number(y) and isinstance(x, Tensor):
        y = _scalar_const(x.dtype, y)
    return A.Select(cond, x, y)


def stack(tensors, axis: int = 0) -> Tensor:
    return A.Stack(tuple(tensors), axis=axis)


def addn(x) -> Tensor:
    return A.AddN(tuple(x))


def getitem(x, index) -> Tensor:
    if isinstance(index, list):
        index = Tensor(index)
    return A.Getitem(x, index)


def _reduction(opdef):
    def fn(x, axis=(), keep_dims=False):
        if axis is None:
            axis = ()
        return opdef(x, axis, keep_dims=bool(keep_dims))
    fn.__name__ = opdef.name.lower()
    return fn


reduce_sum = _reduction(A.ReduceSum)
reduce_mean = _reduction(A.ReduceMean)
reduce_max = _reduction(A.ReduceMax)
reduce_min = _reduction(A.ReduceMin)
reduce_prod = _reduction(A.ReduceProd)


def argmax(x, axis=-1):
    raise NotImplementedError("argmax")


def argmin(x, axis=-1):
    raise NotImplementedError("argmin")


def matmul(x, y) -> Tensor:
    return A.MatMul(x, y)


def fill(dtype, shape, value) -> Tensor:
    return A.Fill(mstype.to_type(dtype), tuple(shape), value)


def zeros(shape, dtype=None) -> Tensor:
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return fill(dtype or mstype.float32, shape, 0)


def ones(shape, dtype=None) -> Tensor:
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return fill(dtype or mstype.float32, shape, 1)


def zeros_like(x) -> Tensor:
    return A.ZerosLike(x)


def ones_like(x) -> Tensor:
    return A.OnesLike(x)


# ------------------------------------------------------------------ effects

def depend(value, expr):
    """Return ``value``, but only after ``expr`` has been computed."""
    return E.Depend(value, expr)


def assign(variable, value):
    """Write ``value`` into the weight ``variable`` (a memory side effect)."""
    if _is_number(value) and isinstance(variable, Tensor):
        value = Tensor(value, variable.dtype)
    return E.Assign(variable, value)


def assign_add(variable, value):
    if _is_number(value) and isinstance(variable, Tensor):
        value = Tensor(value, variable.dtype)
    return E.AssignAdd(variable, value)


def assign_sub(variable, value):
    if _is_number(value) and isinstance(variable, Tensor):
        value = Tensor(value, variable.dtype)
    return E.AssignSub(variable, value)


def tensor_move(x) -> Tensor:
    return E.TensorMove(x)


def print_(*values):
    """Print values when the graph runs (an IO side effect)."""
    return E.Print(*values)


make_tuple = E.MakeTuple
tuple_getitem = E.TupleGetItem
