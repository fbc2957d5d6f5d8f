"""Array primitives: casts, creation, shapes, selection, joining, splitting, indexing and
reductions."""
from __future__ import annotations

import functools

import numpy as np

from ...common import dtype as mstype
from ...common.tensor import COPY_RECORDER, Tensor
from ...ir import tape
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OUT_SEPARATE, OpDef
from ._infer import (
    ALL,
    COMPLEX,
    IEEE_FLOATS,
    INDEX_TYPES,
    NUMBERS,
    UNKNOWN_DIM,
    as_type,
    broadcast_shapes,
    check_int,
    const_shape,
    const_value,
    describe,
    dims_match,
    into,
    is_dynamic,
    join_types,
    merge_dims,
    norm_axes,
    norm_axis,
    operand_type,
    prod_dims,
    quiet,
    require_dtype,
    shape,
    shapes_match,
    sum_dims,
    tensor_shape_dims,
    tensor_type,
    tensors_of,
    value_type,
)
from .introselect import nth_element

# ------------------------------------------------------------------ cast and creation


def _dtype_attr(name: str, arg: str, a) -> mstype.Type:
    t = const_value(name, arg, a)
    if not isinstance(t, mstype.Type):
        raise TypeError(f"For '{name}', the input '{arg}' should be mindspore dtype, but "
                        f"got {t!r}.")
    return t


def _cast_infer(x, t):
    tensor_type("Cast", "input_x", x)
    return AbstractTensor(_dtype_attr("Cast", "dtype", t), shape(x))


@quiet
def _cast(x, t):
    return as_type(x, t)


Cast = OpDef("Cast", _cast_infer, _cast)


def _record_copy(source: Tensor, copy: Tensor) -> None:
    """``Tensor(source, dtype)`` is ``Cast(source, dtype)`` to a PyNative gradient."""
    if tape.ACTIVE:
        tape.record(Cast, (source, copy.dtype), copy, {})


COPY_RECORDER.append(_record_copy)


def _fill_infer(t, s, value):
    dt = _dtype_attr("Fill", "type", t)
    if isinstance(value, AbstractTensor):
        if int(np.prod(value.shape)) != 1:
            raise ValueError(f"For 'Fill', the 'value' must be a number or a Tensor with "
                             f"one element, but got shape {list(value.shape)}.")
    elif not (isinstance(value, AbstractScalar) and isinstance(
            value.value, (bool, int, float, np.generic))):
        raise TypeError(f"For 'Fill', the 'value' must be a number or a Tensor, but got "
                        f"{describe(value)}.")
    return AbstractTensor(dt, _created_shape("Fill", s))


@quiet
def _fill(t, s, value):
    v = as_type(np.asarray(value).reshape(()), t)
    return np.full(tuple(s) if isinstance(s, (tuple, list)) else (s,), v, t.np_dtype)


Fill = OpDef("Fill", _fill_infer, _fill)


def _created_shape(name: str, s) -> tuple:
    """The shape input of a creation op: a dimension known only at run time (an int
    computed from a dynamic shape) is an unknown dimension of the result."""
    if isinstance(s, AbstractTensor):  # an integer Tensor computed at run time
        return tensor_shape_dims(name, "shape", s)
    dims = const_shape(name, "shape", s, allow_unknown=True)
    return tuple(UNKNOWN_DIM if d is None else d for d in dims)


def _const_infer_for(name: str):
    def infer(s, t):
        return AbstractTensor(_dtype_attr(name, "type", t), _created_shape(name, s))
    return infer


def _shape_of(s) -> tuple:
    if isinstance(s, np.ndarray):  # an integer Tensor input
        return tuple(int(d) for d in s.reshape(-1))
    return tuple(s) if isinstance(s, (tuple, list)) else (s,)


Zeros = OpDef("Zeros", _const_infer_for("Zeros"),
              lambda s, t: np.zeros(_shape_of(s), t.np_dtype))
Ones = OpDef("Ones", _const_infer_for("Ones"), lambda s, t: np.ones(_shape_of(s), t.np_dtype))


def _like_infer_for(name: str):
    def infer(x):
        return AbstractTensor(tensor_type(name, "x", x), shape(x))
    return infer


ZerosLike = OpDef("ZerosLike", _like_infer_for("ZerosLike"), lambda x: np.zeros_like(x),
                  differentiable=False)
OnesLike = OpDef("OnesLike", _like_infer_for("OnesLike"), lambda x: np.ones_like(x),
                 differentiable=False)


def _eps_infer(x):
    t = tensor_type("Eps", "x", x)
    require_dtype("Eps", "x", t, IEEE_FLOATS)
    return AbstractTensor(t, shape(x))


# ``Eps(x)``: a Tensor like ``x`` filled with its float dtype's machine epsilon
Eps = OpDef("Eps", _eps_infer, lambda x: np.full_like(x, np.finfo(x.dtype).eps),
            differentiable=False)

# ------------------------------------------------------------------ shapes


