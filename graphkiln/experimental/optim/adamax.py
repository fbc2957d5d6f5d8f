"""``Adamax``: Adam with the infinity norm, written with ops and ``Assign``::

    m <- beta1 m + (1 - beta1) g;    u <- max(beta2 u, |g| + eps)
    w <- w - lr / (1 - beta1^t) * m / u
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from .checks import check_betas, check_greater_than, check_not_less_than
from .optimizer import Optimizer


class Adamax(Optimizer):
    """State ``exp_avg.<w>``, ``exp_inf.<w>`` and ``step_t``."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *,
                 maximize=False):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_greater_than(eps, "eps", owner)
        check_betas(betas, owner)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize}
        super().__init__(params, defaults)
        self.step_t = self.step_counter("step_t")
        self.exp_avg = self.slots("exp_avg")
        self.exp_inf = self.slots("exp_inf")

    def construct(self, gradients):
        step = ops.assign_add(self.step_t, 1)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = (np.float32(b) for b in group["betas"])
            clr = ops.div(self.group_lr(group_id), ops.sub(1, ops.pow(beta1, step)))
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, g, m, u in zip(self.group_params(group_id), grads,
                                  self.group_params(group_id, self.exp_avg),
                                  self.group_params(group_id, self.exp_inf)):
                m = ops.assign(m, ops.add(ops.mul(m, beta1), ops.mul(g, 1 - beta1)))
                u = ops.assign(u, ops.maximum(ops.mul(u, beta2),
                                              ops.add(ops.abs(g), group["eps"])))
                done = done + (ops.assign(w, ops.sub(w, ops.div(ops.mul(clr, m), u))),)
        return ops.depend(True, done)
