"""``AdamW``: Adam with decoupled weight decay (``w *= 1 - lr * weight_decay`` before the
step), bias-corrected moments and optional AMSGrad, written with ops and ``Assign``::

    m <- beta1 m + (1 - beta1) g;    v <- beta2 v + (1 - beta2) g^2
    w <- w (1 - lr wd) - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)

(with AMSGrad, ``v`` in the denominator is the running maximum of ``v``).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from .checks import check_adam_args
from .optimizer import Optimizer


def adamw_update(w, g, m, v, v_max, lr, weight_decay, beta1, beta2, eps, step, amsgrad):
    """One AdamW step of weight ``w`` (``step`` counts from 1); returns the write. The
    hyper-parameters are float32, as Python numbers are in MindSpore's graphs."""
    beta1, beta2 = np.float32(beta1), np.float32(beta2)
    decayed = ops.mul(w, ops.sub(1.0, ops.mul(lr, weight_decay)))
    step_size = ops.div(lr, ops.sub(1.0, ops.pow(beta1, step)))
    correction2 = ops.sqrt(ops.sub(1.0, ops.pow(beta2, step)))
    m_new = ops.assign(m, ops.add(ops.mul(m, beta1), ops.mul(g, 1 - beta1)))
    v_new = ops.assign(v, ops.add(ops.mul(v, beta2), ops.mul(ops.mul(g, g), 1 - beta2)))
    if amsgrad:
        v_new = ops.assign(v_max, ops.maximum(v_max, v_new))
    denom = ops.add(ops.div(ops.sqrt(v_new), correction2), eps)
    return ops.assign(w, ops.sub(decayed, ops.mul(ops.div(m_new, denom), step_size)))


class AdamW(Optimizer):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>``, ``max_exp_avg_sq.<w>`` and ``state_step``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        check_adam_args(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize}
        super().__init__(params, defaults)
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")
        self.max_exp_avg_sq = self.slots("max_exp_avg_sq") if self.keeps_max(amsgrad) else None
        self.state_step = self.step_counter("state_step")

    def keeps_max(self, amsgrad: bool) -> bool:
        """Whether to hold ``max_exp_avg_sq`` (MindSpore's experimental AdamW always does)."""
        return True

    def construct(self, gradients):
        step = ops.assign_add(self.state_step, 1)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"], decay=False)
            for w, g, m, v, v_max in zip(self.group_params(group_id), grads,
                                         self.group_params(group_id, self.exp_avg),
                                         self.group_params(group_id, self.exp_avg_sq),
                                         self.group_slots(group_id, self.max_exp_avg_sq)):
                done = done + (adamw_update(w, g, m, v, v_max, lr, group["weight_decay"],
                                            beta1, beta2, group["eps"], step,
                                            group["amsgrad"]),)
        return ops.depend(True, done)