def _reshape_infer(x, s):
    tensor_type("Reshape", "input_x", x)
    if isinstance(s, AbstractTensor) and s.value is None:  # the shape's values at run time
        return AbstractTensor(x.dtype, tensor_shape_dims("Reshape", "shape", s))
    new = const_shape("Reshape", "shape", s, allow_minus_one=True, allow_unknown=True)
    if new.count(-1) > 1:
        raise ValueError(f"For 'Reshape', there can be at most one -1 in 'shape', but got "
                         f"{list(new)}.")
    size = prod_dims(x.shape)
    if None in new or size < 0:  # a run-time dimension: the -1 is unknown too
        return AbstractTensor(x.dtype, tuple(UNKNOWN_DIM if d is None else d for d in new))
    if -1 in new:
        known = int(np.prod([d for d in new if d != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise ValueError(f"For 'Reshape', the shape {list(new)} is invalid for an input "
                             f"of shape {list(x.shape)} (size {size}).")
        new = tuple(size // known if d == -1 else d for d in new)
    if int(np.prod(new, dtype=np.int64)) != size:
        raise ValueError(f"For 'Reshape', the shape {list(new)} is invalid for an input of "
                         f"shape {list(x.shape)} (size {size}).")
    return AbstractTensor(x.dtype, new)


Reshape = OpDef("Reshape", _reshape_infer, lambda x, s: np.reshape(x, s))


def _transpose_infer(x, perm):
    t = tensor_type("Transpose", "input_x", x)
    p = const_value("Transpose", "input_perm", perm)
    if not isinstance(p, tuple):
        raise TypeError(f"For 'Transpose', the 'input_perm' must be a tuple of ints, but got "
                        f"{p!r}.")
    if len(p) != x.ndim:
        raise ValueError(f"For 'Transpose', the size of 'input_perm' must equal the rank of "
                         f"'input_x', but got perm {list(p)} for shape {list(x.shape)}.")
    axes = tuple(norm_axis("Transpose", v, x.ndim, "input_perm") for v in p)
    if len(set(axes)) != len(axes):
        raise ValueError(f"For 'Transpose', the 'input_perm' must be a permutation, but got "
                         f"{list(p)}.")
    return AbstractTensor(t, tuple(x.shape[i] for i in axes))


Transpose = OpDef("Transpose", _transpose_infer, lambda x, perm: np.transpose(x, perm))


def _expand_infer(x, axis):
    t = tensor_type("ExpandDims", "input_x", x)
    s = shape(x)
    if isinstance(axis, AbstractTensor) or \
            isinstance(axis, AbstractScalar) and not axis.is_known:
        # an int known when the graph runs (ints joined under a tensor condition, a
        # Tensor): one more dimension, each known then
        whole = axis.dtype.is_int if isinstance(axis, AbstractTensor) else \
            axis.kind is int
        if int(np.prod(shape(axis))) != 1 or not whole:
            raise TypeError(f"For 'ExpandDims', the 'axis' must be int, but got "
                            f"{describe(axis)}.")
        return AbstractTensor(t, (UNKNOWN_DIM,) * (len(s) + 1))
    ax = norm_axis("ExpandDims", const_value("ExpandDims", "axis", axis), len(s) + 1)
    return AbstractTensor(t, s[:ax] + (1,) + s[ax:])


def _expand_dims(x, axis):
    if isinstance(axis, np.ndarray):  # given when the graph runs
        axis = axis.item()
    return np.expand_dims(x, norm_axis("ExpandDims", axis, x.ndim + 1))


ExpandDims = OpDef("ExpandDims", _expand_infer, _expand_dims)


def _squeeze_axes(s: tuple, axis) -> tuple:
    """The axes Squeeze removes: the given ones that have size 1 (MindSpore 2.10 silently
    keeps a named axis whose size is not 1), or every size-1 axis when none are given."""
    axes = norm_axes("Squeeze", axis, len(s)) if axis not in ((), [], None) else ()
    if not axes:
        return tuple(i for i, d in enumerate(s) if d == 1)
    return tuple(a for a in axes if s[a] == 1)


def _squeeze_infer(x, axis=()):
    t = tensor_type("Squeeze", "input_x", x)
    drop = _squeeze_axes(x.shape, axis)
    return AbstractTensor(t, tuple(d for i, d in enumerate(x.shape) if i not in drop))


def _squeeze(x, axis=()):
    return np.squeeze(x, _squeeze_axes(np.shape(x), axis))


Squeeze = OpDef("Squeeze", _squeeze_infer, _squeeze, attrs={"axis": ()})


def _tile_infer(x, multiples):
    t = tensor_type("Tile", "input_x", x)
    reps = const_value("Tile", "multiples", multiples)
    if not isinstance(reps, tuple):
        raise TypeError(f"For 'Tile', the 'multiples' must be a tuple of ints, but got "
                        f"{reps!r}.")
    for r in reps:
        check_int("Tile", "multiples", r)
        if r < 0:
            raise ValueError(f"For 'Tile', 'multiples' cannot contain negative numbers, but "
                             f"got {list(reps)}.")
    n = max(len(reps), x.ndim)
    s = (1,) * (n - x.ndim) + x.shape
    r = (1,) * (n - len(reps)) + reps
    return AbstractTensor(t, tuple(UNKNOWN_DIM if a < 0 else a * b for a, b in zip(s, r)))


Tile = OpDef("Tile", _tile_infer, lambda x, multiples: np.tile(x, multiples))


def _broadcast_to_infer(x, shape=()):
    t = tensor_type("BroadcastTo", "input_x", x)
    target = const_shape("BroadcastTo", "shape", AbstractScalar(shape), allow_minus_one=True)
    if len(target) < x.ndim:
        raise ValueError(f"For 'BroadcastTo', the rank of 'shape' {list(target)} must not be "
                         f"less than the rank of the input shape {list(x.shape)}.")
    lead = len(target) - x.ndim
    for i, d in enumerate(target):
        if d == -1 and i < lead:
            raise ValueError(f"For 'BroadcastTo', -1 in 'shape' {list(target)} may only "
                             f"stand for an existing input dimension.")
    target = tuple(x.shape[i - lead] if d == -1 else d for i, d in enumerate(target))
    for i, d in enumerate(x.shape):
        if d != 1 and not dims_match(d, target[lead + i]):
            raise ValueError(f"For 'BroadcastTo', the input shape {list(x.shape)} cannot be "
                             f"broadcast to {list(target)}: each input dimension must be 1 "
                             f"or equal to the target one.")
    return AbstractTensor(t, target)


def _broadcast_to(x, shape=(), out=None):
    lead = len(shape) - np.ndim(x)
    target = tuple(np.shape(x)[i - lead] if d == -1 else d for i, d in enumerate(shape))
    if out is None:
        return np.broadcast_to(x, target).copy()
    np.copyto(out, np.broadcast_to(x, target))
    return out


# MindSpore's BroadcastTo takes the target shape as a constructor attribute.
BroadcastTo = OpDef("BroadcastTo", _broadcast_to_infer, _broadcast_to, attrs={"shape": ()},
                    out_buffer=OUT_SEPARATE)

# ------------------------------------------------------------------ select


def _select_infer(cond, x, y):
    tc = tensor_type("Select", "cond", cond)
    if tc is not mstype.bool_:
        raise TypeError(f"For 'Select', the type of 'cond' should be Bool, but got {tc}.")
    tx, wx = operand_type("Select", "x", x)
    ty, wy = operand_type("Select", "y", y)
    t = join_types(tx, wx, ty, wy)
    s = broadcast_shapes("Select", shape(x), shape(y), "x", "y")
    return AbstractTensor(t, broadcast_shapes("Select", shape(cond), s, "cond", "x/y"))


@quiet
def _select(cond, x, y):
    tx, wx = value_type(x)
    ty, wy = value_type(y)
    t = join_types(tx, wx, ty, wy)
    return np.asarray(np.where(cond, as_type(x, t), as_type(y, t)))


def _select_specialize(ins, out, attrs):
    """``np.where`` itself when both branches are tensors of the result type."""
    _, x, y = ins
    if all(isinstance(a, AbstractTensor) and a.dtype is out.dtype for a in (x, y)):
        return np.where
    return None


Select = OpDef("Select", _select_infer, _select)
Select.specialize = _select_specialize

# ------------------------------------------------------------------ join and split


def _same_type(name: str, items) -> mstype.Type:
    t0 = items[0].dtype
    for i, a in enumerate(items[1:], 1):
        if a.dtype is not t0:
            raise TypeError(f"For '{name}', all input Tensors must have the same dtype, but "
                            f"got x[0]: {t0} and x[{i}]: {a.dtype}.")
    return t0


def _stack_infer(xs, axis=0):
    items = tensors_of("Stack", xs)
    t = _same_type("Stack", items)
    s0 = items[0].shape
    for i, a in enumerate(items[1:], 1):
        if not shapes_match(a.shape, s0):
            raise ValueError(f"For 'Stack', all input shapes must be the same, but got "
                             f"x[0].shape: {list(s0)} and x[{i}].shape: {list(a.shape)}.")
        s0 = tuple(merge_dims(d, e) for d, e in zip(s0, a.shape))
    ax = norm_axis("Stack", axis, len(s0) + 1)
    return AbstractTensor(t, s0[:ax] + (len(items),) + s0[ax:])


def _stack(xs, axis=0, out=None):
    """Into ``out`` when given, else a new C-ordered array (``np.stack`` alone would take
    the items' layout: stacked transposed views would stay transposed)."""
    first = np.asarray(xs[0])
    ax = axis % (first.ndim + 1)
    if out is None:
        out = np.empty(first.shape[:ax] + (len(xs),) + first.shape[ax:], first.dtype)
    return np.stack(xs, ax, out=out)


Stack = OpDef("Stack", _stack_infer, _stack, attrs={"axis": 0}, out_buffer=OUT_SEPARATE)


def _concat_infer(xs, axis=0):
    items = tensors_of("Concat", xs)
    t = _same_type("Concat", items)
    s0 = items[0].shape
    if not s0:
        raise ValueError("For 'Concat', the inputs must have rank at least 1, but got a 0-D "
                         "Tensor.")
    ax = norm_axis("Concat", axis, len(s0))
    for i, a in enumerate(items):
        if a.ndim != len(s0) or any(not dims_match(d, e) for k, (d, e) in
                                    enumerate(zip(a.shape, s0)) if k != ax):
            raise ValueError(f"For 'Concat', the shapes of all inputs must match except in "
                             f"the concat axis {ax}, but got x[0].shape: {list(s0)} and "
                             f"x[{i}].shape: {list(a.shape)}.")
        s0 = tuple(e if k == ax else merge_dims(d, e)
                   for k, (d, e) in enumerate(zip(a.shape, s0)))
    total = sum_dims(a.shape[ax] for a in items)
    return AbstractTensor(t, s0[:ax] + (total,) + s0[ax + 1:])


Concat = OpDef("Concat", _concat_infer, lambda xs, axis=0: np.concatenate(xs, axis),
               attrs={"axis": 0})


def _split_infer(x, axis=0, output_num=1):
    t = tensor_type("Split", "input_x", x)
    ax = norm_axis("Split", axis, x.ndim)
    n = check_int("Split", "output_num", output_num)
    if n < 1:
        raise ValueError(f"For 'Split', the 'output_num' must be positive, but got {n}.")
    if x.shape[ax] % n and x.shape[ax] >= 0:
        raise ValueError(f"For 'Split', x.shape[{ax}] = {x.shape[ax]} must be divisible by "
                         f"output_num = {n} (input shape {list(x.shape)}).")
    dim = x.shape[ax] // n if x.shape[ax] >= 0 else UNKNOWN_DIM
    part = x.shape[:ax] + (dim,) + x.shape[ax + 1:]
    return AbstractTuple([AbstractTensor(t, part) for _ in range(n)])


def _split(x, axis=0, output_num=1):
    return tuple(np.split(x, output_num, axis))


Split = OpDef("Split", _split_infer, _split, attrs={"axis": 0, "output_num": 1})


def _splitv_sizes(x_dim: int, size_splits) -> tuple:
    sizes = tuple(size_splits)
    for v in sizes:
        check_int("SplitV", "size_splits", v)
    if sizes.count(-1) > 1 or any(v < -1 for v in sizes):
        raise ValueError(f"For 'SplitV', 'size_splits' must be non-negative with at most one "
                         f"-1, but got {list(sizes)}.")
    if x_dim < 0:  # a dynamic split dimension: the -1 part is dynamic too
        return sizes
    if -1 in sizes:
        rest = x_dim - sum(v for v in sizes if v != -1)
        sizes = tuple(rest if v == -1 else v for v in sizes)
    if sum(sizes) != x_dim or any(v < 0 for v in sizes):
        raise ValueError(f"For 'SplitV', the sum of 'size_splits' {list(size_splits)} must "
                         f"equal the split dimension {x_dim}.")
    return sizes


def _splitv_infer(x, size_splits=(), split_dim=0, num_split=1):
    t = tensor_type("SplitV", "input_x", x)
    ax = norm_axis("SplitV", split_dim, x.ndim, "split_dim")
    sizes = _splitv_sizes(x.shape[ax], size_splits)
    if len(sizes) != num_split:
        raise ValueError(f"For 'SplitV', 'num_split' must equal the length of "
                         f"'size_splits', but got {num_split} and {list(size_splits)}.")
    return AbstractTuple([AbstractTensor(t, x.shape[:ax] + (v,) + x.shape[ax + 1:])
                          for v in sizes])


def _splitv(x, size_splits=(), split_dim=0, num_split=1):
    sizes = _splitv_sizes(np.shape(x)[split_dim], size_splits)
    return tuple(np.split(x, np.cumsum(sizes)[:-1], split_dim))


SplitV = OpDef("SplitV", _splitv_infer, _splitv,
               attrs={"size_splits": (), "split_dim": 0, "num_split": 1})


def _addn_infer(xs):
    items = tensors_of("AddN", xs)
    t = _same_type("AddN", items)
    # bools: their logical or; the wide unsigned ints and complex numbers, as MindSpore's CPU
    require_dtype("AddN", "x", t, ALL + (mstype.uint16, mstype.uint32, mstype.uint64)
                  + COMPLEX)
    s = items[0].shape
    for i, a in enumerate(items[1:], 1):
        if not shapes_match(a.shape, s):
            raise ValueError(f"For 'AddN', all input shapes must be the same, but got "
                             f"x[0].shape: {list(s)} and x[{i}].shape: {list(a.shape)}.")
        s = tuple(merge_dims(d, e) for d, e in zip(s, a.shape))
    return AbstractTensor(t, s)


@quiet
def _addn(xs, out=None):
    """``xs[0] + xs[1] + ...`` in that order; into ``out`` when given (it must not be one of
    ``xs``)."""
    if out is None:
        out = np.array(xs[0], copy=True)
    else:
        np.copyto(out, xs[0])
    for x in xs[1:]:
        out += x
    return out


AddN = OpDef("AddN", _addn_infer, _addn, out_buffer=OUT_SEPARATE)

# ------------------------------------------------------------------ gather and getitem


def _check_index_values(name: str, idx, dim: int) -> None:
    if idx.size and (idx.min() < -dim or idx.max() >= dim):
        bad = idx[(idx < -dim) | (idx >= dim)].flat[0]
        raise RuntimeError(f"For '{name}', the 'input_indices' should be in the range "
                           f"[{-dim}, {dim}), but got {int(bad)}.")


def _gather_infer(params, indices, axis, batch_dims=0):
    t = tensor_type("Gather", "input_params", params)
    ti = tensor_type("Gather", "input_indices", indices)
    if ti not in INDEX_TYPES:
        raise TypeError(f"For 'Gather', the type of 'input_indices' should be one of [Int32, "
                        f"Int64], but got {ti}.")
    ax = norm_axis("Gather", const_value("Gather", "axis", axis), params.ndim)
    b = check_int("Gather", "batch_dims", batch_dims)
    b = b + indices.ndim if b < 0 else b
    if b > indices.ndim or b > ax or not shapes_match(params.shape[:b], indices.shape[:b]):
        raise ValueError(f"For 'Gather', 'batch_dims' {batch_dims} must be at most the rank "
                         f"of 'input_indices' and 'axis' ({ax}), and the first batch_dims "
                         f"dimensions must agree, but got params shape {list(params.shape)} "
                         f"and indices shape {list(indices.shape)}.")
    if isinstance(indices, AbstractTensor) and indices.value is not None \
            and params.shape[ax] >= 0:
        _check_index_values("Gather", np.asarray(indices.value), params.shape[ax])
    s = params.shape
    return AbstractTensor(t, s[:ax] + indices.shape[b:] + s[ax + 1:])


def _gather(params, indices, axis, batch_dims=0, out=None):
    ax = axis % params.ndim
    b = batch_dims + indices.ndim if batch_dims < 0 else batch_dims
    _check_index_values("Gather", indices, params.shape[ax])
    if b == 0:
        # the indices are checked: "wrap" picks the same elements, without the copy of the
        # result that "raise" makes when given ``out``
        return np.take(params, indices, ax, out=out, mode="raise" if out is None else "wrap")
    lead = params.shape[:b]
    n = int(np.prod(lead, dtype=np.int64))
    p2 = params.reshape((n,) + params.shape[b:])
    i2 = indices.reshape((n,) + indices.shape[b:])
    stacked = np.stack([np.take(p2[k], i2[k], ax - b) for k in range(n)]) if n else \
        np.zeros((0,) + params.shape[b:ax] + indices.shape[b:] + params.shape[ax + 1:],
                 params.dtype)
    return into(out, stacked.reshape(lead + stacked.shape[1:]))


Gather = OpDef("Gather", _gather_infer, _gather, attrs={"batch_dims": 0},
               out_buffer=OUT_SEPARATE)


def _index_items(index) -> list:
    """The index as a list of (kind, payload) without any array of the indexed shape. A
    bool Tensor whose values are only known at run time is ``("mask", abstract)``: it
    selects a number of elements known only at run time."""
    elems = index.elements if isinstance(index, AbstractTuple) and not index.is_list \
        else (index,)
    items = []
    for e in elems:
        if isinstance(e, AbstractScalar):
            v = e.value
            if not e.is_known and issubclass(e.kind, int) and e.kind is not bool:
                items.append(("int", None))  # a run-time int: checked when the graph runs
            elif not e.is_known and e.kind is slice:
                items.append(("slice", None))  # run-time bounds: a length known at run time
            elif v is None:
                items.append(("none", None))
            elif v is Ellipsis:
                items.append(("ellipsis", None))
            elif isinstance(v, (bool, np.bool_)):
                items.append(("bool", np.asarray(v)))
            elif isinstance(v, (int, np.integer)):
                items.append(("int", int(v)))
            elif isinstance(v, slice):
                items.append(("slice", v))
            else:
                raise IndexError(f"For 'Getitem', unsupported index {v!r}.")
        elif isinstance(e, AbstractTensor):
            if e.dtype is mstype.bool_:
                if e.value is None:
                    items.append(("mask", e))
                else:
                    items.append(("bool", np.asarray(e.value)))
            elif e.dtype.is_int:
                items.append(("array", e))
            else:
                raise IndexError(f"For 'Getitem', a Tensor index must be of integer or bool "
                                 f"type, but got {e.dtype}.")
        else:
            raise IndexError(f"For 'Getitem', unsupported index {describe(e)}.")
    return items


def _index_shape(xshape: tuple, items: list) -> tuple:
    """NumPy's indexing result shape, computed from shapes alone."""
    used = sum(1 if k in ("int", "slice", "array") else len(p.shape) if k == "mask"
               else np.ndim(p) if k == "bool" else 0 for k, p in items)
    if used > len(xshape):
        raise IndexError(f"too many indices: {used} for a Tensor of rank {len(xshape)}")
    if sum(k == "ellipsis" for k, _ in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    fill = [("slice", slice(None))] * (len(xshape) - used)
    if any(k == "ellipsis" for k, _ in items):
        i = [k for k, _ in items].index("ellipsis")
        items = items[:i] + fill + items[i + 1:]
    else:
        items = items + fill
    has_adv = any(k in ("array", "bool") for k, _ in items)
    out, adv_shapes, adv_pos, d = [], [], [], 0
    for pos, (k, p) in enumerate(items):
        if k == "none":
            out.append(1)
        elif k == "slice":
            if p is not None and p.step == 0:
                raise IndexError("slice step cannot be zero")
            out.append(len(range(*p.indices(xshape[d]))) if p is not None and xshape[d] >= 0
                       else UNKNOWN_DIM)
            d += 1
        elif k == "int":
            if p is not None and xshape[d] >= 0 and not -xshape[d] <= p < xshape[d]:
                raise IndexError(f"index {p} is out of bounds for dimension with size "
                                 f"{xshape[d]} (axis {d})")
            if has_adv:
                adv_shapes.append(())
                adv_pos.append((pos, len(out)))
            d += 1
        elif k == "array":
            if p.value is not None and xshape[d] >= 0:
                v = np.asarray(p.value)
                if v.size and (v.min() < -xshape[d] or v.max() >= xshape[d]):
                    raise IndexError(f"index {int(v.max() if v.max() >= xshape[d] else v.min())}"
                                     f" is out of bounds for dimension with size {xshape[d]} "
                                     f"(axis {d})")
            adv_shapes.append(p.shape)
            adv_pos.append((pos, len(out)))
            d += 1
        else:  # bool mask over p.ndim dimensions, known ("bool") or run-time ("mask")
            # (a 1-D one stands for its nonzero positions, whatever its length: MindSpore)
            if len(p.shape) != 1 and not shapes_match(p.shape,
                                                      tuple(xshape[d:d + len(p.shape)])):
                raise IndexError(f"boolean index of shape {list(p.shape)} does not match the "
                                 f"indexed dimensions {list(xshape[d:d + len(p.shape)])}")
            count = int(np.count_nonzero(p)) if k == "bool" else UNKNOWN_DIM
            adv_shapes.append((count,))
            adv_pos.append((pos, len(out)))
            d += len(p.shape)
    if not adv_pos:
        return tuple(out)
    try:
        bshape = functools.reduce(lambda a, b: broadcast_shapes("Getitem", a, b),
                                  adv_shapes)
    except ValueError:  # a ValueError in MindSpore
        raise ValueError(f"shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {[list(s) for s in adv_shapes]}") from None
    positions = [p for p, _ in adv_pos]
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    at = adv_pos[0][1] if adjacent else 0
    return tuple(out[:at]) + tuple(bshape) + tuple(out[at:])


def _getitem_infer(x, index):
    t = tensor_type("Getitem", "x", x)
    try:
        out = _index_shape(x.shape, _index_items(index))
    except (IndexError, ValueError) as e:
        raise type(e)(f"For 'Getitem', the index {index_text(index)} is invalid for a "
                      f"Tensor of shape {list(x.shape)}: {e}.") from None
    return AbstractTensor(t, out)


def index_text(index) -> str:
    if isinstance(index, AbstractScalar):
        return repr(index.value)
    return describe(index)


def _is_vector_mask(i) -> bool:
    return isinstance(i, np.ndarray) and i.dtype == np.bool_ and i.ndim == 1


def bool_positions(index):
    """``index`` with each 1-D bool array as the positions it selects: MindSpore reads a
    bool Tensor index as its nonzero positions whatever its length (NumPy would refuse a
    length other than the dimension's; for that length the two agree)."""
    if isinstance(index, tuple):
        if any(_is_vector_mask(i) for i in index):
            return tuple(np.flatnonzero(i) if _is_vector_mask(i) else i for i in index)
        return index
    return np.flatnonzero(index) if _is_vector_mask(index) else index


def _getitem(x, index):
    return np.asarray(x[bool_positions(index)])


Getitem = OpDef("Getitem", _getitem_infer, _getitem)


def _setitem_infer(x, index, value):
    t = tensor_type("Setitem", "x", x)
    try:
        target = _index_shape(x.shape, _index_items(index))
    except (IndexError, ValueError) as e:
        raise type(e)(f"For 'Setitem', the index {index_text(index)} is invalid for a "
                      f"Tensor of shape {list(x.shape)}: {e}.") from None
    if isinstance(value, AbstractTensor):
        vshape = value.shape
    elif isinstance(value, AbstractScalar) and isinstance(
            value.value, (bool, int, float, np.bool_, np.integer, np.floating)):
        vshape = ()
    else:
        raise TypeError(f"For 'Setitem', the type of 'value' must be a Tensor or a number, "
                        f"but got {describe(value)}.")
    if not is_dynamic(target) and not is_dynamic(vshape):  # else the kernel checks it
        try:
            ok = np.broadcast_shapes(vshape, target) == tuple(target)
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"For 'Setitem', the value of shape {list(vshape)} cannot be "
                             f"broadcast to the indexed shape {list(target)} of a Tensor of "
                             f"shape {list(x.shape)} (index {index_text(index)}).")
    return AbstractTensor(t, x.shape)


def _setitem(x, index, value):
    out = np.array(x, copy=True)
    out[bool_positions(index)] = np.asarray(value).astype(out.dtype, copy=False)
    return out


# ``x[index] = value`` as a value: a copy of ``x`` with the indexed elements replaced
# (``value`` cast to ``x``'s dtype and broadcast); graphs rebind ``x`` to it
Setitem = OpDef("Setitem", _setitem_infer, _setitem)

# ------------------------------------------------------------------ reductions


def _reduce_axes(name: str, x, axis) -> tuple:
    ax = axis if isinstance(axis, (tuple, list)) else const_value(name, "axis", axis)
    if isinstance(ax, np.ndarray):
        ax = ax.tolist()
    if isinstance(ax, float) or (isinstance(ax, (tuple, list)) and any(
            isinstance(a, float) for a in ax)):
        raise TypeError(f"For '{name}', the 'axis' must be an int or a tuple of ints, but got "
                        f"{ax!r}.")
    return norm_axes(name, ax, x.ndim)


def _unknown_ints(a) -> list | None:
    """The elements of a run-time int or tuple of ints (``mutable((0, 1))``), else None."""
    elements = a.elements if isinstance(a, AbstractTuple) else [a]
    scalars = [e for e in elements if isinstance(e, AbstractScalar)]
    if len(scalars) != len(elements) or all(e.is_known for e in scalars):
        return None
    return scalars


def runtime_axes(a) -> bool:
    """True for an ``axis`` input computed at run time: an integer Tensor, an int or a tuple
    of ints."""
    if isinstance(a, AbstractTensor):
        return a.value is None
    return isinstance(a, (AbstractScalar, AbstractTuple)) and _unknown_ints(a) is not None


def _axes_count(name: str, axis) -> int:
    """How many axes a run-time ``axis`` names."""
    ints = None if isinstance(axis, AbstractTensor) else _unknown_ints(axis)
    if ints is not None and all(issubclass(e.kind, int) and not issubclass(e.kind, bool)
                                for e in ints):
        return len(ints)
    if ints is not None or not axis.dtype.is_int or axis.ndim > 1:
        raise TypeError(f"For '{name}', the 'axis' must be an int, a tuple of ints or a 0-D "
                        f"or 1-D integer Tensor, but got {describe(axis)}.")
    return len(tensor_shape_dims(name, "axis", axis))


def _runtime_axes_shape(name: str, x, axis, keep_dims: bool, skip_mode: bool) -> tuple:
    """The shape a reduction over run-time ``axis`` gives: ``x``'s rank less the axes'
    count (the count must be known: :class:`DynamicRankError` otherwise), each dimension
    unknown; with ``keep_dims``, ``x``'s rank."""
    count = _axes_count(name, axis)
    if skip_mode:
        raise ValueError(f"For '{name}', 'skip_mode' needs a constant 'axis', but got a value "
                         f"computed at run time ({describe(axis)}).")
    if count > x.ndim:
        raise ValueError(f"For '{name}', the 'axis' names {count} dimensions of a Tensor of "
                         f"rank {x.ndim}.")
    if keep_dims:
        return tuple(1 if d == 1 else UNKNOWN_DIM for d in x.shape)
    return (UNKNOWN_DIM,) * (x.ndim - count if count else 0)


def _reduce_infer_for(name: str, allowed):
    def infer(x, axis=(), keep_dims=False, skip_mode=False):
        t = tensor_type(name, "x", x)
        if name == "ReduceMean" and t is mstype.bool_:
            raise RuntimeError(f"For '{name}', the input of type Bool is not supported.")
        require_dtype(name, "x", t, allowed)
        if runtime_axes(axis):  # the kernel reads the axes
            return AbstractTensor(t, _runtime_axes_shape(name, x, axis, keep_dims, skip_mode))
        axes = _reduce_axes(name, x, axis) if x.ndim else _reduce_axes(name, x, axis)[:0]
        if not axes:
            if skip_mode:
                return AbstractTensor(t, x.shape)
            axes = tuple(range(x.ndim))
        if name in ("ReduceMax", "ReduceMin") and any(x.shape[a] == 0 for a in axes):
            raise ValueError(f"For '{name}', cannot reduce over an empty dimension, but got "
                             f"input shape {list(x.shape)} and axis {list(axes)}.")
        if keep_dims:
            s = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
        else:
            s = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        return AbstractTensor(t, s)
    return infer


def _reducer(name: str, np_fn):
    @quiet
    def kernel(x, axis=(), keep_dims=False, skip_mode=False):
        if isinstance(axis, np.ndarray):  # (checked here when computed at run time)
            axis = list(norm_axes(name, axis, np.ndim(x)))
        elif isinstance(axis, tuple) and axis:  # (mutable ints: likewise)
            axis = list(norm_axes(name, list(axis), np.ndim(x)))
        if axis in ((), []):
            if skip_mode:
                return x
            axis = None
        elif np.ndim(x) == 0:  # axis 0 or -1 of a 0-d tensor (checked by inference) is all
            axis = None
        elif isinstance(axis, list):
            axis = tuple(axis)
        r = np_fn(x, axis=axis, keepdims=keep_dims)
        return as_type(np.asarray(r), mstype.from_numpy(np.asarray(x).dtype))
    kernel.__name__ = np_fn.__name__
    return kernel


# MindSpore's CPU reductions take every integer width (unsigned too); Sum, Mean and Prod
# complex numbers too, Max and Min not bool
_WIDE_UNSIGNED = (mstype.uint16, mstype.uint32, mstype.uint64)
_SUM_TYPES = ALL + _WIDE_UNSIGNED + COMPLEX


def _reduce_op(name, np_fn, allowed=_SUM_TYPES) -> OpDef:
    return OpDef(name, _reduce_infer_for(name, allowed), _reducer(name, np_fn),
                 attrs={"keep_dims": False, "skip_mode": False})


def _sum(x, axis=None, keepdims=False):
    """Float16 accumulates in float32 and rounds once, as MindSpore's CPU kernel does."""
    x = np.asarray(x)  # np.add.reduce: what np.sum calls, without its Python wrapper
    return np.add.reduce(x, axis=axis, keepdims=keepdims,
                         dtype=np.float32 if x.dtype == np.float16 else None)


ReduceSum = _reduce_op("ReduceSum", _sum)


def _mean(x, axis=None, keepdims=False):
    """Sum over count (an empty slice gives NaN without NumPy's warning); float16 and integers
    accumulate wider, integer results truncate toward zero like MindSpore's."""
    x = np.asarray(x)
    acc = np.float32 if x.dtype == np.float16 else None if x.dtype.kind in "fc" else np.float64
    n = x.size if axis is None else int(np.prod([x.shape[a] for a in (
        axis if isinstance(axis, tuple) else (axis,))], dtype=np.int64))
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=acc) / n


ReduceMean = _reduce_op("ReduceMean", _mean)
_MAX_MIN_TYPES = NUMBERS + _WIDE_UNSIGNED
ReduceMax = _reduce_op("ReduceMax", np.max, _MAX_MIN_TYPES)
ReduceMin = _reduce_op("ReduceMin", np.min, _MAX_MIN_TYPES)
ReduceProd = _reduce_op("ReduceProd", np.prod)


def _arg_infer_for(name: str):
    def infer(x, axis=-1, output_type=mstype.int32):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, ALL)
        if output_type not in INDEX_TYPES:
            raise ValueError(f"For '{name}', the 'output_type' must be Int32 or Int64, but "
                             f"got {output_type}.")
        ax = norm_axis(name, axis, x.ndim)
        if x.ndim and x.shape[ax] == 0:
            raise ValueError(f"For '{name}', cannot reduce over an empty dimension, but got "
                             f"input shape {list(x.shape)} and axis {axis}.")
        return AbstractTensor(output_type, x.shape[:ax] + x.shape[ax + 1:])
    return infer


def _arg_kernel(np_fn):
    def kernel(x, axis=-1, output_type=mstype.int32):
        x = np.asarray(x)
        if x.ndim == 0:
            return np.zeros((), output_type.np_dtype)
        return np.asarray(np_fn(x, axis=axis)).astype(output_type.np_dtype)
    kernel.__name__ = np_fn.__name__
    return kernel


Argmax = OpDef("Argmax", _arg_infer_for("Argmax"), _arg_kernel(np.argmax),
               attrs={"axis": -1, "output_type": mstype.int32}, differentiable=False)
Argmin = OpDef("Argmin", _arg_infer_for("Argmin"), _arg_kernel(np.argmin),
               attrs={"axis": -1, "output_type": mstype.int32}, differentiable=False)


def _arg_value_infer_for(name: str):
    def infer(x, axis=0, keep_dims=False):
        t = tensor_type(name, "x", x)
        require_dtype(name, "x", t, NUMBERS)
        ax = norm_axis(name, axis, x.ndim)
        if x.ndim and x.shape[ax] == 0:
            raise ValueError(f"For '{name}', cannot reduce over an empty dimension, but got "
                             f"input shape {list(x.shape)} and axis {axis}.")
        if not x.ndim:
            s = ()
        elif keep_dims:
            s = x.shape[:ax] + (1,) + x.shape[ax + 1:]
        else:
            s = x.shape[:ax] + x.shape[ax + 1:]
        return AbstractTuple([AbstractTensor(mstype.int64, s), AbstractTensor(t, s)])
    return infer


def _arg_value_kernel(np_arg):
    def kernel(x, axis=0, keep_dims=False):
        x = np.asarray(x)
        if x.ndim == 0:
            return np.zeros((), np.int64), x.copy()
        idx = np.expand_dims(np_arg(x, axis=axis), axis)
        val = np.take_along_axis(x, idx, axis)
        if not keep_dims:
            idx, val = np.squeeze(idx, axis), np.squeeze(val, axis)
        return idx.astype(np.int64), val
    return kernel


# (index, value), as MindSpore orders them; ops.max/ops.min give (value, index).
ArgMaxWithValue = OpDef("ArgMaxWithValue", _arg_value_infer_for("ArgMaxWithValue"),
                        _arg_value_kernel(np.argmax), attrs={"axis": 0, "keep_dims": False})
ArgMinWithValue = OpDef("ArgMinWithValue", _arg_value_infer_for("ArgMinWithValue"),
                        _arg_value_kernel(np.argmin), attrs={"axis": 0, "keep_dims": False})


# ------------------------------------------------------------------ slicing, top-k

def _run_time(a) -> bool:
    return isinstance(a, AbstractTensor) and a.value is None


def _slice_infer(x, begin, size):
    t = tensor_type("Slice", "input_x", x)
    if _run_time(begin) or _run_time(size):  # checked by the kernel when the graph runs
        b = tensor_shape_dims("Slice", "begin", begin) if _run_time(begin) else \
            const_shape("Slice", "begin", begin)
        s = tensor_shape_dims("Slice", "size", size) if _run_time(size) else \
            const_shape("Slice", "size", size, allow_minus_one=True)
        if len(b) != len(x.shape) or len(s) != len(x.shape):
            raise ValueError(f"For 'Slice', the lengths of 'begin' ({len(b)}) and 'size' "
                             f"({len(s)}) must equal the rank of 'input_x' ({len(x.shape)}).")
        return AbstractTensor(t, tuple(UNKNOWN_DIM if n == -1 else n for n in s))
    b = const_shape("Slice", "begin", begin)
    s = const_shape("Slice", "size", size, allow_minus_one=True)
    if len(x.shape) == 0:
        raise ValueError("For primitive[Slice], the rank of input_x must be greater than 0, "
                         "but got 0.")
    if len(b) != len(x.shape) or len(s) != len(x.shape):
        raise ValueError(f"For 'Slice', the lengths of 'begin' {list(b)} and 'size' {list(s)} "
                         f"must equal the rank of 'input_x' ({len(x.shape)}).")
    out = []
    for d, (lo, n, dim) in enumerate(zip(b, s, x.shape)):
        if dim < 0:  # checked by the kernel when the graph runs
            out.append(n if n != -1 else UNKNOWN_DIM)
            continue
        n = dim - lo if n == -1 else n
        if lo > dim or lo + n > dim:
            raise ValueError(f"For 'Slice', begin[{d}] + size[{d}] must be <= "
                             f"input_x.shape[{d}] ({dim}), but got {lo} + {n}.")
        out.append(n)
    return AbstractTensor(t, tuple(out))


def _slice(x, begin, size):
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(f"For 'Slice', the lengths of 'begin' ({len(begin)}) and 'size' "
                         f"({len(size)}) must equal the rank of 'input_x' ({x.ndim}).")
    for d, (lo, n, dim) in enumerate(zip(begin, size, x.shape)):
        if lo < 0 or n < -1 or lo + (dim - lo if n == -1 else n) > dim:
            raise ValueError(f"For 'Slice', begin[{d}] ({lo}) and size[{d}] ({n}) must lie "
                             f"within input_x.shape[{d}] ({dim}).")
    return x[tuple(slice(lo, dim if n == -1 else lo + n)
                   for lo, n, dim in zip(begin, size, x.shape))]


Slice = OpDef("Slice", _slice_infer, _slice)


def strided_index(begin, end, strides, *, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0) -> tuple:
    """The Python index StridedSlice's arguments stand for: bit ``i`` of a mask applies to
    position ``i`` of ``begin``/``end``/``strides`` (begin/end ignored, an ``...``, a new
    axis, or one index whose dimension goes away)."""
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"For 'StridedSlice', 'begin', 'end' and 'strides' must have the "
                         f"same length, but got {len(begin)}, {len(end)} and {len(strides)}.")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if s == 0:
            raise ValueError(f"For 'StridedSlice', the 'strides[{i}]' must not be 0.")
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(b)
        else:
            index.append(slice(None if begin_mask & bit else b,
                               None if end_mask & bit else e, s))
    return tuple(index)


def _strided_index(name, begin, end, strides, masks) -> tuple:
    return strided_index(const_value(name, "begin", begin), const_value(name, "end", end),
                         const_value(name, "strides", strides), **masks)


def _runtime_slice_shape(x, args: dict, masks: dict) -> tuple:
    """The shape of a StridedSlice whose begin/end/strides are read when the graph runs:
    the sliced leading dimensions unknown (the masks that add or remove axes need
    constants)."""
    counts = set()
    for arg, a in args.items():
        if not isinstance(a, AbstractTensor) or not a.dtype.is_int or len(a.shape) != 1 \
                or a.shape[0] < 0:
            raise ValueError(f"For 'StridedSlice', the '{arg}' computed at run time must be a "
                             f"1-D integer Tensor of known length, but got {describe(a)}.")
        counts.add(a.shape[0])
    if len(counts) != 1:
        raise ValueError(f"For 'StridedSlice', 'begin', 'end' and 'strides' must have the "
                         f"same length, but got {[a.shape[0] for a in args.values()]}.")
    for name in ("ellipsis_mask", "new_axis_mask", "shrink_axis_mask"):
        if masks.get(name, 0):
            raise ValueError(f"For 'StridedSlice', the '{name}' needs constant 'begin', 'end' "
                             f"and 'strides', but they are computed at run time.")
    n = counts.pop()
    if n > len(x.shape):
        raise ValueError(f"For 'StridedSlice', 'begin' has {n} elements, more than the rank "
                         f"{len(x.shape)} of 'input_x'.")
    return (UNKNOWN_DIM,) * n + tuple(x.shape[n:])


def _strided_slice_infer(x, begin, end, strides, **masks):
    t = tensor_type("StridedSlice", "input_x", x)
    args = {"begin": begin, "end": end, "strides": strides}
    if any(isinstance(a, AbstractTensor) and a.value is None for a in args.values()):
        return AbstractTensor(t, _runtime_slice_shape(x, args, masks))
    index = _strided_index("StridedSlice", begin, end, strides, masks)
    return _getitem_infer(x, AbstractTuple([AbstractScalar(e) for e in index]))


def _strided_slice(x, begin, end, strides, **masks):
    begin, end, strides = (np.asarray(v).reshape(-1).tolist() if isinstance(v, np.ndarray)
                           else v for v in (begin, end, strides))
    return np.asarray(x[strided_index(begin, end, strides, **masks)])


StridedSlice = OpDef("StridedSlice", _strided_slice_infer, _strided_slice,
                     attrs={"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0,
                            "new_axis_mask": 0, "shrink_axis_mask": 0})


def _flatten_infer(x):
    t = tensor_type("Flatten", "input_x", x)
    if not x.shape:
        raise ValueError("For 'Flatten', the 'input_x' must have at least 1 dimension, but "
                         "got a 0-d Tensor.")
    return AbstractTensor(t, (x.shape[0], prod_dims(x.shape[1:])))


Flatten = OpDef("Flatten", _flatten_infer, lambda x: np.reshape(x, (x.shape[0], -1)))


def _top_k_infer(x, k, sorted=True):
    t = tensor_type("TopK", "input_x", x)
    require_dtype("TopK", "input_x", t, NUMBERS)
    k = _top_k_count(k)
    last = x.shape[-1] if x.shape else 1
    if k is None or last < 0:  # known when the graph runs (the kernel checks it then)
        k = UNKNOWN_DIM if k is None else k
    elif not 0 <= k <= last:
        raise ValueError(f"For 'TopK', the 'k' must be in [0, {last}] (the size of the last "
                         f"dimension), but got {k}.")
    out = tuple(x.shape[:-1]) + (k,)
    return AbstractTuple([AbstractTensor(t, out), AbstractTensor(mstype.int32, out)])


def _top_k_count(k) -> int | None:
    """TopK's ``k``: a constant int, or None for one known only at run time (a mutable
    int, or an integer Tensor of one element such as ``Tensor([2])``)."""
    if isinstance(k, AbstractTensor) and k.value is None:
        require_dtype("TopK", "k", k.dtype, INDEX_TYPES)
        if prod_dims(k.shape) not in (1, UNKNOWN_DIM):
            raise ValueError(f"For 'TopK', the 'k' must be an int or a Tensor with one "
                             f"element, but got shape {list(k.shape)}.")
        return None
    if isinstance(k, AbstractScalar) and not k.is_known and k.kind is int:
        return None
    v = const_value("TopK", "k", k)
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype.kind in "iu":
        v = int(v.reshape(()))
    return check_int("TopK", "k", v)


def _nth_element_rows(rows: np.ndarray, k: int, sort_first: bool) -> np.ndarray:
    """Each row's indices as ``std::nth_element`` at ``k`` leaves them, the first ``k``
    stably sorted by value (largest first) when ``sort_first``: MindSpore's CPU order."""
    out = np.empty(rows.shape[:-1] + (k,), np.int64)
    for pos in np.ndindex(rows.shape[:-1]):
        row = rows[pos].tolist()
        idx = list(range(len(row)))
        nth_element(idx, k, row.__getitem__)
        top = idx[:k]
        if sort_first:
            top.sort(key=lambda i: -row[i])
        out[pos] = top
    return out


def _top_k_order(flat: np.ndarray, k: int, sorted_: bool) -> np.ndarray:
    """The indices MindSpore's CPU TopK gives: unsorted, the first ``k`` of
    ``std::nth_element``; sorted, a stable sort of the whole row when ``k`` is over half of
    it, else of those first ``k`` (which of equal values come first then follows
    ``nth_element``; without ties among the ``k + 1`` largest it is the stable order)."""
    n = flat.shape[-1]
    if not sorted_:
        return _nth_element_rows(flat, k, False) if k < n else \
            np.broadcast_to(np.arange(n), flat.shape).copy()
    order = np.argsort(-flat.astype(np.float64), axis=-1, kind="stable")
    if k < n and k <= n // 2:
        top = np.take_along_axis(flat, order[..., :k + 1], axis=-1)
        tied = (np.diff(top, axis=-1) == 0).any(axis=-1)
        if tied.any():
            order = order[..., :k].copy()
            order[tied] = _nth_element_rows(flat[tied], k, True)
            return order
    return order[..., :k]


def _top_k(x, k, sorted=True):
    k = int(np.asarray(k).reshape(()))
    x = np.asarray(x)
    flat = x.reshape(1) if x.ndim == 0 else x
    order = _top_k_order(flat, k, sorted)
    values = np.take_along_axis(flat, order, axis=-1)
    return values.reshape(x.shape[:-1] + (k,)), order.astype(np.int32)


TopK = OpDef("TopK", _top_k_infer, _top_k, attrs={"sorted": True})



def _sort_infer(x, axis=-1, descending=False):
    t = tensor_type("Sort", "x", x)
    require_dtype("Sort", "x", t, NUMBERS)
    norm_axis("Sort", axis, len(x.shape))
    return AbstractTuple([AbstractTensor(t, x.shape), AbstractTensor(mstype.int32, x.shape)])


def _sort(x, axis=-1, descending=False):
    x = np.asarray(x)
    key = -x.astype(np.float64) if descending else x
    # stable: among equal values the lower index comes first
    order = np.argsort(key, axis=axis, kind="stable")
    return np.take_along_axis(x, order, axis), order.astype(np.int32)


Sort = OpDef("Sort", _sort_infer, _sort, attrs={"axis": -1, "descending": False})


def _unstack_infer(x, axis=0, num=None):
    tensor_type("Unstack", "input_x", x)
    ax = norm_axis("Unstack", axis, len(x.shape))
    n = x.shape[ax]
    if n < 0:
        raise ValueError(f"For 'Unstack', the size of dimension {axis} (the number of "
                         f"outputs) must be known when the graph is built, but 'input_x' has "
                         f"the dynamic shape {list(x.shape)}.")
    if num is not None and num != n:
        raise ValueError(f"For 'Unstack', the 'num' must be the size of dimension {axis} "
                         f"({n}), but got {num}.")
    part = AbstractTensor(x.dtype, x.shape[:ax] + x.shape[ax + 1:])
    return AbstractTuple([part] * n)


def _unstack(x, axis=0, num=None):
    x = np.asarray(x)
    return tuple(np.ascontiguousarray(p) for p in np.moveaxis(x, axis, 0))


Unstack = OpDef("Unstack", _unstack_infer, _unstack, attrs={"axis": 0, "num": None})


def _identity_infer(x):
    return AbstractTensor(tensor_type("Identity", "x", x), x.shape)


Identity = OpDef("Identity", _identity_infer, lambda x: np.array(x, copy=True))


def _eye_infer(n, m, t):
    sizes = []
    for arg, v in (("n", n), ("m", m)):
        if isinstance(v, AbstractScalar) and not v.is_known and v.kind is int:
            sizes.append(UNKNOWN_DIM)  # a run-time int (a dynamic dimension's size)
            continue
        k = check_int("Eye", arg, const_value("Eye", arg, v))
        if k < 0:
            raise ValueError(f"For 'Eye', the '{arg}' can not be negative, but got {k}.")
        sizes.append(k)
    return AbstractTensor(_dtype_attr("Eye", "t", t), tuple(sizes))


def _eye(n, m, t):
    n, m = int(n), int(m)
    for arg, k in (("n", n), ("m", m)):
        if k < 0:
            raise ValueError(f"For 'Eye', the '{arg}' can not be negative, but got {k}.")
    return np.eye(n, m, dtype=t.np_dtype)


Eye = OpDef("Eye", _eye_infer, _eye)


def _gather_d_infer(x, dim, index):
    t = tensor_type("GatherD", "x", x)
    ti = tensor_type("GatherD", "index", index)
    if ti not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'GatherD', the 'index' must be an int32 or int64 Tensor, but "
                        f"got {ti}.")
    if len(index.shape) != len(x.shape):
        raise ValueError(f"For 'GatherD', the 'index' must have the rank of 'x' "
                         f"({len(x.shape)}), but got shape {list(index.shape)}.")
    ax = norm_axis("GatherD", check_int("GatherD", "dim", const_value("GatherD", "dim", dim)),
                   len(x.shape))
    for d, (a, b) in enumerate(zip(x.shape, index.shape)):
        if d != ax and b > a >= 0:
            raise ValueError(f"For 'GatherD', the 'index' shape {list(index.shape)} must not "
                             f"exceed the shape of 'x' {list(x.shape)} outside 'dim' {ax}.")
    return AbstractTensor(t, index.shape)


