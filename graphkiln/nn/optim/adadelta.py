"""``Adadelta``: ``accum`` and ``accum_update`` are running averages of ``g^2`` and of the
squared steps; through ``ApplyAdadelta``."""
from __future__ import annotations

import graphkiln.ops as ops

from ...ops.defs.optim import ApplyAdadelta
from .optimizer import Optimizer, opt_init_args_register


def _check_float(owner: str, name: str, value, low: float, high: float | None = None,
                 strict_low: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For '{owner}', the '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    if value < low or strict_low and value == low or high is not None and value > high:
        bound = f"in range of [{low}, {high}]" if high is not None else \
            f"{'greater than' if strict_low else 'no less than'} {low}"
        raise ValueError(f"For '{owner}', the '{name}' must be {bound}, but got {value}.")
    return value


class Adadelta(Optimizer):
    """State ``accum.<w>`` and ``accum_update.<w>`` (zeros)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _check_float("Adadelta", "rho", rho, 0.0, 1.0)
        self.epsilon = _check_float("Adadelta", "epsilon", epsilon, 0.0, strict_low=True)
        self.accum = self.slots("accum")
        self.accum_update = self.slots("accum_update")
        self.opt = ops.Primitive(ApplyAdadelta, {})

    def construct(self, grads):
        grads = self.prepare_gradients(grads)
        lrs = self.lr_per_param(self.get_lr())
        done = ()
        for w, a, u, lr, g in zip(self._parameters, self.accum, self.accum_update, lrs, grads):
            done = done + (self.opt(w, a, u, lr, self.rho, self.epsilon, g),)
        return self.advance_step(done)
