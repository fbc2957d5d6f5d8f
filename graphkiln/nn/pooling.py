"""Pooling layers: ``MaxPool1d/2d``, ``AvgPool1d/2d`` (MindSpore's arguments and defaults:
``kernel_size=1``, ``stride=1``, ``pad_mode='valid'``) on the ``MaxPool``/``AvgPool``
primitives, ``AdaptiveAvgPool1d/2d`` on ``AdaptiveAvgPool2D`` and ``AdaptiveMaxPool1d/2d``
built from gathers (so they differentiate through existing rules), ``LPPool1d/2d`` from
average pooling of powers."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops
import graphkiln.ops.defs.pool as P
import graphkiln.ops.defs.pool_argmax as PA

from ..common.tensor import Tensor
from .cell import Cell
from .pool_indices import max_pool_indices
from .pooling3d import (  # noqa: F401  (MindSpore defines these in nn.layer.pooling)
    AdaptiveAvgPool3d,
    AdaptiveMaxPool3d,
    AvgPool3d,
    MaxPool3d,
)


def _pair(owner: str, name: str, value, n: int, low: int = 1) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * n
    if not isinstance(value, (tuple, list)) or len(value) != n or any(
            isinstance(v, bool) or not isinstance(v, int) or v < low for v in value):
        raise ValueError(f"For '{owner}', the '{name}' must be an int or a tuple of {n} ints "
                         f">= {low}, but got {value!r}.")
    return tuple(value)


class _Pool(Cell):
    """Arguments shared by the max and average pooling layers. ``user_rank`` 1 layers run
    as 2-D pooling of height 1."""

    user_rank = 2
    kind = "Max"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0,
                 ceil_mode=False, **extra):
        super().__init__()
        owner = type(self).__name__
        n = self.user_rank
        self.kernel_size = _pair(owner, "kernel_size", kernel_size, n)
        self.stride = _pair(owner, "stride", stride, n)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError(f"For '{owner}', the 'pad_mode' must be in ['VALID', 'SAME', "
                             f"'PAD'], but got {pad_mode}.")
        self.pad_mode = pad_mode.upper()
        pads = _pair(owner, "padding", padding, n, low=0)
        if self.pad_mode != "PAD" and (any(pads) or ceil_mode):
            raise ValueError(f"For '{owner}', the 'padding' must be 0 and 'ceil_mode' False "
                             f"when 'pad_mode' is not 'pad', but got padding {padding} and "
                             f"ceil_mode {ceil_mode}.")
        lift = (1,) * (2 - n)
        attrs = {"kernel_size": lift + self.kernel_size, "strides": lift + self.stride,
                 "pad_mode": pad_mode.lower(), "data_format": "NCHW",
                 "pad": (0, 0) * (2 - n) + tuple(p for v in pads for p in (v, v)),
                 "ceil_mode": bool(ceil_mode), **extra}
        opdef = P.MaxPool if self.kind == "Max" else P.AvgPool
        self.pool = ops.Primitive(opdef, attrs)
        self.pool_attrs = attrs
        self.return_indices = False

    def construct(self, x):
        owner = type(self).__name__
        n = self.user_rank
        if x.ndim not in (n + 1, n + 2):
            raise ValueError(f"For '{owner}', the dimension of input must be {n + 1} or "
                             f"{n + 2}, but got {x.ndim}.")
        unbatched = x.ndim == n + 1
        if unbatched:
            x = ops.expand_dims(x, 0)
        if n == 1:
            x = ops.expand_dims(x, 2)
        y = self.pool(x)
        if self.return_indices:
            return self._shape_back(y, n, unbatched), self._shape_back(
                max_pool_indices(x, self.pool_attrs), n, unbatched)
        return self._shape_back(y, n, unbatched)

    @staticmethod
    def _shape_back(y, n: int, unbatched: bool):
        if n == 1:
            y = ops.squeeze(y, 2)
        return ops.squeeze(y, 0) if unbatched else y

    def extra_repr(self) -> str:
        k = self.kernel_size if self.user_rank == 1 or len(set(self.kernel_size)) > 1 \
            else self.kernel_size[0]
        s = self.stride if self.user_rank == 1 or len(set(self.stride)) > 1 \
            else self.stride[0]
        if self.user_rank == 1:
            k, s = (1,) + self.kernel_size, (1,) + self.stride
        return f"kernel_size={k}, stride={s}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool):
    """Maximum over ``kernel_size`` windows of ``(N, C, H, W)`` (or ``(C, H, W)``); with
    ``dilation`` or ``return_indices`` (also the flat ``H*W`` index of each maximum) it runs
    ``MaxPoolWithArgmaxV2`` (pad_mode 'valid' or 'pad')."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        if return_indices and str(pad_mode).lower() != "pad":
            raise ValueError(f"For {type(self).__name__}, the parameter 'padding', "
                             f"'dilation', 'return_indices', 'ceil_mode' can not be set to "
                             f"non-default value when pad_mode is not 'pad', but got "
                             f"pad_mode:{pad_mode}.")
        plain = self.user_rank == 1 or dilation in (1, (1, 1), [1, 1]) and not return_indices
        _check_unsupported(type(self).__name__, dilation if plain else 1, data_format)
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)
        self.return_indices = bool(return_indices)
        self.argmax = None
        if not plain:
            if self.pad_mode == "SAME":
                raise ValueError(f"For '{type(self).__name__}', 'dilation' and "
                                 f"'return_indices' need pad_mode 'valid' or 'pad'.")
            self.argmax = ops.Primitive(PA.MaxPoolWithArgmaxV2, {
                "kernel_size": self.kernel_size, "strides": self.stride,
                "pads": _pair(type(self).__name__, "padding", padding, 2, low=0),
                "dilation": _pair(type(self).__name__, "dilation", dilation, 2),
                "ceil_mode": bool(ceil_mode)})

    def construct(self, x):
        if self.argmax is None:
            return super().construct(x)
        unbatched = x.ndim == 3
        out, index = self.argmax(ops.expand_dims(x, 0) if unbatched else x)
        if unbatched:
            out, index = ops.squeeze(out, 0), ops.squeeze(index, 0)
        return (out, index) if self.return_indices else out


