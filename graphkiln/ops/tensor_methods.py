"""Tensor operators and methods (``x + y``, ``x.sum()``...), all routed through
``ops.functional``; attached to :class:`Tensor` when the ops package is imported (the
common layer, below the ops, defines the data holder only)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor


def install() -> None:
    """Attach the operators and methods to :class:`Tensor`."""
    def binop(fn):
        return lambda self, other: fn(self, other)

    def rbinop(fn):
        return lambda self, other: fn(other, self)

    for name, fn in [("add", F.add), ("sub", F.sub), ("mul", F.mul), ("truediv", F.div),
                     ("floordiv", F.floor_div), ("mod", F.mod), ("pow", F.pow),
                     ("matmul", F.matmul)]:
        setattr(Tensor, f"__{name}__", binop(fn))
        setattr(Tensor, f"__r{name}__", rbinop(fn))
    for name, fn in [("and", F.logical_and), ("or", F.logical_or),
                     ("xor", F.logical_xor)]:
        setattr(Tensor, f"__{name}__", binop(fn))
        setattr(Tensor, f"__r{name}__", rbinop(fn))
    for name, fn in [("lt", F.less), ("le", F.less_equal), ("gt", F.greater),
                     ("ge", F.greater_equal), ("eq", F.equal), ("ne", F.not_equal)]:
        setattr(Tensor, f"__{name}__", binop(fn))
    Tensor.__neg__ = lambda self: F.neg(self)
    Tensor.__pos__ = lambda self: self
    Tensor.__abs__ = lambda self: F.abs(self)
    Tensor.__invert__ = lambda self: F.logical_not(self)
    Tensor.__getitem__ = lambda self, index: F.getitem(self, index)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return F.reshape(self, shape)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
        return F.transpose(self, axes)

    def reduction(fn):
        def method(self, axis=None, keepdims=False):
            return fn(self, axis if axis is not None else (), keepdims)
        return method

    Tensor.reshape = reshape
    Tensor.view = reshape
    Tensor.transpose = transpose
    Tensor.T = property(lambda self: transpose(self))
    Tensor.sum = reduction(F.reduce_sum)
    Tensor.mean = reduction(F.reduce_mean)
    Tensor.max = reduction(F.reduce_max)
    Tensor.min = reduction(F.reduce_min)
    Tensor.prod = reduction(F.reduce_prod)
    Tensor.astype = lambda self, dtype: F.cast(self, mstype.to_type(dtype))
    Tensor.copy = lambda self: F.tensor_move(self)
    Tensor.expand_dims = lambda self, axis: F.expand_dims(self, axis)
    Tensor.squeeze = lambda self, axis=(): F.squeeze(self, axis)
    Tensor.flatten = lambda self: F.reshape(self, (-1,))
    Tensor.abs = lambda self: F.abs(self)
    Tensor.exp = lambda self: F.exp(self)
    Tensor.log = lambda self: F.log(self)
    Tensor.sqrt = lambda self: F.sqrt(self)
    Tensor.argmax = lambda self, axis=-1: F.argmax(self, axis)
    Tensor.argmin = lambda self, axis=-1: F.argmin(self, axis)
    Tensor.broadcast_to = lambda self, shape: F.broadcast_to(self, shape)
    Tensor.tile = lambda self, reps: F.tile(self, reps)


install()
