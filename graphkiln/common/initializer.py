"""Weight initializers (``mindspore.common.initializer``: ``Normal``, ``HeUniform``...).

As MindSpore's: each random initializer draws a seed from NumPy's global generator
(``np.random.randint(1, 2**63)``; ``set_seed(n)`` seeds it) and fills the weight from
MindSpore's Philox streams (:mod:`.philox`), so after the same ``set_seed`` the cells built
in the same order get the same weights as MindSpore's, bit for bit.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

import graphkiln.common.dtype as mstype

from . import philox
from .heap import tune_heap
from .lazy_inline import freeze
from .seed import get_seed, rng, set_seed  # noqa: F401  (re-exported by nn.init)
from .tensor import Tensor


def _draw_seed() -> int:
    """The next initializer seed from NumPy's global generator (MindSpore's draw)."""
    return int(np.random.randint(low=1, high=(1 << 63), dtype=np.int64))


def _calculate_fan_in_and_fan_out(shape: tuple) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight of ``shape``, with MindSpore's (out, in, *k) layout
    (MindSpore's private name: model code imports it to size its own initializers)."""
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for tensor with fewer "
                         f"than 2 dimensions, but got dimensions {len(shape)}.")
    receptive = int(np.prod(shape[2:], dtype=np.int64)) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _calculate_correct_fan(shape: tuple, mode: str) -> int:
    """``fan_in`` or ``fan_out`` of ``shape`` (MindSpore's private name, which model code
    imports)."""
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of "
                         f"['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain of ``nonlinearity`` (``param``: leaky_relu's negative slope);
    MindSpore's private name, which model code imports."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"For 'HeUniform', 'negative_slope' {param} is not a valid number."
                             f"When 'nonlinearity' has been set to 'leaky_relu', "
                             f"'negative_slope' should be int or float type, but got "
                             f"{type(param)}.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"For 'HeUniform', the argument 'nonlinearity' should be one of "
                     f"['sigmoid', 'tanh', 'relu' or 'leaky_relu'], but got {nonlinearity}.")


def _assignment(arr: np.ndarray, num) -> np.ndarray:
    """Fill ``arr`` in place with ``num`` (a number or an array of its shape) and return it:
    MindSpore's helper for ``Initializer._initialize``."""
    arr[...] = num
    return arr


class Initializer:
    """Base class. As MindSpore's, ``init(arr)`` fills the NumPy array ``arr`` in place
    through ``_initialize(arr)``, which user subclasses define; graphkiln's own initializers
    define ``_sample(shape)`` instead (random ones draw float32, then cast, as MindSpore's)."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _sample(self, shape: tuple) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} must define _initialize(arr), "
                                  f"which fills the NumPy array arr in place")

    def _initialize(self, arr: np.ndarray) -> None:
        _assignment(arr, self._sample(arr.shape))

    def __call__(self, arr: np.ndarray) -> None:
        return self._initialize(arr)

    def _new_array(self, shape: tuple, dtype=mstype.float32) -> np.ndarray:
        """A new NumPy array of ``shape`` and ``dtype`` holding this initializer's values."""
        tune_heap()  # a model's draws reuse their freed temporaries' memory (heap.py)
        t = mstype.to_type(dtype)
        if type(self)._initialize is Initializer._initialize:
            return np.asarray(self._sample(tuple(shape)), dtype=t.np_dtype)
        arr = np.zeros(tuple(shape), t.np_dtype)
        self._initialize(arr)
        return arr

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


class Identity(Initializer):
    """The 2-D identity (``np.eye``)."""

    def _sample(self, shape):
        if len(shape) != 2:
            raise ValueError(f"For Identity initializer, the dimension of the initialized "
                             f"tensor should be 2, but got {len(shape)}.")
        return np.eye(shape[0], shape[1])


