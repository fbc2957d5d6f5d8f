"""``ASGD``: averaged SGD, through ``nn.optim``'s ASGD step (``asgd_update``)."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...nn.optim.asgd import asgd_update
from .checks import check_greater_than, check_not_less_than
from .optimizer import Optimizer


class ASGD(Optimizer):
    """State ``mu_<w>``, ``eta_<w>`` (float32 scalars), ``ax.<w>`` (the average) and
    ``step_t``."""

    def __init__(self, params, lr=0.01, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0,
                 maximize=False):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        for name, value in (("lambd", lambd), ("t0", t0)):
            if not isinstance(value, float):
                raise TypeError(f"For 'ASGD', the type of {name} must be float, but got "
                                f"{type(value)}.")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "maximize": maximize}
        super().__init__(params, defaults)
        self.mu = self.scalar_slots("mu_", 1.0)
        self.eta = self.scalar_slots("eta_", 0.0)
        self.ax = self.slots("ax")
        self.step_t = self.step_counter("step_t")

    def construct(self, gradients):
        step = ops.cast(ops.assign_add(self.step_t, 1), mstype.float32)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, g, mu, eta, ax in zip(self.group_params(group_id), grads,
                                         self.group_params(group_id, self.mu),
                                         self.group_params(group_id, self.eta),
                                         self.group_params(group_id, self.ax)):
                done = done + (asgd_update(w, g, lr, step, mu, eta, ax, group["lambd"],
                                           group["alpha"], group["t0"]),)
        return ops.depend(True, done)
