"""Activation cells with MindSpore's names, arguments and defaults, built from ``ops`` so
they trace into graphs: ReLU, ReLU6, LeakyReLU, GELU, SiLU, HSwish, HSigmoid, Sigmoid,
Tanh, Softmax, LogSoftmax, Mish, ELU, PReLU, CELU, SeLU, Hardtanh, Softsign, Softmin,
Softmax2d, Tanhshrink, Threshold, LogSigmoid, SoftShrink, HShrink, GLU, RReLU, LRN and
``get_activation``."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..ops.activation_functions import glu_halves
from .cell import Cell


def _check_number(owner: str, name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{owner}', the '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    return float(value)


def _check_axis(owner: str, axis):
    if isinstance(axis, bool) or not isinstance(axis, (int, tuple)):
        raise TypeError(f"For '{owner}', the 'axis' must be int or tuple, but got "
                        f"{type(axis).__name__}.")
    return axis


class ReLU(Cell):
    """``max(input, 0)`` elementwise."""

    def __init__(self):
        super().__init__()
        self.relu = ops.ReLU()

    def construct(self, input):
        return self.relu(input)


class ReLU6(Cell):
    """``min(max(x, 0), 6)`` elementwise."""

    def construct(self, x):
        return ops.minimum(ops.relu(x), 6.0)


class LeakyReLU(Cell):
    """``x`` where positive, else ``alpha * x`` (``max(alpha x, x)`` for alpha <= 1)."""

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = _check_number("LeakyReLU", "alpha", alpha)

    def construct(self, x):
        if self.alpha <= 1:
            return ops.maximum(ops.mul(x, self.alpha), x)
        return ops.minimum(ops.mul(x, self.alpha), x)


class FastGelu(Cell):
    """``x * sigmoid(1.702 x)`` (the ``FastGeLU`` primitive)."""

    def __init__(self):
        super().__init__()
        self.fast_gelu = ops.FastGeLU()

    def construct(self, x):
        return self.fast_gelu(x)


class GELU(Cell):
    """Gaussian error linear unit; ``approximate=True`` (MindSpore's default) is the tanh
    form ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``, ``False`` the erf form."""

    def __init__(self, approximate: bool = True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', the 'approximate' must be bool, but got "
                            f"{type(approximate).__name__}.")
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x):
        return ops.gelu(x, approximate=self.approximate)


class SiLU(Cell):
    """``x * sigmoid(x)``."""

    def construct(self, x):
        return ops.mul(x, ops.sigmoid(x))


class HSwish(Cell):
    """``x * relu6(x + 3) / 6``."""

    def construct(self, x):
        return ops.hardswish(x)


class HSigmoid(Cell):
    """``relu6(x + 3) / 6``."""

    def construct(self, x):
        return ops.div(ops.minimum(ops.relu(ops.add(x, 3.0)), 6.0), 6.0)


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))``."""

    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    """Hyperbolic tangent."""

    def construct(self, x):
        return ops.tanh(x)


class Softmax(Cell):
    """``exp(x) / sum(exp(x))`` along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.softmax = ops.Softmax(_check_axis("Softmax", axis))

    def construct(self, input):
        return self.softmax(input)


class LogSoftmax(Cell):
    """``x - logsumexp(x)`` along ``axis`` (stable in float16 and float32)."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _check_axis("LogSoftmax", axis)

    def construct(self, x):
        return ops.log_softmax(x, self.axis)


class Mish(Cell):
    """``x * tanh(softplus(x))``."""

    def construct(self, x):
        return ops.mul(x, ops.tanh(ops.softplus(x)))


class ELU(Cell):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``; MindSpore's CPU kernel accepts
    only ``alpha=1.0`` (other values fail when called, as there)."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _check_number("ELU", "alpha", alpha)

    def construct(self, x):
        if self.alpha != 1.0:
            raise ValueError("For 'Elu', alpha must be 1.0f.")
        return ops.select(ops.greater(x, 0.0), x, ops.sub(ops.exp(ops.minimum(x, 0.0)), 1.0))


class PReLU(Cell):
    """``x`` where positive, else ``w * x`` with a learnable slope per channel (axis 1) or
    one shared slope (``channel=1``); the weight is named ``a`` as in MindSpore."""

    def __init__(self, channel: int = 1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"For 'PReLU', the 'channel' must be a positive int, but got "
                             f"{channel!r}.")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            data = np.full((channel,), w, np.float32)
        elif isinstance(w, (np.ndarray, Tensor, list)):
            data = np.asarray(w.asnumpy() if isinstance(w, Tensor) else w, np.float32)
            if data.shape not in ((channel,), (1,)):
                raise ValueError(f"For 'PReLU', the shape of 'w' must be ({channel},), but "
                                 f"got {data.shape}.")
            data = np.broadcast_to(data, (channel,)).copy()
        else:
            raise TypeError(f"For 'PReLU', the 'w' must be a float or a Tensor, but got "
                            f"{type(w).__name__}.")
        self.channel = channel
        self.w = Parameter(Tensor(data, mstype.float32), name="a")

    def construct(self, x):
        w = self.w
        if x.ndim >= 2 and self.channel > 1:
            w = ops.reshape(w, (self.channel,) + (1,) * (x.ndim - 2))
        w = ops.cast(w, x.dtype)
        return ops.select(ops.greater(x, 0.0), x, ops.mul(x, w))


class CELU(Cell):
    """``max(0, x) + min(0, alpha (exp(x / alpha) - 1))``."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _check_number("CeLU", "alpha", alpha)
        if self.alpha == 0:
            raise ValueError("For 'CeLU', the 'alpha' must not be 0.")

    def construct(self, x):
        return ops.celu(x, self.alpha)


class SeLU(Cell):
    """Scaled ELU with the fixed constants of self-normalising networks."""

    def construct(self, input_x):
        return ops.selu(input_x)


def _check_float_input(owner: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{owner}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if not x.dtype.is_float:
        raise TypeError(f"For '{owner}', the dtype of the input must be float16, float32 or "
                        f"float64, but got {x.dtype}.")


class Hardtanh(Cell):
    """``x`` clipped to ``[min_val, max_val]``."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = _check_number("Hardtanh", "min_val", min_val)
        self.max_val = _check_number("Hardtanh", "max_val", max_val)
        if self.min_val >= self.max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,but got "
                             f"{min_val} and {max_val}")

    def construct(self, x):
        return ops.minimum(ops.maximum(x, self.min_val), self.max_val)


