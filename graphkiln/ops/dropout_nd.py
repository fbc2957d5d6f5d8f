"""``ops.dropout2d`` and ``ops.dropout3d``: channel dropout (see :mod:`.defs.dropout_nd`)."""
from __future__ import annotations

from ..common.tensor import Tensor
from ..ir import tracing_state as state
from .defs import dropout_nd as D
from .defs import nn as N

__all__ = ["dropout2d", "dropout3d"]


def _channel_dropout(opdef, name: str, input: Tensor, p: float, training: bool) -> Tensor:  # noqa: A002
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"For '{name}', the 'p' must be in range of [0.0, 1.0], but got "
                         f"{p!r}.")
    if not training:
        return input
    seed = N.NextSeed() if state.current() is not None else N.next_seed()
    out, _ = opdef(input, seed, keep_prob=1.0 - p)
    return out


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:  # noqa: A002
    """Zero each channel ``input[n, c]`` of a 4-D tensor with probability ``p``, scale the
    others by ``1 / (1 - p)``; the identity when ``training`` is False."""
    return _channel_dropout(D.Dropout2D, "dropout2d", input, p, training)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:  # noqa: A002
    """``dropout2d`` for the 3-D feature maps of a 5-D tensor."""
    return _channel_dropout(D.Dropout3D, "dropout3d", input, p, training)
