"""``RMSprop`` (optionally centered, with momentum), with ops and ``Assign``::

    s <- alpha s + (1 - alpha) g^2;     (centered) a <- alpha a + (1 - alpha) g
    d = sqrt(s - a^2) + eps  (centered)  or  sqrt(s) + eps
    b <- momentum b + g / d;  w <- w - lr b   (momentum > 0)   else   w <- w - lr g / d
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from .checks import check_greater_than, check_not_less_than
from .optimizer import Optimizer


class RMSprop(Optimizer):
    """State ``mean_grad.<w>``, ``mean_square.<w>`` and ``moment.<w>``."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                 centered=False, maximize=False):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_not_less_than(alpha, "alpha", owner)
        check_greater_than(eps, "eps", owner)
        check_not_less_than(momentum, "momentum", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay, "maximize": maximize}
        super().__init__(params, defaults)
        self.mean_grad = self.slots("mean_grad")
        self.mean_square = self.slots("mean_square")
        self.moment = self.slots("moment")

    def construct(self, gradients):
        done = ()
        for group_id, group in enumerate(self.param_groups):
            alpha = np.float32(group["alpha"])
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, g, s, a, b in zip(self.group_params(group_id), grads,
                                     self.group_params(group_id, self.mean_square),
                                     self.group_params(group_id, self.mean_grad),
                                     self.group_params(group_id, self.moment)):
                s = ops.assign(s, ops.add(ops.mul(s, alpha), ops.mul(ops.mul(g, g), 1 - alpha)))
                if group["centered"]:
                    a = ops.assign(a, ops.add(ops.mul(a, alpha), ops.mul(g, 1 - alpha)))
                    s = ops.sub(s, ops.mul(a, a))
                denom = ops.add(ops.sqrt(s), group["eps"])
                if group["momentum"] > 0:
                    b = ops.assign(b, ops.add(ops.mul(b, group["momentum"]), ops.div(g, denom)))
                    w = ops.assign(w, ops.sub(w, ops.mul(b, lr)))
                else:
                    w = ops.assign(w, ops.sub(w, ops.div(ops.mul(lr, g), denom)))
                done = done + (w,)
        return ops.depend(True, done)