class MaxPool1d(MaxPool2d):
    """Maximum over ``kernel_size`` windows of ``(N, C, L)`` (or ``(C, L)``)."""

    user_rank = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices,
                         ceil_mode)


def _check_unsupported(owner, dilation, data_format) -> None:
    if dilation not in (1, (1, 1), [1, 1]):
        raise ValueError(f"For '{owner}', graphkiln supports only 'dilation' 1 so far, but "
                         f"got {dilation}.")
    if data_format != "NCHW":
        raise ValueError(f"For '{owner}', the 'NHWC' format only support in GPU target, but "
                         f"got device target CPU.")


class AvgPool2d(_Pool):
    """Average over ``kernel_size`` windows of ``(N, C, H, W)`` (or ``(C, H, W)``);
    'same' padding is left out of the count."""

    kind = "Avg"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        _check_unsupported(type(self).__name__, 1, data_format)
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode,
                         count_include_pad=bool(count_include_pad),
                         divisor_override=divisor_override or 0)


class AvgPool1d(AvgPool2d):
    """Average over ``kernel_size`` windows of ``(N, C, L)`` (or ``(C, L)``)."""

    user_rank = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode,
                         count_include_pad)


class LPPool2d(Cell):
    """Power-average pooling: ``(sum of x^p over each window)^(1/p)`` with
    ``p = norm_type``, over ``kernel_size`` windows moved by ``stride`` (the kernel size
    by default), from the average pooling of ``x^p``."""

    user_rank = 2

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        owner = type(self).__name__.lower().replace("lppool", "lp_pool")
        if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
            raise TypeError(f"For {owner}, the type of 'norm_type' must be float or int, but "
                            f"got {type(norm_type)}")
        if norm_type == 0:
            raise ValueError(f"For {owner}, the value of 'norm_type' can not be 0.")
        self.norm_type = float(norm_type)
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode
        pool = AvgPool1d if self.user_rank == 1 else AvgPool2d
        self.average = pool(kernel_size, kernel_size if stride is None else stride, "pad", 0,
                            ceil_mode)
        self.window = int(np.prod(self.average.kernel_size))

    def construct(self, x):
        out = self.average(ops.pow(x, self.norm_type))
        total = ops.mul(ops.mul(ops.sign(out), ops.relu(ops.abs(out))), float(self.window))
        return ops.pow(total, 1.0 / self.norm_type)


