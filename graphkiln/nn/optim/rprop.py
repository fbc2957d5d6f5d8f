"""``Rprop``: resilient backpropagation, written with ops and ``Assign``.

Per element, the step size grows by ``etaplus`` while the gradient keeps its sign, shrinks
by ``etaminus`` when it flips (and that step is skipped), and stays in ``step_sizes``; the
weight moves by ``-sign(g) * step_size``. The step sizes start at the learning rate.
"""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from .asgd import check_float
from .optimizer import Optimizer, opt_init_args_register


def _check_pair(name: str, value) -> tuple:
    if not isinstance(value, tuple):
        raise TypeError(f"For Rprop, {name} must be a tuple, but got {type(value)}.")
    if len(value) != 2:
        raise ValueError(f"For Rprop, {name} must be a tuple with the size of 2, but got "
                         f"{len(value)}.")
    return value


def rprop_update(w, g, lr, first, prev, step_size, etaminus, etaplus, size_min, size_max):
    """One Rprop step of weight ``w`` (``first``: a bool tensor, the step sizes start at
    ``lr``): writes ``w``, ``prev`` and ``step_size``; returns the write of ``w``."""
    g32 = ops.cast(g, mstype.float32)
    size = ops.select(first, ops.mul(ops.ones_like(step_size), lr),
                      ops.cast(step_size, mstype.float32))
    agree = ops.sign(ops.mul(g32, prev))
    factor = ops.select(ops.greater(agree, 0.0), etaplus,
                        ops.select(ops.less(agree, 0.0), etaminus, ops.ones_like(agree)))
    size = ops.clip_by_value(ops.mul(size, factor), size_min, size_max)
    used = ops.select(ops.equal(factor, etaminus), ops.zeros_like(g32), g32)
    next_w = ops.sub(ops.cast(w, mstype.float32), ops.mul(ops.sign(used), size))
    updates = (ops.assign(prev, ops.cast(used, prev.dtype)),
               ops.assign(step_size, ops.cast(size, step_size.dtype)))
    return ops.depend(ops.assign(w, ops.cast(next_w, w.dtype)), updates)


class Rprop(Optimizer):
    """State ``prev.<w>`` (the last gradient used) and ``step_size.<w>``."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.),
                 weight_decay=0.):
        super().__init__(learning_rate, params, weight_decay)
        etaminus, etaplus = _check_pair("etas", etas)
        step_min, step_max = _check_pair("step_sizes", step_sizes)
        if step_min > step_max:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal "
                             f"step size, but got {step_min} > {step_max}.")
        if isinstance(etaminus, bool) or not isinstance(etaminus, (int, float)) or \
                not 0.0 < etaminus < 1.0:
            raise ValueError(f"For 'Rprop', the 'etaminus' must be in range of (0.0, 1.0), "
                             f"but got {etaminus!r}.")
        if check_float("Rprop", "etaplus", etaplus) <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus "
                             f"{etaplus}.")
        self.etaminus, self.etaplus = float(etaminus), etaplus
        self.step_size_min = check_float("Rprop", "min_step_sizes", step_min)
        self.step_size_max = check_float("Rprop", "max_step_sizes", step_max)
        self.prev = self.slots("prev")
        self.step_size = self.slots("step_size")

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        first = ops.equal(ops.reshape(self.global_step, ()), 0)
        done = ()
        for w, g, lr, prev, step_size in zip(self._parameters, gradients, lrs, self.prev,
                                             self.step_size):
            done = done + (rprop_update(w, g, ops.reshape(lr, ()), first, prev, step_size,
                                        self.etaminus, self.etaplus, self.step_size_min,
                                        self.step_size_max),)
        return self.advance_step(done)
