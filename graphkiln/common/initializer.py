"""Weight initializers (``mindspore.common.initializer``: ``Normal``, ``HeUniform``...).

Every random initializer draws from the generator of :mod:`graphkiln.common.seed`, so
results do not depend on NumPy's global seed; ``graphkiln.set_seed(n)`` re-seeds it and
makes the weights of every cell built afterwards reproducible.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

import graphkiln.common.dtype as mstype

from .lazy_inline import freeze
from .seed import get_seed, rng, set_seed  # noqa: F401  (re-exported by nn.init)
from .tensor import Tensor


def _fans(shape: tuple) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight of ``shape``, with MindSpore's (out, in, *k) layout."""
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for a tensor with fewer "
                         f"than 2 dimensions, but got shape {list(shape)}.")
    receptive = int(np.prod(shape[2:], dtype=np.int64)) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity: str, param: float | None = None) -> float:
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"The argument 'nonlinearity' {nonlinearity!r} is not supported.")


class Initializer:
    """Base class: ``init(shape, dtype)`` returns a NumPy array of that shape and dtype."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _sample(self, shape: tuple) -> np.ndarray:
        raise NotImplementedError(type(self).__name__)

    def __call__(self, shape, dtype=mstype.float32) -> np.ndarray:
        t = mstype.to_type(dtype)
        return np.asarray(self._sample(tuple(shape)), dtype=t.np_dtype)

    def __gk_freeze__(self) -> tuple:
        """A value-based key (compile cache): the initializer's kind and settings."""
        return (type(self).__qualname__, freeze(vars(self)))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    def _sample(self, shape):
        return np.zeros(shape)


class One(Initializer):
    def _sample(self, shape):
        return np.ones(shape)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _sample(self, shape):
        return np.full(shape, self.value)


class Normal(Initializer):
    """N(mean, sigma^2); MindSpore's default ``sigma=0.01``."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _sample(self, shape):
        return rng().normal(self.mean, self.sigma, shape)


class TruncatedNormal(Initializer):
    """N(0, sigma^2) redrawn outside two standard deviations."""

    def __init__(self, sigma: float = 0.01):
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _sample(self, shape):
        out = rng().normal(0.0, 1.0, shape)
        bad = np.abs(out) > 2
        while bad.any():
            out[bad] = rng().normal(0.0, 1.0, int(bad.sum()))
            bad = np.abs(out) > 2
        return out * self.sigma


class Uniform(Initializer):
    """U(-scale, scale); MindSpore's default ``scale=0.07``."""

    def __init__(self, scale: float = 0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _sample(self, shape):
        return rng().uniform(-self.scale, self.scale, shape)


class HeUniform(Initializer):
    """Kaiming uniform: U(-b, b) with ``b = gain * sqrt(3 / fan)``."""

    def __init__(self, negative_slope=0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _bound(self, shape) -> float:
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return _gain(self.nonlinearity, self.negative_slope) * math.sqrt(3.0 / fan)

    def _sample(self, shape):
        b = self._bound(shape)
        return rng().uniform(-b, b, shape)


class HeNormal(HeUniform):
    """Kaiming normal: N(0, (gain / sqrt(fan))^2)."""

    def _sample(self, shape):
        return rng().normal(0.0, self._bound(shape) / math.sqrt(3.0), shape)


class XavierUniform(Initializer):
    """Glorot uniform: U(-b, b) with ``b = gain * sqrt(6 / (fan_in + fan_out))``."""

    def __init__(self, gain: float = 1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape):
        fan_in, fan_out = _fans(shape)
        b = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return rng().uniform(-b, b, shape)


_BY_NAME = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One,
    "normal": Normal, "truncatednormal": TruncatedNormal, "uniform": Uniform,
    "he_uniform": HeUniform, "heuniform": HeUniform, "he_normal": HeNormal,
    "henormal": HeNormal, "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
}


def initializer(init, shape, dtype=mstype.float32) -> Tensor:
    """A concrete Tensor of ``shape`` filled by ``init``: a name (``'normal'``), an
    :class:`Initializer`, a number, or a Tensor/array of exactly that shape."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    t = mstype.to_type(dtype)
    if isinstance(init, Tensor):
        if tuple(init.shape) != shape:
            raise ValueError(f"For 'initializer', the shape of the 'init' Tensor "
                             f"{list(init.shape)} must equal 'shape' {list(shape)}.")
        return Tensor._from_array(init.asnumpy().astype(t.np_dtype), t)
    if isinstance(init, np.ndarray):
        return initializer(Tensor(init), shape, t)
    if isinstance(init, str):
        cls = _BY_NAME.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the 'init' name {init!r} is not supported; "
                             f"use one of {sorted(set(_BY_NAME))}.")
        init = cls()
    elif isinstance(init, numbers.Number) and not isinstance(init, bool):
        init = Constant(init)
    if not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', the type of 'init' must be Tensor, str, number "
                        f"or Initializer, but got {type(init).__name__}.")
    return Tensor._from_array(init(shape, t), t)


Tensor._initial_values = staticmethod(
    lambda init, shape, dtype: initializer(init, shape, dtype).asnumpy())