class LPPool1d(LPPool2d):
    """Power-average pooling of ``(N, C, L)`` (or ``(C, L)``) over ``kernel_size``
    windows."""

    user_rank = 1


# ------------------------------------------------------------------ adaptive pooling

def _output_size(owner: str, output_size, n: int) -> tuple:
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * n
    if not isinstance(output_size, (tuple, list)) or len(output_size) != n or any(
            v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1)
            for v in output_size):
        raise ValueError(f"For '{owner}', the 'output_size' must be a positive int or a "
                         f"tuple of {n} positive ints (or None), but got {output_size!r}.")
    return tuple(output_size)


class _AdaptivePool(Cell):
    """Pools the last ``user_rank`` axes into ``output_size`` bins (None keeps an axis),
    one graph op per axis built for its static size."""

    user_rank = 2

    def __init__(self, output_size):
        super().__init__()
        self.output_size = _output_size(type(self).__name__, output_size, self.user_rank)

    def construct(self, x):
        n = self.user_rank
        if x.ndim < n + 1:
            raise ValueError(f"For '{type(self).__name__}', the dimension of input must be at "
                             f"least {n + 1}, but got {x.ndim}.")
        for i, out in enumerate(self.output_size):
            axis = x.ndim - n + i
            if out is not None and x.shape[axis] < 0:
                raise ValueError(f"For '{type(self).__name__}', graphkiln needs the size of "
                                 f"the pooled axes when the graph is built, but axis {axis} "
                                 f"of the input is dynamic (shape {list(x.shape)}); give "
                                 f"it a static size in set_inputs.")
            if out is not None and out != x.shape[axis]:
                x = self.pool_axis(x, axis, P.adaptive_bins(x.shape[axis], out))
        return x


def _to_last(x, axis: int):
    """``x`` with ``axis`` and the last axis swapped (its own inverse)."""
    if axis == x.ndim - 1:
        return x
    perm = list(range(x.ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return ops.transpose(x, tuple(perm))


class AdaptiveAvgPool2d(Cell):
    """Average of each adaptive bin of the last two axes (``AdaptiveAvgPool2D``: the bins
    are found when it runs, so height and width may be dynamic)."""

    user_rank = 2

    def __init__(self, output_size):
        super().__init__()
        sizes = _output_size(type(self).__name__, output_size, self.user_rank)
        self.output_size = sizes
        self.pool = ops.Primitive(P.AdaptiveAvgPool2D, {"output_size": (None,) * (
            2 - self.user_rank) + sizes})

    def construct(self, x):
        n = self.user_rank
        if x.ndim < n + 1:
            raise ValueError(f"For '{type(self).__name__}', the dimension of input must be at "
                             f"least {n + 1}, but got {x.ndim}.")
        return self.pool(x)


class AdaptiveMaxPool2d(_AdaptivePool):
    """Maximum of each adaptive bin (one gather and one max per pooled axis); with
    ``return_indices``, ``(maxima, int64 indices into each H*W plane)``."""

    def __init__(self, output_size, return_indices: bool = False):
        super().__init__(output_size)
        self.return_indices = bool(return_indices)

    def construct(self, x):
        if self.return_indices:
            return ops.adaptive_max_pool2d(x, self.output_size, True)
        return super().construct(x)

    @staticmethod
    def pool_axis(x, axis: int, bins):
        width = max(e - s for s, e in bins)
        index = np.array([[min(s + k, e - 1) for k in range(width)] for s, e in bins],
                         np.int32)
        picked = ops.gather(x, Tensor(index.reshape(-1)), axis)
        shape = tuple(x.shape[:axis]) + (len(bins), width) + tuple(x.shape[axis + 1:])
        return ops.amax(ops.reshape(picked, shape), axis + 1)


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """Average of each adaptive bin of the last axis."""

    user_rank = 1


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """Maximum of each adaptive bin of the last axis."""

    user_rank = 1

    def __init__(self, output_size):
        super().__init__(output_size)
