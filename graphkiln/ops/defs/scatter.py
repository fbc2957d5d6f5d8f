"""Scatter and gather by index: ``Scatter*`` and ``ScatterNd*`` update a weight in place
(memory effects, ordered like ``Assign``), ``TensorScatter*`` and ``ScatterNd`` return a new
tensor, ``GatherNd`` reads by N-d index.

Shapes follow MindSpore: ``Scatter<Op>(x, indices, updates)`` needs
``updates.shape == indices.shape + x.shape[1:]``; the N-d forms index with the last axis of
``indices`` and need ``updates.shape == indices.shape[:-1] + x.shape[indices.shape[-1]:]``.
Repeated indices accumulate for add/sub/mul/div/max/min; for update the last write wins.
``ScatterNdDiv`` of integers truncates toward zero and saturates a division by zero (to the
dtype's largest or smallest value by the sign of the dividend; 0 / 0 is 0), as MindSpore's
CPU kernel.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractRef, AbstractTensor
from ...ir.primitive import MEM_EFFECT, NO_EFFECT, OpDef
from ._infer import (
    ALL,
    INDEX_TYPES,
    NUMBERS,
    const_shape,
    describe,
    quiet,
    require_dtype,
    shapes_match,
    tensor_type,
)


def _require_ref(name: str, ref) -> None:
    if not isinstance(ref, AbstractRef):
        raise TypeError(f"For '{name}', the 'input_x' must be a Parameter, but got "
                        f"{describe(ref)}. Scatter updates write into a weight "
                        f"(ms.Parameter) in place; use TensorScatter* for a plain Tensor.")


def _indices(name: str, indices) -> None:
    ti = tensor_type(name, "indices", indices)
    if ti not in INDEX_TYPES:
        raise TypeError(f"For '{name}', the 'indices' must be a Tensor of type int32 or int64 "
                        f"(a type of {{Tensor[Int32], Tensor[Int64]}}), but got "
                        f"Tensor[{ti}].")


def _same_dtype(name: str, x, updates) -> None:
    tu = tensor_type(name, "updates", updates)
    if tu is not x.dtype:
        raise TypeError(f"For '{name}', the 'updates' must have the dtype of 'input_x' "
                        f"({x.dtype}), but got {tu}.")


def _check_rows(name: str, x, indices, updates) -> None:
    want = tuple(indices.shape) + tuple(x.shape[1:])
    if not shapes_match(tuple(updates.shape), want):
        raise ValueError(f"For '{name}', updates_shape = indices_shape + input_x_shape[1:], "
                         f"but got input_x_shape: {tuple(x.shape)}, indices_shape: "
                         f"{tuple(indices.shape)}, updates_shape: {tuple(updates.shape)}.")


def _check_nd(name: str, x, indices, updates) -> None:
    if not indices.shape:
        raise ValueError(f"For '{name}', the 'indices' must have at least 1 dimension.")
    depth = indices.shape[-1]
    if depth > len(x.shape):
        raise ValueError(f"For '{name}', the last dimension of 'indices' ({depth}) must not "
                         f"exceed the rank of 'input_x' ({len(x.shape)}).")
    if depth < 0 or tuple(updates.shape) == (-2,):  # known only at run time
        return
    want = tuple(indices.shape[:-1]) + tuple(x.shape[depth:])
    if not shapes_match(tuple(updates.shape), want):
        raise ValueError(f"For '{name}', updates_shape = indices_shape[:-1] + "
                         f"input_x_shape[indices_shape[-1]:], but got input_x_shape: "
                         f"{tuple(x.shape)}, indices_shape: {tuple(indices.shape)}, "
                         f"updates_shape: {tuple(updates.shape)}.")


def _infer_for(name: str, nd: bool, in_place: bool):
    allowed = ALL if name.endswith("Update") else NUMBERS

    def infer(x, indices, updates, u=None, use_locking=False):
        if in_place:
            _require_ref(name, x)
        t = tensor_type(name, "input_x", x)
        require_dtype(name, "input_x", t, allowed)
        _indices(name, indices)
        _same_dtype(name, x, updates)
        (_check_nd if nd else _check_rows)(name, x, indices, updates)
        return AbstractTensor(t, x.shape)
    return infer


# MindSpore checks these ops' indices before its kernel runs (ValueError); the other
# scatters' kernels report them (RuntimeError)
_CHECKED_FIRST = ("ScatterNdUpdate", "TensorScatterUpdate")


def _rows(name: str, indices: np.ndarray, dim: int) -> np.ndarray:
    if indices.size and (indices.min() < 0 or indices.max() >= dim):
        bad = indices[(indices < 0) | (indices >= dim)].flat[0]
        error = ValueError if name in _CHECKED_FIRST else RuntimeError
        raise error(f"For '{name}', the 'indices' must be in the range [0, {dim}), but got "
                    f"{int(bad)}.")
    return indices


def _nd_index(name: str, x: np.ndarray, indices: np.ndarray) -> tuple:
    depth = indices.shape[-1]
    for k in range(depth):
        _rows(name, indices[..., k], x.shape[k])
    return tuple(indices[..., k] for k in range(depth))


# how each scatter combines an update into the target, for repeated indices too
_COMBINE = {
    "Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Max": np.maximum,
    "Min": np.minimum,
}


def _truncating_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer ``a / b`` rounded toward zero; by zero: the dtype's extreme of ``a``'s sign."""
    info = np.iinfo(a.dtype)
    safe = np.where(b == 0, 1, b)
    q = a // safe
    q = q + ((a % safe != 0) & ((a < 0) != (safe < 0)))
    by_zero = np.where(a > 0, info.max, np.where(a < 0, info.min, 0))
    return np.where(b == 0, by_zero, q).astype(a.dtype)


