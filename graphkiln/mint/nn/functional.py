"""``mindspore.mint.nn.functional``: PyTorch-style activation, dropout, linear and loss
functions mapped onto graphkiln's ops."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...ops import l1_loss, mse_loss, sigmoid, tanh  # noqa: F401


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
    return ops.select(ops.greater(input, 0), input, ops.mul(ops.expm1(input), alpha))


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
