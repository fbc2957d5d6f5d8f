"""``AdaFactor`` (Shazeer and Stern, 2018): second moments kept as row and column means for
weights of rank >= 2, updates clipped by their RMS, relative step sizes; composed from ops
and ``Assign`` (MindSpore's own Python path of the optimizer)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register


def _rms(x):
    return ops.sqrt(ops.mean(ops.square(x)))


def _check_flag(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For 'AdaFactor', the '{name}' must be bool, but got "
                        f"{type(value).__name__}.")
    return value


def _check_non_negative(name: str, value, types=(float,)) -> float:
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(f"For 'AdaFactor', the '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    if value < 0:
        raise ValueError(f"For 'AdaFactor', the '{name}' must be a non-negative float, but got "
                         f"{value}.")
    return float(value)


class AdaFactor(Optimizer):
    """State ``exp_avg.<w>`` (with ``beta1``), ``exp_avg_sq_row_<w>``/``exp_avg_sq_col_<w>``
    (row and column means of ``g^2`` for weights of rank >= 2), ``exp_avg_sq_<w>`` (the
    full second moment of vectors) and the step count ``afactor_step``. Without a
    ``learning_rate`` the step size is ``min(1e-2, 1/sqrt(step))`` (``relative_step``),
    scaled by the weight's RMS (``scale_parameter``). The gradients are used as given (no
    loss-scale division), as MindSpore's."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        self.scale_lr = isinstance(learning_rate, (float, int))
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(eps, (list, tuple)):
            raise TypeError(f"For 'AdaFactor', the 'eps' must be list or tuple, but got "
                            f"{type(eps).__name__}.")
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        self.eps = tuple(_check_non_negative(f"eps{i}", e) for i, e in enumerate(eps))
        self.clip_threshold = _check_non_negative("clip_threshold", clip_threshold)
        if isinstance(decay_rate, bool) or not isinstance(decay_rate, float):
            raise TypeError(f"For 'AdaFactor', the 'decay_rate' must be float, but got "
                            f"{type(decay_rate).__name__}.")
        if not 0 < decay_rate < 1:
            raise ValueError(f"For 'AdaFactor', the 'decay_rate' must be in range of (0, 1), "
                             f"but got {decay_rate}.")
        if not 0 <= weight_decay < 1:
            raise ValueError(f"For 'AdaFactor', the 'weight_decay' must be in range of [0, 1), "
                             f"but got {weight_decay}.")
        self.decay_rate = decay_rate
        self.beta1 = _check_non_negative("beta1", beta1, (int, float))
        self.adafactor_weight_decay = float(weight_decay)
        self.scale_parameter = _check_flag("scale_parameter", scale_parameter) and self.scale_lr
        self.relative_step = _check_flag("relative_step", relative_step)
        self.warmup_init = warmup_init
        self.compression = _check_flag("compression", compression)
        self.use_first_moment = self.beta1 > 0
        self._init_state()
        self.step = Parameter(Tensor(np.zeros(1, np.float32)), name="afactor_step")

    def _zeros(self, shape, dtype, name: str) -> Parameter:
        return Parameter(Tensor(np.zeros(shape, dtype.np_dtype), dtype), name=name)

    def _init_state(self) -> None:
        if self.use_first_moment:
            self.exp_avg = self.slots("exp_avg")
        rows, cols, full = [], [], []
        for p in self._parameters:
            shape, name = tuple(p.shape), p.name
            if len(shape) > 1:
                rows.append(self._zeros(shape[:-1], p.dtype, f"exp_avg_sq_row_{name}"))
                cols.append(self._zeros(shape[:-2] + shape[-1:], p.dtype,
                                        f"exp_avg_sq_col_{name}"))
                full.append(self._zeros((1,), p.dtype, f"exp_avg_sq_{name}"))
            else:
                rows.append(self._zeros((1,), p.dtype, f"exp_avg_sq_row_{name}"))
                cols.append(self._zeros((1,), p.dtype, f"exp_avg_sq_col_{name}"))
                full.append(self._zeros(shape, mstype.float16 if self.compression else p.dtype,
                                        f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, gradients):
        lr = self.get_lr()
        step = ops.assign_add(self.step, Tensor(np.ones(1, np.float32)))
        if self.scale_lr and self.relative_step:
            least = ops.mul(step, 1e-6) if self.warmup_init else 1e-2
            lr = ops.minimum(least, ops.div(1.0, ops.sqrt(step)))
        beta2t = ops.sub(1.0, ops.pow(step, -self.decay_rate))
        done = ()
        for i, (w, g) in enumerate(zip(self._parameters, gradients)):
            done = done + (self._update(i, w, g, lr, beta2t),)
        return self.advance_step(done)

    def _update(self, i: int, w, g, lr, beta2t):
        g = ops.cast(g, mstype.float32)
        p = ops.cast(w, mstype.float32)
        if self.scale_parameter:
            lr = ops.mul(lr, ops.maximum(self.eps[1], _rms(p)))
        sq = ops.add(ops.square(g), self.eps[0])
        keep = ops.sub(1.0, beta2t)
        if g.ndim >= 2:
            row, col = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
            new_row = ops.add(ops.mul(row, beta2t), ops.mul(ops.mean(sq, -1), keep))
            new_col = ops.add(ops.mul(col, beta2t), ops.mul(ops.mean(sq, -2), keep))
            new_row = ops.depend(new_row, ops.assign(row, ops.cast(new_row, row.dtype)))
            new_col = ops.depend(new_col, ops.assign(col, ops.cast(new_col, col.dtype)))
            r = ops.rsqrt(ops.div(new_row, ops.mean(new_row, -1, True)))
            c = ops.rsqrt(new_col)
            update = ops.mul(ops.mul(ops.expand_dims(r, -1), ops.expand_dims(c, -2)), g)
        else:
            full = self.exp_avg_sq[i]
            new = ops.add(ops.mul(ops.cast(full, mstype.float32), beta2t), ops.mul(sq, keep))
            new = ops.depend(new, ops.assign(full, ops.cast(new, full.dtype)))
            update = ops.mul(ops.rsqrt(new), g)
        coeff = ops.maximum(ops.div(_rms(update), self.clip_threshold), 1.0)
        update = ops.mul(ops.div(update, coeff), lr)
        if self.use_first_moment:
            m = self.exp_avg[i]
            update = ops.add(ops.mul(m, self.beta1), ops.mul(update, 1.0 - self.beta1))
            update = ops.depend(update, ops.assign(m, ops.cast(update, m.dtype)))
        if self.adafactor_weight_decay:
            p = ops.add(p, ops.mul(ops.mul(p, -self.adafactor_weight_decay), lr))
        return ops.assign(w, ops.cast(ops.sub(p, update), w.dtype))
