"""Rearranging ops built from ``Reshape`` and ``Transpose``: ``pixel_shuffle`` (channels
into space), ``pixel_unshuffle`` (its inverse) and ``channel_shuffle`` (channels
interleaved across groups)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.tensor import Tensor

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def _check_factor(owner: str, name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{owner}', the type of '{name}' should be 'int', but got type "
                        f"'{type(value).__name__}'.")
    if value <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be a positive int, but got "
                         f"{value}.")
    return value


def _check_image(owner: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{owner}', the 'input' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim < 3:
        raise ValueError(f"For {owner}, the dimension of `input` should be larger than 2, but "
                         f"got {x.ndim}.")


def pixel_shuffle(input, upscale_factor: int) -> Tensor:
    """``(*, C r^2, H, W) -> (*, C, H r, W r)``."""
    r = _check_factor("pixel_shuffle", "upscale_factor", upscale_factor)
    _check_image("pixel_shuffle", input)
    *pre, c, h, w = input.shape
    if c % (r * r):
        raise ValueError("For 'pixel_shuffle', the length of third to last dimension is not "
                         "divisible by `upscale_factor` squared.")
    n = len(pre)
    x = F.reshape(input, (*pre, c // (r * r), r, r, h, w))
    x = F.transpose(x, (*range(n + 1), n + 3, n + 1, n + 4, n + 2))
    return F.reshape(x, (*pre, c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor: int) -> Tensor:
    """``(*, C, H r, W r) -> (*, C r^2, H, W)``."""
    r = _check_factor("pixel_unshuffle", "downscale_factor", downscale_factor)
    _check_image("pixel_unshuffle", input)
    *pre, c, h, w = input.shape
    if h % r or w % r:
        raise ValueError("For 'pixel_unshuffle', the length of second to last 2 dimension "
                         "should be divisible by downscale_factor.")
    n = len(pre)
    x = F.reshape(input, (*pre, c, h // r, r, w // r, r))
    x = F.transpose(x, (*range(n + 1), n + 2, n + 4, n + 1, n + 3))
    return F.reshape(x, (*pre, c * r * r, h // r, w // r))


def channel_shuffle(x, groups: int) -> Tensor:
    """``(N, C, *)``: the channels as a ``groups x C/groups`` grid, read column-wise."""
    g = _check_factor("ChannelShuffle", "group", groups)
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'ChannelShuffle', the 'x' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim < 3:
        raise TypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {x.ndim}.")
    n, c, *rest = x.shape
    if c % g:
        raise ValueError(f"For ChannelShuffle, number of channels must be divisible by groups "
                         f"({c} channels, {g} groups).")
    y = F.reshape(x, (n, g, c // g, *rest))
    y = F.transpose(y, (0, 2, 1, *range(3, y.ndim)))
    return F.reshape(y, x.shape)
