"""Primitives whose output shape depends on the input values: ``NonZero``,
``MaskedSelect`` (and its gradient), ``Unique`` and ``ListDiff``. Inside a graph their output
has an unknown leading dimension (``-1``), known when the graph runs; eagerly it is the size
computed. ``UniqueWithPad`` is ``Unique`` padded back to its input's size."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, broadcast_shapes, require_dtype, tensor_type


def _nonzero_infer(x):
    tensor_type("NonZero", "input", x)
    if not x.shape:
        raise ValueError("For 'NonZero', the rank of 'input' must be at least 1, but got a "
                         "0-D Tensor.")
    return AbstractTensor(mstype.int64, (UNKNOWN_DIM, len(x.shape)))


# the indices of the non-zero elements, one row per element (``ops.nonzero``)
NonZero = OpDef("NonZero", _nonzero_infer,
                lambda x: np.argwhere(np.asarray(x)).astype(np.int64), differentiable=False)


def _masked_select_infer(x, mask):
    t = tensor_type("MaskedSelect", "input", x)
    tm = tensor_type("MaskedSelect", "mask", mask)
    if tm is not mstype.bool_:
        raise RuntimeError(f"For 'MaskedSelect', the 'mask' must be a Tensor[Bool], but "
                           f"got Tensor[{tm}].")  # MindSpore: its kernel refuses it
    broadcast_shapes("MaskedSelect", x.shape, mask.shape, "input", "mask")
    return AbstractTensor(t, (UNKNOWN_DIM,))


def _masked_select(x, mask):
    xb, mb = np.broadcast_arrays(np.asarray(x), np.asarray(mask))
    return xb[mb]


# the elements of ``x`` (broadcast with ``mask``) where ``mask`` is True, as a 1-D Tensor
MaskedSelect = OpDef("MaskedSelect", _masked_select_infer, _masked_select)


def _masked_select_grad_infer(x, mask, dout):
    t = tensor_type("MaskedSelectGrad", "input", x)
    tensor_type("MaskedSelectGrad", "mask", mask)
    tensor_type("MaskedSelectGrad", "dout", dout)
    return AbstractTensor(t, x.shape)


def _masked_select_grad(x, mask, dout):
    x = np.asarray(x)
    shape = np.broadcast_shapes(x.shape, np.shape(mask))
    full = np.zeros(shape, x.dtype)
    full[np.broadcast_to(mask, shape)] = dout
    lead = len(shape) - x.ndim
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(x.shape)
                                      if d == 1 and shape[i + lead] != 1)
    return np.sum(full, axis=axes, dtype=x.dtype).reshape(x.shape) if axes else full


# the gradient of MaskedSelect for ``x``: ``dout`` scattered back where ``mask`` is True
MaskedSelectGrad = OpDef("MaskedSelectGrad", _masked_select_grad_infer, _masked_select_grad)


def _unique_infer(x):
    t = tensor_type("Unique", "input_x", x)
    return AbstractTuple([AbstractTensor(t, (UNKNOWN_DIM,)),
                          AbstractTensor(mstype.int32, x.shape)])


def _unique(x):
    """The distinct elements in the order they first appear (MindSpore's CPU kernel) and,
    for every element, the position of its value among them."""
    x = np.asarray(x)
    values, first, inverse = np.unique(x.reshape(-1), return_index=True,
                                       return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return values[order], rank[inverse.reshape(-1)].astype(np.int32).reshape(x.shape)


Unique = OpDef("Unique", _unique_infer, _unique, differentiable=False)


def _unique_with_pad_infer(x, pad_num):
    t = tensor_type("UniqueWithPad", "x", x)
    require_dtype("UniqueWithPad", "x", t, (mstype.int32, mstype.int64, mstype.float32))
    if len(x.shape) != 1:
        raise ValueError(f"For 'UniqueWithPad', the 'x' must be 1-D, but got shape "
                         f"{list(x.shape)}.")
    index = mstype.int64 if t is mstype.int64 else mstype.int32
    return AbstractTuple([AbstractTensor(t, x.shape), AbstractTensor(index, x.shape)])


def _unique_with_pad(x, pad_num):
    values, index = _unique(x)
    x = np.asarray(x)
    padded = np.full(x.shape, pad_num, x.dtype)
    padded[:values.size] = values
    return padded, index.astype(np.int64 if x.dtype == np.int64 else np.int32)


# (x, pad_num) -> (x's distinct values in order of first appearance padded with pad_num to
# x's length, each element's position among them: int64 for an int64 x, else int32)
UniqueWithPad = OpDef("UniqueWithPad", _unique_with_pad_infer, _unique_with_pad,
                      differentiable=False)


_LIST_DIFF_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.int16, mstype.int32,
                    mstype.int64, mstype.int8, mstype.uint16, mstype.uint8)


def _check_list_diff_attrs(attrs: dict) -> None:
    if attrs["out_idx"] not in (mstype.int32, mstype.int64):
        raise TypeError(f"For 'ListDiff', the 'out_idx' should be in : [mindspore.int32, "
                        f"mindspore.int64], but got {attrs['out_idx']}.")


def _list_diff_infer(x, y, out_idx=mstype.int32):
    tx, ty = tensor_type("ListDiff", "x", x), tensor_type("ListDiff", "y", y)
    if tx not in _LIST_DIFF_TYPES:
        allowed = ", ".join(f"Tensor[{t}]" for t in _LIST_DIFF_TYPES)
        raise TypeError(f"For primitive[ListDiff], the input argument[x] must be a type of "
                        f"{{{allowed}}}, but got Tensor[{tx}].")
    if tx is not ty:
        raise TypeError(f"For ListDiff, type of 'x' and 'y' should be same. But get x[{tx}], "
                        f"y[{ty}].")
    if len(x.shape) != 1 or len(y.shape) != 1:
        raise ValueError(f"For ListDiff, input x, y should be 1D, but get x dims = "
                         f"{len(x.shape)}, y dims = {len(y.shape)}.")
    _check_list_diff_attrs({"out_idx": out_idx})
    return AbstractTuple([AbstractTensor(tx, (UNKNOWN_DIM,)),
                          AbstractTensor(out_idx, (UNKNOWN_DIM,))])


def _list_diff(x, y, out_idx=mstype.int32):
    keep = np.flatnonzero(~np.isin(np.asarray(x), np.asarray(y)))
    return np.asarray(x)[keep], keep.astype(out_idx.np_dtype)


# (x, y) -> (the elements of 1-D x not in y, in x's order; their positions in x)
ListDiff = OpDef("ListDiff", _list_diff_infer, _list_diff, differentiable=False,
                 attrs={"out_idx": mstype.int32}, check_attrs=_check_list_diff_attrs)
