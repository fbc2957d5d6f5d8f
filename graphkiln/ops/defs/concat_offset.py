"""Where each input starts in a concatenation: zeros but at the concatenation axis, where
it is the sum of the earlier inputs' sizes.

``ConcatOffset(N, axis)(x)`` (MindSpore's deprecated backward helper) reads the shapes of
the Tensors ``x``. ``ConcatOffsetV1(axis, x)``, as MindSpore's: ``x`` is a tuple of at least
two shapes (1-D int32 Tensors of one length) of Tensors concatenated along the run-time
``axis`` (a 0-D int32 Tensor); other dimensions must agree and ``axis`` be in ``[0, rank)``
(its kernel's RuntimeError otherwise)."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import describe, dims_match, norm_axis, tensors_of

_NAME = "ConcatOffsetV1"


def _infer(axis, x):
    if not isinstance(axis, AbstractTensor) or axis.dtype is not mstype.int32:
        raise TypeError(f"For primitive[{_NAME}], the input argument[axis] must be a type of "
                        f"{{Tensor[Int32]}}, but got {describe(axis)}.")
    if not isinstance(x, AbstractTuple) or not all(isinstance(e, AbstractTensor)
                                                   for e in x.elements):
        raise TypeError(f"For primitive[{_NAME}], the input x must be a tuple of Tensors, but "
                        f"got {describe(x)}.")
    items = x.elements
    if len(items) < 2:
        raise ValueError(f"For primitive[{_NAME}], the input x tensor num must be greater than "
                         f"or equal to 2, but got {len(items)}.")
    if any(e.dtype is not items[0].dtype for e in items) or items[0].dtype is not mstype.int32:
        raise TypeError(f"For primitive[{_NAME}], the input type must be same.")
    n = items[0].shape[0] if len(items[0].shape) == 1 else -1
    for k, e in enumerate(items[1:], 1):
        if len(e.shape) != 1 or not dims_match(e.shape[0], n):
            raise ValueError(f"For '{_NAME}', tensor{k} element num in input x should be {n}, "
                             f"which is element num of tensor0, but got {list(e.shape)}.")
    return AbstractTuple([AbstractTensor(mstype.int32, (n,)) for _ in items])


def _kernel(axis, x):
    shapes = np.stack([np.asarray(e) for e in x])
    ax = int(np.asarray(axis))
    rank = shapes.shape[1]
    if not 0 <= ax < rank:
        raise RuntimeError(f"For '{_NAME}', the 'axis' must be in [0, {rank}), but got {ax}.")
    others = np.delete(shapes, ax, axis=1)
    if (others != others[0]).any():
        raise RuntimeError(f"For '{_NAME}', the shapes must agree but at 'axis' ({ax}), but "
                           f"got {shapes.tolist()}.")
    return tuple(_offsets(shapes, ax).astype(np.int32))


def _offsets(shapes: np.ndarray, axis: int) -> np.ndarray:
    """Row ``i``: where the ``i``-th of the ``shapes`` starts along ``axis``, zeros on the
    other axes."""
    out = np.zeros_like(shapes, dtype=np.int64)
    out[1:, axis] = np.cumsum(shapes[:-1, axis])
    return out


# (axis, shapes) -> each shape's offset in the concatenation along axis
ConcatOffsetV1 = OpDef(_NAME, _infer, _kernel, differentiable=False)


def _concat_offset_infer(xs, N=2, axis=0):  # noqa: N803 (MindSpore's attribute name)
    items = tensors_of("ConcatOffset", xs)
    rank = items[0].ndim
    if any(a.ndim != rank for a in items):
        raise ValueError(f"For 'ConcatOffset', all inputs must have the same rank, but got "
                         f"shapes {[list(a.shape) for a in items]}.")
    if rank == 0:  # MindSpore's kernel raises this RuntimeError
        raise RuntimeError(f"For 'ConcatOffset', 'axis' must be in range [-0, 0), but got "
                           f"{axis}: 0-D Tensors have no axis to concatenate along.")
    norm_axis("ConcatOffset", axis, rank)
    return AbstractTensor(mstype.int64, (len(items), rank))


def _concat_offset(xs, N=2, axis=0):  # noqa: N803
    """MindSpore gives a tuple of tuples when the shapes are static and this int64 Tensor
    when they are not; here it is always the Tensor."""
    shapes = np.array([np.shape(x) for x in xs], np.int64)
    return _offsets(shapes, axis % shapes.shape[1])


ConcatOffset = OpDef("ConcatOffset", _concat_offset_infer, _concat_offset,
                     attrs={"N": 2, "axis": 0}, differentiable=False)
