"""``Adagrad``: MindSpore's ``ApplyAdagradV2`` update primitive per weight, at the
learning rate ``lr / (1 + (t - 1) * lr_decay)`` of step ``t``."""
from __future__ import annotations

import graphkiln.ops as ops
import graphkiln.ops.defs.optim as O

from .checks import check_greater_than, check_not_less_than
from .optimizer import Optimizer


class Adagrad(Optimizer):
    """State ``accum.<w>`` (starting at ``initial_accumulator_value``) and ``step_t``."""

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                 initial_accumulator_value=0.0, eps=1e-10, *, maximize=False):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_not_less_than(lr_decay, "lr_decay", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_not_less_than(initial_accumulator_value, "initial_accumulator_value", owner)
        check_greater_than(eps, "eps", owner)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "maximize": maximize}
        super().__init__(params, defaults)
        self.accum = self.slots("accum", initial_accumulator_value)
        self.step_t = self.step_counter("step_t")

    def construct(self, gradients):
        done = ()
        for group_id, group in enumerate(self.param_groups):
            adagrad = ops.Primitive(O.ApplyAdagradV2, {"epsilon": group["eps"],
                                                       "update_slots": True})
            lr = ops.div(self.group_lr(group_id),
                         ops.add(ops.mul(self.step_t, group["lr_decay"]), 1))
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, g, accum in zip(self.group_params(group_id), grads,
                                   self.group_params(group_id, self.accum)):
                done = done + (adagrad(w, accum, lr, g),)
        return ops.depend(ops.assign_add(self.step_t, ops.depend(1, done)), done)
