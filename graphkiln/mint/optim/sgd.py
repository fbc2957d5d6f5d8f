"""``mint.optim.SGD``: PyTorch's SGD, with ops and ``Assign``::

    d = g (+ weight_decay * w);   b <- d at the first step, else momentum b + (1 - dampening) d
    w <- w - lr * (d + momentum b if nesterov else b)      (w <- w - lr d without momentum)

The learning rate is the group's Parameter (schedulers change it).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common.tensor import Tensor
from ...experimental.optim.checks import check_type
from ...experimental.optim.optimizer import Optimizer
from ...experimental.optim.sgd import check_nesterov


class SGD(Optimizer):
    """State ``momentum_buf.<w>`` and ``step_t``."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        owner = type(self).__name__
        check_type("lr", lr, (float, int, bool, Tensor), owner)
        for name, value in (("momentum", momentum), ("weight_decay", weight_decay),
                            ("dampening", dampening)):
            check_type(name, value, (float, int, bool), owner)
        check_type("nesterov", nesterov, (bool,), owner)
        check_type("maximize", maximize, (bool,), owner)
        for name, value in (("learning rate", lr), ("momentum", momentum),
                            ("weight_decay", weight_decay)):
            if value < 0.0:
                raise ValueError(f"Invalid {name} value: {value}" if name != "learning rate"
                                 else f"Invalid learning rate: {value}")
        defaults = {"lr": lr, "momentum": momentum, "weight_decay": weight_decay,
                    "dampening": dampening, "nesterov": nesterov, "maximize": maximize,
                    "lr_float": lr}
        for group in params if isinstance(params, list) else ():
            if isinstance(group, dict) and group.get("lr"):
                group["lr_float"] = group["lr"]
        super().__init__(params, defaults)
        check_nesterov(nesterov, momentum, dampening)
        self.momentum_buf = self.slots("momentum_buf")
        self.step_t = self.step_counter("step_t")

    def construct(self, gradients):
        first = ops.equal(self.step_t, 0)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            momentum = np.float32(group["momentum"])
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"])
            for w, d, buf in zip(self.group_params(group_id), grads,
                                 self.group_params(group_id, self.momentum_buf)):
                if momentum != 0:
                    moved = ops.add(ops.mul(buf, momentum),
                                    ops.mul(d, 1 - np.float32(group["dampening"])))
                    buf = ops.assign(buf, ops.select(first, d, moved))
                    d = ops.add(d, ops.mul(buf, momentum)) if group["nesterov"] else buf
                done = done + (ops.assign(w, ops.sub(w, ops.mul(d, lr))),)
        return ops.depend(ops.assign_add(self.step_t, ops.depend(1, done)), done)
