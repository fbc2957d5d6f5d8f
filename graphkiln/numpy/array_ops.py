"""Shape and element rearrangement of ``mindspore.numpy``: transposes, stacking,
splitting, flips, indexing helpers (take, choose, select, piecewise, unravel_index...)."""
from __future__ import annotations

import builtins

import numpy as onp

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ._base import norm_axes, norm_axis, promote, to_tensor
from .rearrange import split


def _tensor(x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For mindspore.numpy, expect input to be a Tensor, but got {type(x)}.")
    return x


def reshape(x, new_shape) -> Tensor:
    x = to_tensor(x)
    return ops.reshape(x, (new_shape,) if isinstance(new_shape, builtins.int) else
                       tuple(new_shape))


def ravel(x) -> Tensor:
    return ops.reshape(to_tensor(x), (-1,))


def transpose(a, axes=None) -> Tensor:
    a = to_tensor(a)
    if axes is None:
        return ops.transpose(a, tuple(range(a.ndim - 1, -1, -1)))
    return ops.transpose(a, tuple(norm_axis(x, a.ndim) for x in axes))


def expand_dims(a, axis) -> Tensor:
    a = to_tensor(a)
    axes = (axis,) if isinstance(axis, builtins.int) else tuple(axis)
    ndim = a.ndim + len(axes)
    for ax in sorted(norm_axis(x, ndim) for x in axes):
        a = ops.expand_dims(a, ax)
    return a


def squeeze(a, axis=None) -> Tensor:
    a = to_tensor(a)
    if axis is None:
        return ops.reshape(a, tuple(s for s in a.shape if s != 1))
    axes = norm_axes(axis, a.ndim)
    for ax in axes:
        if a.shape[ax] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not "
                             "equal to one")
    return ops.reshape(a, tuple(s for i, s in enumerate(a.shape) if i not in axes))


def swapaxes(x, axis1, axis2) -> Tensor:
    x = _tensor(x)
    perm = list(range(x.ndim))
    a, b = norm_axis(axis1, x.ndim), norm_axis(axis2, x.ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return ops.transpose(x, tuple(perm))


def moveaxis(a, source, destination) -> Tensor:
    a = _tensor(a)
    src = (source,) if isinstance(source, builtins.int) else tuple(source)
    dst = (destination,) if isinstance(destination, builtins.int) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    src = [norm_axis(s, a.ndim) for s in src]
    dst = [norm_axis(d, a.ndim) for d in dst]
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ops.transpose(a, tuple(order))


def rollaxis(x, axis, start=0) -> Tensor:
    """``axis`` moved to lie before position ``start``."""
    x = _tensor(x)
    if not isinstance(axis, builtins.int) or not isinstance(start, builtins.int):
        raise TypeError(f"integer argument expected, but got {axis}, {start}")
    axis = norm_axis(axis, x.ndim)
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"start {start} is out of bounds for dimension {x.ndim}")
    start = start % (x.ndim + 1) if start < 0 else start
    perm = list(range(x.ndim))
    perm.remove(axis)
    perm.insert(start - (start > axis), axis)
    return ops.transpose(x, tuple(perm))


def concatenate(arrays, axis=0) -> Tensor:
    if isinstance(arrays, Tensor):
        if axis is None:
            return ops.reshape(arrays, (-1,))
        arrays = ops.unstack(arrays, 0)
    arrays = promote(*arrays)
    if axis is None:
        arrays = tuple(ops.reshape(a, (-1,)) for a in arrays)
        axis = 0
    return ops.concat(tuple(arrays), axis)


def stack(arrays, axis=0) -> Tensor:
    if isinstance(arrays, Tensor):
        arrays = ops.unstack(arrays, 0)
    return ops.stack(promote(*arrays), axis)


def append(arr, values, axis=None) -> Tensor:
    arr, values = promote(arr, values)
    if axis is None:
        return ops.concat((ops.reshape(arr, (-1,)), ops.reshape(values, (-1,))))
    return ops.concat((arr, values), axis)


def _atleast(arys, ndim: int, pad):
    out = []
    for a in arys:
        a = to_tensor(a)
        if a.ndim < ndim:
            a = ops.reshape(a, pad(tuple(a.shape)))
        out.append(a)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    return _atleast(arys, 1, lambda s: (1,) * (1 - len(s)) + s)


