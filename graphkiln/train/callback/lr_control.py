"""Callbacks that change the optimizer's learning rate: LearningRateScheduler and
ReduceLROnPlateau. The optimizer's ``learning_rate`` must be a scalar Parameter (as
graphkiln's and MindSpore's optimizers hold it), so compiled steps see the new value."""
from __future__ import annotations

import math

import numpy as np

from ...common.parameter import Parameter
from .callback import Callback, RunContext
from .loss_monitor import check_non_negative_int
from .monitor import Monitor


def learning_rate_of(optimizer, owner: str) -> Parameter:
    lr = getattr(optimizer, "learning_rate", None)
    if not isinstance(lr, Parameter) or lr.shape != ():
        raise ValueError(f"{owner} does not support dynamic learning rate and group learning "
                         f"rate now.")
    return lr


def set_learning_rate(lr: Parameter, value: float) -> None:
    lr.set_data(np.array(value, np.float32))


class LearningRateScheduler(Callback):
    """After each step set the learning rate to ``learning_rate_function(lr, cur_step_num)``."""

    def __init__(self, learning_rate_function):
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        lr_param = learning_rate_of(cb_params.optimizer, "LearningRateScheduler")
        lr = float(np.array2string(lr_param.asnumpy()))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            set_learning_rate(lr_param, new_lr)


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` (not below ``min_lr``) when ``monitor`` has not
    improved by ``min_delta`` for ``patience`` epochs, then wait ``cooldown`` epochs."""

    def __init__(self, monitor: str = "eval_loss", factor: float = 0.1, patience: int = 10,
                 verbose: bool = False, mode: str = "auto", min_delta: float = 1e-4,
                 cooldown: int = 0, min_lr: float = 0):
        super().__init__()
        self._monitor = Monitor("ReduceLROnPlateau", monitor, mode, min_delta)
        if not isinstance(factor, float) or not 0.0 < factor < 1.0:
            raise ValueError(f"For 'ReduceLROnPlateau', the 'factor' must be a float in (0.0, "
                             f"1.0), but got {factor}.")
        self.monitor = monitor
        self.factor = factor
        self.patience = check_non_negative_int(patience, "patience", "ReduceLROnPlateau")
        self.cooldown = check_non_negative_int(cooldown, "cooldown", "ReduceLROnPlateau")
        self.verbose = verbose
        self.min_lr = min_lr
        self.min_delta = self._monitor.min_delta
        self.cooldown_counter = 0
        self.wait = 0

    @property
    def best(self):
        return self._monitor.best

    def on_train_begin(self, run_context: RunContext) -> None:
        self.cooldown_counter = 0
        self.wait = 0
        self._monitor.best = self._monitor.worst()

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        lr_param = learning_rate_of(cb_params.optimizer, "ReduceLROnPlateau")
        value = self._monitor.value(cb_params)
        if value is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._monitor.improves(value, self._monitor.best):
            self._monitor.best = value
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                lr = np.float32(lr_param.asnumpy())
                if lr > self.min_lr:
                    new_lr = max(lr * np.float32(self.factor), self.min_lr)
                    set_learning_rate(lr_param, new_lr)
                    if self.verbose:
                        print(f"Epoch {cb_params.cur_epoch_num:05d}: ReduceLROnPlateau reducing "
                              f"learning rate to {new_lr}.")
                self.cooldown_counter = self.cooldown
                self.wait = 0
