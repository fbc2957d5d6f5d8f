"""``mint.optim.Adam``: PyTorch's Adam (L2 weight decay added to the gradient, optional
AMSGrad), with ops and ``Assign``::

    m <- beta1 m + (1 - beta1) g;    v <- beta2 v + (1 - beta2) g^2
    w <- w - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)

(with AMSGrad, ``v`` in the denominator is the running maximum of ``v``).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...experimental.optim.checks import check_adam_args
from ...experimental.optim.optimizer import Optimizer
from .adamw import any_amsgrad, check_mint_adam_args


class Adam(Optimizer):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>``, ``max_exp_avg_sq.<w>`` and ``state_step``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        check_mint_adam_args(type(self).__name__, lr, betas, eps, weight_decay, amsgrad,
                             maximize)
        check_adam_args(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize}
        super().__init__(params, defaults)
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")
        self.max_exp_avg_sq = (self.slots("max_exp_avg_sq") if any_amsgrad(self, amsgrad)
                               else None)
        self.state_step = self.step_counter("state_step", mstype.float32)

    def construct(self, gradients):
        step = ops.assign_add(self.state_step, 1.0)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = (np.float32(b) for b in group["betas"])
            step_size = ops.div(self.group_lr(group_id), ops.sub(1, ops.pow(beta1, step)))
            correction2 = ops.sqrt(ops.sub(1, ops.pow(beta2, step)))
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, g, m, v, v_max in zip(self.group_params(group_id), grads,
                                         self.group_params(group_id, self.exp_avg),
                                         self.group_params(group_id, self.exp_avg_sq),
                                         self.group_slots(group_id, self.max_exp_avg_sq)):
                m = ops.assign(m, ops.add(ops.mul(m, beta1), ops.mul(g, 1 - beta1)))
                v = ops.assign(v, ops.add(ops.mul(v, beta2), ops.mul(ops.mul(g, g), 1 - beta2)))
                if group["amsgrad"]:
                    v = ops.assign(v_max, ops.maximum(v_max, v))
                denom = ops.add(ops.div(ops.sqrt(v), correction2), group["eps"])
                done = done + (ops.assign(w, ops.sub(w, ops.mul(step_size, ops.div(m, denom)))),)
        return ops.depend(True, done)