def _gather_d(x, dim, index):
    """``out[i][j] = x[index[i][j]][j]`` for dim 0 (likewise for every dim)."""
    x, index = np.asarray(x), np.asarray(index)
    ax = int(dim) % x.ndim
    size = x.shape[ax]
    bad = index[(index < -size) | (index >= size)]
    if bad.size:
        raise RuntimeError(f"For 'GatherD', the value of 'index' must be in [{-size}, {size}), "
                           f"but got: {bad.flat[0]}")
    region = x[tuple(slice(0, n) if d != ax else slice(None)
                     for d, n in enumerate(index.shape))]
    return np.take_along_axis(region, index % size, axis=ax)


GatherD = OpDef("GatherD", _gather_d_infer, _gather_d)


def _pad_infer(input_x, paddings=None):
    tensor_type("Pad", "input_x", input_x)
    if not isinstance(paddings, tuple):
        raise TypeError(f"For 'Pad', the type of 'paddings' should be 'tuple', but got type "
                        f"'{type(paddings).__name__}'.")
    rank = len(input_x.shape)
    if len(paddings) != rank:
        raise ValueError(f"For 'Pad', the length of 'paddings' must be equal to the rank of "
                         f"'input_x', but got {len(paddings)} vs {rank}")
    out = []
    for d, (p, n) in enumerate(zip(paddings, input_x.shape)):
        if not isinstance(p, (tuple, list)) or len(p) != 2:
            got = len(p) if isinstance(p, (tuple, list)) else type(p).__name__
            raise ValueError(f"For 'Pad', the shape of 'paddings' must be ({rank}, 2), but got "
                             f"paddings.shape[1] = {got}")
        if p[0] < 0 or p[1] < 0:
            raise ValueError(f"For 'Pad', all elements of 'paddings' must be >= 0, but got "
                             f"paddings[{d}][0] = {p[0]}, paddings[{d}][1] = {p[1]}")
        out.append(n + int(p[0]) + int(p[1]) if n >= 0 else UNKNOWN_DIM)
    return AbstractTensor(input_x.dtype, tuple(out))


