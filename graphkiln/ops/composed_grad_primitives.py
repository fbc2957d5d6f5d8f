"""MindSpore's backward kernels that user code calls directly and graphkiln composes of its
primitives (``_grad_ops.StridedSliceGrad``): the call traces the parts, so their own
gradients and vmap come from the parts' rules. (``SqrtGrad`` and the other element-wise
backward kernels are primitives: ``ops/defs/elementwise.py``.)"""
from __future__ import annotations

from ..common.tensor import Tensor
from .composed_primitives import _Composed
from .defs.array import strided_index
from .defs.grad_ops import GetitemGrad

__all__ = ["StridedSliceGrad"]


class StridedSliceGrad(_Composed):
    """``(dy, shapex, begin, end, strides) ->`` zeros of ``shapex`` holding ``dy`` where
    ``StridedSlice(begin, end, strides)`` (with the same masks) reads them."""

    def __init__(self, begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0,
                 new_axis_mask: int = 0, shrink_axis_mask: int = 0):
        self.masks = {"begin_mask": begin_mask, "end_mask": end_mask,
                      "ellipsis_mask": ellipsis_mask, "new_axis_mask": new_axis_mask,
                      "shrink_axis_mask": shrink_axis_mask}

    def __call__(self, dy: Tensor, shapex, begin, end, strides) -> Tensor:
        shape = tuple(int(d) for d in shapex)
        index = strided_index(begin, end, strides, **self.masks)
        return GetitemGrad(dy, index, shape=shape)
