"""``Adagrad``: ``accum += g^2; w -= lr g / sqrt(accum)`` through ``ApplyAdagrad``."""
from __future__ import annotations

import graphkiln.ops as ops

from ...ops.defs.optim import ApplyAdagrad
from .optimizer import Optimizer, opt_init_args_register


class Adagrad(Optimizer):
    """State ``accum.<w>``, starting at ``accum``."""

    @opt_init_args_register
    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True,
                 loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(accum, bool) or not isinstance(accum, (int, float)) or accum < 0:
            raise ValueError(f"For 'Adagrad', the 'accum' must be a float >= 0, but got "
                             f"{accum!r}.")
        self.accum = self.slots("accum", float(accum))
        self.opt = ops.Primitive(ApplyAdagrad, {"update_slots": bool(update_slots),
                                                "use_locking": False})

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        done = ()
        for w, a, lr, g in zip(self._parameters, self.accum, lrs, gradients):
            done = done + (self.opt(w, a, lr, g),)
        return self.advance_step(done)
