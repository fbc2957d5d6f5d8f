"""Array primitives: casts, shapes, selection, joining and indexing."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...compiler.ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..primitive import OpDef
from ._infer import (
    broadcast_shapes, const_value, describe, norm_axis, shape, tensor_type,
)


def _cast_infer(x, t):
    tensor_type("Cast", "input_x", x)
    return AbstractTensor(const_value("Cast", "type", t), shape(x))


def _cast(x, t):
    return np.asarray(x).astype(t.np_dtype, copy=False)


Cast = OpDef("Cast", _cast_infer, _cast)


def _reshape_infer(x, s):
    tensor_type("Reshape", "input_x", x)
    new = tuple(const_value("Reshape", "shape", s))
    size = int(np.prod(x.shape, dtype=np.int64))
    if new.count(-1) > 1:
        raise ValueError(f"For 'Reshape', there can be at most one '-1' in 'input_shape', "
                         f"but got {list(new)}.")
    if -1 in new:
        known = int(np.prod([d for d in new if d != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise ValueError(f"For 'Reshape', the product of the 'input_x' shape "
                             f"{list(x.shape)} should be divisible by the product of the "
                             f"known dims of 'input_shape' {list(new)}.")
        new = tuple(size // known if d == -1 else d for d in new)
    if int(np.prod(new, dtype=np.int64)) != size:
        raise ValueError(f"For 'Reshape', the product of the 'input_x' shape should be equal "
                         f"to product of 'input_shape', but got the product of 'input_x' "
                         f"shape: {size}, and the product of 'input_shape': "
                         f"{int(np.prod(new, dtype=np.int64))}.")
    return AbstractTensor(x.dtype, new)


Reshape = OpDef("Reshape", _reshape_infer, lambda x, s: np.reshape(x, s))


def _select_infer(cond, x, y):
    tc = tensor_type("Select", "cond", cond)
    if tc is not mstype.bool_:
        raise TypeError(f"For 'Select', the type of 'cond' should be Bool, but got {tc}.")
    tx, ty = tensor_type("Select", "x", x), tensor_type("Select", "y", y)
    if tx is not ty:
        raise TypeError(f"For 'Select', the type of 'x' and 'y' should be the same, but got "
                        f"x: {tx} and y: {ty}.")
    s = broadcast_shapes("Select", shape(x), shape(y))
    return AbstractTensor(tx, broadcast_shapes("Select", shape(cond), s))


Select = OpDef("Select", _select_infer, np.where)


def _tensors(name: str, xs) -> list:
    if not isinstance(xs, AbstractTuple) or not xs.elements:
        raise TypeError(f"For '{name}', the input must be a non-empty tuple or list of "
                        f"Tensors, but got {describe(xs)}.")
    return list(xs.elements)


def _same_type(name: str, items) -> mstype.Type:
    t0 = tensor_type(name, "x[0]", items[0])
    for i, a in enumerate(items[1:], 1):
        ti = tensor_type(name, f"x[{i}]", a)
        if ti is not t0:
            raise TypeError(f"For '{name}', all input Tensors must have the same dtype, but "
                            f"got x[0]: {t0} and x[{i}]: {ti}.")
    return t0


def _stack_infer(xs, axis=0):
    items = _tensors("Stack", xs)
    t = _same_type("Stack", items)
    s0 = items[0].shape
    for i, a in enumerate(items[1:], 1):
        if a.shape != s0:
            raise ValueError(f"For 'Stack', all input shapes must be the same, but got "
                             f"x[0].shape: {list(s0)} and x[{i}].shape: {list(a.shape)}.")
    ax = norm_axis("Stack", axis, len(s0) + 1)
    return AbstractTensor(t, s0[:ax] + (len(items),) + s0[ax:])


Stack = OpDef("Stack", _stack_infer, lambda xs, axis=0: np.stack(xs, axis),
              attrs={"axis": 0})


def _addn_infer(xs):
    items = _tensors("AddN", xs)
    t = _same_type("AddN", items)
    s = items[0].shape
    for i, a in enumerate(items[1:], 1):
        if a.shape != s:
            raise ValueError(f"For 'AddN', all input shapes must be the same, but got "
                             f"x[0].shape: {list(s)} and x[{i}].shape: {list(a.shape)}.")
    return AbstractTensor(t, s)


def _addn(xs):
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return np.asarray(out)


AddN = OpDef("AddN", _addn_infer, _addn)


def _fake(a):
    """A zero-strided stand-in array of ``a``'s shape, for shape inference of indexing."""
    if isinstance(a, AbstractTensor):
        if a.value is not None:
            return np.asarray(a.value)
        if a.dtype is mstype.bool_:
            raise IndexError("Indexing with a boolean Tensor whose values are only known at "
                             "run time gives a value-dependent shape, which a static graph "
                             "cannot have. Use ops.select or ops.masked_fill instead.")
        return np.zeros(a.shape, a.dtype.np_dtype)
    if isinstance(a, AbstractTuple):
        return tuple(_fake(e) for e in a.elements)
    if isinstance(a, AbstractScalar):
        return a.value
    raise IndexError(f"unsupported index {describe(a)}")