class Softsign(Cell):
    """``x / (1 + |x|)``."""

    def construct(self, x):
        _check_float_input("Softsign", x)
        return ops.div(x, ops.add(ops.abs(x), 1.0))


class Softmin(Cell):
    """``softmax(-x)`` along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _check_axis("Softmin", axis)

    def construct(self, x):
        _check_float_input("softmin", x)
        return ops.softmax(ops.neg(x), self.axis)


class Softmax2d(Cell):
    """Softmax over the channel axis of a ``(C, H, W)`` or ``(N, C, H, W)`` input."""

    def construct(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the in_shape must have 3 or 4 dims, but got "
                             f"{x.ndim}.")
        return ops.softmax(x, -3)


class Tanhshrink(Cell):
    """``x - tanh(x)`` (integer inputs give float32)."""

    def construct(self, x):
        if not x.dtype.is_float:
            x = ops.cast(x, mstype.float32)
        return ops.sub(x, ops.tanh(x))


class Threshold(Cell):
    """``x`` where ``x > threshold``, else ``value``."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = _check_number("Threshold", "threshold", threshold)
        self.value = _check_number("Threshold", "value", value)

    def construct(self, input_x):
        fill = ops.fill(input_x.dtype, input_x.shape, self.value)
        return ops.select(ops.greater(input_x, self.threshold), input_x, fill)


class LogSigmoid(Cell):
    """``log(sigmoid(x)) = -softplus(-x)``."""

    def construct(self, input_x):
        _check_float_input("LogSigmoid", input_x)
        return ops.neg(ops.softplus(ops.neg(input_x)))


class SoftShrink(Cell):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        if not isinstance(lambd, (int, float)):  # a bool too, as MindSpore
            raise TypeError(f"For 'SoftShrink', the 'lambd' must be float, but got "
                            f"{type(lambd).__name__}.")
        self.lambd = float(lambd)
        if self.lambd < 0:
            raise ValueError(f"For 'SoftShrink', the 'lambd' must be no less than zero, but "
                             f"got {lambd}.")

    def construct(self, input):
        return ops.softshrink(input, self.lambd)


