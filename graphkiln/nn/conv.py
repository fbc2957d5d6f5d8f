"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d``, ``Conv1dTranspose``,
``Conv2dTranspose`` and ``Conv3dTranspose`` with MindSpore's arguments and defaults
(``pad_mode='same'``, ``has_bias=False``, He-uniform weights, 1-D layers stored as 2-D with
a ``(out, in/group, 1, k)`` weight). They run on the ``Conv2D``/``Conv3D`` primitives
(transposed ones on ``Conv*DBackpropInput``)."""
from __future__ import annotations

import math

import graphkiln.nn.init as _init
import graphkiln.ops as ops
import graphkiln.ops.defs.conv as C

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from .basic import check_positive_int
from .cell import Cell


def _tuple(owner: str, name: str, value, n: int, allowed=(1,)) -> tuple:
    """An int repeated ``n`` times, or a tuple of ``n`` positive ints."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * n
    if not isinstance(value, (tuple, list)) or len(value) != n or any(
            isinstance(v, bool) or not isinstance(v, int) or v < min(allowed) for v in value):
        raise ValueError(f"For '{owner}', the '{name}' must be an int or a tuple of {n} ints "
                         f">= {min(allowed)}, but got {value!r}.")
    return tuple(value)


def _padding(owner: str, padding, rank: int) -> tuple:
    """``padding`` as 2*rank ints (before, after per axis); a rank-tuple means symmetric."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        if padding < 0:
            raise ValueError(f"For '{owner}', the 'padding' must be >= 0, but got {padding}.")
        return (padding,) * (2 * rank)
    if isinstance(padding, (tuple, list)) and len(padding) == rank and rank > 1:
        padding = tuple(p for v in padding for p in (v, v))
    return _tuple(owner, "padding", padding, 2 * rank, allowed=(0,))


def _check_pad_mode(owner: str, pad_mode, padding) -> str:
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid", "pad"):
        raise ValueError(f"For '{owner}', the 'pad_mode' must be one of ['same', 'valid', "
                         f"'pad'], but got {pad_mode!r}.")
    if pad_mode.lower() != "pad" and any(padding):
        raise ValueError(f"For '{owner}', the value of 'padding' must be 0 when 'pad_mode' is "
                         f"not 'pad', but got 'padding': {padding} and 'pad_mode': "
                         f"{pad_mode}.")
    return pad_mode.lower()


class _Conv(Cell):
    """Arguments, weight and bias shared by every convolution layer. ``rank`` is the
    spatial rank of the primitive (2 for Conv1d, which runs as a 2-D convolution)."""

    rank = 2
    user_rank = 2
    transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=mstype.float32):
        super().__init__()
        owner = type(self).__name__
        ur = self.user_rank
        self.in_channels = check_positive_int(owner, "in_channels", in_channels)
        self.out_channels = check_positive_int(owner, "out_channels", out_channels)
        self.group = check_positive_int(owner, "group", group)
        for name, v in (("in_channels", in_channels), ("out_channels", out_channels)):
            if v % self.group:
                raise ValueError(f"For '{owner}', the attr '{name}' must be divisible by "
                                 f"attr 'group', but got '{name}': {v} and 'group': {group}.")
        self.kernel_size = _tuple(owner, "kernel_size", kernel_size, ur)
        self.stride = _tuple(owner, "stride", stride, ur)
        self.dilation = _tuple(owner, "dilation", dilation, ur)
        pads = _padding(owner, padding, ur)
        self.pad_mode = _check_pad_mode(owner, pad_mode, pads)
        # MindSpore's Conv1d(Transpose) shows the 2-D convolution's (0, 0, before, after)
        self.padding = padding if self.rank == ur else (0, 0) * (self.rank - ur) + pads
        self.has_bias = bool(has_bias)
        self.data_format = data_format
        lift = (1,) * (self.rank - ur)  # Conv1d runs as a 2-D convolution of height 1
        self._kernel = lift + self.kernel_size
        self._stride = lift + self.stride
        self._dilation = lift + self.dilation
        self._pad = (0, 0) * (self.rank - ur) + pads
        if self.rank != ur:  # MindSpore's Conv1d(Transpose) keeps the 2-D convolution's
            self.kernel_size, self.stride, self.dilation = \
                self._kernel, self._stride, self._dilation
        if self.transposed:
            shape = (in_channels, out_channels // group) + self._kernel
        else:
            shape = (out_channels, in_channels // group) + self._kernel
        self.weight_init = _init.HeUniform(math.sqrt(5)) if weight_init is None \
            else weight_init
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For '{owner}', the shape of 'weight_init' must be {shape}, but "
                             f"got {tuple(weight_init.shape)}.")
        self.weight = Parameter(_init.initializer(self.weight_init, shape, dtype),
                                name="weight")
        self.bias_init = bias_init
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                fan_in = math.prod(shape[1:])
                bias_init = _init.Uniform(1.0 / math.sqrt(fan_in))
                self.bias_init = bias_init
            channels = out_channels
            self.bias = Parameter(_init.initializer(bias_init, (channels,), dtype),
                                  name="bias")

    def _attrs(self, out_channel: int) -> dict:
        return {"out_channel": out_channel, "kernel_size": self._kernel,
                "pad_mode": self.pad_mode, "pad": self._pad, "stride": self._stride,
                "dilation": self._dilation, "group": self.group,
                "data_format": "NCDHW" if self.rank == 3 else "NCHW"}

    def _add_bias(self, y):
        if not self.has_bias:
            return y
        return ops.add(y, ops.reshape(self.bias, (1, -1) + (1,) * (y.ndim - 2)))

    def _lift(self, x):
        if not isinstance(x, Tensor):
            return x  # the primitive names what is wrong with it
        if x.ndim != self.user_rank + 2:
            raise ValueError(f"For '{type(self).__name__}', the dimension of input must be "
                             f"{self.user_rank + 2}, but got {x.ndim}.")
        return ops.expand_dims(x, 2) if self.rank != self.user_rank else x

    def _drop(self, y):
        return ops.squeeze(y, 2) if self.rank != self.user_rank else y

    def extra_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self._kernel}, stride={self._stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self._dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, "
                f"format={self.data_format}")


class _ConvForward(_Conv):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        prim = C.Conv3D if self.rank == 3 else C.Conv2D
        self.conv = ops.Primitive(prim, self._attrs(self.out_channels))

    def construct(self, x):
        return self._drop(self._add_bias(self.conv(self._lift(x), self.weight)))


class Conv1d(_ConvForward):
    """1-D convolution over ``(N, C, L)``."""

    user_rank = 1


class Conv2d(_ConvForward):
    """2-D convolution over ``(N, C, H, W)``."""


class Conv3d(_ConvForward):
    """3-D convolution over ``(N, C, D, H, W)``."""

    rank = 3
    user_rank = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, data_format,
                         dtype)


class _ConvTranspose(_Conv):
    """The adjoint of a convolution: its input gradient with ``weight`` of shape
    ``(in_channels, out_channels/group, *kernel)``."""

    transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=mstype.float32):
        fmt = "NCDHW" if self.rank == 3 else "NCHW"
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, fmt, dtype)
        self.output_padding = _tuple(type(self).__name__, "output_padding", output_padding,
                                     self.user_rank, allowed=(0,))
        self._output_padding = (0,) * (self.rank - self.user_rank) + self.output_padding
        prim = C.Conv3DBackpropInput if self.rank == 3 else C.Conv2DBackpropInput
        self.conv = ops.Primitive(prim, self._attrs(self.in_channels))

    def _out_sizes(self, sizes) -> tuple:
        out = []
        for i, n in enumerate(sizes):
            k, s, d = self._kernel[i], self._stride[i], self._dilation[i]
            if self.pad_mode == "same":
                out.append(n * s)
            elif self.pad_mode == "valid":
                out.append((n - 1) * s + d * (k - 1) + 1)
            else:
                before, after = self._pad[2 * i], self._pad[2 * i + 1]
                out.append((n - 1) * s - before - after + d * (k - 1) + 1
                           + self._output_padding[i])
        return tuple(out)

    def construct(self, x):
        x = self._lift(x)
        sizes = ops.shape(x)  # run-time ints for dynamic dimensions
        size = (sizes[0], self.out_channels) + self._out_sizes(sizes[2:])
        return self._drop(self._add_bias(self.conv(x, self.weight, size)))


class Conv1dTranspose(_ConvTranspose):
    """Transposed 1-D convolution over ``(N, C, L)``."""

    user_rank = 1


class Conv2dTranspose(_ConvTranspose):
    """Transposed 2-D convolution over ``(N, C, H, W)``."""


class Conv3dTranspose(_ConvTranspose):
    """Transposed 3-D convolution over ``(N, C, D, H, W)``."""

    rank = 3
    user_rank = 3