def _getitem_infer(x, index):
    tensor_type("Getitem", "x", x)
    idx = _fake(index)
    base = np.lib.stride_tricks.as_strided(np.zeros(1, x.dtype.np_dtype), x.shape,
                                           (0,) * len(x.shape))
    try:
        out = base[idx]
    except IndexError as e:
        raise IndexError(f"For 'Getitem', the index {index_text(index)} is invalid for a "
                         f"Tensor of shape {list(x.shape)}: {e}.") from None
    return AbstractTensor(x.dtype, np.shape(out))


def index_text(index) -> str:
    if isinstance(index, AbstractScalar):
        return repr(index.value)
    return describe(index)


def _getitem(x, index):
    return np.asarray(x[index])


Getitem = OpDef("Getitem", _getitem_infer, _getitem)


def _reduce_infer_for(name: str, result_same: bool = True):
    def infer(x, axis=(), keep_dims=False):
        t = tensor_type(name, "x", x)
        ax = const_value(name, "axis", axis)
        nd = len(x.shape)
        axes = (ax,) if isinstance(ax, int) else tuple(ax)
        axes = tuple(norm_axis(name, a, nd) for a in axes) if axes else tuple(range(nd))
        if keep_dims:
            s = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
        else:
            s = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        if name == "ReduceMean" and not t.is_float:
            t = mstype.float32
        return AbstractTensor(t, s)
    return infer


def _reducer(np_fn, cast_float=False):
    def kernel(x, axis=(), keep_dims=False):
        ax = None if axis == () else axis
        r = np_fn(x, axis=ax, keepdims=keep_dims)
        if cast_float and r.dtype.kind != "f":
            r = r.astype(np.float32)
        return np.asarray(r, dtype=r.dtype if cast_float else np.asarray(x).dtype)
    return kernel


ReduceSum = OpDef("ReduceSum", _reduce_infer_for("ReduceSum"), attrs={"keep_dims": False},
                   kernel=_reducer(np.sum))
ReduceMean = OpDef("ReduceMean", _reduce_infer_for("ReduceMean"), attrs={"keep_dims": False},
                    kernel=_reducer(np.mean, True))
ReduceMax = OpDef("ReduceMax", _reduce_infer_for("ReduceMax"), attrs={"keep_dims": False},
                   kernel=_reducer(np.max))
ReduceMin = OpDef("ReduceMin", _reduce_infer_for("ReduceMin"), attrs={"keep_dims": False},
                   kernel=_reducer(np.min))
ReduceProd = OpDef("ReduceProd", _reduce_infer_for("ReduceProd"), attrs={"keep_dims": False},
                    kernel=_reducer(np.prod))


