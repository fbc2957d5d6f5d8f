"""Activation functions composed of primitives (``ops.silu``, ``ops.softsign``,
``ops.leaky_relu``, ``ops.glu``...), with MindSpore 2.10's names, arguments and defaults;
they get their gradients from the primitives' rules. (The Cells of the same activations are
in ``nn/activation.py``.)"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .defs import nn as NN
from .defs._infer import norm_axis
from .random_functions import uniform

__all__ = ["silu", "softsign", "softmin", "tanhshrink", "threshold", "logsigmoid",
           "hardsigmoid", "hardtanh", "glu", "leaky_relu", "rrelu", "bias_add"]


def _float_tensor(name: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if not x.dtype.is_float:
        raise TypeError(f"For '{name}', the input must be a float Tensor, but got {x.dtype}.")
    return x


def silu(input) -> Tensor:  # noqa: A002 - MindSpore's argument names
    """``input * sigmoid(input)``."""
    x = _float_tensor("silu", input)
    return F.mul(x, F.sigmoid(x))


def softsign(x) -> Tensor:
    """``x / (1 + |x|)``."""
    x = _float_tensor("softsign", x)
    return F.div(x, F.add(F.abs(x), 1.0))


def softmin(x, axis=-1, *, dtype=None) -> Tensor:
    """``softmax(-x)`` along ``axis`` (computed in ``dtype`` when given)."""
    x = _float_tensor("softmin", x) if dtype is None else F.cast(x, dtype)
    return F.softmax(F.neg(x), axis)


def tanhshrink(input) -> Tensor:  # noqa: A002
    """``input - tanh(input)``."""
    x = _float_tensor("tanhshrink", input)
    return F.sub(x, F.tanh(x))


def threshold(input, thr, value) -> Tensor:  # noqa: A002
    """``input`` where it is above ``thr``, else ``value``."""
    x = _float_tensor("threshold", input)
    return F.select(F.greater(x, thr), x, F.fill(x.dtype, tuple(x.shape), value))


def logsigmoid(x) -> Tensor:
    """``log(sigmoid(x))``, as ``-softplus(-x)`` (no overflow)."""
    x = _float_tensor("logsigmoid", x)
    return F.neg(F.softplus(F.neg(x)))


_HSIGMOID_INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)


def hardsigmoid(input) -> Tensor:  # noqa: A002
    """``relu6(input + 3) / 6``; its gradient is 1/6 strictly inside (-3, 3) and 0 at the
    ends, as MindSpore's (``relu6``'s own gradient would count 3)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'hardsigmoid', the input must be a Tensor, but got "
                        f"{type(input).__name__}.")
    x = input
    if x.dtype in _HSIGMOID_INTS:  # integer arithmetic: (x + 3) / 6 is 0 below 3, then 1
        return F.cast(F.greater_equal(x, 3), x.dtype)
    if not x.dtype.is_float:
        raise TypeError(f"For primitive[HSigmoid], the input argument[input_x] must be a type "
                        f"of {{BFloat16, Float16, Float32, Float64, Int16, Int32, Int64, Int8}}, "
                        f"but got {x.dtype}.")
    inner = F.div(F.add(x, 3.0), 6.0)
    return F.select(F.less_equal(x, -3.0), F.zeros_like(x),
                    F.select(F.greater_equal(x, 3.0), F.ones_like(x), inner))


def hardtanh(input, min_val=-1.0, max_val=1.0) -> Tensor:  # noqa: A002
    """``input`` limited to ``[min_val, max_val]`` (integer inputs too, as MindSpore's)."""
    x = input
    if min_val > max_val:
        raise ValueError(f"For 'hardtanh', 'min_val' must be less than or equal to "
                         f"'max_val', but got {min_val} and {max_val}.")
    if not x.dtype.is_float:
        min_val, max_val = int(min_val), int(max_val)
    return F.minimum(F.maximum(x, min_val), max_val)


def glu(x, axis=-1) -> Tensor:
    """The first half of ``x`` along ``axis`` times the sigmoid of the second half."""
    x = _float_tensor("glu", x)
    a = norm_axis("glu", axis, x.ndim)
    if x.shape[a] % 2:
        raise ValueError(f"For 'glu', the size of 'x' along 'axis' must be even, but got "
                         f"{x.shape[a]}.")
    return glu_halves(x, a)


def glu_halves(x, axis: int) -> Tensor:
    """``first * sigmoid(second)`` of the two halves of ``x`` along ``axis`` (of even size;
    an empty axis splits too). Shared by ``ops.glu``, ``nn.GLU`` and ``mint.nn.functional.glu``,
    which check the size each with its own MindSpore message."""
    half = x.shape[axis] // 2
    first, second = F.split(x, [half, half], axis)
    return F.mul(first, F.sigmoid(second))


def leaky_relu(input, alpha=0.2) -> Tensor:  # noqa: A002
    """``input`` where positive, else ``alpha * input``."""
    x = _float_tensor("leaky_relu", input)
    return F.select(F.greater(x, 0), x, F.mul(x, alpha))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3) -> Tensor:  # noqa: A002
    """``input`` where positive, else ``input`` times a slope drawn uniformly from
    ``[lower, upper)`` for each element."""
    for name, v in (("upper", upper), ("lower", lower)):
        if isinstance(v, bool) or not isinstance(v, (float, int)):
            raise TypeError(f"For 'rrelu', '{name}' must be an int or a float, but got "
                            f"{type(v)}")
    if lower > upper:
        raise ValueError(f"For 'rrelu', the value of 'upper' must be greater than or equal to "
                         f"'lower', but got upper: {upper}, lower: {lower}. ")
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'rrelu', the 'input' must be a Tensor but got {type(input)}.")
    slopes = uniform(tuple(input.shape), Tensor(float(lower), mstype.float32),
                     Tensor(float(upper), mstype.float32))
    scale = F.select(F.less(input, 0), F.cast(slopes, input.dtype),
                     F.cast(F.greater(input, 0), input.dtype))
    return F.mul(scale, input)


def bias_add(input_x, bias) -> Tensor:
    """``input_x`` plus ``bias`` along its channel axis (the second)."""
    return NN.BiasAdd(input_x, bias)
