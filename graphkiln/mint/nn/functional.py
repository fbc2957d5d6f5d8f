"""``mindspore.mint.nn.functional``: PyTorch-style activation, dropout, linear and loss
functions mapped onto graphkiln's ops (convolutions and pools in functional_conv.py,
normalizations and resizing in functional_norm.py, losses in functional_losses.py)."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...ops import (  # noqa: F401
    grid_sample,
    hardshrink,
    hardswish,
    l1_loss,
    mish,
    mse_loss,
    prelu,
    selu,
    sigmoid,
    softplus,
    softshrink,
    tanh,
)
from ...ops.activation_functions import glu_halves
from .functional_conv import *  # noqa: F401,F403
from .functional_losses import *  # noqa: F401,F403
from .functional_norm import *  # noqa: F401,F403


def relu(input, inplace=False) -> Tensor:
    return ops.relu(input)


def relu6(input, inplace=False) -> Tensor:
    return hardtanh(input, 0.0, 6.0)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False) -> Tensor:
    """``input`` limited to ``[min_val, max_val]``."""
    if min_val > max_val:
        raise ValueError(f"For 'hardtanh', 'min_val' ({min_val}) must not be greater than "
                         f"'max_val' ({max_val}).")
    return ops.clip_by_value(input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0) -> Tensor:
    """:func:`hardtanh` written into ``input``."""
    return input.copy_(hardtanh(input, min_val, max_val))


def leaky_relu(input, negative_slope=0.01) -> Tensor:
    return ops.select(ops.greater(input, 0), input, ops.mul(input, negative_slope))


def silu(input, inplace=False) -> Tensor:
    return ops.mul(input, ops.sigmoid(input))


def elu(input, alpha=1.0, inplace=False) -> Tensor:
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""
    return ops.select(ops.greater(input, 0.0), input, ops.mul(ops.expm1(input), float(alpha)))


def elu_(input, alpha=1.0) -> Tensor:
    """:func:`elu` written into ``input``."""
    return input.copy_(elu(input, alpha))


def relu_(input) -> Tensor:
    """:func:`relu` written into ``input``."""
    return input.copy_(ops.relu(input))


def sigmoid_(input) -> Tensor:
    """:func:`sigmoid` written into ``input``."""
    return input.copy_(ops.sigmoid(input))


def hardsigmoid(input) -> Tensor:
    """``relu6(x + 3) / 6`` (``ops.hardsigmoid``: a gradient of 0 at -3 and 3)."""
    return ops.hardsigmoid(input)


def logsigmoid(input) -> Tensor:
    """``-softplus(-x)``."""
    return ops.neg(ops.softplus(ops.neg(input)))


def glu(input, dim=-1) -> Tensor:
    """The first half of ``dim`` gated by the sigmoid of the second."""
    if input.shape[dim] % 2:
        raise ValueError(f"For 'glu', the size of 'input' along dim {dim} must be even, but "
                         f"got {input.shape[dim]}.")
    return glu_halves(input, dim)


def _above(input, bound, value) -> Tensor:
    return ops.select(ops.greater(input, bound), input, ops.fill(input.dtype, input.shape, value))


def threshold(input, threshold, value, inplace=False) -> Tensor:
    """``input`` where it is above ``threshold``, else ``value``."""
    return _above(input, threshold, value)


def threshold_(input, threshold, value) -> Tensor:
    """:func:`threshold` written into ``input``."""
    return input.copy_(_above(input, threshold, value))


def clamp(input, min=None, max=None) -> Tensor:
    """``input`` limited to ``[min, max]`` (either may be None)."""
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must not be None.")
    out = input if min is None else ops.maximum(input, min)
    return out if max is None else ops.minimum(out, max)


def broadcast_to(input, shape) -> Tensor:
    return ops.broadcast_to(input, shape)


def flatten(input, start_dim=0, end_dim=-1) -> Tensor:
    """Merge the axes ``start_dim..end_dim`` (all of them by default)."""
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def dropout2d(input, p=0.5, training=True, inplace=False) -> Tensor:
    """Zero whole channels of ``(N, C, H, W)`` (or ``(C, H, W)``) with probability ``p``
    (scaling the rest) in training."""
    if input.ndim == 3:
        return ops.squeeze(ops.dropout2d(ops.expand_dims(input, 0), p, training), 0)
    return ops.dropout2d(input, p, training)


def pad(input, pad, mode="constant", value=None) -> Tensor:
    """Pad the last ``len(pad) // 2`` axes (``pad`` from the last axis back)."""
    return ops.pad(input, pad, mode, value)


def gelu(input, approximate="none") -> Tensor:
    return ops.gelu(input, approximate=approximate)


def softmax(input, dim=None, dtype=None) -> Tensor:
    x = input if dtype is None else ops.cast(input, dtype)
    return ops.softmax(x, -1 if dim is None else dim)


def log_softmax(input, dim=None, *, dtype=None) -> Tensor:
    x = input if dtype is None else ops.cast(input, dtype)
    return ops.log_softmax(x, -1 if dim is None else dim)


def dropout(input, p=0.5, training=True, inplace=False) -> Tensor:
    return ops.dropout(input, p, training)


def linear(input, weight, bias=None) -> Tensor:
    """``input @ weight.T + bias``."""
    out = ops.matmul(input, ops.swapaxes(weight, -1, -2) if weight.ndim > 1 else weight)
    return out if bias is None else ops.add(out, bias)


def one_hot(tensor, num_classes=-1) -> Tensor:
    """int64 one-hot rows; ``num_classes=-1`` takes ``max(tensor) + 1``."""
    if num_classes == -1:
        num_classes = int(ops.reduce_max(tensor).asnumpy()) + 1
    return ops.cast(ops.one_hot(tensor, num_classes, 1, 0), mstype.int64)


def pixel_shuffle(input, upscale_factor) -> Tensor:
    """``(*, C*r*r, H, W) -> (*, C, H*r, W*r)``."""
    r = upscale_factor
    *lead, c, h, w = input.shape
    if c % (r * r):
        raise ValueError(f"For 'pixel_shuffle', the channels {c} must be divisible by "
                         f"upscale_factor ** 2 = {r * r}.")
    x = ops.reshape(input, (-1, c // (r * r), r, r, h, w))
    x = ops.transpose(x, (0, 1, 4, 2, 5, 3))
    return ops.reshape(x, tuple(lead) + (c // (r * r), h * r, w * r))


def inplace_silu(input) -> Tensor:
    """:func:`silu` written into ``input``."""
    return input.copy_(silu(input))


# MindSpore's internal aliases, exported by its module too
elu_ext, silu_func, inplace_elu = elu, silu, elu_
hardtanh_op, threshold_op = hardtanh, threshold
adaptive_avg_pool3d_ext = adaptive_avg_pool3d  # noqa: F405
