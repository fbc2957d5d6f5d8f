"""``mint.optim.AdamW``: the AdamW step of ``experimental.optim`` (``adamw_update``) with
mint's argument type checks."""
from __future__ import annotations

import graphkiln.ops as ops

from ...experimental.optim.adamw import adamw_update
from ...experimental.optim.optimizer import Optimizer, check_adam_args, check_type


def check_mint_adam_args(owner: str, lr, betas, eps, weight_decay, amsgrad, maximize) -> None:
    """mint's type checks (floats, a pair of float betas, bool flags), then Adam's."""
    check_type("betas", betas, (tuple,), owner)
    if len(betas) != 2:
        raise ValueError(f"For '{owner}', the betas size should be in : [2], but got "
                         f"{len(betas)}.")
    for name, value in (("betas[0]", betas[0]), ("betas[1]", betas[1]), ("eps", eps),
                        ("weight_decay", weight_decay), ("lr", lr)):
        check_type(name, value, (float,), owner)
    check_type("amsgrad", amsgrad, (bool,), owner)
    check_type("maximize", maximize, (bool,), owner)
    check_adam_args(lr, betas, eps, weight_decay)


class AdamW(Optimizer):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>``, ``max_exp_avg_sq.<w>`` and ``state_step``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        check_mint_adam_args(type(self).__name__, lr, betas, eps, weight_decay, amsgrad,
                             maximize)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize}
        super().__init__(params, defaults)
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")
        self.max_exp_avg_sq = self.slots("max_exp_avg_sq")
        self.state_step = self.step_counter("state_step")

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
                                         self.group_params(group_id, self.max_exp_avg_sq)):
                done = done + (adamw_update(w, g, m, v, v_max, lr, group["weight_decay"],
                                            beta1, beta2, group["eps"], step,
                                            group["amsgrad"]),)
        return ops.depend(True, done)