def _divide_truncating_at(target: np.ndarray, where: tuple, updates: np.ndarray) -> None:
    """``target[where] = trunc(target[where] / updates)``, one update after another."""
    rows = np.broadcast_arrays(*where)
    for k in np.ndindex(rows[0].shape):
        at = tuple(int(r[k]) for r in rows)
        target[at] = _truncating_divide(target[at], updates[k])


def _apply(kind: str, target: np.ndarray, where: tuple, updates: np.ndarray) -> None:
    if kind == "NdDiv" and target.dtype.kind in "iu":
        _divide_truncating_at(target, where, updates)
    elif kind == "NdDiv":
        np.divide.at(target, where, updates)
    elif kind == "Update":
        target[where] = updates
    elif kind == "Div":
        np.divide.at(target, where, updates) if target.dtype.kind == "f" else \
            np.floor_divide.at(target, where, updates)
    else:
        _COMBINE[kind].at(target, where, updates)


def _kernel_for(name: str, kind: str, nd: bool, in_place: bool):
    @quiet
    def kernel(x, indices, updates, u=None, use_locking=False):
        target = x if in_place else np.array(x, copy=True)
        indices = np.asarray(indices)
        where = _nd_index(name, target, indices) if nd else \
            (_rows(name, indices, target.shape[0]),)
        _apply("NdDiv" if nd and in_place and kind == "Div" else kind, target, where,
               np.asarray(updates, target.dtype))
        return target
    kernel.__name__ = f"{name}_kernel"
    return kernel


def _scatter(name: str, kind: str, nd: bool, in_place: bool) -> OpDef:
    attrs = {"use_locking": False} if in_place else None
    return OpDef(name, _infer_for(name, nd, in_place), _kernel_for(name, kind, nd, in_place),
                 effect=MEM_EFFECT if in_place else NO_EFFECT, attrs=attrs)