Pad = OpDef("Pad", _pad_infer,
            lambda input_x, paddings=None: np.pad(input_x, [tuple(p) for p in paddings]),
            attrs={"paddings": None})


def _padding_infer(x, pad_dim_size=8):
    tensor_type("Padding", "x", x)
    if isinstance(pad_dim_size, bool) or not isinstance(pad_dim_size, int):
        raise TypeError(f"For 'Padding', the type of 'pad_dim_size' should be 'int', but got "
                        f"type '{type(pad_dim_size).__name__}'.")
    if pad_dim_size <= 0:
        raise ValueError(f"For 'Padding', the 'pad_dim_size' must be int and must > 0, but got "
                         f"'{pad_dim_size}' with type 'int'.")
    if len(x.shape) < 2:
        raise ValueError(f"For primitive[Padding], the x rank must be greater than or equal to "
                         f"2, but got {len(x.shape)}.")
    if x.shape[-1] not in (1, UNKNOWN_DIM):
        raise ValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got: "
                         f"{x.shape[-1]}.")
    return AbstractTensor(x.dtype, tuple(x.shape[:-1]) + (pad_dim_size,))


def _padding(x, pad_dim_size=8):
    return np.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, pad_dim_size - 1)])


# MindSpore's ``Padding``: a last axis of length 1 extended with zeros to ``pad_dim_size``
Padding = OpDef("Padding", _padding_infer, _padding, attrs={"pad_dim_size": 8})


