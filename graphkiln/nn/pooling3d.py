"""``nn.MaxPool3d`` and ``nn.AvgPool3d`` (MindSpore's arguments: ``kernel_size=1``,
``stride=1``, ``pad_mode='valid'``) on the ``MaxPool3D``/``AvgPool3D`` primitives, and
``nn.AdaptiveAvgPool3d``/``nn.AdaptiveMaxPool3d`` composed from products and gathers, for
``(N, C, D, H, W)`` or unbatched ``(C, D, H, W)`` inputs."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops
import graphkiln.ops.defs.pool as P
import graphkiln.ops.defs.pool3d as P3
import graphkiln.ops.defs.pool_argmax as PA

from ..common.tensor import Tensor
from ..ops.pooling import triple
from .cell import Cell


class _Pool3d(Cell):
    opdef = P3.MaxPool3D
    pad_name = "pad_list"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 **extra):
        super().__init__()
        owner = type(self).__name__
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
            raise ValueError(f"For '{owner}', the 'pad_mode' must be in ['VALID', 'SAME', "
                             f"'PAD'], but got {pad_mode}.")
        pads = triple(owner, "padding", padding, 0)
        if pad_mode.lower() != "pad" and (any(pads) or ceil_mode):
            raise ValueError(f"For '{owner}', the 'padding' must be 0 and 'ceil_mode' False "
                             f"when 'pad_mode' is not 'pad', but got padding {padding} and "
                             f"ceil_mode {ceil_mode}.")
        self.kernel_size = triple(owner, "kernel_size", kernel_size)
        self.stride = triple(owner, "stride", stride)
        self.pad_mode = pad_mode.upper()
        attrs = {"kernel_size": self.kernel_size, "strides": self.stride,
                 "pad_mode": pad_mode.lower(), "ceil_mode": bool(ceil_mode),
                 self.pad_name: tuple(p for v in pads for p in (v, v)), **extra}
        self.pool = ops.Primitive(self.opdef, attrs)

    def construct(self, x):
        if x.ndim not in (4, 5):
            raise ValueError(f"For '{type(self).__name__}', the dimension of input must be 4 "
                             f"or 5, but got {x.ndim}.")
        if x.ndim == 4:
            return ops.squeeze(self.pool(ops.expand_dims(x, 0)), 0)
        return self.pool(x)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool3d(_Pool3d):
    """Maximum over ``kernel_size`` windows; with ``dilation`` or ``return_indices`` (also
    the flat ``D*H*W`` index of each maximum) it runs ``MaxPool3DWithArgmax``."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)
        self.dilation = triple("MaxPool3d", "dilation", dilation)
        self.return_indices = bool(return_indices)
        if self.dilation != (1, 1, 1) or self.return_indices:
            if pad_mode.lower() == "same":
                raise ValueError("For 'MaxPool3d', 'dilation' and 'return_indices' need "
                                 "pad_mode 'valid' or 'pad'.")
            self.pool = ops.Primitive(PA.MaxPool3DWithArgmax, {
                "ksize": self.kernel_size, "strides": self.stride,
                "pads": triple("MaxPool3d", "padding", padding, 0),
                "dilation": self.dilation, "ceil_mode": bool(ceil_mode)})

    def construct(self, x):
        if self.dilation == (1, 1, 1) and not self.return_indices:
            return super().construct(x)
        if x.ndim not in (4, 5):
            raise ValueError(f"For 'MaxPool3d', the dimension of input must be 4 or 5, but "
                             f"got {x.ndim}.")
        out, index = self.pool(x if x.ndim == 5 else ops.expand_dims(x, 0))
        if x.ndim == 4:
            out, index = ops.squeeze(out, 0), ops.squeeze(index, 0)
        return (out, index) if self.return_indices else out


class AvgPool3d(_Pool3d):
    """Average over ``kernel_size`` windows."""

    opdef = P3.AvgPool3D
    pad_name = "pad"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode,
                         count_include_pad=bool(count_include_pad),
                         divisor_override=divisor_override or 0)


def _adaptive_size(owner: str, output_size) -> tuple:
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * 3
    if not isinstance(output_size, (tuple, list)) or len(output_size) != 3 or any(
            v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1)
            for v in output_size):
        raise ValueError(f"For '{owner}', the 'output_size' must be a positive int or a "
                         f"tuple of 3 positive ints (or None), but got {output_size!r}.")
    return tuple(output_size)


def _check_rank(owner: str, x) -> None:
    if x.ndim not in (4, 5):
        raise ValueError(f"For '{owner}', the dimension of 'input' must be 4 or 5, but got "
                         f"{x.ndim}.")


class AdaptiveAvgPool3d(Cell):
    """Average of each adaptive bin of the last three axes of a ``(N, C, D, H, W)`` or
    ``(C, D, H, W)`` input (None in ``output_size`` keeps an axis): per axis, a product
    with the matrix that averages the bins."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = _adaptive_size("AdaptiveAvgPool3d", output_size)

    def construct(self, input):
        _check_rank("AdaptiveAvgPool3d", input)
        x = input
        for i, out in enumerate(self.output_size):
            axis = x.ndim - 3 + i
            size = x.shape[axis]
            if out is None or out == size:
                continue
            weights = np.zeros((size, out), np.float32)
            for j, (s, e) in enumerate(P.adaptive_bins(size, out)):
                weights[s:e, j] = 1.0 / (e - s)
            moved = ops.swapaxes(x, axis, -1)
            x = ops.swapaxes(ops.matmul(moved, Tensor(weights, x.dtype)), axis, -1)
        return x


class AdaptiveMaxPool3d(Cell):
    """Maximum of each adaptive bin of the last three axes; with ``return_indices`` also
    the flat position of each maximum within its ``D * H * W`` plane (int32)."""

    def __init__(self, output_size, return_indices: bool = False):
        super().__init__()
        self.output_size = _adaptive_size("AdaptiveMaxPool3d", output_size)
        if not isinstance(return_indices, bool):
            raise TypeError(f"For 'AdaptiveMaxPool3d', the 'return_indices' must be bool, but "
                            f"got {type(return_indices).__name__}.")
        self.return_indices = return_indices

    def construct(self, input):
        return ops.adaptive_max_pool3d(input, self.output_size, self.return_indices)


