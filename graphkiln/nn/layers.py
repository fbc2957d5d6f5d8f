"""Basic layers, built only from ``graphkiln.ops`` so that they trace into graphs:
``Dense``, ``ReLU``, ``GELU``, ``Softmax``, ``LayerNorm``, ``Dropout``, ``Embedding``,
``Flatten``. Signatures, defaults, parameter names and error messages follow MindSpore.
"""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from . import init as _init
from .cell import Cell


def _check_positive_int(owner: str, name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{owner}', the '{name}' must be int, but got "
                        f"'{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be int and must > 0, but got "
                         f"'{value}' with type 'int'.")
    return value


# ------------------------------------------------------------------ activations

class ReLU(Cell):
    """``max(x, 0)`` elementwise."""

    def construct(self, x):
        return ops.relu(x)


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


class Softmax(Cell):
    """``exp(x) / sum(exp(x))`` along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple)):
            raise TypeError(f"For 'Softmax', the 'axis' must be int or tuple, but got "
                            f"{type(axis).__name__}.")
        self.axis = axis

    def construct(self, x):
        return ops.softmax(x, self.axis)


_ACTIVATIONS = {"relu": ReLU, "gelu": GELU, "softmax": Softmax}


def get_activation(name: str) -> Cell:
    """The activation cell called ``name`` (``'relu'``, ``'gelu'``, ``'softmax'``)."""
    cls = _ACTIVATIONS.get(name)
    if cls is None:
        raise KeyError(f"The 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return cls()


# ------------------------------------------------------------------ Dense

class Dense(Cell):
    """``activation(x @ weight.T + bias)``; ``weight`` has shape (out, in). Inputs of rank
    other than 2 are flattened to (-1, in) and reshaped back, as MindSpore does.

    Default initialisation is MindSpore 2.x's: ``HeUniform(negative_slope=sqrt(5))`` for
    the weight and ``Uniform(1/sqrt(in_channels))`` for the bias.
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init=None, bias_init=None,
                 has_bias: bool = True, activation=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels = _check_positive_int("Dense", "in_channels", in_channels)
        self.out_channels = _check_positive_int("Dense", "out_channels", out_channels)
        self.has_bias = bool(has_bias)
        if isinstance(weight_init, Tensor) and (
                weight_init.ndim != 2 or tuple(weight_init.shape) != (out_channels,
                                                                       in_channels)):
            raise ValueError(f"For 'Dense', weight init shape error. The ndim of "
                             f"'weight_init' must be equal to 2, and the first dim must be "
                             f"equal to 'out_channels', and the second dim must be equal to "
                             f"'in_channels'. But got 'weight_init': {weight_init}, "
                             f"'out_channels': {out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = _init.HeUniform(math.sqrt(5))
        self.weight = Parameter(_init.initializer(weight_init, (out_channels, in_channels),
                                                  dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and (
                    bias_init.ndim != 1 or bias_init.shape[0] != out_channels):
                raise ValueError(f"For 'Dense', bias init shape error. The ndim of "
                                 f"'bias_init' must be equal to 1, and the first dim must be "
                                 f"equal to 'out_channels'. But got 'bias_init': {bias_init}, "
                                 f"'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = _init.Uniform(1.0 / math.sqrt(in_channels))
            self.bias = Parameter(_init.initializer(bias_init, (out_channels,), dtype),
                                  name="bias")
        if isinstance(activation, str):
            activation = get_activation(activation.lower())
        if activation is not None and not isinstance(activation, Cell) \
                and not callable(activation):
            raise TypeError(f"For 'Dense', the 'activation' must be str or Cell or "
                            f"Primitive, but got {type(activation).__name__}.")
        self.activation = activation
        self.activation_flag = activation is not None
        self.matmul = ops.MatMul(transpose_b=True)

    def construct(self, x):
        x_shape = x.shape
        if len(x_shape) != 2:
            x = ops.reshape(x, (-1, x_shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = ops.add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(x_shape) != 2:
            x = ops.reshape(x, tuple(x_shape[:-1]) + (self.out_channels,))
        return x

    def extra_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


# ------------------------------------------------------------------ LayerNorm

class LayerNorm(Cell):
    """Normalise over the axes from ``begin_norm_axis`` on, then scale by ``gamma`` and
    shift by ``beta`` (both of shape ``normalized_shape``)."""

    def __init__(self, normalized_shape, begin_norm_axis: int = -1,
                 begin_params_axis: int = -1, gamma_init="ones", beta_init="zeros",
                 epsilon: float = 1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] "
                            f"or list[int], but got {normalized_shape} and the type is "
                            f"{type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., "
                             f"containing at least one element, but got normalized_shape = "
                             f"{normalized_shape}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        shape = tuple(normalized_shape)
        self.gamma = Parameter(_init.initializer(gamma_init, shape, dtype), name="gamma")
        self.beta = Parameter(_init.initializer(beta_init, shape, dtype), name="beta")
        self.layer_norm = ops.LayerNorm(begin_norm_axis=begin_norm_axis,
                                        begin_params_axis=begin_params_axis, epsilon=epsilon)

    def construct(self, input_x):
        y, _, _ = self.layer_norm(input_x, self.gamma, self.beta)
        return y

    def extra_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis="
                f"{self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, "
                f"gamma={self.gamma!r}, beta={self.beta!r}")


# ------------------------------------------------------------------ Dropout

class Dropout(Cell):
    """In training mode, zero each element with probability ``p`` and scale the rest by
    ``1/(1-p)``; in evaluation mode (the default, see ``set_train``) return the input.
    ``keep_prob`` is MindSpore's older spelling of ``1 - p``."""

    def __init__(self, keep_prob: float = 0.5, p: float | None = None, dtype=mstype.float32):
        super().__init__()
        if p is None:
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)):
                raise TypeError(f"For 'Dropout', the 'keep_prob' must be float, but got "
                                f"{type(keep_prob).__name__}.")
            if not 0 < keep_prob <= 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range "
                                 f"(0, 1], but got {keep_prob}.")
            self.keep_prob = float(keep_prob)
            self.p = 1.0 - self.keep_prob
            self._repr = f"keep_prob={keep_prob}"
        else:
            if isinstance(p, bool) or not isinstance(p, (int, float)):
                raise TypeError(f"For 'Dropout', the 'p' must be float, but got "
                                f"{type(p).__name__}.")
            if not 0 <= p < 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), "
                                 f"but got {p}.")
            self.p = float(p)
            self.keep_prob = 1.0 - self.p
            self._repr = f"p={p}"

    def construct(self, x):
        if not self.training or self.p == 0:
            return x
        return ops.dropout(x, p=self.p)

    def extra_repr(self) -> str:
        return self._repr


