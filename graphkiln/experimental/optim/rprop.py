"""``Rprop``: resilient backpropagation, through ``nn.optim``'s Rprop step
(``rprop_update``): step sizes start at the learning rate, grow by ``etas[1]`` while the
gradient keeps its sign, shrink by ``etas[0]`` when it flips, within ``step_sizes``."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...nn.optim.rprop import rprop_update
from .checks import check_greater_than, check_range
from .optimizer import Optimizer


class Rprop(Optimizer):
    """State ``prev.<w>``, ``step_size.<w>`` and ``step_t``."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 maximize=False):
        owner = type(self).__name__
        check_greater_than(lr, "lr", owner)
        check_greater_than(etas[1], "etas[1]", owner, 1.0)
        check_range("etas[0]", etas[0], 0.0, 1.0, owner, "()")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "maximize": maximize}
        super().__init__(params, defaults)
        self.prev = self.slots("prev")
        self.step_size = self.slots("step_size")
        self.step_t = self.step_counter("step_t")

    def construct(self, gradients):
        first = ops.equal(ops.assign_add(self.step_t, 1), 1)
        done = ()
        for group_id, group in enumerate(self.param_groups):
            etaminus, etaplus = (np.float32(e) for e in group["etas"])
            size_min, size_max = group["step_sizes"]
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"], decay=False)
            for w, g, prev, size in zip(self.group_params(group_id), grads,
                                        self.group_params(group_id, self.prev),
                                        self.group_params(group_id, self.step_size)):
                done = done + (rprop_update(w, g, lr, first, prev, size, etaminus, etaplus,
                                            size_min, size_max),)
        return ops.depend(True, done)
