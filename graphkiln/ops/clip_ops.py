"""Gradient-handling functions of training loops: ``clip_by_value``, ``clamp``/``clip``,
``clip_by_norm``, ``clip_by_global_norm`` and ``stop_gradient`` (as ``mindspore.ops`` has
them)."""
from __future__ import annotations

import numpy as np

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
    global norm being the L2 norm of all of them together (``use_norm`` must be None, as
    MindSpore 2.10 requires)."""
    if use_norm is not None:
        raise ValueError(f"For 'clip_by_global_norm', input 'use_norm' only supports None "
                         f"currently, but got 'use_norm': {use_norm}")
    single = not isinstance(x, (tuple, list))
    xs = (x,) if single else tuple(x)
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (int, float, Tensor)) or (
            isinstance(clip_norm, (int, float)) and clip_norm <= 0):
        raise ValueError(f"For 'clip_by_global_norm', the 'clip_norm' must be a number > 0, "
                         f"but got {clip_norm!r}.")
    norm = _global_norm(xs)
    scale = F.div(clip_norm, F.maximum(norm, clip_norm))
    out = tuple(F.cast(F.mul(F.cast(t, mstype.float32), scale), t.dtype) for t in xs)
    return out[0] if single else out


def _is_bool(v) -> bool:
    return isinstance(v, bool) or (isinstance(v, Tensor) and v.dtype == mstype.bool_)


def clamp(input, min=None, max=None) -> Tensor:  # noqa: A002 - MindSpore's names
    """``input`` limited to ``[min, max]`` (numbers or Tensors that broadcast against it; at
    least one bound)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'clamp', the 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' or 'max' must not be None.")
    if _is_bool(input) or _is_bool(min) or _is_bool(max):
        raise ValueError("For 'clamp', the dtype of 'input', 'min' and 'max' must not be bool.")
    out = clip_by_value(input, min, max)
    # ``input`` keeps its gradient on the bounds too (MindSpore's clamp; clip_by_value, a
    # maximum and a minimum, gives a tie half)
    inside = None
    for bound, within in ((min, F.greater_equal), (max, F.less_equal)):
        if bound is not None:
            ok = within(input, bound)
            inside = ok if inside is None else F.logical_and(inside, ok)
    x = F.cast(input, out.dtype)
    if tuple(x.shape) != tuple(out.shape):
        x, inside = F.broadcast_to(x, out.shape), F.broadcast_to(inside, out.shape)
    return F.select(inside, x, out)


clip = clamp


def _norm(x: Tensor, p: float) -> Tensor:
    """MindSpore's ``(sum x**p) ** (1/p)`` (no absolute value: odd ``p`` as MindSpore)."""
    return F.cast(F.pow(F.reduce_sum(F.pow(x, p)), 1.0 / p), x.dtype)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite: bool = False):
    """``x`` (a Tensor, or a tuple/list of them) scaled by
    ``min(1, max_norm / (total_norm + 1e-6))``, the total norm being the ``norm_type``-norm of
    the Tensors' norms."""
    single = isinstance(x, Tensor)
    xs = [x] if single else list(x)
    if norm_type == float("inf"):
        total = F.reduce_max(F.stack([F.reduce_max(F.abs(t)) for t in xs]))
    else:
        total = _norm(F.stack([_norm(t, norm_type) for t in xs]), norm_type)
    if error_if_nonfinite and not total.is_symbolic and not np.isfinite(total.asnumpy()).all():
        raise RuntimeError(f"For clip_by_norm, the total norm of order {norm_type} from input "
                           f"is non-finite.")
    scale = F.minimum(F.div(max_norm, F.add(total, 1e-6)), 1.0)
    out = [F.mul(t, F.cast(scale, t.dtype)) for t in xs]
    return out[0] if single else out
