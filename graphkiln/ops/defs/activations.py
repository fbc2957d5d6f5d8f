"""Elementwise activations beyond :mod:`.math`: ``Mish`` (``x * tanh(softplus(x))``),
``SeLU`` (scaled ELU with the self-normalising constants) and ``SoftShrink`` (moves values
toward zero by ``lambd``, zeroing ``[-lambd, lambd]``), with ``SoftShrinkGrad`` (MindSpore's
primitive for its backward pass).

Dtypes as MindSpore 2.10's CPU kernels (measured by hand); float16 SeLU and SoftShrink
compute in float32.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import FLOATS, broadcast_shapes, describe, quiet
from .math import unary

SELU_ALPHA = 1.6732632423543772
SELU_SCALE = 1.0507009873554805


def _wide(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _mish(x):
    if x.dtype == np.float16:  # step by step in float16, as MindSpore's float16 kernel rounds
        return x * np.tanh(np.log(np.exp(x) + np.float16(1)))
    return x * np.tanh(np.logaddexp(0, x))


def _selu(x):
    if x.dtype.kind == "i":  # MindSpore's integer kernel keeps only the scaled positive part
        return np.where(x > 0, np.trunc(x * SELU_SCALE), 0).astype(x.dtype)
    w = _wide(x)
    return SELU_SCALE * np.where(w > 0, w, SELU_ALPHA * np.expm1(np.minimum(w, 0)))


def _check_lambd(lambd=0.5):
    # MindSpore takes a bool, an int or a float (``True`` shrinks by 1)
    if not isinstance(lambd, (int, float)):
        raise TypeError(f"For 'SoftShrink', the 'lambd' must be a float, but got "
                        f"{type(lambd).__name__}.")
    if lambd < 0:
        raise RuntimeError(f"For 'SoftShrink', the values for lambd should be greater or "
                           f"equal to 0, but found to be [{lambd}].")


def _soft_shrink(x, lambd=0.5):
    w = _wide(x)
    return np.where(w > lambd, w - lambd, np.where(w < -lambd, w + lambd, 0))


def _relu6(x):
    return np.minimum(np.maximum(x, 0), 6).astype(x.dtype, copy=False)


_SHRINK_TYPES = (mstype.float16, mstype.float32)

Mish = unary("Mish", _mish, FLOATS)
SeLU = unary("SeLU", _selu, FLOATS + (mstype.int32, mstype.int8))
ReLU6 = unary("ReLU6", _relu6, FLOATS + (mstype.int8, mstype.int16, mstype.int32,
                                         mstype.int64, mstype.uint8))
SoftShrink = unary("SoftShrink", _soft_shrink, _SHRINK_TYPES, attrs={"lambd": 0.5},
                   check_attrs=_check_lambd)


def _soft_shrink_grad_infer(input_grad, input_x, lambd=0.5):
    _check_lambd(lambd)
    for arg, a in (("input_grad", input_grad), ("input_x", input_x)):
        if not isinstance(a, AbstractTensor) or a.dtype not in _SHRINK_TYPES:
            raise TypeError(f"For 'SoftShrinkGrad', the '{arg}' must be a Tensor of float16 "
                            f"or float32, but got {describe(a)}.")
    if input_grad.dtype is not input_x.dtype:
        raise TypeError(f"For 'SoftShrinkGrad', 'input_grad' and 'input_x' must have the same "
                        f"dtype, but got {input_grad.dtype} and {input_x.dtype}.")
    return AbstractTensor(input_x.dtype, broadcast_shapes("SoftShrinkGrad", input_grad.shape,
                                                          input_x.shape))


@quiet
def _soft_shrink_grad(input_grad, input_x, lambd=0.5):
    keep = np.abs(input_x) > lambd
    return np.where(keep, input_grad, 0).astype(input_x.dtype)


# the cotangent of SoftShrink: ``input_grad`` where |input_x| > lambd, else 0
SoftShrinkGrad = OpDef("SoftShrinkGrad", _soft_shrink_grad_infer, _soft_shrink_grad,
                       attrs={"lambd": 0.5})


def _prelu_infer(x, weight):
    for arg, a in (("x", x), ("weight", weight)):
        if not isinstance(a, AbstractTensor) or a.dtype not in _SHRINK_TYPES:
            raise TypeError(f"For primitive[PReLU], the input argument[{arg}] must be a type of "
                            f"{{Float16, Float32}}, but got {describe(a)}.")
    if len(weight.shape) > 1:
        raise ValueError("The dimension of 'weight' must be less than or equal to 1")
    channels = x.shape[1] if len(x.shape) >= 2 else 1
    count = weight.shape[0] if weight.shape else 1
    if count not in (1, channels) and count >= 0 and channels >= 0:
        raise ValueError(f"For 'Prelu', the length of 'weight' must be equal to number of "
                         f"channels: {channels}, but got {count}.")
    return AbstractTensor(x.dtype, tuple(x.shape))


def prelu_slopes(x_ndim: int, weight):
    """``weight`` shaped to broadcast along axis 1 (the channels) of an ``x_ndim``-D input."""
    w = np.asarray(weight).reshape(-1)
    return w.reshape((1, -1) + (1,) * (x_ndim - 2)) if x_ndim >= 2 else w.reshape(())


@quiet
def _prelu(x, weight):
    return np.where(x > 0, x, x * prelu_slopes(x.ndim, weight)).astype(x.dtype)


# ``x`` where positive, else ``weight * x`` with one slope per channel (axis 1) or one shared
PReLU = OpDef("PReLU", _prelu_infer, _prelu)
