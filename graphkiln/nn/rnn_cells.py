"""Recurrent cells: ``RNNCell``, ``LSTMCell``, ``GRUCell`` (MindSpore's gate layouts: LSTM
``i, f, g, o``; GRU ``r, z, n``) and the single-step functions the multi-layer ``RNN``,
``LSTM`` and ``GRU`` loop over."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.initializer import Uniform, initializer
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from .basic import check_positive_int
from .cell import Cell


def _linear(x, w, b):
    y = ops.matmul(x, ops.transpose(w, (1, 0)))
    return y if b is None else ops.add(y, b)


def rnn_tanh_step(gi, h, w_hh, b_hh):
    """One tanh RNN step from precomputed input gates ``gi``; returns the new state."""
    return ops.tanh(ops.add(gi, _linear(h, w_hh, b_hh)))


def rnn_relu_step(gi, h, w_hh, b_hh):
    return ops.relu(ops.add(gi, _linear(h, w_hh, b_hh)))


def lstm_step(gi, state, w_hh, b_hh):
    """``state`` is ``(h, c)``; gates in the order input, forget, cell, output."""
    h, c = state
    gates = ops.add(gi, _linear(h, w_hh, b_hh))
    i, f, g, o = ops.split(gates, gates.shape[-1] // 4, -1)
    c = ops.add(ops.mul(ops.sigmoid(f), c), ops.mul(ops.sigmoid(i), ops.tanh(g)))
    return ops.mul(ops.sigmoid(o), ops.tanh(c)), c


def gru_step(gi, h, w_hh, b_hh):
    """Gates in the order reset, update, new: ``h' = n + z (h - n)``."""
    gh = _linear(h, w_hh, b_hh)
    size = gi.shape[-1] // 3
    i_r, i_z, i_n = ops.split(gi, size, -1)
    h_r, h_z, h_n = ops.split(gh, size, -1)
    r = ops.sigmoid(ops.add(i_r, h_r))
    z = ops.sigmoid(ops.add(i_z, h_z))
    n = ops.tanh(ops.add(i_n, ops.mul(r, h_n)))
    return ops.add(n, ops.mul(z, ops.sub(h, n)))


def uniform_weight(shape, hidden_size: int, name: str, dtype) -> Parameter:
    """MindSpore's recurrent initialisation: U(-1/sqrt(hidden), 1/sqrt(hidden))."""
    stdv = 1.0 / math.sqrt(hidden_size)
    value = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
    return Parameter(Tensor(value, dtype), name=name)


class RNNCellBase(Cell):
    """The weights of a recurrent cell of ``num_chunks`` gates, MindSpore's base class
    (``mindspore.nn.layer.rnn_cells.RNNCellBase``, which user cells subclass)."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool, num_chunks: int,
                 dtype=mstype.float32):
        super().__init__()
        owner = type(self).__name__
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{owner}', the type of 'has_bias' should be 'bool', but got "
                            f"type '{type(has_bias).__name__}'.")
        self.input_size = check_positive_int(owner, "input_size", input_size)
        self.hidden_size = check_positive_int(owner, "hidden_size", hidden_size)
        self.has_bias = has_bias
        gates = num_chunks * hidden_size
        shapes = {"weight_ih": (gates, input_size), "weight_hh": (gates, hidden_size)}
        if has_bias:
            shapes.update(bias_ih=(gates,), bias_hh=(gates,))
        # MindSpore's cells first fill each weight from NumPy's global generator and then
        # re-draw it from Uniform(1/sqrt(hidden)) in reset_parameters: both draws count
        # for the seeded streams
        self.bias_ih = self.bias_hh = None
        for name, shape in shapes.items():
            setattr(self, name, Parameter(Tensor(np.random.randn(*shape), dtype), name=name))
        self.reset_parameters(dtype=dtype)

    def reset_parameters(self, dtype=mstype.float32) -> None:
        """Re-draw every weight from ``Uniform(1/sqrt(hidden_size))``."""
        bound = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(bound), weight.shape, dtype))

    def _gates(self, x):
        return _linear(x, self.weight_ih, self.bias_ih)


class RNNCell(RNNCellBase):
    """``h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)``, ``act`` tanh or relu."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 nonlinearity: str = "tanh", dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 1, dtype)
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' must be in ['tanh', 'relu'], "
                             f"but got {nonlinearity}.")
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        step = rnn_tanh_step if self.nonlinearity == "tanh" else rnn_relu_step
        return step(self._gates(x), hx, self.weight_hh, self.bias_hh)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h', c') = cell(x, (h, c))``."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 4, dtype)

    def construct(self, x, hx):
        return lstm_step(self._gates(x), hx, self.weight_hh, self.bias_hh)


class GRUCell(RNNCellBase):
    """One GRU step: ``h' = cell(x, h)``."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 3, dtype)

    def construct(self, x, hx):
        return gru_step(self._gates(x), hx, self.weight_hh, self.bias_hh)
