"""Channel dropout: ``dropout1d``, ``dropout2d``, ``dropout3d`` zero whole channels (every
element of ``input[n, c]``) with probability ``p`` and scale the kept ones by
``1/(1-p)``; the per-channel mask is ``ops.dropout`` of ones (same seed stream)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.tensor import Tensor

__all__ = ["dropout1d", "dropout2d", "dropout3d"]


def _channel_dropout(owner: str, input, p, training: bool, ranks: tuple):
    if isinstance(p, bool) or not isinstance(p, float):
        raise TypeError(f"For {owner}, 'p' must be float, but got type {type(p)}.")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"For {owner}, the 'p' must be a number in range [0, 1], but got {p}.")
    if not isinstance(input, Tensor):
        raise TypeError(f"For {owner}, 'input' must be Tensor, but got type {type(input)}.")
    if not isinstance(training, bool):
        raise TypeError(f"For {owner}, the 'training' must be bool, but got {type(training)}.")
    if input.ndim not in ranks:
        raise ValueError(f"For {owner}, input shape should be "
                         f"{' or '.join(f'{r}D' for r in ranks)}, but got {input.ndim}.")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return F.mul(input, 0.0)
    channel_axes = 2 if input.ndim == ranks[-1] else 1  # (N, C, ...) or (C, ...)
    shape = tuple(input.shape[:channel_axes]) + (1,) * (input.ndim - channel_axes)
    mask = F.dropout(F.ones(shape, input.dtype), p=p)
    return F.mul(input, mask)


def dropout1d(input, p: float = 0.5, training: bool = True) -> Tensor:
    """Channel dropout of ``(N, C, L)`` or ``(C, L)``."""
    return _channel_dropout("dropout1d", input, p, training, (2, 3))


def dropout2d(input, p: float = 0.5, training: bool = True) -> Tensor:
    """Channel dropout of ``(N, C, H, W)``."""
    return _channel_dropout("dropout2d", input, p, training, (4,))


def dropout3d(input, p: float = 0.5, training: bool = True) -> Tensor:
    """Channel dropout of ``(N, C, D, H, W)``."""
    return _channel_dropout("dropout3d", input, p, training, (5,))
