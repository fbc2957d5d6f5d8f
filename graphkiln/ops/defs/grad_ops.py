"""Primitives that only backward rules need.

``GetitemGrad(dout, index, shape=...)`` is the adjoint of ``Getitem``: a zero tensor of
``shape`` (with ``dout``'s dtype) into which ``dout`` is scatter-added at ``index``, so an
element picked twice (``x[[0, 0]]``) receives both cotangents. ``index`` is anything
``Getitem`` takes; the rules of ``Getitem`` and ``Gather`` are built on it. Being linear in
``dout``, its own backward rule is a ``Getitem`` (in ``ops/rules/bprop.py``).

``ReluGrad(y_backprop, x)`` is MindSpore's ReLU backward: ``y_backprop`` where ``x`` (the
ReLU's output) is positive, else 0.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OUT_SEPARATE, OpDef
from ._infer import ALL, quiet, require_dtype, same_type, shapes_match, tensor_type
from .array import _index_items, _index_shape, index_text


def _getitem_grad_infer(dout, index, shape=()):
    t = tensor_type("GetitemGrad", "dout", dout)
    target = tuple(shape)
    try:
        want = _index_shape(target, _index_items(index))
    except IndexError as e:
        raise IndexError(f"For 'GetitemGrad', the index {index_text(index)} is invalid for a "
                         f"Tensor of shape {list(target)}: {e}.") from None
    if not shapes_match(tuple(dout.shape), want):
        raise ValueError(f"For 'GetitemGrad', 'dout' must have the shape {list(want)} that "
                         f"indexing a Tensor of shape {list(target)} with "
                         f"{index_text(index)} gives, but got {list(dout.shape)}.")
    return AbstractTensor(t, target)


def _is_basic(item) -> bool:
    """An index item that picks each element at most once (int, slice, None, ...)."""
    return item is None or item is Ellipsis or isinstance(item, slice) or (
        isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)))


@quiet
def _getitem_grad(dout, index, shape=()):
    dout = np.asarray(dout)
    out = np.zeros(tuple(shape), dout.dtype)
    if all(_is_basic(i) for i in (index if isinstance(index, tuple) else (index,))):
        out[index] += dout  # no element is picked twice: a plain strided add
        return out
    rows = index[0] if isinstance(index, tuple) and len(index) == 1 else index
    rows = np.asarray(rows) if isinstance(rows, list) else rows
    if isinstance(rows, np.ndarray) and rows.dtype.kind in "iu" and out.ndim:
        return _add_rows(out, rows, dout)
    if isinstance(index, list):
        index = np.asarray(index)
    np.add.at(out, index, dout)
    return out


def _add_rows(out: np.ndarray, index: np.ndarray, dout: np.ndarray) -> np.ndarray:
    """``np.add.at(out, index, dout)`` for integer indices on axis 0, bitwise the same (a
    row picked k times gets its cotangents added in order) at a fraction of the cost: round
    r adds every row's r-th occurrence with one fancy-index add (no duplicates in a
    round)."""
    n = out.shape[0]
    flat = index.reshape(-1).astype(np.intp, copy=False)
    flat = np.where(flat < 0, flat + n, flat)  # -1 and n-1 are the same row
    rows = dout.reshape((flat.size,) + out.shape[1:])
    order = np.argsort(flat, kind="stable")
    ranked = flat[order]
    first = np.ones(ranked.size, bool)  # where a new row's run starts, in sorted order
    np.not_equal(ranked[1:], ranked[:-1], out=first[1:])
    occurrence = np.empty(flat.size, np.intp)
    occurrence[order] = np.arange(flat.size) - np.flatnonzero(first)[np.cumsum(first) - 1]
    for r in range(int(occurrence.max()) + 1 if flat.size else 0):
        picked = np.flatnonzero(occurrence == r)
        out[flat[picked]] += rows[picked]
    return out


GetitemGrad = OpDef("GetitemGrad", _getitem_grad_infer, _getitem_grad, attrs={"shape": ()})


def _relu_grad_infer(dy, x):
    t = same_type("ReluGrad", {"y_backprop": dy, "x": x})
    require_dtype("ReluGrad", "y_backprop", t, ALL)
    if tuple(dy.shape) != tuple(x.shape):
        raise ValueError(f"For 'ReluGrad', the shape of 'y_backprop' must be equal to the "
                         f"shape of 'x' {list(x.shape)}, but got {list(dy.shape)}.")
    return AbstractTensor(t, x.shape)


@quiet
def _relu_grad(dy, x, out=None):
    """Floats keep their bits where ``x > 0`` by an AND with an all-ones integer mask (the
    same result as ``np.where(x > 0, dy, 0)``, +0 elsewhere, at a fraction of its cost).
    Into ``out`` when given (it must not overlap ``dy``)."""
    dy, positive = np.asarray(dy), np.asarray(np.greater(x, 0))
    if dy.dtype.kind != "f":
        return np.asarray(np.multiply(dy, positive, out=out, dtype=dy.dtype))
    bits = np.empty(positive.shape, f"i{dy.dtype.itemsize}") if out is None else \
        out.view(f"i{dy.dtype.itemsize}")
    np.negative(positive.view(np.int8), out=bits, dtype=bits.dtype)  # -1: every bit set
    return np.bitwise_and(dy.view(bits.dtype), bits, out=bits).view(dy.dtype)


ReluGrad = OpDef("ReluGrad", _relu_grad_infer, _relu_grad, out_buffer=OUT_SEPARATE)