def meshgrid_axes(count: int, indexing: str) -> list:
    """The output axis each of ``count`` Meshgrid inputs runs along (``xy`` swaps the
    first two)."""
    axes = list(range(count))
    if indexing == "xy" and count >= 2:
        axes[0], axes[1] = 1, 0
    return axes


def _meshgrid_infer(inputs, indexing="xy"):
    if not isinstance(indexing, str):
        raise TypeError(f"For 'Meshgrid', the input 'indexing' should be a str, but got "
                        f"{type(indexing)}.")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'Meshgrid', the input 'indexing' must be 'xy' or 'ij', but got "
                         f"'{indexing}'.")
    items = tensors_of("Meshgrid", inputs)
    if any(a.dtype is not items[0].dtype for a in items):
        raise ValueError("For Primitive [Meshgrid], all tensors should have the same type.")
    for i, a in enumerate(items):
        if len(a.shape) != 1:
            raise ValueError(f"For 'Meshgrid', each input must be a 1-D Tensor, but input {i} "
                             f"has shape {list(a.shape)}.")
    out = [0] * len(items)
    for a, axis in zip(items, meshgrid_axes(len(items), indexing)):
        out[axis] = a.shape[0]
    return AbstractTuple([AbstractTensor(items[0].dtype, tuple(out)) for _ in items])


