"""Multi-layer recurrent networks: ``RNN``, ``LSTM``, ``GRU`` (MindSpore's arguments,
parameter names ``weight_ih_l{k}[_reverse]`` etc., ``batch_first``, ``bidirectional``,
``dropout`` between layers, ``seq_length``).

Each layer and direction is one tensor ``while`` loop over time (one ``While`` node in a
compiled graph, not an unrolled sequence): the input projection of all steps is one matmul
before the loop, each iteration gathers its step, applies the cell and writes its output
row. With ``seq_length``, steps past an example's length keep its state and output zeros,
and the reverse direction reads each example's valid prefix backwards.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.parameter import ParameterTuple
from ..common.tensor import Tensor
from ..frontend.control import while_stmt
from .basic import Dropout, check_positive_int
from .cell import Cell
from .rnn_cells import gru_step, lstm_step, rnn_relu_step, rnn_tanh_step, uniform_weight


def _reverse_index(seq_length, steps: int, batch: int):
    """(B, T) time indices reading each example's first ``seq_length`` steps backwards."""
    ar = Tensor(np.arange(steps, dtype=np.int32).reshape(1, steps))
    if seq_length is None:
        return Tensor(np.tile(np.arange(steps - 1, -1, -1, dtype=np.int32), (batch, 1)))
    lengths = ops.reshape(ops.cast(seq_length, mstype.int32), (batch, 1))
    return ops.select(ops.less(ar, lengths), ops.sub(ops.sub(lengths, 1), ar),
                      ops.broadcast_to(ar, (batch, steps)))


def _reorder(x, index):
    """``x`` (T, B, F) with each example's steps taken in the order ``index`` (B, T)."""
    xb = ops.transpose(x, (1, 0, 2))
    return ops.transpose(ops.gather(xb, index, 1, batch_dims=1), (1, 0, 2))


def _time_loop(step, gates, state, w_hh, b_hh, mask):
    """Run ``step`` over the T rows of ``gates`` (T, B, G) from ``state``: returns the
    outputs (T, B, H) and the final state. ``mask`` (T, B, 1) keeps finished examples."""
    steps = gates.shape[0]
    lstm = isinstance(state, tuple)
    # read the weights once, before the loop (a weight read inside the body would thread
    # the effect monad through the loop, which its gradient does not support yet)
    w_hh = ops.reshape(w_hh, w_hh.shape)
    b_hh = None if b_hh is None else ops.reshape(b_hh, b_hh.shape)
    h0 = state[0] if lstm else state
    rows = Tensor(np.arange(steps, dtype=np.int32).reshape(steps, 1, 1))
    out0 = ops.zeros_like(ops.broadcast_to(ops.expand_dims(h0, 0), (steps,) + h0.shape))
    # a run-time zero, so that the loop is a tensor loop when traced (not unrolled)
    t0 = ops.cast(ops.reduce_sum(ops.zeros_like(gates[0, 0])), mstype.int32)

    def cond(t, out, *carry):
        return ops.less(t, steps)

    def body(t, out, *carry):
        gi = ops.gather(gates, t, 0)
        new = step(gi, tuple(carry) if lstm else carry[0], w_hh, b_hh)
        new = new if lstm else (new,)
        if mask is not None:
            keep = ops.gather(mask, t, 0)
            new = tuple(ops.select(keep, n, c) for n, c in zip(new, carry))
            row = ops.mul(new[0], ops.cast(keep, new[0].dtype))
        else:
            row = new[0]
        out = ops.select(ops.equal(rows, t), ops.expand_dims(row, 0), out)
        return (ops.add(t, 1), out) + tuple(new)

    carry = tuple(state) if lstm else (state,)
    _, out, *final = while_stmt(cond, body, (t0, out0) + carry,
                                ("t", "out") + tuple(f"state{i}" for i in range(len(carry))))
    return out, (tuple(final) if lstm else final[0])


_STEPS = {"RNN_TANH": rnn_tanh_step, "RNN_RELU": rnn_relu_step, "LSTM": lstm_step,
          "GRU": gru_step}


class _DynamicRecurrence(Cell):
    """One direction of one layer: the time loop of a cell's step over the precomputed input
    gates (MindSpore's ``_Dynamic*`` cells, which show in a network's printout)."""

    mode = "RNN_TANH"

    def construct(self, gates, state, w_hh, b_hh, mask):
        return _time_loop(_STEPS[self.mode], gates, state, w_hh, b_hh, mask)


class _DynamicRNNTanh(_DynamicRecurrence):
    mode = "RNN_TANH"


class _DynamicRNNRelu(_DynamicRecurrence):
    mode = "RNN_RELU"


class _DynamicLSTMCPUGPU(_DynamicRecurrence):
    mode = "LSTM"


class _DynamicGRUCPUGPU(_DynamicRecurrence):
    mode = "GRU"


_RECURRENCES = {"RNN_TANH": _DynamicRNNTanh, "RNN_RELU": _DynamicRNNRelu,
                "LSTM": _DynamicLSTMCPUGPU, "GRU": _DynamicGRUCPUGPU}