class HShrink(Cell):
    """``x`` where ``|x| > lambd``, else 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _check_number("HShrink", "lambd", lambd)

    def construct(self, input):
        return ops.hardshrink(input, self.lambd)


class GLU(Cell):
    """Gated linear unit: split ``x`` in two halves ``a, b`` along ``axis``, ``a * sigmoid(b)``."""

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'GLU', the 'axis' must be int, but got "
                            f"{type(axis).__name__}.")
        self.axis = axis

    def construct(self, x):
        size = x.shape[self.axis]
        if size % 2:
            raise ValueError(f"For 'Split', the size of the 'axis' dimension ({size}) must be "
                             f"divisible by 2.")
        return glu_halves(x, self.axis)


class RReLU(Cell):
    """Randomized leaky ReLU: negative inputs times a slope drawn uniformly from
    ``[lower, upper)`` per element (in training and evaluation, as MindSpore's)."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        self.lower = _check_number("RReLU", "lower", lower)
        self.upper = _check_number("RReLU", "upper", upper)
        if self.lower > self.upper:
            raise ValueError(f"For RReLU, the value of 'upper' must be greater than or equal to "
                             f"'lower', but got upper: {upper}, lower: {lower}. ")

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'rrelu', the input must be a Tensor, but got {type(x)}.")
        slope = ops.uniform(x.shape, Tensor(self.lower, mstype.float32),
                            Tensor(self.upper, mstype.float32))
        slope = ops.cast(slope, x.dtype)
        return ops.select(ops.less(x, 0.0), ops.mul(x, slope), x)


class LRN(Cell):
    """Local response normalization across channels of an NCHW input:
    ``x / (bias + alpha * sum_{|c'-c| <= depth_radius} x[c']^2) ** beta``."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region="ACROSS_CHANNELS"):
        super().__init__()
        if isinstance(depth_radius, bool) or not isinstance(depth_radius, int):
            raise TypeError(f"For 'LRN', the 'depth_radius' must be int, but got "
                            f"{type(depth_radius).__name__}.")
        if depth_radius < 0:
            raise ValueError(f"For 'LRN', the 'depth_radius' must be >= 0, but got "
                             f"{depth_radius}.")
        self.depth_radius = depth_radius
        self.bias = _check_number("LRN", "bias", bias)
        self.alpha = _check_number("LRN", "alpha", alpha)
        self.beta = _check_number("LRN", "beta", beta)
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got "
                             f"{norm_region}.")

    def construct(self, input_x):
        _check_float_input("LRN", input_x)
        if input_x.ndim != 4:
            raise ValueError(f"For 'LRN', the rank of 'input_x' must be 4, but got "
                             f"{input_x.ndim}.")
        r, channels = self.depth_radius, input_x.shape[1]
        padded = ops.pad(ops.mul(input_x, input_x), (0, 0, 0, 0, r, r))
        total = padded[:, 0:channels]
        for i in range(1, 2 * r + 1):
            total = ops.add(total, padded[:, i:i + channels])
        scale = ops.add(ops.mul(total, self.alpha), self.bias)
        return ops.div(input_x, ops.pow(scale, self.beta))


_ACTIVATIONS = {
    "relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "gelu": GELU,
    "fast_gelu": FastGelu, "silu": SiLU,
    "hswish": HSwish, "hsigmoid": HSigmoid, "sigmoid": Sigmoid, "tanh": Tanh,
    "softmax": Softmax, "logsoftmax": LogSoftmax, "mish": Mish, "elu": ELU, "prelu": PReLU,
    "softmin": Softmin, "softmax2d": Softmax2d, "rrelu": RReLU, "tanhshrink": Tanhshrink,
    "hardtanh": Hardtanh, "softsign": Softsign, "logsigmoid": LogSigmoid, "hshrink": HShrink,
    "softshrink": SoftShrink, "threshold": Threshold,
}


def get_activation(name: str, prim_name: str | None = None) -> Cell | None:
    """The activation cell called ``name`` (``'relu'``, ``'gelu'``, ...); None for None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"The 'name' must be str, but got {type(name).__name__}.")
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise KeyError(f"The 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return cls()