# ------------------------------------------------------------------ Embedding

class Embedding(Cell):
    """A lookup table: ``embedding_table[ids]`` for integer ``ids`` of any shape."""

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table="normal", dtype=mstype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = _check_positive_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = _check_positive_int("Embedding", "embedding_size",
                                                  embedding_size)
        if use_one_hot:
            raise NotImplementedError("For 'Embedding', use_one_hot=True is not supported "
                                      "yet; the gather form gives the same result.")
        self.use_one_hot = False
        self.dtype = dtype
        self.padding_idx = padding_idx
        table = _init.initializer(embedding_table, (vocab_size, embedding_size),
                                  mstype.float32)
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) \
                    or not -vocab_size <= padding_idx < vocab_size:
                raise ValueError(f"For 'Embedding', the 'padding_idx' must be an int in "
                                 f"range [{-vocab_size}, {vocab_size}), but got "
                                 f"{padding_idx}.")
            arr = table.asnumpy().copy()
            arr[padding_idx] = 0
            table = Tensor._from_array(arr, mstype.float32)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat = ops.reshape(ids, (-1,))
        out = ops.gather(self.embedding_table, flat, 0)
        return ops.reshape(out, out_shape)

    def extra_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table!r}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


# ------------------------------------------------------------------ Flatten

class Flatten(Cell):
    """Merge the axes ``start_dim..end_dim`` into one (by default all but the first)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        for name, v in (("start_dim", start_dim), ("end_dim", end_dim)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For 'Flatten', the '{name}' must be int, but got "
                                f"{type(v).__name__}.")
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        shape = tuple(x.shape)
        ndim = max(len(shape), 1)
        start, end = self.start_dim, self.end_dim
        for name, v in (("start_dim", start), ("end_dim", end)):
            if not -ndim <= v < ndim:
                raise ValueError(f"For 'Flatten', the '{name}' must be in range [{-ndim}, "
                                 f"{ndim}), but got {v}.")
        start, end = start % ndim, end % ndim
        if start > end:
            raise ValueError(f"For 'Flatten', 'start_dim' {self.start_dim} must not come "
                             f"after 'end_dim' {self.end_dim}.")
        if not shape:
            return ops.reshape(x, (1,))
        merged = int(np.prod(shape[start:end + 1], dtype=np.int64))
        return ops.reshape(x, shape[:start] + (merged,) + shape[end + 1:])