class _RNNBase(Cell):
    """Shared body of ``RNN``, ``LSTM`` and ``GRU``: ``rnn`` runs the time loop of one layer
    and direction, ``dropout_op`` drops between layers while training."""

    chunks = 1
    mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 has_bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, dtype=mstype.float32):
        super().__init__()
        owner = type(self).__name__
        self.input_size = check_positive_int(owner, "input_size", input_size)
        self.hidden_size = check_positive_int(owner, "hidden_size", hidden_size)
        self.num_layers = check_positive_int(owner, "num_layers", num_layers)
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or \
                not 0 <= dropout < 1:
            raise ValueError(f"For '{owner}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but "
                             f"got {dropout}.")
        self.has_bias = bool(has_bias)
        self.batch_first = bool(batch_first)
        self.dropout = float(dropout)
        self.bidirectional = bool(bidirectional)
        self.num_directions = 2 if bidirectional else 1
        gates = self.chunks * hidden_size
        w_ih, w_hh, b_ih, b_hh = [], [], [], []
        for layer in range(num_layers):
            layer_in = input_size if layer == 0 else hidden_size * self.num_directions
            for direction in range(self.num_directions):
                suffix = "_reverse" if direction == 1 else ""
                w_ih.append(uniform_weight((gates, layer_in), hidden_size,
                                           f"weight_ih_l{layer}{suffix}", dtype))
                w_hh.append(uniform_weight((gates, hidden_size), hidden_size,
                                           f"weight_hh_l{layer}{suffix}", dtype))
                if self.has_bias:
                    b_ih.append(uniform_weight((gates,), hidden_size,
                                               f"bias_ih_l{layer}{suffix}", dtype))
                    b_hh.append(uniform_weight((gates,), hidden_size,
                                               f"bias_hh_l{layer}{suffix}", dtype))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih) if self.has_bias else None
        self.b_hh_list = ParameterTuple(b_hh) if self.has_bias else None
        self.rnn = _RECURRENCES[self.mode]()
        self.dropout_op = Dropout(p=self.dropout)

    def _zeros(self, batch: int, dtype):
        return Tensor(np.zeros((self.num_layers * self.num_directions, batch,
                                self.hidden_size), dtype.np_dtype), dtype)

    def construct(self, x, hx=None, seq_length=None):
        lstm = self.mode == "LSTM"
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        steps, batch = x.shape[0], x.shape[1]
        if hx is None:
            hx = (self._zeros(batch, x.dtype), self._zeros(batch, x.dtype)) if lstm \
                else self._zeros(batch, x.dtype)
        mask = None
        reverse = None
        if seq_length is not None:
            ar = Tensor(np.arange(steps, dtype=np.int32).reshape(steps, 1, 1))
            lengths = ops.reshape(ops.cast(seq_length, mstype.int32), (1, batch, 1))
            mask = ops.less(ar, lengths)
        if self.bidirectional:
            reverse = _reverse_index(seq_length, steps, batch)
        h_n, c_n = [], []
        layer_in = x
        for layer in range(self.num_layers):
            outs = []
            for direction in range(self.num_directions):
                k = layer * self.num_directions + direction
                seq = layer_in if direction == 0 else _reorder(layer_in, reverse)
                b_ih = self.b_ih_list[k] if self.has_bias else None
                b_hh = self.b_hh_list[k] if self.has_bias else None
                proj = ops.matmul(ops.reshape(seq, (steps * batch, -1)),
                                  ops.transpose(self.w_ih_list[k], (1, 0)))
                if b_ih is not None:
                    proj = ops.add(proj, b_ih)
                gates = ops.reshape(proj, (steps, batch, -1))
                state = (hx[0][k], hx[1][k]) if lstm else hx[k]
                out, final = self.rnn(gates, state, self.w_hh_list[k], b_hh, mask)
                if direction == 1:
                    out = _reorder(out, reverse)
                outs.append(out)
                h_n.append(final[0] if lstm else final)
                if lstm:
                    c_n.append(final[1])
            layer_in = outs[0] if len(outs) == 1 else ops.concat(tuple(outs), 2)
            if self.training and self.dropout > 0 and layer < self.num_layers - 1:
                layer_in = self.dropout_op(layer_in)
        output = ops.transpose(layer_in, (1, 0, 2)) if self.batch_first else layer_in
        h = ops.stack(tuple(h_n), 0)
        if lstm:
            return output, (h, ops.stack(tuple(c_n), 0))
        return output, h


class RNN(_RNNBase):
    """Elman RNN with ``tanh`` or ``relu`` nonlinearity."""

    def __init__(self, *args, **kwargs):
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but "
                             f"got {nonlinearity}.")
        self.mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(*args, **kwargs)


class LSTM(_RNNBase):
    """Long short-term memory; returns ``output, (h_n, c_n)``."""

    chunks = 4
    mode = "LSTM"


class GRU(_RNNBase):
    """Gated recurrent unit."""

    chunks = 3
    mode = "GRU"
