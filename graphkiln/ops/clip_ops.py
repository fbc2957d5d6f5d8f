"""Gradient-handling functions of training loops: ``clip_by_value``,
``clip_by_global_norm`` and ``stop_gradient`` (as ``mindspore.ops`` has them)."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs.gradient import StopGradient


def stop_gradient(value):
    """``value`` (a Tensor or a tuple of them), with no gradient flowing back through it."""
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    return StopGradient(value) if isinstance(value, Tensor) else value


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """``x`` (or each Tensor of a tuple/list) limited to ``[clip_value_min,
    clip_value_max]``; at least one bound must be given."""
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("For 'clip_by_value', at least one of 'clip_value_min' or "
                         "'clip_value_max' must not be None.")
    if isinstance(x, (tuple, list)):
        return type(x)(clip_by_value(t, clip_value_min, clip_value_max) for t in x)
    if clip_value_min is not None:
        x = F.maximum(x, clip_value_min)
    if clip_value_max is not None:
        x = F.minimum(x, clip_value_max)
    return x


def _global_norm(xs) -> Tensor:
    squares = [F.reduce_sum(F.square(F.cast(x, mstype.float32))) for x in xs]
    return F.sqrt(F.addn(tuple(squares)))


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale every Tensor of ``x`` by ``clip_norm / max(global_norm, clip_norm)``, the
    global norm being the L2 norm of all of them together (or ``use_norm``)."""
    single = not isinstance(x, (tuple, list))
    xs = (x,) if single else tuple(x)
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (int, float, Tensor)) or (
            isinstance(clip_norm, (int, float)) and clip_norm <= 0):
        raise ValueError(f"For 'clip_by_global_norm', the 'clip_norm' must be a number > 0, "
                         f"but got {clip_norm!r}.")
    norm = _global_norm(xs) if use_norm is None else use_norm
    scale = F.div(clip_norm, F.maximum(norm, clip_norm))
    out = tuple(F.cast(F.mul(F.cast(t, mstype.float32), scale), t.dtype) for t in xs)
    return out[0] if single else out
