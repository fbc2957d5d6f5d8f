"""``RMSProp`` (plain or ``centered``), through ``ApplyRMSProp``/``ApplyCenteredRMSProp``."""
from __future__ import annotations

import graphkiln.ops as ops
import graphkiln.ops.defs.optim as O

from .optimizer import Optimizer, opt_init_args_register


class RMSProp(Optimizer):
    """State ``mean_square.<w>`` (starting at 1, as MindSpore's), ``moment.<w>`` and, when
    centered, ``mean_grad.<w>``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, v in (("decay", decay), ("momentum", momentum)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise ValueError(f"For 'RMSProp', the '{name}' must be a float >= 0, but got "
                                 f"{v!r}.")
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or epsilon <= 0:
            raise ValueError(f"For 'RMSProp', the 'epsilon' must be a float > 0, but got "
                             f"{epsilon!r}.")
        self.decay = self.scalar_const(decay)
        self.momentum = self.scalar_const(momentum)
        self.epsilon = self.scalar_const(epsilon)
        self.centered = bool(centered)
        self.mean_square = self.slots("mean_square", 1.0)
        self.moment = self.slots("moment")
        if self.centered:
            self.mean_grad = self.slots("mean_grad")
            self.opt = ops.Primitive(O.ApplyCenteredRMSProp, {"use_locking": use_locking})
        else:
            self.opt = ops.Primitive(O.ApplyRMSProp, {"use_locking": use_locking})

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        done = ()
        for i, (w, g, lr) in enumerate(zip(self._parameters, gradients, lrs)):
            if self.centered:
                out = self.opt(w, self.mean_grad[i], self.mean_square[i], self.moment[i], g,
                               lr, self.decay, self.momentum, self.epsilon)
            else:
                out = self.opt(w, self.mean_square[i], self.moment[i], lr, g, self.decay,
                               self.momentum, self.epsilon)
            done = done + (out,)
        return self.advance_step(done)
