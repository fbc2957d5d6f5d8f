"""``Adadelta``: MindSpore's ``ApplyAdadelta`` update primitive per weight (weight decay
added to the gradient)."""
from __future__ import annotations

import graphkiln.ops as ops
import graphkiln.ops.defs.optim as O

from .checks import check_greater_than, check_not_less_than, check_range
from .optimizer import Optimizer


class Adadelta(Optimizer):
    """State ``accum.<w>`` and ``accum_update.<w>``."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_greater_than(eps, "eps", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_range("rho", rho, 0.0, 1.0, owner, "[]")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize}
        super().__init__(params, defaults)
        self.accum = self.slots("accum")
        self.accum_update = self.slots("accum_update")
        self.adadelta = ops.Primitive(O.ApplyAdadelta, {})

    def construct(self, gradients):
        done = ()
        for group_id, group in enumerate(self.param_groups):
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, g, accum, update in zip(self.group_params(group_id), grads,
                                           self.group_params(group_id, self.accum),
                                           self.group_params(group_id, self.accum_update)):
                done = done + (self.adadelta(w, accum, update, lr, group["rho"], group["eps"],
                                             g),)
        return ops.depend(True, done)

