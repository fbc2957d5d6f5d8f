"""Activation cells with MindSpore's names, arguments and defaults, built from ``ops`` so
they trace into graphs: ReLU, ReLU6, LeakyReLU, GELU, SiLU, HSwish, HSigmoid, Sigmoid,
Tanh, Softmax, LogSoftmax, Mish, ELU, PReLU, and ``get_activation``."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
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


_ACTIVATIONS = {
    "relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "gelu": GELU,
    "fast_gelu": FastGelu, "silu": SiLU,
    "hswish": HSwish, "hsigmoid": HSigmoid, "sigmoid": Sigmoid, "tanh": Tanh,
    "softmax": Softmax, "logsoftmax": LogSoftmax, "mish": Mish, "elu": ELU, "prelu": PReLU,
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