IN_PLACE = {f"Scatter{k}": _scatter(f"Scatter{k}", k, False, True)
            for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")}
IN_PLACE.update({f"ScatterNd{k}": _scatter(f"ScatterNd{k}", k, True, True)
                 for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")})
FUNCTIONAL = {f"TensorScatter{k}": _scatter(f"TensorScatter{k}", k, True, False)
              for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")}


# ------------------------------------------------------------------ InplaceIndexAdd

def _inplace_index_add_infer(var, indices, updates, u=None, axis=0):
    name = "InplaceIndexAdd"
    if not isinstance(var, AbstractRef):
        raise TypeError(f"For '{name}', the 'var' must be a Parameter or a Tensor written in "
                        f"place, but got {describe(var)}.")
    t = tensor_type(name, "var", var)
    require_dtype(name, "var", t, NUMBERS)
    _indices(name, indices)
    _same_dtype(name, var, updates)
    rank = len(var.shape)
    if not -rank <= axis < max(rank, 1):
        raise ValueError(f"For '{name}', the 'axis' must be in the range [{-rank}, {rank}), "
                         f"but got {axis}.")
    axis %= max(rank, 1)
    if len(indices.shape) != 1:
        raise ValueError(f"For '{name}', the 'indices' must be 1-D, but got shape "
                         f"{tuple(indices.shape)}.")
    want = tuple(var.shape[:axis]) + tuple(indices.shape) + tuple(var.shape[axis + 1:])
    if tuple(updates.shape) != want:
        raise ValueError(f"For '{name}', the 'updates' must have the shape of 'var' with "
                         f"len(indices) at 'axis' {want}, but got {tuple(updates.shape)}.")
    return AbstractTensor(t, var.shape)


@quiet
def _inplace_index_add(var, indices, updates, u=None, axis=0):
    axis %= max(var.ndim, 1)
    rows = _rows("InplaceIndexAdd", np.asarray(indices), var.shape[axis])
    np.add.at(np.moveaxis(var, axis, 0), rows, np.moveaxis(np.asarray(updates, var.dtype),
                                                           axis, 0))
    return var


# ``var[..., indices[i], ...] += updates[..., i, ...]`` along ``axis``, written in place
InplaceIndexAdd = OpDef("InplaceIndexAdd", _inplace_index_add_infer, _inplace_index_add,
                        effect=MEM_EFFECT, attrs={"axis": 0})


# ------------------------------------------------------------------ ScatterNd, GatherNd

def _scatter_nd_infer(indices, updates, shape):
    _indices("ScatterNd", indices)
    if not indices.shape:  # MindSpore's error type, checked before 'shape'
        raise RuntimeError("For 'ScatterNd', the 'indices' must not be a scalar (it holds "
                           "index rows).")
    t = tensor_type("ScatterNd", "updates", updates)
    dims = const_shape("ScatterNd", "shape", shape)
    x = AbstractTensor(t, dims)
    _check_nd("ScatterNd", x, indices, updates)
    return x


@quiet
def _scatter_nd(indices, updates, shape):
    out = np.zeros(tuple(shape), np.asarray(updates).dtype)
    np.add.at(out, _nd_index("ScatterNd", out, np.asarray(indices)), updates)
    return out


ScatterNd = OpDef("ScatterNd", _scatter_nd_infer, _scatter_nd)


def _gather_nd_infer(x, indices):
    t = tensor_type("GatherNd", "input_x", x)
    _indices("GatherNd", indices)
    if not indices.shape:
        raise ValueError("For 'GatherNd', the 'indices' must have at least 1 dimension.")
    depth = indices.shape[-1]
    if depth < 0:
        raise ValueError(f"For 'GatherNd', the last dimension of 'indices' (the rank of the "
                         f"output) must be known when the graph is built, but 'indices' has "
                         f"the dynamic shape {list(indices.shape)}.")
    if depth > len(x.shape):
        raise ValueError(f"For 'GatherNd', the last dimension of 'indices' ({depth}) must not "
                         f"exceed the rank of 'input_x' ({len(x.shape)}).")
    return AbstractTensor(t, tuple(indices.shape[:-1]) + tuple(x.shape[depth:]))


def _gather_nd(x, indices):
    return np.asarray(x)[_nd_index("GatherNd", x, np.asarray(indices))]


GatherNd = OpDef("GatherNd", _gather_nd_infer, _gather_nd)