# MindSpore's ``Meshgrid``: coordinate grids of 1-D inputs, one output per input
Meshgrid = OpDef("Meshgrid", _meshgrid_infer,
                 lambda inputs, indexing="xy": tuple(np.meshgrid(*inputs, indexing=indexing)),
                 attrs={"indexing": "xy"})


def _masked_fill_infer(input_x, mask, value):
    t = tensor_type("MaskedFill", "input", input_x)
    if not isinstance(mask, AbstractTensor) or mask.dtype is not mstype.bool_:
        raise TypeError(f"For primitive[MaskedFill], the input argument[mask] must be a type of "
                        f"{{Bool}}, but got {describe(mask)}.")
    if isinstance(value, AbstractTensor):
        if len(value.shape) != 0:
            raise ValueError(f"For 'MaskedFill', 'value' only supports a 0-dimensional value "
                             f"tensor or a float number, but got tensor with "
                             f"{len(value.shape)} dimension(s).")
        if value.dtype is not t:
            raise TypeError(f"For 'MaskedFill', the dtype of 'value' ({value.dtype}) must be "
                            f"the same as the dtype of 'input' ({t}).")
    elif not isinstance(value, AbstractScalar) or not isinstance(value.value, (bool, int, float)):
        raise TypeError(f"For 'MaskedFill', the 'value' must be a 0-D Tensor or a number, but got "
                        f"{describe(value)}.")
    return AbstractTensor(t, broadcast_shapes("MaskedFill", input_x.shape, mask.shape, "input",
                                              "mask"))


