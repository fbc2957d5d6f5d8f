"""``RAdam``: rectified Adam, with ops and ``Assign``. With ``rho_inf = 2 / (1 - beta2) - 1``
and ``rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)``, a step is the rectified adaptive
step ``m_hat lr sqrt(1 - beta2^t) / (sqrt(v) + eps) * r_t`` when ``rho_t > 5``, else the
plain ``m_hat lr`` (``m_hat = m / (1 - beta1^t)``)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from .checks import check_betas, check_greater_than, check_not_less_than
from .optimizer import Optimizer


class RAdam(Optimizer):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>`` and ``step_t``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_greater_than(eps, "eps", owner)
        check_betas(betas, owner)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay}
        super().__init__(params, defaults)
        self.step_t = self.step_counter("step_t")
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")

    def construct(self, gradients):
        step = ops.cast(ops.assign_add(self.step_t, 1), mstype.float32)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = (np.float32(b) for b in group["betas"])
            lr = self.group_lr(group_id)
            correction1 = ops.sub(1, ops.pow(beta1, step))
            beta2_power = ops.pow(beta2, step)
            correction2 = ops.sub(1, beta2_power)
            rho_inf = np.float32(2) / (1 - beta2) - 1
            rho_t = ops.sub(rho_inf, ops.div(ops.mul(ops.mul(2, step), beta2_power),
                                             correction2))
            ratio = ops.div(ops.mul(ops.mul(ops.sub(rho_t, 4), ops.sub(rho_t, 2)), rho_inf),
                            ops.mul((rho_inf - 4) * (rho_inf - 2), rho_t))
            rect = ops.sqrt(ops.maximum(ratio, 0.0))
            rectified = ops.greater(rho_t, 5.0)
            grads = self.group_grads(group_id, gradients)
            for w, g, m, v in zip(self.group_params(group_id), grads,
                                  self.group_params(group_id, self.exp_avg),
                                  self.group_params(group_id, self.exp_avg_sq)):
                m = ops.assign(m, ops.add(ops.mul(m, beta1), ops.mul(g, 1 - beta1)))
                v = ops.assign(v, ops.add(ops.mul(v, beta2), ops.mul(ops.mul(g, g), 1 - beta2)))
                m_hat = ops.div(m, correction1)
                adaptive = ops.div(ops.sqrt(correction2), ops.add(ops.sqrt(v), group["eps"]))
                step_rect = ops.mul(ops.mul(ops.mul(m_hat, lr), adaptive), rect)
                delta = ops.select(rectified, step_rect, ops.mul(m_hat, lr))
                done = done + (ops.assign(w, ops.sub(w, delta)),)
        return ops.depend(True, done)
