"""``mint.nn`` activation, padding and loss layers with PyTorch's arguments, over
graphkiln's ops (``mint.nn.ELU(alpha)``, ``mint.nn.ZeroPad2d(padding)``,
``mint.nn.BCEWithLogitsLoss(weight, reduction, pos_weight)``...)."""
from __future__ import annotations

import numpy as np

import graphkiln.mint.nn.functional as F
import graphkiln.nn as _nn
import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor


class _Unary(_nn.Cell):
    """A layer applying ``fn(input, *args)``."""

    def __init__(self, fn, *args):
        super().__init__()
        self.fn, self.args = fn, args

    def construct(self, input):
        return self.fn(input, *self.args)


class ELU(_Unary):
    """``x`` where positive, else ``alpha * (exp(x) - 1)`` (any ``alpha``)."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(F.elu, float(alpha))


class Mish(_Unary):
    def __init__(self):
        super().__init__(ops.mish)


class SELU(_Unary):
    def __init__(self):
        super().__init__(ops.selu)


class Hardshrink(_Unary):
    def __init__(self, lambd=0.5):
        super().__init__(ops.hardshrink, float(lambd))


class Softshrink(_Unary):
    def __init__(self, lambd=0.5):
        super().__init__(ops.softshrink, float(lambd))


class Hardsigmoid(_Unary):
    """``relu6(x + 3) / 6``."""

    def __init__(self):
        super().__init__(F.hardsigmoid)


class Hardswish(_Unary):
    def __init__(self):
        super().__init__(ops.hardswish)


class LogSigmoid(_Unary):
    """``-softplus(-x)``."""

    def __init__(self):
        super().__init__(F.logsigmoid)


class GLU(_nn.Cell):
    """The first half of ``dim`` gated by the sigmoid of the second."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.glu(input, self.dim)


class Threshold(_nn.Cell):
    """``input`` where it is above ``threshold``, else ``value``."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value = threshold, value

    def construct(self, input):
        return F.threshold(input, self.threshold, self.value)


class PReLU(_nn.Cell):
    """``input`` where positive, else ``weight * input`` (one slope, or one per channel)."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        t = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(Tensor(np.full((num_parameters,), init, np.float32), t),
                                name="weight")

    def construct(self, input):
        return ops.prelu(input, self.weight)


class Dropout2d(_nn.Cell):
    """Zeroes whole channels with probability ``p`` in training."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = p

    def construct(self, input):
        return ops.dropout2d(input, self.p, self.training)


class PixelShuffle(_Unary):
    def __init__(self, upscale_factor):
        super().__init__(ops.pixel_shuffle, upscale_factor)


# ------------------------------------------------------------------ padding

def _pad_layer(rank: int, mode: str):
    class Pad(_nn.Cell):
        def __init__(self, padding, value=0.0):
            super().__init__()
            if isinstance(padding, int) and not isinstance(padding, bool):
                padding = (padding,) * (2 * rank)
            if len(padding) != 2 * rank:
                raise ValueError(f"For '{type(self).__name__}', the 'padding' must be an int or "
                                 f"a tuple of {2 * rank} ints, but got {padding!r}.")
            self.padding, self.value = tuple(padding), value

        def construct(self, input):
            if mode == "constant":
                return ops.pad(input, self.padding, mode, float(self.value))
            return ops.pad(input, self.padding, mode)
    return Pad


def _named(cls, name: str, doc: str):
    cls.__name__ = cls.__qualname__ = name
    cls.__doc__ = doc
    return cls


ZeroPad1d = _named(_pad_layer(1, "constant"), "ZeroPad1d", "Zeros around the last axis.")
ZeroPad2d = _named(_pad_layer(2, "constant"), "ZeroPad2d", "Zeros around the last 2 axes.")
ZeroPad3d = _named(_pad_layer(3, "constant"), "ZeroPad3d", "Zeros around the last 3 axes.")


def _constant(rank: int):
    base = _pad_layer(rank, "constant")

    class ConstantPad(base):
        def __init__(self, padding, value):
            super().__init__(padding, value)
    return _named(ConstantPad, f"ConstantPad{rank}d", f"``value`` around the last {rank} axes.")


ConstantPad1d, ConstantPad2d, ConstantPad3d = (_constant(r) for r in (1, 2, 3))
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (
    _named(_pad_layer(r, "reflect"), f"ReflectionPad{r}d", f"Mirror the last {r} axes.")
    for r in (1, 2, 3))
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (
    _named(_pad_layer(r, "replicate"), f"ReplicationPad{r}d", f"Repeat the edges of the last "
           f"{r} axes.") for r in (1, 2, 3))


# ------------------------------------------------------------------ losses

class _Loss(_nn.Cell):
    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in "
                             f"['none', 'mean', 'sum'], but got {reduction}.")
        self.reduction = reduction


class BCELoss(_Loss):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, input, target):
        return ops.binary_cross_entropy(input, target, self.weight, self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, input, target):
        return ops.binary_cross_entropy_with_logits(input, target, self.weight,
                                                    self.pos_weight, self.reduction)


class CrossEntropyLoss(_Loss):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, input, target):
        return ops.cross_entropy(input, target, self.weight, self.ignore_index,
                                 self.reduction, self.label_smoothing)


class NLLLoss(_Loss):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, input, target):
        return ops.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class KLDivLoss(_Loss):
    """``target * (log(target) - input)`` (``target`` given as a log with ``log_target``);
    'batchmean' divides the sum by the batch size."""

    def __init__(self, reduction="mean", log_target=False):
        if reduction not in ("none", "mean", "sum", "batchmean"):
            raise ValueError(f"For 'KLDivLoss', the 'reduction' must be in ['none', 'mean', "
                             f"'sum', 'batchmean'], but got {reduction}.")
        _nn.Cell.__init__(self)
        self.reduction, self.log_target = reduction, bool(log_target)

    def construct(self, input, target):
        return F.kl_div(input, target, self.reduction, self.log_target)


class SmoothL1Loss(_Loss):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction)
        self.beta = float(beta)

    def construct(self, input, target):
        return ops.smooth_l1_loss(input, target, self.beta, self.reduction)


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-target * input))``."""

    def construct(self, input, target):
        return F.soft_margin_loss(input, target, self.reduction)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = float(margin)

    def construct(self, input1, input2, target):
        return ops.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)


__all__ = ["ELU", "Mish", "SELU", "Hardshrink", "Softshrink", "Hardsigmoid", "Hardswish",
           "LogSigmoid", "GLU", "Threshold", "PReLU", "Dropout2d", "PixelShuffle",
           "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "BCELoss",
           "BCEWithLogitsLoss", "CrossEntropyLoss", "NLLLoss", "KLDivLoss", "SmoothL1Loss",
           "SoftMarginLoss", "CosineEmbeddingLoss"]