def _masked_fill(input_x, mask, value):
    input_x = np.asarray(input_x)
    return np.where(mask, np.asarray(value).astype(input_x.dtype), input_x)


# ``value`` where ``mask`` is True, else ``input`` (broadcast together)
MaskedFill = OpDef("MaskedFill", _masked_fill_infer, _masked_fill)


def _space_to_depth_infer(x, block_size=2):
    tensor_type("SpaceToDepth", "x", x)
    if x.dtype is mstype.bool_:
        raise TypeError("For 'SpaceToDepth', the 'x' must not be a bool Tensor.")
    if isinstance(block_size, bool) or not isinstance(block_size, int):
        raise TypeError(f"For 'SpaceToDepth', the 'block_size' must be an int, but got "
                        f"{type(block_size).__name__}.")
    if block_size < 2:
        raise ValueError(f"The 'block_size' should be >= SpaceToDepth: 2, but got "
                         f"{block_size}.")
    if len(x.shape) != 4:
        raise ValueError(f"For primitive[SpaceToDepth], the x rank must be equal to 4, but "
                         f"got {len(x.shape)}.")
    n, c, h, w = x.shape
    for axis, size in ((2, h), (3, w)):
        if size >= 0 and size % block_size:
            raise ValueError(f"For primitive[SpaceToDepth], the x_shape[{axis}] % block_size "
                             f"must be equal to 0, but got {size % block_size}.")
    return AbstractTensor(x.dtype, (n, c * block_size * block_size if c >= 0 else UNKNOWN_DIM,
                                    h // block_size if h >= 0 else UNKNOWN_DIM,
                                    w // block_size if w >= 0 else UNKNOWN_DIM))


def _space_to_depth(x, block_size=2):
    n, c, h, w = x.shape
    b = block_size
    blocks = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return np.ascontiguousarray(blocks).reshape(n, b * b * c, h // b, w // b)


# NCHW: each block_size x block_size patch moved into channels (offset-major: channel
# (row_offset * block_size + col_offset) * C + c)
SpaceToDepth = OpDef("SpaceToDepth", _space_to_depth_infer, _space_to_depth,
                     attrs={"block_size": 2})


def _reverse_sequence_infer(x, seq_lengths, seq_dim=0, batch_dim=0):
    tensor_type("ReverseSequence", "x", x)
    if not isinstance(seq_lengths, AbstractTensor) or \
            seq_lengths.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For primitive[ReverseSequence], the input argument[seq_lengths] must "
                        f"be a type of {{Tensor[Int32], Tensor[Int64]}}, but got "
                        f"{describe(seq_lengths)}.")
    rank = len(x.shape)
    for arg, v in (("seq_dim", seq_dim), ("batch_dim", batch_dim)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < rank:
            raise ValueError(f"For 'ReverseSequence', the '{arg}' must be an int in [0, "
                             f"{rank}), but got {v!r}.")
    if seq_dim == batch_dim:
        raise ValueError(f"For 'ReverseSequence', the 'batch_dim' should be != seq_dim: "
                         f"{seq_dim}, but got {batch_dim}.")
    if len(seq_lengths.shape) != 1:
        raise ValueError(f"For 'ReverseSequence', the 'seq_lengths' must be 1-D, but got shape "
                         f"{list(seq_lengths.shape)}.")
    size, want = seq_lengths.shape[0], x.shape[batch_dim]
    if size >= 0 and want >= 0 and size != want:
        raise ValueError(f"For 'ReverseSequence', the 'seq_lengths' vector size should be = "
                         f"input size along batch_dim: {want}, but got {size}.")
    return AbstractTensor(x.dtype, tuple(x.shape))


def _reverse_sequence(x, seq_lengths, seq_dim=0, batch_dim=0):
    """The first ``seq_lengths[i]`` elements along ``seq_dim`` of batch entry ``i``,
    reversed."""
    out = np.array(x)
    for i, n in enumerate(np.asarray(seq_lengths).tolist()):
        if not 0 <= n <= x.shape[seq_dim]:
            raise RuntimeError(f"For 'ReverseSequence', invalid seq_lengths[{i}]: {n}; it must "
                               f"be in [0, {x.shape[seq_dim]}].")
        index = [slice(None)] * x.ndim
        index[batch_dim] = i
        index[seq_dim] = slice(0, n)
        source = [slice(None)] * x.ndim
        source[batch_dim] = i
        source[seq_dim] = slice(n - 1, None, -1) if n else slice(0, 0)
        out[tuple(index)] = x[tuple(source)]
    return out


# each batch entry's leading ``seq_lengths[i]`` elements along ``seq_dim`` reversed
ReverseSequence = OpDef("ReverseSequence", _reverse_sequence_infer, _reverse_sequence,
                        attrs={"seq_dim": 0, "batch_dim": 0})


def _range_dtype(args) -> mstype.Type:
    """int64 for integer bounds, else float32 (whatever the float bounds' width, as
    MindSpore's CPU kernel)."""
    types = []
    for arg, a in zip(("start", "limit", "delta"), args):
        if isinstance(a, AbstractTensor):
            if a.dtype not in NUMBERS + (mstype.uint16, mstype.uint32, mstype.uint64) or \
                    len(a.shape) > 1 or (a.shape and a.shape[0] not in (1, UNKNOWN_DIM)):
                raise TypeError(f"For 'Range', the '{arg}' must be a number or a Tensor with one "
                                f"number, but got {describe(a)}.")
            types.append(a.dtype)
        elif isinstance(a, AbstractScalar) and isinstance(a.value, (int, float)) and \
                not isinstance(a.value, bool):
            types.append(mstype.float32 if isinstance(a.value, float) else mstype.int64)
        else:
            raise TypeError(f"For 'Range', the '{arg}' must be a number or a Tensor with one "
                            f"number, but got {describe(a)}.")
    return mstype.int64 if all(t.is_int for t in types) else mstype.float32


def _range_bounds(start, limit, delta) -> tuple:
    values = [np.asarray(v).reshape(-1)[0].item() for v in (start, limit, delta)]
    start, limit, delta = values
    if delta == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    if limit > start and delta < 0:
        raise ValueError("For Range, delta cannot be negative when limit > start.")
    if limit < start and delta > 0:
        raise ValueError("For Range, delta cannot be positive when limit < start.")
    return start, limit, delta


def _range_infer(start, limit, delta, maxlen=1000000):
    t = _range_dtype((start, limit, delta))
    values = [a.value for a in (start, limit, delta)]
    if any(v is None for v in values):
        return AbstractTensor(t, (UNKNOWN_DIM,))
    lo, hi, step = _range_bounds(*values)
    return AbstractTensor(t, (max(int(np.ceil((hi - lo) / step)), 0),))


def _range(start, limit, delta, maxlen=1000000):
    lo, hi, step = _range_bounds(start, limit, delta)
    kinds = {np.asarray(v).dtype.kind for v in (start, limit, delta)}
    return np.arange(lo, hi, step).astype(np.int64 if kinds <= {"i", "u"} else np.float32)


# ``[start, start + delta, ...)`` up to ``limit`` (its length known when the graph is built
# only for constant bounds)
Range = OpDef("Range", _range_infer, _range, differentiable=False,
              attrs={"maxlen": 1000000})


def _reverse_v2_attrs(attrs: dict) -> None:
    axis = attrs["axis"]
    if not isinstance(axis, (tuple, list)):
        raise TypeError(f"For 'ReverseV2', the type of 'axis' should be one of '[list of int, "
                        f"tuple of int]', but got {type(axis)}.")


def _reverse_v2_axes(x, axis) -> tuple:
    """``axis`` of ``ReverseV2`` checked against ``x`` (MindSpore's errors)."""
    _reverse_v2_attrs({"axis": axis})
    axes = tuple(axis)
    out = []
    for i, a in enumerate(axes):
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"For 'ReverseV2', the 'axis[{i}]' must be an int, but got "
                            f"{type(a).__name__}.")
        rank = max(x.ndim, 1)
        if not -rank <= a < rank:
            raise ValueError(f"For 'ReverseV2', the 'axis[{i}]' must be in range of "
                             f"[{-rank}, {rank}), but got {a} with type 'int'.")
        if int(a) % rank in out:
            raise ValueError(f"For ReverseV2, 'axis' cannot contain duplicate dimensions, "
                             f"but got {a}")
        out.append(int(a) % rank)
    return tuple(out)


def _reverse_v2_infer(x, axis=()):
    t = tensor_type("ReverseV2", "input_x", x)
    _reverse_v2_axes(x, axis)
    return AbstractTensor(t, x.shape)


def _reverse_v2(x, axis=()):
    axes = _reverse_v2_axes(x, axis)
    return np.flip(x, axes).copy() if axes and x.ndim else x.copy()


# MindSpore's legacy reversal along axes (``ops.flip`` is its functional successor)
ReverseV2 = OpDef("ReverseV2", _reverse_v2_infer, _reverse_v2, attrs={"axis": ()},
                  check_attrs=_reverse_v2_attrs)


# ------------------------------------------------------------------ shift

SHIFT_TYPES = (mstype.bool_, mstype.int16, mstype.int32, mstype.int64, mstype.float16,
               mstype.float32, mstype.float64)


def shift_axis(axis, ndim: int) -> int:
    """Shift's ``axis`` made non-negative; out of ``[-ndim, ndim)`` is MindSpore's
    RuntimeError (MindSpore 2.10's CPU kernel fails on negative axes: graphkiln counts
    them from the end)."""
    axis = check_int("Shift", "axis", axis)
    if not -ndim <= axis < ndim:
        raise RuntimeError(f"For 'Shift', the 'axis' must be less than the dimension of "
                           f"input tensor {ndim}D, but got {axis}")
    return axis % ndim


def _shift_infer(x, fill_value, periods=1, axis=-1):
    t = tensor_type("Shift", "x", x)
    require_dtype("Shift", "x", t, SHIFT_TYPES)
    check_int("Shift", "periods", periods)
    shift_axis(axis, len(x.shape))
    kind = t.np_dtype.kind
    if isinstance(fill_value, AbstractTensor):
        fill_kind = fill_value.dtype.np_dtype.kind
        if int(np.prod(fill_value.shape)) == 0:
            raise ValueError("For 'Shift', the 'fill_value' must not be an empty Tensor.")
    elif isinstance(fill_value, AbstractScalar) and fill_value.kind in (bool, int, float):
        fill_kind = {bool: "b", int: "i", float: "f"}[fill_value.kind]
    else:
        raise TypeError(f"For 'Shift', the 'fill_value' must be a number or a Tensor, but "
                        f"got {describe(fill_value)}.")
    if fill_kind != kind:
        raise TypeError(f"For 'Shift', the 'fill_value' must be of the kind of 'x' ({t}), "
                        f"but got {describe(fill_value)}.")
    return AbstractTensor(t, x.shape)


def _shift(x, fill_value, periods=1, axis=-1):
    axis = shift_axis(axis, x.ndim)
    n = x.shape[axis]
    p = max(-n, min(n, int(periods)))
    lead = (slice(None),) * axis
    fill = np.asarray(fill_value).reshape(-1)[0]  # a Tensor's first element, as MindSpore
    out = np.empty_like(x)
    if p >= 0:
        out[lead + (slice(0, p),)] = fill
        out[lead + (slice(p, None),)] = x[lead + (slice(0, n - p),)]
    else:
        out[lead + (slice(n + p, None),)] = fill
        out[lead + (slice(0, n + p),)] = x[lead + (slice(-p, None),)]
    return out


# MindSpore's CPU kernel without a Python class (its tests declare one: ``Shift(periods,
# axis)(x, fill_value)``): ``x`` moved ``periods`` places along ``axis``, the vacated
# places set to ``fill_value``
Shift = OpDef("Shift", _shift_infer, _shift, attrs={"periods": 1, "axis": -1})
