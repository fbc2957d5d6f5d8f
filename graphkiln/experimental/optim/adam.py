"""``Adam``: MindSpore's ``Adam`` update primitive per weight, with ``beta^t`` from the
``state_step`` count (weight decay added to the gradient; ``amsgrad`` is accepted and, as
in MindSpore 2.10, does not change the update)."""
from __future__ import annotations

import graphkiln.ops as ops
import graphkiln.ops.defs.optim as O

from .checks import check_adam_args
from .optimizer import Optimizer


class Adam(Optimizer):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>``, ``max_exp_avg_sq.<w>`` and ``state_step``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        check_adam_args(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize}
        super().__init__(params, defaults)
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")
        self.max_exp_avg_sq = self.slots("max_exp_avg_sq")
        self.state_step = self.step_counter("state_step")
        self.adam = ops.Primitive(O.Adam, {"use_locking": False, "use_nesterov": False})

    def construct(self, gradients):
        step = ops.assign_add(self.state_step, 1)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            beta1_power = ops.pow(beta1, step)
            beta2_power = ops.pow(beta2, step)
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, g, m, v in zip(self.group_params(group_id), grads,
                                  self.group_params(group_id, self.exp_avg),
                                  self.group_params(group_id, self.exp_avg_sq)):
                done = done + (self.adam(w, m, v, beta1_power, beta2_power, lr, beta1, beta2,
                                         group["eps"], g),)
        return ops.depend(True, done)
