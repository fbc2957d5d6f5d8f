"""The Bayesian 2-D convolution: its kernel (and bias) drawn from a trainable Normal
posterior at every call."""
from __future__ import annotations

import graphkiln.ops as ops

from ....common.initializer import initializer
from ....common.parameter import Parameter
from .dense_variational import _check_positive_int, _Variational
from .layer_distribution import NormalPrior, normal_post_fn


def _twice(value):
    return (value, value) if isinstance(value, int) else tuple(value)


class _ConvVariational(_Variational):
    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                 pad_mode: str = "same", padding=0, dilation=1, group: int = 1,
                 has_bias: bool = False, weight_prior_fn=NormalPrior,
                 weight_posterior_fn=normal_post_fn, bias_prior_fn=NormalPrior,
                 bias_posterior_fn=normal_post_fn):
        super().__init__()
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"Attr 'pad_mode' of 'Conv2d' Op passed {pad_mode}, should be "
                             f"one of values in 'valid', 'same', 'pad'.")
        self.in_channels = _check_positive_int("in_channels", in_channels)
        self.out_channels = _check_positive_int("out_channels", out_channels)
        self.kernel_size = _twice(kernel_size)
        self.stride = _twice(stride)
        self.dilation = _twice(dilation)
        self.pad_mode, self.padding, self.group = pad_mode, padding, group
        self.shape = [out_channels, in_channels // group, *self.kernel_size]
        # MindSpore's Conv2d weight and bias, kept (frozen, unused) as its layer has them
        self.weight = Parameter(initializer("normal", self.shape), name="weight",
                                requires_grad=False)
        if has_bias:
            self.bias = Parameter(initializer("zeros", [out_channels]), name="bias",
                                  requires_grad=False)
        self._set_distributions(self.shape, has_bias, weight_prior_fn, weight_posterior_fn,
                                bias_prior_fn, bias_posterior_fn)
        self.conv2d = ops.Conv2D(out_channel=out_channels, kernel_size=self.kernel_size,
                                 mode=1, pad_mode=pad_mode, pad=padding, stride=self.stride,
                                 dilation=self.dilation, group=group)

    def construct(self, inputs):
        outputs = self._apply_variational_weight(inputs)
        if self.has_bias:
            outputs = self.apply_variational_bias(outputs)
        return outputs

    def extend_repr(self) -> str:
        return (f"in_channels={self.in_channels}, out_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self.dilation}, group={self.group}, " + self._posterior_repr())


class ConvReparam(_ConvVariational):
    """Conv2d whose kernel is sampled from its posterior (reparameterization)."""

    def _apply_variational_weight(self, inputs):
        return self.conv2d(inputs, self.weight_posterior("sample"))
