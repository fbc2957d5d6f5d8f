"""``mint.nn`` convolution, pooling and normalization layers with PyTorch's arguments and
parameter names (``weight``, ``bias``, ``running_mean``...), on graphkiln's primitives.

MindSpore 2.10 has no CPU kernel for most of them (``Conv2DExt``, ``BatchNormExt``,
``AvgPool2D``... "unregistered"); graphkiln runs them, with the numbers of the MindSpore ops
they stand for (checked in tests/mint/test_mint_nn_layers.py against ops recorded on
MindSpore). Weights start as PyTorch's (He-uniform with ``a = sqrt(5)``, bias uniform in
``+-1/sqrt(fan_in)``).
"""
from __future__ import annotations

import math

import numpy as np

import graphkiln.mint.nn.functional as F
import graphkiln.nn as _nn
import graphkiln.nn.init as _init
import graphkiln.ops as ops
import graphkiln.ops.defs.pool as P2
import graphkiln.ops.defs.pool3d as P3

from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.pooling import ntuple
from .functional_conv import conv_padding, pool_primitive, run_pool

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ones(shape) -> np.ndarray:
    return np.ones(shape, np.float32)


def _zeros(shape) -> np.ndarray:
    return np.zeros(shape, np.float32)


# ------------------------------------------------------------------ convolutions

