"""``ops.DynamicRNN``: MindSpore's single-layer LSTM over a time-major sequence (an Ascend
operator; MindSpore 2.10's CPU backend has no kernel for it, graphkiln runs it), composed of
graphkiln's primitives, so its gradients and vmap come from theirs.

``w`` is ``(input_size + hidden_size, 4 * hidden_size)``: the input and hidden weights
stacked on the first axis, its columns the gates in the order i, j (the candidate cell), f,
o, as ``nn.LSTM``'s Ascend path builds it. Each step computes ``[x, h] @ w + b``, then
``i = sigmoid``, ``j = tanh``, ``f = sigmoid(. + forget_bias)``, ``o = sigmoid``,
``c' = f * c + i * j`` (clipped to ``[-cell_clip, cell_clip]`` when ``cell_clip > 0``),
``h' = o * tanh(c')``, in float32. The eight outputs stack every step:
``(y, output_h, output_c, i, j, f, o, tanhc)``, each ``(num_step, batch, hidden)``; ``y`` is
``output_h`` in ``b``'s dtype, ``output_h`` is float16, the others have ``b``'s dtype.
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .composed_primitives import _Composed

_NAME = "DynamicRNN"


def _check_type(name: str, value, kinds: tuple):
    if type(value) not in kinds:
        raise TypeError(f"For '{_NAME}', the type of '{name}' should be "
                        f"'{kinds[0].__name__}', but got type '{type(value).__name__}'.")
    return value


def _check_choice(name: str, value, allowed: str) -> str:
    if not isinstance(value, str) or value != allowed:
        raise ValueError(f"For '{_NAME}', the '{name}' must be str and must be in "
                         f"'['{allowed}']', but got '{value}'.")
    return value


def _check_input(name: str, value, ndim: int, dtypes: tuple) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{_NAME}', the input '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")
    if value.dtype not in dtypes:
        allowed = ", ".join(str(t) for t in dtypes)
        raise TypeError(f"For '{_NAME}', the dtype of '{name}' must be in [{allowed}], but "
                        f"got {value.dtype}.")
    if value.ndim != ndim:
        raise ValueError(f"For '{_NAME}', the '{name}' must be {ndim}-D, but got shape "
                         f"{list(value.shape)}.")
    return value


class DynamicRNN(_Composed):
    """``(x, w, b, seq_length, init_h, init_c) -> (y, output_h, output_c, i, j, f, o,
    tanhc)`` (see the module docstring); ``seq_length`` must be None, as MindSpore's."""

    def __init__(self, cell_type="LSTM", direction="UNIDIRECTIONAL", cell_depth=1,
                 use_peephole=False, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
                 time_major=True, activation="tanh", forget_bias=0.0, is_training=True):
        self.forget_bias = _check_type("forget_bias", forget_bias, (float,))
        self.cell_depth = _check_type("cell_depth", cell_depth, (int,))
        self.keep_prob = _check_type("keep_prob", keep_prob, (float,))
        if not 0.0 <= keep_prob <= 1.0:
            raise ValueError(f"The 'keep_prob' must be in range of [0.0, 1.0], but got "
                             f"{keep_prob} with type 'float'.")
        self.cell_clip = _check_type("cell_clip", cell_clip, (float,))
        if type(num_proj) is not int or num_proj < 0:
            raise ValueError(f"For '{_NAME}', the 'num_proj' must be int and must >= 0, but "
                             f"got '{num_proj}' with type '{type(num_proj).__name__}'.")
        self.num_proj = num_proj
        self.use_peephole = _check_type("use_peephole", use_peephole, (bool,))
        self.time_major = _check_type("time_major", time_major, (bool,))
        if time_major is not True:
            raise ValueError(f"For '{_NAME}', the 'time_major' should be = the supported "
                             f"value: True, but got {time_major}.")
        self.is_training = _check_type("is_training", is_training, (bool,))
        self.cell_type = _check_choice("cell_type", cell_type, "LSTM")
        self.direction = _check_choice("direction", direction, "UNIDIRECTIONAL")
        self.activation = _check_choice("activation", activation, "tanh")
        if use_peephole or num_proj:
            raise ValueError(f"For '{_NAME}', 'use_peephole' and 'num_proj' are not "
                             f"supported (MindSpore's kernel has neither), but got "
                             f"use_peephole={use_peephole}, num_proj={num_proj}.")

    def __call__(self, x, w, b, seq_length, init_h, init_c):
        half = (mstype.float16,)
        x = _check_input("x", x, 3, half)
        w = _check_input("w", w, 2, half)
        b = _check_input("b", b, 1, (mstype.float16, mstype.float32))
        init_h = _check_input("init_h", init_h, 3, half)
        init_c = _check_input("init_c", init_c, 3, half)
        if seq_length is not None:
            raise ValueError(f"For '{_NAME}', only None is supported for 'seq_length', but "
                             f"got {type(seq_length).__name__}.")
        steps, batch, n_in = x.shape
        hidden = init_h.shape[-1]
        if tuple(w.shape) != (n_in + hidden, 4 * hidden) or tuple(b.shape) != (4 * hidden,) \
                or tuple(init_h.shape) != (1, batch, hidden) or \
                tuple(init_c.shape) != (1, batch, hidden):
            raise ValueError(
                f"For '{_NAME}', with 'x' of shape {list(x.shape)} and 'init_h' of shape "
                f"{list(init_h.shape)}, 'w' must be {[n_in + hidden, 4 * hidden]}, 'b' "
                f"{[4 * hidden]} and 'init_h', 'init_c' {[1, batch, hidden]}, but got "
                f"{list(w.shape)}, {list(b.shape)}, {list(init_h.shape)} and "
                f"{list(init_c.shape)}.")
        f32 = mstype.float32
        weight, bias = F.cast(w, f32), F.cast(b, f32)
        h, c = F.cast(init_h[0], f32), F.cast(init_c[0], f32)
        out = {k: [] for k in ("h", "c", "i", "j", "f", "o", "tanhc")}
        for t in range(steps):
            gates = F.add(F.matmul(F.concat([F.cast(x[t], f32), h], -1), weight), bias)
            i = F.sigmoid(gates[:, :hidden])
            j = F.tanh(gates[:, hidden:2 * hidden])
            f = F.sigmoid(F.add(gates[:, 2 * hidden:3 * hidden], self.forget_bias))
            o = F.sigmoid(gates[:, 3 * hidden:])
            c = F.add(F.mul(f, c), F.mul(i, j))
            if self.cell_clip > 0:
                c = F.minimum(F.maximum(c, -self.cell_clip), self.cell_clip)
            tanhc = F.tanh(c)
            h = F.mul(o, tanhc)
            for k, v in (("h", h), ("c", c), ("i", i), ("j", j), ("f", f), ("o", o),
                         ("tanhc", tanhc)):
                out[k].append(v)
        stacked = {k: F.stack(v, 0) for k, v in out.items()}
        typed = {k: F.cast(v, b.dtype) for k, v in stacked.items()}
        return (typed["h"], F.cast(stacked["h"], mstype.float16), typed["c"], typed["i"],
                typed["j"], typed["f"], typed["o"], typed["tanhc"])


__all__ = ["DynamicRNN"]
