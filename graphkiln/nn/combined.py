"""MindSpore's ``nn.layer.combined``: ``Conv2dBnAct`` and ``DenseBnAct``, a convolution or
dense layer followed by an optional batch norm and an optional activation."""
from __future__ import annotations

from ..ir.primitive import Primitive
from .activation import LeakyReLU, get_activation
from .basic import Dense
from .cell import Cell
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d


def _check_bool(cls_name: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the '{name}' must be a bool, "
                        f"but got {type(value).__name__}.")
    return value


class _LayerBnAct(Cell):
    """``layer -> batchnorm (if has_bn) -> activation (if any)``; ``activation`` is a name
    (``'leakyrelu'`` uses ``alpha``), a Cell or a Primitive."""

    def _set_tail(self, channels: int, norm_cls, has_bn, momentum, eps, activation, alpha,
                  after_fake) -> None:
        self.has_bn = _check_bool(self.cls_name, "has_bn", has_bn)
        self.after_fake = _check_bool(self.cls_name, "after_fake", after_fake)
        self.has_act = activation is not None
        if has_bn:
            self.batchnorm = norm_cls(channels, eps, momentum)
        if activation == "leakyrelu":
            self.activation = LeakyReLU(alpha)
        else:
            self.activation = (get_activation(activation) if isinstance(activation, str)
                               else activation)
            if activation is not None and not isinstance(self.activation, (Cell, Primitive)):
                raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell "
                                f"or Primitive, but got {type(activation).__name__}.")

    def _tail(self, x):
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class Conv2dBnAct(_LayerBnAct):
    """``Conv2d`` (``pad_mode='same'``, no bias by default), then ``BatchNorm2d`` and the
    activation."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                 pad_mode: str = "same", padding=0, dilation=1, group: int = 1,
                 has_bias: bool = False, weight_init="normal", bias_init="zeros",
                 has_bn: bool = False, momentum: float = 0.997, eps: float = 1e-5,
                 activation=None, alpha: float = 0.2, after_fake: bool = True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                           pad_mode=pad_mode, padding=padding, dilation=dilation, group=group,
                           has_bias=has_bias, weight_init=weight_init, bias_init=bias_init)
        self._set_tail(out_channels, BatchNorm2d, has_bn, momentum, eps, activation, alpha,
                       after_fake)

    def construct(self, x):
        return self._tail(self.conv(x))


class DenseBnAct(_LayerBnAct):
    """``Dense`` (with bias by default), then ``BatchNorm1d`` and the activation."""

    def __init__(self, in_channels: int, out_channels: int, weight_init="normal",
                 bias_init="zeros", has_bias: bool = True, has_bn: bool = False,
                 momentum: float = 0.9, eps: float = 1e-5, activation=None, alpha: float = 0.2,
                 after_fake: bool = True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self._set_tail(out_channels, BatchNorm1d, has_bn, momentum, eps, activation, alpha,
                       after_fake)

    def construct(self, x):
        return self._tail(self.dense(x))
