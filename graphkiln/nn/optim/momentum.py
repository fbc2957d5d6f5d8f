"""``Momentum``: ``accum = momentum * accum + g; w -= lr * accum`` (or Nesterov), through
the ``ApplyMomentum`` primitive."""
from __future__ import annotations

import graphkiln.ops as ops

from ...ops.defs.optim import ApplyMomentum
from .optimizer import Optimizer, opt_init_args_register


class Momentum(Optimizer):
    """Stochastic gradient descent with momentum; state ``moments.<weight>``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)):
            raise TypeError(f"For 'Momentum', the argument 'momentum' must be float, but got "
                            f"{type(momentum).__name__}.")
        if momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, "
                             f"but got {momentum}.")
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For 'Momentum', the argument 'use_nesterov' must be bool, but "
                            f"got {type(use_nesterov).__name__}.")
        self.momentum = self.scalar_slot("momentum", momentum)
        self.use_nesterov = use_nesterov
        self.moments = self.slots("moments")
        self.opt = ops.Primitive(ApplyMomentum, {"use_nesterov": use_nesterov,
                                                 "use_locking": False,
                                                 "gradient_scale": 1.0})

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        done = ()
        for w, m, lr, g in zip(self._parameters, self.moments, lrs, gradients):
            done = done + (self.opt(w, m, lr, g, self.momentum),)
        return self.advance_step(done)
