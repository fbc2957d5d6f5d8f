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
        if isinstance(weight_init, Tensor):
            weight_init = self._weight_tensor(owner, weight_init, shape)
        self.weight_init = _init.HeUniform(math.sqrt(5)) if weight_init is None \
            else weight_init
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

    def _weight_tensor(self, owner: str, w: Tensor, shape: tuple) -> Tensor:
        """A user's weight Tensor; a 1-D layer takes it 3-D, as MindSpore's, and stores it
        with the height of 1 its 2-D convolution has."""
        lifted = self.rank != self.user_rank
        if lifted and w.ndim != 3:
            raise ValueError(f"For '{owner}', the 'weight_init_shape' must be int and must = "
                             f"3, but got '{w.ndim}' with type 'int'.")
        if lifted:
            w = ops.expand_dims(w, 2)
        if tuple(w.shape) != shape:
            raise ValueError(f"For 'initializer', the shape of the 'init' argument should be "
                             f"same as the argument 'shape', but got the 'init' shape "
                             f"{list(w.shape)} and the 'shape' {list(shape)}.")
        return w

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


def _deconv_output_length(is_valid: bool, is_same: bool, is_pad: bool, input_length: int,
                          filter_size: int, stride_size: int, dilation_size: int,
                          padding: int) -> int:
    """One output length of a transposed convolution, as MindSpore's layers size it
    (``padding``: both sides' sum; 'valid' never yields less than ``input * stride``)."""
    span = (filter_size - 1) * dilation_size + 1
    if is_valid:
        return input_length * stride_size + max(span - stride_size, 0)
    if is_same:
        return input_length * stride_size
    if is_pad:
        return input_length * stride_size - padding + span - stride_size
    return 0


class _ConvTranspose(_Conv):
    """The adjoint of a convolution: its input gradient with ``weight`` of shape
    ``(in_channels, out_channels/group, *kernel)``. ``output_padding`` lengthens each
    spatial dimension: computed by Conv3dTranspose, zeros appended by Conv2dTranspose (as
    MindSpore's layers do)."""

    transposed = True
    zero_output_padding = False

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 output_padding, dilation, group, has_bias, weight_init, bias_init, dtype):
        fmt = "NCDHW" if self.rank == 3 else "NCHW"
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, fmt, dtype)
        self.is_valid = self.pad_mode == "valid"
        self.is_same = self.pad_mode == "same"
        self.is_pad = self.pad_mode == "pad"
        self.output_padding = output_padding
        self._output_padding = _tuple(type(self).__name__, "output_padding", output_padding,
                                      self.user_rank, allowed=(0,))
        prim = C.Conv3DBackpropInput if self.rank == 3 else C.Conv2DBackpropInput
        self.conv = ops.Primitive(prim, self._attrs(self.in_channels))
        self.pad = None
        if self.zero_output_padding and any(self._output_padding):
            lead = ((0, 0),) * (self.rank + 2 - self.user_rank)
            self.pad = ops.Pad(lead + tuple((0, p) for p in self._output_padding))

    def _out_sizes(self, sizes) -> tuple:
        return tuple(_deconv_output_length(
            self.is_valid, self.is_same, self.is_pad, n, self._kernel[i], self._stride[i],
            self._dilation[i], self._pad[2 * i] + self._pad[2 * i + 1])
            + (0 if self.zero_output_padding else self._output_padding[i])
            for i, n in enumerate(sizes))

    def construct(self, x):
        x = self._lift(x)
        sizes = ops.shape(x)  # run-time ints for dynamic dimensions
        size = (sizes[0], self.out_channels) + self._out_sizes(sizes[2:])
        y = self._add_bias(self.conv(x, self.weight, size))
        if self.pad is not None:
            y = self.pad(y)
        return self._drop(y)


class Conv1dTranspose(_ConvTranspose):
    """Transposed 1-D convolution over ``(N, C, L)`` (no ``output_padding``, as
    MindSpore's)."""

    user_rank = 1
    zero_output_padding = True  # always 0: the lifted height has no entry

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, 0,
                         dilation, group, has_bias, weight_init, bias_init, dtype)


class Conv2dTranspose(_ConvTranspose):
    """Transposed 2-D convolution over ``(N, C, H, W)``; a bad ``output_padding`` raises
    when the layer runs, as MindSpore's does."""

    zero_output_padding = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         output_padding, dilation, group, has_bias, weight_init, bias_init,
                         dtype)

    def _output_padding_error(self) -> str | None:
        """What is wrong with ``output_padding`` (MindSpore's words), or None."""
        for i, p in enumerate(self._output_padding):
            if p >= max(self._stride[i], self._dilation[i]):
                name = f"output_padding[{i}]" if isinstance(self.output_padding, tuple) \
                    else "output_padding"
                return (f"{name} must be in range of [0, max(stride_{'hw'[i]}, "
                        f"dilation_{'hw'[i]})).")
        if any(self._output_padding) and not self.is_pad:
            return "when output_padding is not zero, pad_mode must be 'pad'"
        return None

    def construct(self, x):
        error = self._output_padding_error()
        if error is not None:
            raise ValueError(error)
        return super().construct(x)


class Conv3dTranspose(_ConvTranspose):
    """Transposed 3-D convolution over ``(N, C, D, H, W)``; a bad ``output_padding``
    raises at construction, as MindSpore's ``Conv3DTranspose`` does."""

    rank = 3
    user_rank = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         output_padding, dilation, group, has_bias, weight_init, bias_init,
                         dtype)
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3dTranspose', the 'format' must be str and must be "
                             f"in '['NCHW', 'NHWC', 'NCDHW']', but got {data_format!r}.")
        self.output_padding = pads = self._output_padding
        for i, p in enumerate(pads):
            bound = max(self._stride[i], self._dilation[i])
            if p >= bound:
                d = "dhw"[i]
                raise ValueError(
                    f"For 'Conv3DTranspose', the 'output_padding_{d} belonging [0, "
                    f"max(stride_{d}, dilation_{d}))' must be in range of [0, {bound}), but "
                    f"got {p} with type 'int'.")
        if any(pads) and not self.is_pad:
            raise ValueError(
                f"For 'Conv3DTranspose', the 'output_padding' must be zero or (0, 0, 0) when "
                f"'pad_mode' is not \"pad\", but got 'output_padding' is {pads} and "
                f"'pad_mode' is {self.pad_mode}.")
