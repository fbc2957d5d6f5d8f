"""``ASGD``: averaged stochastic gradient descent, written with ops and ``Assign``.

Per weight ``w`` with step size ``eta`` (the learning rate at the first step) and averaging
rate ``mu`` (1 until step ``t0``)::

    w  <- w * (1 - lambd * eta) - eta * g
    ax <- w if mu == 1 else ax + (w - ax) * mu
    eta <- lr / (1 + lambd * lr * step) ** alpha;   mu <- 1 / max(1, step - t0)
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from .optimizer import Optimizer, opt_init_args_register


def check_float(owner: str, name: str, value) -> float:
    """``value`` when it is a Python float, else MindSpore's TypeError."""
    if not isinstance(value, float):
        raise TypeError(f"For '{owner}', the type of '{name}' should be 'float', but got type "
                        f"'{type(value).__name__}'.")
    return value


def asgd_update(w, g, lr, step, mu, eta, ax, lambd, alpha, t0):
    """One ASGD step of weight ``w`` at float32 ``step`` (from 1): writes ``w``, its
    average ``ax`` and its scalars ``eta``, ``mu``; returns the write of ``w``."""
    eta_now = ops.select(ops.equal(step, 1.0), lr, eta)
    w32 = ops.cast(w, mstype.float32)
    next_w = ops.sub(ops.mul(w32, ops.sub(1.0, ops.mul(eta_now, lambd))),
                     ops.mul(eta_now, ops.cast(g, mstype.float32)))
    ax32 = ops.cast(ax, mstype.float32)
    next_ax = ops.select(ops.equal(mu, 1.0), next_w,
                         ops.add(ax32, ops.mul(ops.sub(next_w, ax32), mu)))
    next_eta = ops.div(lr, ops.pow(ops.add(ops.mul(ops.mul(lr, lambd), step), 1.0), alpha))
    next_mu = ops.div(1.0, ops.maximum(ops.sub(step, t0), 1.0))
    updates = (ops.assign(ax, ops.cast(next_ax, ax.dtype)), ops.assign(eta, next_eta),
               ops.assign(mu, next_mu))
    return ops.depend(ops.assign(w, ops.cast(next_w, w.dtype)), updates)


class ASGD(Optimizer):
    """State ``mu_<w>``, ``eta_<w>`` (float32 scalars) and ``ax_.<w>`` (the average)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.lambd = check_float("ASGD", "lambd", lambd)
        self.alpha = check_float("ASGD", "alpha", alpha)
        self.t0 = check_float("ASGD", "t0", t0)
        self.mu = ParameterTuple(Parameter(Tensor(np.array(1.0, np.float32)), name=f"mu_{p.name}")
                                 for p in self._parameters)
        self.eta = ParameterTuple(Parameter(Tensor(np.array(0.0, np.float32)),
                                            name=f"eta_{p.name}") for p in self._parameters)
        self.ax = self.slots("ax_")

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        step = ops.add(ops.cast(ops.reshape(self.global_step, ()), mstype.float32), 1.0)
        done = ()
        for w, g, lr, mu, eta, ax in zip(self._parameters, gradients, lrs, self.mu, self.eta,
                                         self.ax):
            done = done + (asgd_update(w, g, ops.reshape(lr, ()), step, mu, eta, ax,
                                       self.lambd, self.alpha, self.t0),)
        return self.advance_step(done)