def _fill_infer(t, s, value):
    return AbstractTensor(const_value("Fill", "type", t),
                          tuple(const_value("Fill", "shape", s)))


Fill = OpDef("Fill", _fill_infer, lambda t, s, v: np.full(s, v, t.np_dtype))


def _like_infer(x):
    return AbstractTensor(tensor_type("ZerosLike", "x", x), shape(x))


ZerosLike = OpDef("ZerosLike", _like_infer, np.zeros_like)
OnesLike = OpDef("OnesLike", _like_infer, np.ones_like)


def _expand_infer(x, axis):
    nd = len(shape(x)) + 1
    ax = norm_axis("ExpandDims", const_value("ExpandDims", "axis", axis), nd)
    s = shape(x)
    return AbstractTensor(tensor_type("ExpandDims", "x", x), s[:ax] + (1,) + s[ax:])


ExpandDims = OpDef("ExpandDims", _expand_infer, lambda x, axis: np.expand_dims(x, axis))


def _transpose_infer(x, perm):
    p = tuple(const_value("Transpose", "input_perm", perm))
    if sorted(p) != list(range(len(shape(x)))):
        raise ValueError(f"For 'Transpose', the 'input_perm' must be a permutation of "
                         f"[0, {len(shape(x))}), but got {list(p)}.")
    return AbstractTensor(tensor_type("Transpose", "x", x), tuple(x.shape[i] for i in p))


Transpose = OpDef("Transpose", _transpose_infer, lambda x, perm: np.transpose(x, perm))


def _broadcast_to_infer(x, s):
    target = tuple(const_value("BroadcastTo", "shape", s))
    target = tuple(d if d != -1 else x.shape[i - len(target) + len(x.shape)]
                   for i, d in enumerate(target))
    out = broadcast_shapes("BroadcastTo", shape(x), target)
    if out != target:
        raise ValueError(f"For 'BroadcastTo', the input shape {list(x.shape)} cannot be "
                         f"broadcast to {list(target)}.")
    return AbstractTensor(tensor_type("BroadcastTo", "x", x), target)


BroadcastTo = OpDef("BroadcastTo", _broadcast_to_infer,
                    lambda x, s: np.broadcast_to(x, s).copy())


def _matmul_infer(x, y, transpose_a=False, transpose_b=False):
    tx, ty = tensor_type("MatMul", "x", x), tensor_type("MatMul", "y", y)
    if tx is not ty:
        raise TypeError(f"For 'MatMul', the type of 'x' and 'y' should be the same, but got "
                        f"x: {tx} and y: {ty}.")
    sx, sy = list(x.shape), list(y.shape)
    if len(sx) < 1 or len(sy) < 1:
        raise ValueError("For 'MatMul', the inputs must have at least 1 dimension.")
    if transpose_a and len(sx) >= 2:
        sx[-1], sx[-2] = sx[-2], sx[-1]
    if transpose_b and len(sy) >= 2:
        sy[-1], sy[-2] = sy[-2], sy[-1]
    k_x = sx[-1]
    k_y = sy[-2] if len(sy) >= 2 else sy[-1]
    if k_x != k_y:
        raise ValueError(f"For 'MatMul', the input dimensions must be equal, but got "
                         f"'x1_col': {k_x} and 'x2_row': {k_y}.")
    out = np.matmul(np.zeros(sx, np.int8), np.zeros(sy, np.int8)).shape
    return AbstractTensor(tx, out)


def _matmul(x, y, transpose_a=False, transpose_b=False):
    if transpose_a:
        x = np.swapaxes(x, -1, -2)
    if transpose_b:
        y = np.swapaxes(y, -1, -2)
    return np.asarray(np.matmul(x, y))


MatMul = OpDef("MatMul", _matmul_infer, _matmul,
               attrs={"transpose_a": False, "transpose_b": False})
