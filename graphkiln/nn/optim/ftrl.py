"""``FTRL`` (follow the regularized leader) and ``ProximalAdagrad``: Adagrad-style steps
with l1/l2 proximal shrinkage, through ``ApplyFtrl`` and ``ApplyProximalAdagrad``."""
from __future__ import annotations

import graphkiln.ops as ops

from ...ops.defs.optim import ApplyFtrl, ApplyProximalAdagrad
from .adadelta import _check_float
from .optimizer import Optimizer, opt_init_args_register


def _check_bool(owner: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' must be bool, but got "
                        f"{type(value).__name__}.")
    return value


def _set_any_target(opt: Optimizer, value: str, got: str) -> None:
    """FTRL's and ProximalAdagrad's ``target``: any device name, whatever the context's
    (they pick their sparse kernel by it; graphkiln runs every one on the CPU)."""
    owner = type(opt).__name__
    if not isinstance(value, str):
        raise TypeError(f"For '{owner}', the property 'target' must be string type, but got "
                        f"{got}")
    if value not in ("CPU", "Ascend", "GPU"):
        raise ValueError(f"For '{owner}', the property 'target' must be 'CPU', 'Ascend' or "
                         f"'GPU', but got {value}.")
    opt._target = value


class FTRL(Optimizer):
    """State ``moments.<w>`` (starting at ``initial_accum``) and ``linear.<w>`` (zeros). A
    fixed learning rate only (no schedule, no per-group rates), as MindSpore's; weight
    decay applies to every weight."""

    @opt_init_args_register
    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale=loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are "
                             f"currently not supported in FTRL, they should all be false, but "
                             f"got dynamic learning rate {self.dynamic_lr} and group learning "
                             f"rate {self.is_group_lr}.")
        _check_float("FTRL", "initial_accum", initial_accum, 0.0)
        _check_float("FTRL", "learning_rate", learning_rate, 0.0, strict_low=True)
        if isinstance(lr_power, bool) or not isinstance(lr_power, float):
            raise TypeError(f"For 'FTRL', the 'lr_power' must be float, but got "
                            f"{type(lr_power).__name__}.")
        if lr_power > 0:
            raise ValueError(f"For 'FTRL', the 'lr_power' must be no greater than 0.0, but got "
                             f"{lr_power}.")
        self.l1 = _check_float("FTRL", "l1", l1, 0.0)
        self.l2 = _check_float("FTRL", "l2", l2, 0.0)
        self.use_locking = _check_bool("FTRL", "use_locking", use_locking)
        self.lr_power = lr_power
        if not self.is_group:
            self.set_decay_flags((True,) * self.param_length)
        self.moments = self.slots("moments", initial_accum)
        self.linear = self.slots("linear")
        self.opt = ops.Primitive(ApplyFtrl, {"use_locking": use_locking})

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        _set_any_target(self, value, f"type {type(value)}.")

    def construct(self, grads):
        grads = self.prepare_gradients(grads)
        lr = self.get_lr()
        done = ()
        for w, m, lin, g in zip(self._parameters, self.moments, self.linear, grads):
            done = done + (self.opt(w, m, lin, g, lr, self.l1, self.l2, self.lr_power),)
        return self.advance_step(done)


class ProximalAdagrad(Optimizer):
    """State ``accum.<w>``, starting at ``accum``."""

    @opt_init_args_register
    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_float("ProximalAdagrad", "accum", accum, 0.0)
        self.l1 = self.scalar_const(_check_float("ProximalAdagrad", "l1", l1, 0.0))
        self.l2 = self.scalar_const(_check_float("ProximalAdagrad", "l2", l2, 0.0))
        self.use_locking = _check_bool("ProximalAdagrad", "use_locking", use_locking)
        self.accum = self.slots("accum", accum)
        self.opt = ops.Primitive(ApplyProximalAdagrad, {"use_locking": use_locking})

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        _set_any_target(self, value, str(type(value)))

    def construct(self, grads):
        grads = self.prepare_gradients(grads)
        lrs = self.lr_per_param(self.get_lr())
        done = ()
        for w, a, lr, g in zip(self._parameters, self.accum, lrs, grads):
            done = done + (self.opt(w, a, lr, self.l1, self.l2, g),)
        return self.advance_step(done)
