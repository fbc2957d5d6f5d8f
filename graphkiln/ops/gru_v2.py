"""``_rl_inner_ops.GRUV2``, as MindSpore's CPU kernel (oneDNN's GRU): composed of
graphkiln's primitives, so its gradients come from theirs.

Each layer and direction runs ``u = sigmoid(x Wu + h Uu + bu)``, ``r = sigmoid(x Wr + h Ur +
br)``, ``c = tanh(x Wc + (r * h) Uc + bc)``, ``h' = u * h + (1 - u) * c`` over all time
steps (``seq_lengths`` is not read, as in MindSpore's CPU kernel). The flat weight ``w``
holds every layer's and direction's input weights (gate-major ``(3 * hidden, in)``, gates
u, r, c), then the hidden weights, then one bias of ``3 * hidden`` per layer and direction
(``has_bias``; the rest of the bias space, MindSpore's second bias, is not read). A second
direction runs the sequence backwards; its outputs follow the first's on the last axis.
The last two outputs (oneDNN's workspace) are placeholders of shape (1, 1).
``_grad_ops.GRUV2Grad`` is the pullback of the first two outputs; its ``dw`` leaves out the
second bias, as MindSpore's.
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .composed_primitives import _Composed


def _positive(name: str, v) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise ValueError(f"For 'GRUV2', the '{name}' must be a positive int, but got {v!r}.")
    return v


class GRUV2(_Composed):
    """``(x, h0, w, seq_lengths) -> (output, hn, reserve, state)`` (see the module
    docstring): ``x`` ``(T, batch, input_size)``, ``h0`` ``(layers * directions, batch,
    hidden)``, ``output`` ``(T, batch, hidden * directions)``."""

    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout,
                 is_train=True):
        self.input_size = _positive("input_size", input_size)
        self.hidden_size = _positive("hidden_size", hidden_size)
        self.num_layers = _positive("num_layers", num_layers)
        for name, v in (("has_bias", has_bias), ("bidirectional", bidirectional),
                        ("is_train", is_train)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'GRUV2', the '{name}' must be a bool, but got {v!r}.")
        if not isinstance(dropout, float) or not 0.0 <= dropout <= 1.0:
            raise ValueError(f"For 'GRUV2', the 'dropout' must be a float in [0, 1], but got "
                             f"{dropout!r}.")
        self.has_bias, self.bidirectional, self.is_train = has_bias, bidirectional, is_train
        self.dropout = dropout
        self.num_directions = 2 if bidirectional else 1

    def _slices(self, w: Tensor):
        """Per (layer, direction): (input weight, hidden weight, bias or None)."""
        h, dirs = self.hidden_size, self.num_directions
        flat = F.reshape(w, (-1,))
        ins = [self.input_size if layer == 0 else h * dirs for layer in range(self.num_layers)]
        offset, parts = 0, {}
        for layer, n_in in enumerate(ins):
            for d in range(dirs):
                parts[layer, d] = [F.reshape(flat[offset:offset + 3 * h * n_in], (3 * h, n_in))]
                offset += 3 * h * n_in
        for layer in range(self.num_layers):
            for d in range(dirs):
                parts[layer, d].append(F.reshape(flat[offset:offset + 3 * h * h], (3 * h, h)))
                offset += 3 * h * h
        for layer in range(self.num_layers):
            for d in range(dirs):
                parts[layer, d].append(flat[offset:offset + 3 * h] if self.has_bias else None)
                offset += 3 * h
        return parts

    def _run(self, xs: list, h: Tensor, wi: Tensor, wh: Tensor, b) -> tuple:
        n = self.hidden_size
        outs = []
        for x in xs:
            gi = F.matmul(x, F.transpose(wi, (1, 0)))
            if b is not None:
                gi = F.add(gi, b)
            u = F.sigmoid(F.add(gi[:, :n], F.matmul(h, F.transpose(wh[:n], (1, 0)))))
            r = F.sigmoid(F.add(gi[:, n:2 * n], F.matmul(h, F.transpose(wh[n:2 * n], (1, 0)))))
            c = F.tanh(F.add(gi[:, 2 * n:], F.matmul(F.mul(r, h),
                                                     F.transpose(wh[2 * n:], (1, 0)))))
            h = F.add(F.mul(u, h), F.mul(F.sub(1.0, u), c))
            outs.append(h)
        return outs, h

    def __call__(self, x: Tensor, h0: Tensor, w: Tensor, seq_lengths=None):
        if x.ndim != 3 or h0.ndim != 3 or x.shape[2] != self.input_size or \
                h0.shape[0] != self.num_layers * self.num_directions:
            raise ValueError(f"For 'GRUV2', 'x' must be (T, batch, {self.input_size}) and 'h0' "
                             f"({self.num_layers * self.num_directions}, batch, "
                             f"{self.hidden_size}), but got {x.shape} and {h0.shape}.")
        parts = self._slices(w)
        steps = [x[t] for t in range(x.shape[0])]
        finals = []
        for layer in range(self.num_layers):
            per_dir = []
            for d in range(self.num_directions):
                seq = steps if d == 0 else steps[::-1]
                outs, h = self._run(seq, h0[layer * self.num_directions + d], *parts[layer, d])
                per_dir.append(outs if d == 0 else outs[::-1])
                finals.append(h)
            steps = [F.concat([p[t] for p in per_dir], -1) if len(per_dir) > 1 else per_dir[0][t]
                     for t in range(len(steps))]
        placeholder = F.zeros((1, 1), mstype.float32)
        return F.stack(steps, 0), F.stack(finals, 0), placeholder, placeholder

class GRUV2Grad(GRUV2):
    """``(x, h0, w, seq_lengths, y, hy, dy, dhy, reserve) -> (dx, dh, dw)``: the gradients
    of ``GRUV2``'s ``output`` and ``hn`` (cotangents ``dy``, ``dhy``) in its inputs."""

    def __call__(self, x, h0, w, seq_lengths, y, hy, dy, dhy, reserve=None):
        forward = super().__call__
        _, pullback = F.vjp(lambda a, b, c: forward(a, b, c, seq_lengths)[:2], x, h0, w)
        dx, dh, dw = pullback((dy, dhy))
        if self.has_bias:  # (the second bias is not read: MindSpore's dw leaves it out)
            unread = 3 * self.hidden_size * self.num_layers * self.num_directions
            dw = F.reshape(F.reshape(dw, (-1,))[:-unread], (-1, 1, 1))
        return dx, dh, dw


__all__ = ["GRUV2", "GRUV2Grad"]
