"""``ops.Conv3DTranspose`` and ``ops.conv3d_transpose``: the transposed 3-D convolution, the
input gradient (``Conv3DBackpropInput``) of the convolution whose weight is ``weight``, the
output sized from the input as MindSpore's primitive sizes it. Its gradient and vmap are
those of ``Conv3DBackpropInput``."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .composed_primitives import _Composed
from .defs.conv import Conv3DBackpropInput
from .dynamic_shape import shape_of

__all__ = ["Conv3DTranspose"]  # the primitive class (P.Conv3DTranspose)

_NAME = "Conv3DTranspose"


def _positive_int(arg: str, v) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"For '{_NAME}', the '{arg}' must be int, but got "
                        f"'{type(v).__name__}'")
    if v <= 0:
        raise ValueError(f"For '{_NAME}', the '{arg}' must be int and must > 0, but got '{v}' "
                         f"with type 'int'.")
    return v


def _triple(arg: str, v, minimum: int = 1) -> tuple:
    """An int repeated three times, or a tuple of three ints >= ``minimum``."""
    values = (v,) * 3 if isinstance(v, int) and not isinstance(v, bool) else v
    if not isinstance(values, (tuple, list)) or len(values) != 3 or any(
            isinstance(e, bool) or not isinstance(e, int) or e < minimum for e in values):
        raise ValueError(f"For '{_NAME}', the parameter '{arg}' must be an positive integer or "
                         f"a tuple of three positive integer, but got {v}")
    return tuple(values)


class Conv3DTranspose(_Composed):
    """``(dout, weight) ->`` the transposed 3-D convolution of ``dout`` ``(N, C_in, D, H,
    W)`` with ``weight`` ``(C_in, C_out / group, kD, kH, kW)``: float16 or float32, NCDHW."""

    def __init__(self, in_channel: int, out_channel: int, kernel_size, mode: int = 1,
                 pad_mode: str = "valid", pad=0, stride=1, dilation=1, group: int = 1,
                 output_padding=0, data_format: str = "NCDHW"):
        self.in_channel = _positive_int("in_channel", in_channel)
        self.out_channel = _positive_int("out_channel", out_channel)
        self.kernel_size = _triple("kernel_size", kernel_size)
        self.stride = _triple("stride", stride)
        self.dilation = _triple("dilation", dilation)
        if self.dilation[0] != 1:
            raise ValueError(f"For '{_NAME}', the depth of parameter 'dilation' must be 1, but "
                             f"got {self.dilation[0]}.")
        if isinstance(pad, bool) or not isinstance(pad, (int, tuple)):
            raise TypeError(f"For '{_NAME}', the 'pad' must be int or tuple, but got "
                            f"{type(pad).__name__}.")
        pads = (pad,) * 6 if isinstance(pad, int) else pad
        if len(pads) != 6:
            raise ValueError(f"For '{_NAME}', attr 'pad' must be an positive int number or a "
                             f"tuple of six positive int numbers, but got {pad}.")
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{_NAME}', the 'pad_mode' must be str and must be in "
                             f"'['valid', 'same', 'pad']', but got {pad_mode!r}.")
        self.pad_mode = pad_mode.lower()
        if self.pad_mode != "pad" and pads != (0,) * 6:
            raise ValueError(f"For '{_NAME}', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when "
                             f"'pad_mode' is not \"pad\", but got 'pad' is {pad} and "
                             f"'pad_mode' is {pad_mode}.")
        for p in pads:
            if isinstance(p, bool) or not isinstance(p, int) or p < 0:
                raise ValueError(f"For '{_NAME}', the 'pad item' must be int and must >= 0, "
                                 f"but got '{p}' with type '{type(p).__name__}'.")
        self.pad_list = tuple(pads)
        if mode != 1:
            raise ValueError(f"For '{_NAME}', the 'mode' must be int and must = 1, but got "
                             f"'{mode}' with type '{type(mode).__name__}'.")
        self.mode = mode
        if isinstance(group, bool) or not isinstance(group, int):
            raise TypeError(f"For '{_NAME}', the 'group' must be int, but got "
                            f"'{type(group).__name__}'.")
        if not 1 <= group <= out_channel:
            raise ValueError(f"For '{_NAME}', the 'group' must be in range of [1, "
                             f"{out_channel}], but got {group} with type 'int'.")
        if out_channel % group:
            raise ValueError("The argument 'group' should be divisible by 'out_channel'")
        self.group = group
        if data_format != "NCDHW":
            raise ValueError(f"For '{_NAME}', the 'format' must be str and must be in "
                             f"'['NCDHW']', but got {data_format!r}.")
        self.format = data_format
        self.output_padding = _triple("output_padding", output_padding, 0)
        if self.pad_mode != "pad" and any(self.output_padding):
            raise ValueError(f"For '{_NAME}', the 'output_padding' must be zero or (0, 0, 0) "
                             f"when 'pad_mode' is not \"pad\", but got 'output_padding' is "
                             f"{output_padding} and 'pad_mode' is {pad_mode}.")
        for d, p, s, dl in zip("dhw", self.output_padding, self.stride, self.dilation):
            if not 0 <= p < max(s, dl):
                raise ValueError(f"For '{_NAME}', the 'output_padding_{d} belonging [0, "
                                 f"max(stride_{d}, dilation_{d}))' must be in range of [0, "
                                 f"{max(s, dl)}), but got {p} with type 'int'.")

    def _check(self, dout, weight) -> None:
        for arg, t in (("x", dout), ("filter", weight)):
            if not isinstance(t, Tensor):
                raise TypeError(f"For primitive[{_NAME}], the input argument[{arg}] must be a "
                                f"Tensor, but got {type(t).__name__}.")
            if t.ndim != 5:
                raise ValueError(f"For primitive[{_NAME}], the {arg} shape size must be equal "
                                 f"to 5, but got {t.ndim}.")
            if t.dtype not in (mstype.float16, mstype.float32):
                raise TypeError(f"For primitive[{_NAME}], the input argument[{arg}] must be a "
                                f"type of {{Tensor[Float16], Tensor[Float32]}}, but got "
                                f"Tensor[{t.dtype}].")
        if dout.dtype != weight.dtype:
            raise TypeError(f"For primitive[{_NAME}], the input type must be same.")
        if dout.shape[1] >= 0 and weight.shape[0] != dout.shape[1]:
            raise ValueError(f"For primitive[{_NAME}], the filter's batch, input x's channel "
                             f"must be equal to {dout.shape[1]}, but got {weight.shape[0]}.")
        if tuple(weight.shape[2:]) != self.kernel_size:
            raise ValueError(f"For '{_NAME}', the dimension 'DHW' of input 'weight' must be  "
                             f"equal to the shape of 'kernel size', but got 'DHW' of input "
                             f"'weight': {tuple(weight.shape[2:])}, and 'kernel size': "
                             f"{self.kernel_size}.")

    def _out_size(self, i: int, n):
        span = (self.kernel_size[i] - 1) * self.dilation[i] + 1
        if self.pad_mode == "same":
            return n * self.stride[i]
        if self.pad_mode == "valid":  # never less than input * stride
            return n * self.stride[i] + max(span - self.stride[i], 0)
        pad = self.pad_list[2 * i] + self.pad_list[2 * i + 1]
        return (n - 1) * self.stride[i] - pad + span + self.output_padding[i]

    def __call__(self, dout: Tensor, weight: Tensor) -> Tensor:
        self._check(dout, weight)
        sizes = shape_of(dout)
        size = (sizes[0], weight.shape[1] * self.group) + tuple(
            self._out_size(i, n) for i, n in enumerate(sizes[2:]))
        return Conv3DBackpropInput(
            dout, weight, size, out_channel=weight.shape[0], kernel_size=self.kernel_size,
            pad_mode=self.pad_mode, pad=self.pad_list, stride=self.stride,
            dilation=self.dilation, group=self.group)


def conv3d_transpose(inputs: Tensor, weight: Tensor, pad_mode: str = "valid", padding=0,
                     stride=1, dilation=1, group: int = 1, output_padding=0) -> Tensor:
    """The transposed 3-D convolution of ``inputs`` with ``weight`` (see
    :class:`Conv3DTranspose`; the channels and kernel read from the Tensors)."""
    if inputs.ndim != 5:
        raise ValueError("the rank of inputs tensor should be 5.")
    if weight.ndim != 5:
        raise ValueError("the rank of weight tensor should be 5.")
    return Conv3DTranspose(inputs.shape[1], weight.shape[1], tuple(weight.shape[2:]), 1,
                           pad_mode, padding, stride, dilation, group, output_padding)(
        inputs, weight)
