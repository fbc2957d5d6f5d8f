"""``AdaMax``: Adam with the infinity norm, through ``ApplyAdaMax``."""
from __future__ import annotations

import graphkiln.ops as ops

from ...ops.defs.optim import ApplyAdaMax
from .adam import _check_betas
from .optimizer import Optimizer, opt_init_args_register


class AdaMax(Optimizer):
    """State ``beta1_power`` (float32 ``[1]``), ``moment1.<w>`` and ``moment2.<w>``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas("AdaMax", beta1, beta2, eps)
        self.beta1 = self.scalar_const(beta1)
        self.beta2 = self.scalar_const(beta2)
        self.eps = self.scalar_const(eps)
        self.beta1_power = self.scalar_slot("beta1_power", 1.0)
        self.moment1 = self.slots("moment1")
        self.moment2 = self.slots("moment2")
        self.opt = ops.Primitive(ApplyAdaMax, {})

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        b1p = ops.assign(self.beta1_power, ops.mul(self.beta1_power, self.beta1))
        done = ()
        for w, m, v, lr, g in zip(self._parameters, self.moment1, self.moment2, lrs, gradients):
            done = done + (self.opt(w, m, v, b1p, lr, self.beta1, self.beta2, self.eps, g),)
        return self.advance_step(done)
