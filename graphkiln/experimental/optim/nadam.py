"""``NAdam``: Adam with Nesterov momentum and momentum decay, with ops and ``Assign``::

    mu_t = beta1 (1 - 0.5 * 0.96^(t psi));   P_t = mu_1 ... mu_t
    w <- w - lr (1 - mu_t) / (1 - P_t) * g / d - lr mu_{t+1} / (1 - P_t mu_{t+1}) * m / d
    d = sqrt(v / (1 - beta2^t)) + eps

(the two terms are applied one after the other, as MindSpore does).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from .checks import check_betas, check_greater_than, check_not_less_than
from .optimizer import Optimizer


class NAdam(Optimizer):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>``, ``mu_product_<w>`` and ``step_t``."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 momentum_decay=4e-3):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_greater_than(eps, "eps", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_not_less_than(momentum_decay, "momentum_decay", owner)
        check_betas(betas, owner)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay}
        super().__init__(params, defaults)
        self.step_t = self.step_counter("step_t")
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")
        self.mu_product = self.scalar_slots("mu_product_", 1.0)

    def construct(self, gradients):
        step = ops.cast(ops.assign_add(self.step_t, 1), mstype.float32)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = (np.float32(b) for b in group["betas"])
            decay = np.float32(group["momentum_decay"])
            lr = self.group_lr(group_id)
            correction2 = ops.sub(1, ops.pow(beta2, step))
            mu = ops.mul(beta1, ops.sub(1.0, ops.mul(0.5, ops.pow(0.96, ops.mul(step, decay)))))
            mu_next = ops.mul(beta1, ops.sub(1.0, ops.mul(
                0.5, ops.pow(0.96, ops.mul(ops.add(step, 1), decay)))))
            grads = self.group_grads(group_id, gradients)
            for w, g, m, v, product in zip(self.group_params(group_id), grads,
                                           self.group_params(group_id, self.exp_avg),
                                           self.group_params(group_id, self.exp_avg_sq),
                                           self.group_params(group_id, self.mu_product)):
                product = ops.assign(product, ops.mul(product, mu))
                m = ops.assign(m, ops.add(ops.mul(m, beta1), ops.mul(g, 1 - beta1)))
                v = ops.assign(v, ops.add(ops.mul(v, beta2), ops.mul(ops.mul(g, g), 1 - beta2)))
                denom = ops.add(ops.sqrt(ops.div(v, correction2)), group["eps"])
                grad_step = ops.mul(ops.div(ops.mul(lr, ops.sub(1.0, mu)),
                                            ops.sub(1.0, product)), g)
                w_half = ops.assign(w, ops.sub(w, ops.div(grad_step, denom)))
                product_next = ops.mul(product, mu_next)
                m_step = ops.mul(ops.div(ops.mul(lr, mu_next), ops.sub(1.0, product_next)), m)
                done = done + (ops.assign(w, ops.sub(w_half, ops.div(m_step, denom))),)
        return ops.depend(True, done)
