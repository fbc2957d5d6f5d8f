"""Primitives that only backward rules need.

``GetitemGrad(dout, index, like=None, shape=...)`` is the adjoint of ``Getitem``: a zero
tensor of ``shape`` (with ``dout``'s dtype) into which ``dout`` is scatter-added at
``index``, so an element picked twice (``x[[0, 0]]``) receives both cotangents. A tensor
``like`` gives the shape instead, when the graph runs (an indexed tensor of dynamic shape).
``index`` is anything ``Getitem`` takes; the rules of ``Getitem`` and ``Gather`` are built
on it. Being linear in ``dout``, its own backward rule is a ``Getitem`` (in
``ops/rules/bprop.py``).

``ConcatGrad(dout, xs, axis=...)`` splits a ``Concat``'s cotangent into parts shaped like
its inputs ``xs``, whose sizes along ``axis`` it reads when the graph runs (inputs with
dynamic sizes there, where ``SplitV``'s constant sizes cannot say them).

``SumToLike(dout, like)`` sums a broadcast cotangent back to ``like``'s shape as the graph
runs: over leading axes and the axes where ``like`` has size 1 (a dynamic shape leaves
open at compile time whether broadcasting happened).

``ReluGrad(y_backprop, x)`` is MindSpore's ReLU backward: ``y_backprop`` where ``x`` (the
ReLU's output) is positive, else 0.

``DropoutGrad(dy, mask, keep_prob=...)`` is MindSpore's Dropout backward
(``_grad_ops.DropoutGrad``): ``dy * mask / keep_prob`` in ``dy``'s dtype (float16 scaled in
float32, as MindSpore's CPU kernel).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OUT_SEPARATE, OpDef
from ._infer import (
    ALL,
    describe,
    keep_where,
    merge_dims,
    norm_axis,
    quiet,
    require_dtype,
    same_type,
    shapes_match,
    tensor_type,
    tensors_of,
)
from .array import _index_items, _index_shape, bool_positions, index_text


def _getitem_grad_infer(dout, index, like=None, shape=()):
    t = tensor_type("GetitemGrad", "dout", dout)
    target = tuple(shape) if like is None or isinstance(like, AbstractScalar) else \
        tuple(like.shape)
    try:
        want = _index_shape(target, _index_items(index))
    except (IndexError, ValueError) as e:
        raise type(e)(f"For 'GetitemGrad', the index {index_text(index)} is invalid for a "
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
def _getitem_grad(dout, index, like=None, shape=(), out=None):
    """Into ``out`` when given (it must not overlap ``dout``)."""
    dout = np.asarray(dout)
    if out is None:
        out = np.zeros(tuple(shape) if like is None else np.shape(like), dout.dtype)
    else:
        out.fill(0)
    if all(_is_basic(i) for i in (index if isinstance(index, tuple) else (index,))):
        out[index] += dout  # no element is picked twice: a plain strided add
        return out
    rows = index[0] if isinstance(index, tuple) and len(index) == 1 else index
    rows = np.asarray(rows) if isinstance(rows, list) else rows
    if isinstance(rows, np.ndarray) and rows.dtype.kind in "iu" and out.ndim:
        return _add_rows(out, rows, dout)
    if isinstance(index, list):
        index = np.asarray(index)
    np.add.at(out, bool_positions(index), dout)
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


GetitemGrad = OpDef("GetitemGrad", _getitem_grad_infer, _getitem_grad, attrs={"shape": ()},
                    out_buffer=OUT_SEPARATE)


def _concat_grad_infer(dout, xs, axis=0):
    t = tensor_type("ConcatGrad", "dout", dout)
    ax = norm_axis("ConcatGrad", axis, dout.ndim)
    parts = []
    for i, e in enumerate(tensors_of("ConcatGrad", xs)):
        if e.ndim != dout.ndim:
            raise ValueError(f"For 'ConcatGrad', 'xs[{i}]' must have the rank of 'dout' "
                             f"({dout.ndim}), but got shape {list(e.shape)}.")
        parts.append(AbstractTensor(t, tuple(n if d == ax else merge_dims(n, m) for d, (n, m)
                                             in enumerate(zip(e.shape, dout.shape)))))
    return AbstractTuple(parts)


def _concat_grad(dout, xs, axis=0):
    ends = np.cumsum([np.shape(x)[axis] for x in xs])[:-1]
    return tuple(np.ascontiguousarray(p) for p in np.split(np.asarray(dout), ends, axis))


ConcatGrad = OpDef("ConcatGrad", _concat_grad_infer, _concat_grad, attrs={"axis": 0})


def _sum_to_like_infer(dout, like):
    t = tensor_type("SumToLike", "dout", dout)
    tensor_type("SumToLike", "like", like)
    if like.ndim > dout.ndim:
        raise ValueError(f"For 'SumToLike', 'like' {list(like.shape)} must not have a higher "
                         f"rank than 'dout' {list(dout.shape)}.")
    return AbstractTensor(t, like.shape)


def _sum_to_like(dout, like):
    dout, shape = np.asarray(dout), np.shape(like)
    if dout.shape == shape:
        return dout
    lead = dout.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and dout.shape[lead + i] != 1)
    return np.sum(dout, axis=axes, dtype=dout.dtype).reshape(shape)


SumToLike = OpDef("SumToLike", _sum_to_like_infer, _sum_to_like)


def _masked_grad_infer(name: str):
    """Inference of ``name(y_backprop, x)``: one dtype, one shape."""
    def infer(dy, x):
        t = same_type(name, {"y_backprop": dy, "x": x})
        require_dtype(name, "y_backprop", t, ALL)
        if not shapes_match(tuple(dy.shape), tuple(x.shape)):
            raise ValueError(f"For '{name}', the shape of 'y_backprop' must be equal to the "
                             f"shape of 'x' {list(x.shape)}, but got {list(dy.shape)}.")
        return AbstractTensor(t, x.shape)
    return infer


_relu_grad_infer = _masked_grad_infer("ReluGrad")


def _relu_grad_scratch(dy, x):
    """The mask ``x > 0``."""
    return [(tuple(x.shape), mstype.bool_)]


@quiet
def _relu_grad(dy, x, out=None, scratch=None):
    """``dy`` where ``x > 0``, else +0 (the bits of ``np.where(x > 0, dy, 0)``, see
    ``keep_where``). Into ``out`` when given (it must not overlap ``dy``), with the mask in
    ``scratch[0]``."""
    positive = np.greater(x, 0, out=scratch[0] if scratch else None)
    return keep_where(np.asarray(dy), positive, out)


ReluGrad = OpDef("ReluGrad", _relu_grad_infer, _relu_grad, out_buffer=OUT_SEPARATE,
                 scratch=_relu_grad_scratch)


@quiet
def _relu6_grad(dy, x):
    """``y_backprop`` where ``0 < x <= 6`` (MindSpore 2.10 passes the gradient at 6)."""
    dy = np.asarray(dy)
    inside = np.logical_and(np.greater(x, 0), np.less_equal(x, 6))
    return np.where(inside, dy, np.zeros((), dy.dtype))


# ReLU6's backward as MindSpore's grad primitive (``_grad_ops.ReLU6Grad(y_backprop, x)``)
ReLU6Grad = OpDef("ReLU6Grad", _masked_grad_infer("ReLU6Grad"), _relu6_grad)


_DROPOUT_GRAD_TYPES = (mstype.float16, mstype.float32, mstype.float64)


def _check_keep_prob(attrs: dict) -> None:
    kp = attrs["keep_prob"]
    if not isinstance(kp, float):
        raise TypeError(f"For 'DropoutGrad', the 'keep_prob' must be 'float',  but got "
                        f"'{type(kp).__name__}'.")
    if not 0 < kp <= 1:
        raise ValueError(f"For 'DropoutGrad', the 'keep_prob' must be in range of (0, 1], but "
                         f"got {kp} with type 'float'.")


def _dropout_grad_infer(dy, mask, keep_prob=0.5):
    for arg, a in (("x", dy), ("mask", mask)):
        if not isinstance(a, AbstractTensor):
            raise TypeError(f"For Primitive[DropoutGrad], the type of input argument[{arg}] "
                            f"must be Tensor but got {describe(a)}.")
        if a.dtype not in _DROPOUT_GRAD_TYPES:
            raise TypeError(f"For primitive[DropoutGrad], the input argument[{arg}] must be a "
                            f"type of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, "
                            f"but got {describe(a)}.")
    if mask.ndim != dy.ndim:
        raise RuntimeError(f"For 'DropoutGrad', the dimension of 'input' and 'input_mask' must "
                           f"be the same, but got the dimension of 'input': {dy.ndim}, and the "
                           f"dimension of 'input_mask': {mask.ndim}")
    # MindSpore reads the mask by flat index whatever its shape; a mismatch is refused here
    if not shapes_match(dy.shape, mask.shape):
        raise ValueError(f"For 'DropoutGrad', 'mask' must have the shape of 'dy' "
                         f"{list(dy.shape)}, but got {list(mask.shape)}.")
    return AbstractTensor(dy.dtype, dy.shape)


@quiet
def _dropout_grad(dy, mask, keep_prob=0.5):
    dy = np.asarray(dy)
    wide = np.float64 if dy.dtype == np.float64 else np.float32
    scale = wide(1) / wide(keep_prob)
    return (dy.astype(wide) * np.asarray(mask).astype(wide) * scale).astype(dy.dtype)


DropoutGrad = OpDef("DropoutGrad", _dropout_grad_infer, _dropout_grad,
                    attrs={"keep_prob": 0.5}, check_attrs=_check_keep_prob)
