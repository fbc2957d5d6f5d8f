"""``BiDense``: the bilinear layer ``y_k = x1 @ weight[k] @ x2 + bias_k``."""
from __future__ import annotations

import math

import graphkiln.nn.init as _init
import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from .basic import check_positive_int
from .cell import Cell


class BiDense(Cell):
    """``weight`` has shape (out, in1, in2); both are initialised ``Uniform(1/sqrt(in1))``
    by default. Inputs of rank other than 2 are flattened to (-1, in) and reshaped back."""

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int,
                 weight_init=None, bias_init=None, has_bias: bool = True,
                 dtype=mstype.float32):
        super().__init__()
        self.in1_channels = check_positive_int("BiDense", "in1_channels", in1_channels)
        self.in2_channels = check_positive_int("BiDense", "in2_channels", in2_channels)
        self.out_channels = check_positive_int("BiDense", "out_channels", out_channels)
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'BiDense', the type of 'has_bias' should be 'bool', but got "
                            f"type '{type(has_bias).__name__}'.")
        self.has_bias = has_bias
        shape = (out_channels, in1_channels, in2_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For 'BiDense', weight init shape error. The shape of "
                             f"'weight_init' must be (out_channels, in1_channels, "
                             f"in2_channels) = {shape}, but got {tuple(weight_init.shape)}.")
        bound = 1 / math.sqrt(in1_channels)
        self.weight = Parameter(_init.initializer(
            _init.Uniform(bound) if weight_init is None else weight_init, shape, dtype),
            name="weight")
        self.bias = None
        if has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For 'BiDense', bias init shape error. The shape of "
                                 f"'bias_init' must be ({out_channels},), but got "
                                 f"{tuple(bias_init.shape)}.")
            self.bias = Parameter(_init.initializer(
                _init.Uniform(bound) if bias_init is None else bias_init, (out_channels,),
                dtype), name="bias")

    def construct(self, input1, input2):
        for name, x, n in (("input1", input1, self.in1_channels),
                           ("input2", input2, self.in2_channels)):
            if not isinstance(x, Tensor):
                raise TypeError(f"For 'BiDense', the '{name}' must be a Tensor, but got "
                                f"{type(x).__name__}.")
            if x.shape[-1] != n:
                raise ValueError(f"For 'BiDense', the last dimension of '{name}' must equal "
                                 f"'{'in1' if name == 'input1' else 'in2'}_channels' {n}, "
                                 f"but got {x.shape[-1]}.")
        if tuple(input1.shape[:-1]) != tuple(input2.shape[:-1]):
            raise ValueError(f"For 'BiDense', the inputs must have the same leading shape, but "
                             f"got {input1.shape} and {input2.shape}.")
        out = ops.bidense(input1, input2, self.weight)
        return out if self.bias is None else ops.add(out, self.bias)
