"""``SGD``: MindSpore's ``SGD`` update primitive per weight (momentum with dampening,
Nesterov, weight decay inside the primitive; the first step sets the momentum buffer to
the gradient)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops
import graphkiln.ops.defs.optim as O

from ...common.tensor import Tensor
from .checks import check_type
from .optimizer import Optimizer


def check_sgd_args(owner: str, lr, momentum, nesterov, maximize) -> None:
    """The learning rate, momentum and flag checks of ``SGD``."""
    check_type("lr", lr, (float, int, Tensor), owner)
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    check_type("momentum", momentum, (int, float), owner)
    if momentum < 0.0:
        raise ValueError(f"Invalid momentum value: {momentum}")
    check_type("nesterov", nesterov, (bool,), owner)
    check_type("maximize", maximize, (bool,), owner)


def check_nesterov(nesterov: bool, momentum, dampening) -> None:
    if nesterov and (momentum <= 0.0 or dampening != 0.0):
        raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                         f"'dampening' must equal to 0.0, but got 'momentum' {momentum}, "
                         f"'dampening' {dampening}")


class SGD(Optimizer):
    """State ``accum.<w>`` (the momentum buffer) and ``stat.<w>`` (1 until the first step)."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False,
                 *, maximize=False):
        check_sgd_args(type(self).__name__, lr, momentum, nesterov, maximize)
        defaults = {"lr": lr, "momentum": float(momentum), "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "grad_centralization": False}
        super().__init__(params, defaults)
        for group in self.param_groups:
            check_type("dampening", group["dampening"], (int, float), type(self).__name__)
            group["dampening"] = float(group["dampening"])
        check_nesterov(nesterov, float(momentum), dampening)
        self.accum = self.slots("accum")
        self.stat = self.slots("stat", 1.0)

    def construct(self, gradients):
        done = ()
        for group_id, group in enumerate(self.param_groups):
            sgd = ops.Primitive(O.SGD, {"dampening": group["dampening"],
                                        "weight_decay": group["weight_decay"],
                                        "nesterov": group["nesterov"]})
            momentum = Tensor(np.array(group["momentum"], np.float32))
            lr = self.group_lr(group_id)
            grads = self.group_grads(group_id, gradients, group["maximize"], decay=False)
            for w, g, accum, stat in zip(self.group_params(group_id), grads,
                                         self.group_params(group_id, self.accum),
                                         self.group_params(group_id, self.stat)):
                done = done + (sgd(w, g, lr, accum, momentum, stat),)
        return ops.depend(True, done)