class Dirac(Initializer):
    """Convolution weights that pass each input channel through (per group)."""

    def __init__(self, groups: int = 1):
        super().__init__(groups=groups)
        self.groups = groups

    def _sample(self, shape):
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"For Dirac initializer, only support to initialize tensor with "
                             f"dimension of 3, 4 or 5, but got {len(shape)}.")
        if shape[0] % self.groups:
            raise ValueError(f"For Dirac initializer, the first dimension of the initialized "
                             f"tensor must be divisible by groups, but got first dimension "
                             f"{shape[0]}, groups {self.groups}.")
        data = np.zeros(shape)
        per_group = shape[0] // self.groups
        centre = tuple(k // 2 for k in shape[2:])
        for group in range(self.groups):
            for dim in range(min(per_group, shape[1])):
                data[(group * per_group + dim, dim) + centre] = 1
        return data


class Normal(Initializer):
    """N(mean, sigma^2); MindSpore's default ``sigma=0.01``."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _sample(self, shape):
        return _normal(self.mean, self.sigma, shape)


def _normal(mean: float, sigma: float, shape) -> np.ndarray:
    if sigma < 0:
        raise ValueError("sigma < 0")
    return philox.normal(_draw_seed(), shape, mean, sigma)


def _uniform(a: float, b: float, shape) -> np.ndarray:
    return philox.uniform(_draw_seed(), shape, a, b)


def _truncated_normal(a: float, b: float, mean: float, sigma: float, shape) -> np.ndarray:
    if sigma < 0:
        raise ValueError("sigma < 0")
    return philox.truncated_normal(_draw_seed(), shape, a, b, mean, sigma)


class TruncatedNormal(Initializer):
    """N(mean, sigma^2) cut to ``[a, b]`` (absolute bounds, as MindSpore's)."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0,
                 b: float = 2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _sample(self, shape):
        return _truncated_normal(self.a, self.b, self.mean, self.sigma, shape)


class Uniform(Initializer):
    """U(-scale, scale); MindSpore's default ``scale=0.07``."""

    def __init__(self, scale: float = 0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _sample(self, shape):
        return _uniform(-self.scale, self.scale, shape)


class HeUniform(Initializer):
    """Kaiming uniform: U(-b, b) with ``b = sqrt(3) * gain / sqrt(fan)``."""

    def __init__(self, negative_slope=0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _std(self, shape) -> float:
        fan = _calculate_correct_fan(shape, self.mode)
        return _calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)

    def _sample(self, shape):
        bound = math.sqrt(3.0) * self._std(shape)
        return _uniform(-bound, bound, shape)


class HeNormal(HeUniform):
    """Kaiming normal: N(0, (gain / sqrt(fan))^2)."""

    def _sample(self, shape):
        return _normal(0, self._std(shape), shape)


class XavierUniform(Initializer):
    """Glorot uniform: U(-b, b) with ``b = gain * sqrt(6 / (fan_in + fan_out))``."""

    def __init__(self, gain: float = 1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return _uniform(-bound, bound, shape)


class XavierNormal(XavierUniform):
    """Glorot normal: N(0, gain^2 * 2 / (fan_in + fan_out))."""

    def _sample(self, shape):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        return _normal(0, self.gain * math.sqrt(2.0 / float(fan_in + fan_out)), shape)


class Sparse(Initializer):
    """N(0, sigma^2) with ``ceil(sparsity * rows)`` random rows of each column zeroed."""

    def __init__(self, sparsity: float, sigma: float = 0.01):
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity, self.sigma = sparsity, sigma

    def _sample(self, shape):
        if len(shape) != 2:
            raise ValueError(f"For Sparse initializer, the dimension of the initialized "
                             f"tensor should be 2, but got {len(shape)}.")
        rows, cols = shape
        zeros = int(np.ceil(self.sparsity * rows))
        data = _normal(0, self.sigma, shape)
        for col in range(cols):
            data[np.random.permutation(list(range(rows)))[:zeros], col] = 0.0
        return data


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix from the QR decomposition of a normal draw, times
    ``gain``."""

    def __init__(self, gain: float = 1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape):
        if len(shape) < 2:
            raise ValueError(f"For Orthogonal initializer, the dimension of the initialized "
                             f"tensor should be no less than 2, but got {len(shape)}.")
        rows = shape[0]
        cols = math.prod(shape) // rows
        data = _normal(0, 1, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (q * self.gain).reshape(shape)


class VarianceScaling(Initializer):
    """``scale / fan`` variance, from a truncated normal, a normal or a uniform draw."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0.0:
            raise ValueError(f"For VarianceScaling initializer, the argument 'scale' must be "
                             f"greater than 0, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"For VarianceScaling initializer, the argument 'mode' must be "
                             f"fan_in, fan_out or fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"For VarianceScaling initializer, the argument 'distribution' "
                             f"must be uniform, truncated_norm or untruncated_norm, but got "
                             f"{distribution}.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _sample(self, shape):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, fan[self.mode])
        if self.distribution == "untruncated_normal":
            return _normal(0, float(np.sqrt(scale)), shape)
        # MindSpore 2.10 tests for 'truncated_norm', which its own check never lets through,
        # so 'truncated_normal' draws uniformly there too; the same here
        limit = float(np.sqrt(3.0 * scale))
        return _uniform(-limit, limit, shape)


_BY_NAME = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One, "normal": Normal,
    "truncatednormal": TruncatedNormal, "uniform": Uniform, "he_uniform": HeUniform,
    "heuniform": HeUniform, "he_normal": HeNormal, "henormal": HeNormal,
    "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal, "xaviernormal": XavierNormal, "identity": Identity,
    "sparse": Sparse, "dirac": Dirac, "orthogonal": Orthogonal,
    "variancescaling": VarianceScaling,
}


def _resolve(init) -> Initializer:
    """The :class:`Initializer` a name (``'normal'``) or a number stands for."""
    if isinstance(init, str):
        cls = _BY_NAME.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not "
                             f"found (known: {', '.join(sorted(set(_BY_NAME)))}).")
        return cls()
    if isinstance(init, numbers.Number) and not isinstance(init, bool):
        return Constant(init)
    if not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', the type of 'init' must be Tensor, str, number "
                        f"or Initializer, but got {type(init).__name__}.")
    return init


def initializer(init, shape, dtype=mstype.float32) -> Tensor:
    """A Tensor of ``shape`` filled by ``init``: a name (``'normal'``), an
    :class:`Initializer`, a number (drawn when its values are first used, as MindSpore's),
    or a Tensor/array of exactly that shape (a Tensor is returned as it is, whatever
    ``dtype`` says, as MindSpore's)."""
    shape = (shape,) if isinstance(shape, numbers.Number) else tuple(shape)
    t = mstype.to_type(dtype)
    if not isinstance(init, (Tensor, np.ndarray)) and any(
            isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in shape):
        raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of "
                         f"'shape' must be positive integer, but got {shape}")
    if isinstance(init, Tensor):
        if tuple(init.shape) != shape:
            raise ValueError(f"For 'initializer', the shape of the 'init' Tensor "
                             f"{list(init.shape)} must equal 'shape' {list(shape)}.")
        return init  # as MindSpore: the Tensor itself, in its own dtype (``dtype`` unused)
    if isinstance(init, np.ndarray):
        return initializer(Tensor(init), shape, t)
    return Tensor(shape=shape, dtype=t, init=_resolve(init))


Tensor._initial_values = staticmethod(
    lambda init, shape, dtype: _resolve(init)._new_array(shape, dtype))
