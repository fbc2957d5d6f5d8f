"""``mint.nn`` lookup, block and resizing layers with PyTorch's arguments
(``Embedding(num_embeddings, embedding_dim, padding_idx=None, ...)``, ``Fold``, ``Unfold``,
``MaxUnpool2d``, ``Upsample``...), each calling its ``mint.nn.functional`` function."""
from __future__ import annotations

import graphkiln.mint.nn.functional as F
import graphkiln.nn as _nn
import graphkiln.nn.init as _init

from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor


class Embedding(_nn.Cell):
    """A table ``weight`` of ``num_embeddings`` rows of ``embedding_dim`` (drawn from
    N(0, 1), the ``padding_idx`` row zero), looked up by integer ``input``."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"For 'Embedding', the 'padding_idx' must be in range "
                             f"[{-num_embeddings}, {num_embeddings}), but got {padding_idx}.")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        t = mstype.float32 if dtype is None else dtype
        if _weight is None:
            table = _init.initializer(_init.Normal(1.0), (num_embeddings, embedding_dim),
                                      mstype.float32).asnumpy().copy()
            if padding_idx is not None:
                table[padding_idx] = 0
            _weight = Tensor(table, t)
        elif tuple(_weight.shape) != (num_embeddings, embedding_dim):
            raise ValueError(f"For 'Embedding', the shape of '_weight' must be "
                             f"{[num_embeddings, embedding_dim]}, but got "
                             f"{list(_weight.shape)}.")
        self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)

    def construct(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm,
                           self.norm_type, self.scale_grad_by_freq)


class Unfold(_nn.Cell):
    """Columns ``(N, C * kh * kw, L)`` of the sliding blocks of ``(N, C, H, W)``."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def construct(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(_nn.Cell):
    """Sum of columns ``(N, C * kh * kw, L)`` back into an ``output_size`` image."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def construct(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)


class MaxUnpool2d(_nn.Cell):
    """The inverse of ``MaxPool2d(return_indices=True)``: values scattered to ``indices``."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)


class Upsample(_nn.Cell):
    """Resize to ``size`` or by ``scale_factor`` with ``mode``."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode,
                             self.align_corners, self.recompute_scale_factor)


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour resizing of ``(N, C, H, W)``."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear resizing of ``(N, C, H, W)`` with the corners aligned."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "bilinear", True)


__all__ = ["Embedding", "Unfold", "Fold", "MaxUnpool2d", "Upsample", "UpsamplingNearest2d",
           "UpsamplingBilinear2d"]
