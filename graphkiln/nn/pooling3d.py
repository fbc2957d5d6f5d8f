"""``nn.MaxPool3d`` and ``nn.AvgPool3d`` (MindSpore's arguments: ``kernel_size=1``,
``stride=1``, ``pad_mode='valid'``) on the ``MaxPool3D``/``AvgPool3D`` primitives, for
``(N, C, D, H, W)`` or unbatched ``(C, D, H, W)`` inputs."""
from __future__ import annotations

import graphkiln.ops as ops
import graphkiln.ops.defs.pool3d as P3

from ..ops.pool3d import triple
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
    """Maximum over ``kernel_size`` windows."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        if triple("MaxPool3d", "dilation", dilation) != (1, 1, 1) or return_indices:
            raise ValueError("For 'MaxPool3d', graphkiln supports only 'dilation' 1 and "
                             "'return_indices' False so far.")
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)


class AvgPool3d(_Pool3d):
    """Average over ``kernel_size`` windows."""

    opdef = P3.AvgPool3D
    pad_name = "pad"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode,
                         count_include_pad=bool(count_include_pad),
                         divisor_override=divisor_override or 0)