class _ConvNd(_nn.Cell):
    rank = 2
    transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None,
                 output_padding=0):
        super().__init__()
        owner, n = type(self).__name__, self.rank
        for name, v in (("in_channels", in_channels), ("out_channels", out_channels)):
            if not isinstance(groups, int) or groups < 1 or v % groups:
                raise ValueError(f"For '{owner}', the '{name}' ({v}) must be divisible by "
                                 f"'groups' ({groups}).")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"The value of 'padding_mode' must be one of "
                             f"'{set(_PADDING_MODES)}', but got {padding_mode}.")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = ntuple(owner, "kernel_size", kernel_size, n)
        self.stride = ntuple(owner, "stride", stride, n)
        self.dilation = ntuple(owner, "dilation", dilation, n)
        self.output_padding = ntuple(owner, "output_padding", output_padding, n, 0)
        self.padding_mode = padding_mode
        self.pad_mode, pads = conv_padding(owner, padding, self.stride, n)
        self.padding = padding if isinstance(padding, str) else pads
        shape = (in_channels, out_channels // groups) if self.transposed else \
            (out_channels, in_channels // groups)
        shape += self.kernel_size
        t = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(_init.initializer(_init.HeUniform(math.sqrt(5)), shape, t),
                                name="weight")
        self.bias = None
        if bias:
            bound = 1.0 / math.sqrt(math.prod(shape[1:]))
            self.bias = Parameter(_init.initializer(_init.Uniform(bound), (out_channels,), t),
                                  name="bias")

    def construct(self, input):
        x, padding = input, self.padding
        if self.padding_mode != "zeros" and self.pad_mode == "pad":
            pads = tuple(p for v in reversed(self.padding) for p in (v, v))
            x, padding = ops.pad(x, pads, self.padding_mode), 0
        conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[self.rank]
        return conv(x, self.weight, self.bias, self.stride, padding, self.dilation,
                    self.groups)


class Conv1d(_ConvNd):
    """1-D convolution of ``(N, C, L)`` (or ``(C, L)``), weight ``(out, in/groups, k)``."""

    rank = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)


class Conv2d(_ConvNd):
    """2-D convolution of ``(N, C, H, W)`` (or ``(C, H, W)``)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)


class Conv3d(_ConvNd):
    """3-D convolution of ``(N, C, D, H, W)`` (or ``(C, D, H, W)``)."""

    rank = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype)


class ConvTranspose2d(_ConvNd):
    """Transposed 2-D convolution (the input gradient of a convolution), weight
    ``(in, out/groups, kh, kw)``; output size ``(n - 1) * stride - 2 * padding + dilation *
    (k - 1) + output_padding + 1``."""

    transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f"Only 'zeros' padding mode is supported for ConvTranspose2d, "
                             f"but got {padding_mode}.")
        if isinstance(padding, str):
            raise ValueError(f"For 'ConvTranspose2d', the 'padding' must be ints, but got "
                             f"'{padding}'.")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype, output_padding)

    def construct(self, input):
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)


# ------------------------------------------------------------------ pooling

class _PoolNd(_nn.Cell):
    """``kernel_size``, ``stride`` (the kernel size by default) and symmetric ``padding`` of
    the 1-D (run as 2-D of height 1), 2-D and 3-D pools."""

    rank = 2
    opdef = P2.MaxPool
    pad_name = "pad"

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, **extra):
        super().__init__()
        owner, n = type(self).__name__, self.rank
        self.kernel_size = ntuple(owner, "kernel_size", kernel_size, n)
        self.stride = self.kernel_size if stride is None else \
            ntuple(owner, "stride", stride, n)
        self.padding = ntuple(owner, "padding", padding, n, 0)
        self.ceil_mode = bool(ceil_mode)
        self.pool = pool_primitive(owner, self.opdef, n, kernel_size, stride, padding,
                                   ceil_mode, **extra)

    def construct(self, input):
        return run_pool(self.pool, input, self.rank, type(self).__name__)


class MaxPool2d(_PoolNd):
    """Maximum over windows (padding counts as -inf); with ``dilation`` or
    ``return_indices`` (also the flat ``H*W`` index of each maximum) it runs
    ``MaxPoolWithArgmaxV2``."""

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, padding, ceil_mode)
        self.dilation = ntuple("MaxPool2d", "dilation", dilation, 2)
        self.return_indices = bool(return_indices)

    def construct(self, input):
        if self.dilation == (1, 1) and not self.return_indices:
            return super().construct(input)
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            self.ceil_mode, self.return_indices)


class AvgPool2d(_PoolNd):
    """Average over windows."""

    opdef = P2.AvgPool

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode,
                         count_include_pad=bool(count_include_pad),
                         divisor_override=divisor_override or 0)


class AvgPool1d(AvgPool2d):
    """Average over windows of ``(N, C, L)``."""

    rank = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool3d(AvgPool2d):
    """Average over windows of ``(N, C, D, H, W)``."""

    rank = 3
    opdef = P3.AvgPool3D


class AdaptiveAvgPool1d(_nn.AdaptiveAvgPool1d):
    """Average of each adaptive bin of the last axis."""


class AdaptiveAvgPool2d(_nn.AdaptiveAvgPool2d):
    """Average of each adaptive bin of the last two axes."""


class AdaptiveAvgPool3d(_nn.Cell):
    """Average of each adaptive bin of the last three axes (two 4-D ``AdaptiveAvgPool2D``
    calls: height and width, then depth moved last)."""

    def __init__(self, output_size):
        super().__init__()
        sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * 3
        if len(sizes) != 3 or any(s is not None and (isinstance(s, bool) or not isinstance(
                s, int) or s < 1) for s in sizes):
            raise ValueError(f"For 'AdaptiveAvgPool3d', the 'output_size' must be a positive "
                             f"int or a tuple of 3 (positive ints or None), but got "
                             f"{output_size!r}.")
        self.output_size = tuple(sizes)
        self.plane = ops.Primitive(P2.AdaptiveAvgPool2D, {"output_size": tuple(sizes[1:])})
        self.depth = ops.Primitive(P2.AdaptiveAvgPool2D, {"output_size": (None, sizes[0])})

    def construct(self, input):
        if input.ndim not in (4, 5):
            raise ValueError(f"For 'AdaptiveAvgPool3d', the dimension of input must be 4 or "
                             f"5, but got {input.ndim}.")
        lead = input.shape[:-3]
        y = self.plane(ops.reshape(input, (-1,) + input.shape[-3:]))
        y = ops.swapaxes(self.depth(ops.swapaxes(y, -3, -1)), -3, -1)
        return ops.reshape(y, lead + y.shape[-3:])


class AdaptiveMaxPool1d(_nn.Cell):
    """Maximum of each adaptive bin of the last axis (and, with ``return_indices``, its
    int64 index)."""

    rank = 1

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, bool(return_indices)

    def construct(self, input):
        pool = F.adaptive_max_pool1d if self.rank == 1 else F.adaptive_max_pool2d
        return pool(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    """Maximum of each adaptive bin of the last two axes (and, with ``return_indices``, its
    flat ``H*W`` index)."""

    rank = 2


# ------------------------------------------------------------------ normalization

class _BatchNorm(_nn.Cell):
    """PyTorch's batch normalization: batch statistics in training (the running ones,
    ``(1 - momentum) * running + momentum * batch``, with the unbiased variance), the
    running statistics in evaluation; ``momentum=None`` averages all batches so far."""

    ranks = (4,)

    def __init__(self, num_features: int, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        t = mstype.float32 if dtype is None else dtype
        self.num_features, self.eps, self.momentum = num_features, float(eps), momentum
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        shape = (num_features,)
        self.weight = Parameter(Tensor(_ones(shape), t), name="weight",
                                requires_grad=self.affine)
        self.bias = Parameter(Tensor(_zeros(shape), t), name="bias", requires_grad=self.affine)
        self.running_mean = self.running_var = self.num_batches_tracked = None
        if self.track_running_stats:
            self.running_mean = Parameter(Tensor(_zeros(shape), t), name="running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(Tensor(_ones(shape), t), name="running_var",
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(0, mstype.int64),
                                                 name="num_batches_tracked",
                                                 requires_grad=False)

    def construct(self, input):
        if input.ndim not in self.ranks:
            want = " or ".join(f"{r}D" for r in self.ranks)
            raise ValueError(f"expected {want} input (got {input.ndim}D input)")
        if not (self.training and self.track_running_stats):
            return F.batch_norm(input, self.running_mean, self.running_var, self.weight,
                                self.bias, self.training, 0.1, self.eps)
        tracked = ops.assign_add(self.num_batches_tracked, Tensor(1, mstype.int64))
        factor = self.momentum if self.momentum is not None else ops.div(
            1.0, ops.cast(ops.depend(self.num_batches_tracked, tracked), mstype.float32))
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight,
                            self.bias, True, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Over ``(N, C)`` or ``(N, C, L)``."""

    ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Over ``(N, C, H, W)``."""


class BatchNorm3d(_BatchNorm):
    """Over ``(N, C, D, H, W)``."""

    ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalization of ``(N, C, *)``; on one device the batch is the local one
    (``process_group`` has no effect)."""

    ranks = (2, 3, 4, 5)

    def __init__(self, num_features: int, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group


class GroupNorm(_nn.Cell):
    """Normalization over groups of channels of ``(N, C, *)``, then a per-channel affine."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' ({num_channels}) must be "
                             f"divisible by 'num_groups' ({num_groups}).")
        t = mstype.float32 if dtype is None else dtype
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = float(eps), bool(affine)
        self.weight = Parameter(Tensor(_ones((num_channels,)), t), name="weight",
                                requires_grad=self.affine)
        self.bias = Parameter(Tensor(_zeros((num_channels,)), t), name="bias",
                              requires_grad=self.affine)

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class LayerNorm(_nn.Cell):
    """Normalization over the last ``len(normalized_shape)`` axes, then an elementwise
    affine (``weight``, and ``bias`` unless ``bias=False``)."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
            tuple(normalized_shape)
        t = mstype.float32 if dtype is None else dtype
        self.normalized_shape, self.eps = shape, float(eps)
        self.elementwise_affine = bool(elementwise_affine)
        self.weight = self.bias = None
        if self.elementwise_affine:
            self.weight = Parameter(Tensor(_ones(shape), t), name="weight")
            if bias:
                self.bias = Parameter(Tensor(_zeros(shape), t), name="bias")

    def construct(self, input):
        return ops.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)