def atleast_2d(*arys):
    return _atleast(arys, 2, lambda s: (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    return _atleast(arys, 3, lambda s: {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}[len(s)])


def _seq(tup) -> list:
    if isinstance(tup, Tensor):
        return list(ops.unstack(tup, 0))
    return [to_tensor(t) for t in tup]


def hstack(tup) -> Tensor:
    arrs = _seq(tup)
    return concatenate(arrs, 0 if all(a.ndim <= 1 for a in arrs) else 1) if \
        any(a.ndim for a in arrs) else stack(arrs)


def vstack(tup) -> Tensor:
    return concatenate(atleast_2d(*_seq(tup)) if len(_seq(tup)) > 1 else
                       [atleast_2d(*_seq(tup))], 0)


def dstack(tup) -> Tensor:
    arrs = atleast_3d(*_seq(tup))
    return concatenate(arrs if isinstance(arrs, list) else [arrs], 2)


def column_stack(tup) -> Tensor:
    arrs = [ops.reshape(a, (-1, 1)) if a.ndim < 2 else a for a in _seq(tup)]
    return concatenate(arrs, 1)


def broadcast_arrays(*args) -> list:
    arrs = [to_tensor(a) for a in args]
    shape = tuple(onp.broadcast_shapes(*[tuple(a.shape) for a in arrs]))
    return [ops.broadcast_to(a, shape) for a in arrs]


def flip(m, axis=None) -> Tensor:
    m = to_tensor(m)
    axes = norm_axes(axis, m.ndim)
    return ops.reverse(m, axes) if axes else m


def flipud(m) -> Tensor:
    return flip(m, 0)


def fliplr(m) -> Tensor:
    return flip(m, 1)


def rot90(a, k=1, axes=(0, 1)) -> Tensor:
    """``a`` rotated by 90 degrees ``k`` times in the plane of ``axes``."""
    a = _tensor(a)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = norm_axis(axes[0], a.ndim), norm_axis(axes[1], a.ndim)
    if a0 == a1:
        raise ValueError("Axes must be different.")
    k %= 4
    if k == 0:
        return a
    if k == 2:
        return flip(flip(a, a0), a1)
    if k == 1:
        return swapaxes(flip(a, a1), a0, a1)
    return flip(swapaxes(a, a0, a1), a1)


def array_split(x, indices_or_sections, axis=0):
    """Parts of ``x`` along ``axis``; an int may split unevenly (the first parts one
    longer)."""
    x = _tensor(x)
    if isinstance(indices_or_sections, builtins.int):
        n = x.shape[norm_axis(axis, x.ndim)]
        k = indices_or_sections
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        return split(x, list(onp.cumsum(sizes)[:-1]), axis)
    return split(x, indices_or_sections, axis)


def _split_axis(x, indices_or_sections, axis: int, name: str):
    x = _tensor(x)
    if x.ndim <= axis:
        raise ValueError(f"{name} only works on arrays of {axis + 1} or more dimensions")
    return split(x, indices_or_sections, axis)


def hsplit(x, indices_or_sections):
    return _split_axis(x, indices_or_sections, 1 if _tensor(x).ndim > 1 else 0, "hsplit")


def vsplit(x, indices_or_sections):
    return _split_axis(x, indices_or_sections, 0, "vsplit")


def dsplit(x, indices_or_sections):
    return _split_axis(x, indices_or_sections, 2, "dsplit")


def _index_mode(indices: Tensor, n: int, mode: str) -> Tensor:
    """Out-of-range indices clipped (``clip``, ``raise``) or wrapped (``wrap``)."""
    if mode not in ("clip", "raise", "wrap"):
        raise ValueError(f"mode should be 'clip', 'wrap' or 'raise', but got {mode!r}.")
    if mode == "wrap":
        return ops.floor_mod(indices, ops.fill(indices.dtype, (), n))
    return ops.clip_by_value(indices, 0, builtins.max(n - 1, 0))


def take(a, indices, axis=None, mode="clip") -> Tensor:
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened ``a`` when None);
    out-of-range indices are clipped or wrapped."""
    a = _tensor(a)
    indices = to_tensor(indices, mstype.int32)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = norm_axis(axis, a.ndim)
    return ops.gather(a, _index_mode(indices, a.shape[axis], mode), axis)


def take_along_axis(arr, indices, axis) -> Tensor:
    """Values of ``arr`` at ``indices`` matched slice by slice along ``axis``."""
    arr = _tensor(arr)
    indices = to_tensor(indices, mstype.int32)
    if axis is None:
        arr, axis = ops.reshape(arr, (-1,)), 0
    axis = norm_axis(axis, arr.ndim)
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    shape = tuple(onp.broadcast_shapes(
        tuple(s for i, s in enumerate(arr.shape) if i != axis),
        tuple(s for i, s in enumerate(indices.shape) if i != axis)))
    shape_a = shape[:axis] + (arr.shape[axis],) + shape[axis:]
    shape_i = shape[:axis] + (indices.shape[axis],) + shape[axis:]
    arr = ops.broadcast_to(arr, shape_a)
    indices = ops.broadcast_to(indices, shape_i)
    n = arr.shape[axis]
    indices = ops.select(indices < 0, indices + n, indices)
    return ops.gather_elements(arr, axis, indices)


def choose(a, choices, mode="clip") -> Tensor:
    """Elements picked from ``choices[a]`` (all broadcast together; unlike
    ``Tensor.choose``, the choices keep their values)."""
    a = to_tensor(a, mstype.int32)
    choices = list(ops.unstack(choices, 0)) if isinstance(choices, Tensor) else \
        [to_tensor(c) for c in choices]
    choices = promote(*choices)
    shape = tuple(onp.broadcast_shapes(tuple(a.shape), *[tuple(c.shape) for c in choices]))
    a = _index_mode(ops.broadcast_to(a, shape), len(choices), mode)
    stacked = ops.stack(tuple(ops.broadcast_to(c, shape) for c in choices), 0)
    return ops.squeeze(ops.gather_elements(stacked, 0, ops.expand_dims(a, 0)), 0)


def select(condlist, choicelist, default=0) -> Tensor:
    """For each element, the choice of the first true condition (``default`` if none)."""
    conds = [to_tensor(c) for c in (ops.unstack(condlist, 0) if isinstance(condlist, Tensor)
                                    else condlist)]
    choices = [to_tensor(c) for c in (ops.unstack(choicelist, 0)
                                      if isinstance(choicelist, Tensor) else choicelist)]
    if len(conds) != len(choices):
        raise ValueError("list of cases must be same length as list of conditions")
    if not choices:
        raise ValueError("select with an empty condition list is not possible")
    choices = list(promote(*choices))
    shape = tuple(onp.broadcast_shapes(*[tuple(c.shape) for c in conds + choices]))
    out = ops.broadcast_to(to_tensor(default, choices[0].dtype), shape)
    for cond, choice in reversed(list(zip(conds, choices))):
        cond = ops.broadcast_to(ops.cast(cond, mstype.bool_), shape)
        out = ops.select(cond, ops.broadcast_to(ops.cast(choice, out.dtype), shape), out)
    return out


def piecewise(x, condlist, funclist, *args, **kw) -> Tensor:
    """``funclist[i]`` (a function of ``x`` or a value) where ``condlist[i]`` holds; one
    extra entry is the default."""
    x = to_tensor(x)
    if isinstance(condlist, builtins.bool) or isinstance(condlist, Tensor) and \
            condlist.ndim == x.ndim:
        condlist = [condlist]
    conds = list(condlist)
    choices = [f(x, *args, **kw) if callable(f) else to_tensor(f, x.dtype) for f in funclist]
    choices = [ops.broadcast_to(ops.cast(c, x.dtype), tuple(x.shape)) for c in choices]
    default = 0
    if len(conds) + 1 == len(choices):
        default = choices.pop()
    elif len(conds) != len(choices):
        raise ValueError(f"the number of choices should be either equal to conditions or "
                         f"{len(conds) + 1}")
    return select(conds, choices, default)


def _strides(dims: tuple, order: str) -> onp.ndarray:
    if order not in ("C", "F"):
        raise ValueError('invalid order. Expected "C" or "F"')
    dims = dims if order == "C" else dims[::-1]
    strides = onp.cumprod((1,) + tuple(dims[::-1]))[::-1][1:]
    return strides if order == "C" else strides[::-1]


def unravel_index(indices, shape, order="C"):
    """The coordinates in an array of ``shape`` of flat ``indices`` (clipped to range)."""
    indices = to_tensor(indices)
    shape = (shape,) if isinstance(shape, builtins.int) else tuple(shape)
    total = builtins.int(onp.prod(shape))
    indices = ops.clip_by_value(indices, -total, total - 1)
    indices = ops.select(indices < 0, indices + total, indices)
    strides = _strides(shape, order)
    out = tuple(ops.floor_mod(ops.floor_div(indices, builtins.int(s)), d)
                for s, d in zip(strides, shape))
    if indices.ndim == 0 and len(out) == 1:
        return ops.reshape(out[0], (-1,))
    return out


def ravel_multi_index(multi_index, dims, mode="clip", order="C") -> Tensor:
    """Flat indices of the coordinate arrays ``multi_index`` in an array of ``dims``
    (Float32, as MindSpore's)."""
    dims = (dims,) if isinstance(dims, builtins.int) else tuple(dims)
    idx = to_tensor(multi_index)
    if idx.dtype.np_dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    if idx.shape[0] != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    rows = [_index_mode(idx[i], d, mode) for i, d in enumerate(dims)]
    strides = _strides(dims, order)
    out = None
    for r, s in zip(rows, strides):
        term = ops.cast(r, mstype.float32) * float(s)
        out = term if out is None else out + term
    return out


def argwhere(a) -> Tensor:
    """Coordinates of the non-zero elements (one row each; a run-time length)."""
    a = to_tensor(a)
    return ops.cast(ops.argwhere(a), mstype.int32) if a.ndim else ops.argwhere(
        ops.reshape(a, (1,)))[:, :0]


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """Sorted values found in both arrays (a run-time length); with ``return_indices``
    also their first positions in each."""
    for flag in (assume_unique, return_indices):
        if not isinstance(flag, builtins.bool):
            raise TypeError(f"For 'intersect1d', assume_unique and return_indices must be "
                            f"bool, but got {type(flag).__name__}.")
    a, b = promote(ravel(ar1), ravel(ar2))
    if not assume_unique:
        a_vals = ops.sort(ops.unique(a)[0])[0]
        b_vals = ops.sort(ops.unique(b)[0])[0]
    else:
        a_vals, b_vals = a, b
    both = ops.reduce_any(ops.equal(ops.reshape(a_vals, (-1, 1)),
                                    ops.reshape(b_vals, (1, -1))), (1,))
    values = ops.masked_select(a_vals, both)
    if not assume_unique:
        values = ops.sort(values)[0]
    if not return_indices:
        return values
    return values, _first_position(a, values), _first_position(b, values)


def _first_position(arr: Tensor, values: Tensor) -> Tensor:
    hits = ops.equal(ops.reshape(values, (-1, 1)), ops.reshape(arr, (1, -1)))
    return ops.cast(ops.argmax(ops.cast(hits, mstype.int32), 1), mstype.int32)


def size(a, axis=None) -> builtins.int:
    a = to_tensor(a)
    if axis is None:
        return a.size
    return a.shape[norm_axis(axis, a.ndim)]


def shape(a) -> tuple:
    return tuple(to_tensor(a).shape)


def ndim(a) -> builtins.int:
    return to_tensor(a).ndim


def array_str(a) -> str:
    """The string MindSpore prints for the Tensor ``a``."""
    if not isinstance(a, Tensor):
        raise TypeError("Expect input to be tensor.")
    return a.__str__()


def where(condition, x=None, y=None) -> Tensor:
    """``x`` where ``condition`` holds, else ``y`` (broadcast together)."""
    if x is None and y is None:
        return ops.nonzero(to_tensor(condition), as_tuple=True)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    condition = to_tensor(condition)
    if condition.dtype != mstype.bool_:
        condition = condition.astype(mstype.bool_)  # as MindSpore, any dtype is a truth value
    x, y = promote(x, y)
    shape = tuple(onp.broadcast_shapes(tuple(condition.shape), tuple(x.shape),
                                       tuple(y.shape)))
    return ops.select(ops.broadcast_to(condition, shape), ops.broadcast_to(x, shape),
                      ops.broadcast_to(y, shape))


def tile(a, reps) -> Tensor:
    a = to_tensor(a)
    reps = (reps,) if isinstance(reps, builtins.int) else tuple(reps)
    if len(reps) < a.ndim:
        reps = (1,) * (a.ndim - len(reps)) + reps
    elif len(reps) > a.ndim:
        a = ops.reshape(a, (1,) * (len(reps) - a.ndim) + tuple(a.shape))
    return ops.tile(a, reps)


def broadcast_to(array, shape) -> Tensor:
    return ops.broadcast_to(to_tensor(array), (shape,) if isinstance(shape, builtins.int)
                            else tuple(shape))


def unique(x, return_inverse: bool = False):
    """The distinct elements of ``x`` (flattened) in the order they first appear, as
    MindSpore's (its ``Unique``, not sorted); with ``return_inverse`` also each element's
    position in them. The length is known only when it runs (a dynamic shape in graphs)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"expect Tensor, but got {type(x)}")
    out, inverse = ops.unique(ops.reshape(x, (-1,)) if x.ndim != 1 else x)
    return (out, inverse) if return_inverse else out


