"""``mint.nn.functional`` normalizations, resizing and lookup with PyTorch's
arguments (``batch_norm(input, running_mean, running_var, weight=None, bias=None,
training=False, momentum=0.1, eps=1e-5)``, ``interpolate``, ``embedding``,
...)."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...ops.defs.norm import BatchNorm as _BatchNormOp


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5) -> Tensor:
    """Normalize ``(N, C, *)`` per channel: by the batch statistics in training (and then
    ``running = (1 - momentum) * running + momentum * batch``, the variance unbiased), else
    by ``running_mean``/``running_var``."""
    c = input.shape[1]
    ones = ops.ones((c,), input.dtype)
    weight = ones if weight is None else weight
    bias = ops.zeros((c,), input.dtype) if bias is None else bias
    use_batch = bool(training) or running_mean is None
    mean = ops.zeros((c,), input.dtype) if running_mean is None else running_mean
    var = ones if running_var is None else running_var
    out = _BatchNormOp(input, weight, bias, mean, var, is_training=use_batch,
                       epsilon=float(eps), momentum=0.1)
    if not (training and running_mean is not None):
        return out[0]
    keep = ops.sub(1.0, momentum)
    update_mean = ops.assign(running_mean, ops.add(ops.mul(running_mean, keep),
                                                   ops.mul(out[1], momentum)))
    update_var = ops.assign(running_var, ops.add(ops.mul(running_var, keep),
                                                 ops.mul(out[2], momentum)))
    return ops.depend(ops.depend(out[0], update_mean), update_var)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5) -> Tensor:
    """Normalize ``(N, C, *)`` over each of ``num_groups`` groups of channels, then the
    per-channel ``weight`` and ``bias``."""
    shape = tuple(input.shape)
    if shape[1] % num_groups:
        raise ValueError(f"For 'group_norm', the channels ({shape[1]}) must be divisible by "
                         f"'num_groups' ({num_groups}).")
    x = ops.reshape(input, (shape[0], num_groups, -1))
    centred = ops.sub(x, ops.mean(x, -1, True))
    var = ops.mean(ops.square(centred), -1, True)
    y = ops.reshape(ops.mul(centred, ops.rsqrt(ops.add(var, float(eps)))), shape)
    channel = (1, -1) + (1,) * (len(shape) - 2)
    if weight is not None:
        y = ops.mul(y, ops.reshape(weight, channel))
    return y if bias is None else ops.add(y, ops.reshape(bias, channel))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5) -> Tensor:
    """Normalize over the last ``len(normalized_shape)`` axes, then ``weight``/``bias``."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
        tuple(normalized_shape)
    return ops.layer_norm(input, shape, weight, bias, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12) -> Tensor:
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``)."""
    if p == 2.0:
        norm = ops.sqrt(ops.sum(ops.square(input), dim, True))
    elif p == 1.0:
        norm = ops.sum(ops.abs(input), dim, True)
    elif p == float("inf"):
        norm = ops.amax(ops.abs(input), dim, True)
    else:
        norm = ops.pow(ops.sum(ops.pow(ops.abs(input), p), dim, True), 1.0 / p)
    return ops.div(input, ops.maximum(norm, eps))


interpolate = ops.interpolate_ext


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """:func:`interpolate` without ``recompute_scale_factor``."""
    return ops.interpolate(input, size, scale_factor, mode, align_corners)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False) -> Tensor:
    """Rows ``weight[input]``; the row ``padding_idx`` gets no gradient. With ``max_norm``
    each looked-up row whose ``norm_type``-norm exceeds it is first scaled down to it, in
    ``weight`` itself when it is a Parameter (as PyTorch's in-place renorm, outside the
    gradient). ``scale_grad_by_freq`` divides each row's gradient by how often its index
    occurs in ``input``."""
    ids = ops.reshape(input, (-1,))
    rows = ops.gather(weight, ids, 0)
    if scale_grad_by_freq:
        per_row = ops.expand_dims(ops.gather(_counts(ids, weight.shape[0], rows.dtype), ids,
                                             0), -1)
        fixed = ops.stop_gradient(rows)
        rows = ops.add(fixed, ops.div(ops.sub(rows, fixed), per_row))
    if padding_idx is not None:
        idx = padding_idx % weight.shape[0] if padding_idx < 0 else padding_idx
        keep = ops.expand_dims(ops.ne(ids, idx), -1)
        rows = ops.select(ops.broadcast_to(keep, rows.shape), rows, ops.stop_gradient(rows))
    if max_norm is not None:
        shrunk = ops.mul(rows, _shrink(rows, max_norm, norm_type))
        rows = ops.add(rows, ops.stop_gradient(ops.sub(shrunk, rows)))
        if isinstance(weight, Parameter):
            used = _counts(ids, weight.shape[0], weight.dtype)
            factor = ops.select(ops.greater(ops.expand_dims(used, -1), 0.0),
                                _shrink(weight, max_norm, norm_type), 1.0)
            rows = ops.depend(rows, ops.assign(weight, ops.stop_gradient(
                ops.mul(weight, factor))))
    return ops.reshape(rows, tuple(input.shape) + (weight.shape[1],))


def _counts(ids, size: int, dtype) -> Tensor:
    """How often each of ``size`` indices occurs in ``ids``."""
    return ops.unsorted_segment_sum(ops.ones(ids.shape, dtype), ids, size)


def _shrink(rows, max_norm, p) -> Tensor:
    """Per row (last axis kept): ``max_norm / norm`` where the ``p``-norm exceeds
    ``max_norm``, else 1."""
    norm = ops.pow(ops.sum(ops.pow(ops.abs(rows), float(p)), -1, True), 1.0 / float(p))
    return ops.select(ops.greater(norm, float(max_norm)),
                      ops.div(float(max_norm), ops.add(norm, 1e-7)), ops.ones_like(norm))


__all__ = ["batch_norm", "group_norm", "layer_norm", "normalize", "interpolate", "upsample",
           "embedding"]
