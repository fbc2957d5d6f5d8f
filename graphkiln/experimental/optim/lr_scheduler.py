"""``mindspore.experimental.optim.lr_scheduler``: schedulers that write the learning-rate
Parameters of an ``experimental.optim`` optimizer (``param_groups[i]['lr']``).

A scheduler's ``step()`` runs eagerly: called outside the compiled train step (once an
epoch), a compiled step reads the Parameter, so it sees the new value without compiling
again; called inside a compiled function, ``step()`` and ``get_last_lr()`` run when the
graph runs (run-time ``PyExecute`` calls, in program order), as MindSpore's compiled
``jit_class`` schedulers step once a call. As MindSpore's, the arithmetic is float32 Tensor
arithmetic, the chainable schedulers update the current rate by a factor each step
(``get_lr``), and ``step(epoch)`` uses the closed form where there is one. ``last_epoch``
is a float32 Parameter.
"""
from __future__ import annotations

import functools
import math
from bisect import bisect_right
from collections import Counter

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...frontend.fallback import run_time
from ...ir import tracing_state
from ...ops.defs.py_execute import PyExecute
from .checks import check_type
from .optimizer import Optimizer

__all__ = ["StepLR", "LinearLR", "LRScheduler", "ExponentialLR", "PolynomialLR",
           "MultiplicativeLR", "ConstantLR", "MultiStepLR", "LambdaLR", "SequentialLR",
           "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
           "CosineAnnealingLR"]


def _f32(value) -> Tensor:
    """A float32 scalar Tensor."""
    return Tensor(np.array(value, np.float32))


def _counter(value, name: str) -> Parameter:
    return Parameter(_f32(value), name)


def _copy(t) -> Tensor:
    return Tensor(np.array(t.asnumpy(), np.float32))


def _at_run_time(method):
    """``method`` as is outside a compiled function; inside one, a call of it when the graph
    runs (its result a run-time object: the list of Tensors when the graph returns it).

    The call reads and writes the learning-rate Parameters behind the graph's back, so it is
    put in the weights' memory order: an ``AssignAdd`` of zero to ``last_epoch`` that it
    waits for follows the reads and writes before it, and one that waits for it precedes
    those after it (an optimizer update before ``step()`` uses the old rate, one after it
    the new)."""
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if tracing_state.current() is None:
            return method(self, *args, **kwargs)
        counter = self.last_epoch
        before = ops.assign_add(counter, Tensor(np.zeros((), counter.dtype.np_dtype)))
        result = run_time(_after, functools.partial(method, self), before, *args, **kwargs)
        ops.assign_add(counter, PyExecute(_zero, result, out_dtype=counter.dtype))
        return result
    return call


def _after(fn, _before, *args, **kwargs):
    """``fn(*args, **kwargs)`` (``_before``: the value the call waits for)."""
    return fn(*args, **kwargs)


def _zero(_result) -> int:
    return 0


def _per_group(optimizer, value, name: str) -> list:
    """``value`` once per parameter group (a list or tuple must have one per group)."""
    n = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise ValueError(f"Expected {n} values for {name}, got {len(value)}")
        return list(value)
    return [value] * n


class LRScheduler:
    """Base of the epoch schedulers: keeps ``base_lrs`` (each group's ``initial_lr``),
    ``last_epoch`` and the optimizer's learning-rate Parameters, and takes the first step
    on construction."""

    def __init__(self, optimizer, last_epoch: int = -1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        check_type("last_epoch", last_epoch, (int,), type(self).__name__)
        if last_epoch < -1:
            raise ValueError(f"Invalid last_epoch: {last_epoch}")
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", _copy(group["lr"]))
            elif "initial_lr" not in group:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                               f"when resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.optimizer = optimizer
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = _counter(last_epoch, f"last_epoch_{type(self).__name__}")
        self.step()

    def get_lr(self) -> list:
        """The learning rates of the epoch ``last_epoch`` (from the current ones)."""
        raise NotImplementedError(f"{type(self).__name__} must define get_lr(), the learning "
                                  f"rates of the epoch 'last_epoch'.")

    @_at_run_time
    def get_last_lr(self) -> list:
        """The current learning rate of each group (float32 scalar Tensors)."""
        return [_copy(lr) for lr in self._last_lr]

    @_at_run_time
    def step(self, epoch=None):
        """Advance one epoch (or go to ``epoch``) and write the groups' learning rates."""
        if epoch is None:
            ops.assign_add(self.last_epoch, _f32(1))
            values = self.get_lr()
        else:
            ops.assign(self.last_epoch, _f32(epoch))
            closed_form = getattr(self, "_get_closed_form_lr", None)
            values = closed_form() if closed_form is not None else self.get_lr()
        for lr, value in zip(self._last_lr, values):
            ops.assign(lr, ops.cast(value, mstype.float32))
        return True

    def _scaled(self, factor) -> list:
        """The current learning rates times ``factor``."""
        return [lr * factor for lr in self._last_lr]


class StepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1):
        if not isinstance(step_size, int):
            raise TypeError(f"For 'StepLR', the 'step_size' must be int, but got "
                            f"{type(step_size)}.")
        if not isinstance(gamma, float):
            raise TypeError(f"For 'StepLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._scaled(1.0)
        return self._scaled(self.gamma)

    def _get_closed_form_lr(self) -> list:
        power = ops.floor(self.last_epoch / self.step_size)
        return [base * self.gamma ** power for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` at each milestone (once per repeat)."""

    def __init__(self, optimizer, milestones: list, gamma=0.1, last_epoch: int = -1):
        check_type("milestones", milestones, (list,), "MultiStepLR")
        for milestone in milestones:
            if not isinstance(milestone, int):
                raise TypeError(f"For 'MultiStepLR', elements of the 'milestones' must be type "
                                f"of int, but got one element of 'milestones' type: "
                                f"{type(milestone)}.")
        check_type("gamma", gamma, (float, int), "MultiStepLR")
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        repeats = self.milestones.get(int(self.last_epoch.asnumpy()), 0)
        return self._scaled(self.gamma ** repeats) if repeats else self._scaled(1.0)

    def _get_closed_form_lr(self) -> list:
        epoch = int(self.last_epoch.asnumpy())
        power = bisect_right(sorted(self.milestones.elements()), epoch)
        return [base * self.gamma ** power for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """The learning rate times ``factor`` until epoch ``total_iters``."""

    def __init__(self, optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'ConstantLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch == 0:
            return self._scaled(self.factor)
        if self.last_epoch != self.total_iters:
            return self._scaled(1.0)
        return [lr / self.factor for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        reached = ops.cast(self.last_epoch >= self.total_iters, mstype.float32)
        return [base * (reached * (1 - self.factor) + self.factor) for base in self.base_lrs]


class LinearLR(LRScheduler):
    """The learning-rate factor goes linearly from ``start_factor`` to ``end_factor`` over
    ``total_iters`` epochs."""

    def __init__(self, optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less than or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'LinearLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch == 0:
            return self._scaled(self.start_factor)
        if self.last_epoch > self.total_iters:
            return self._scaled(1.0)
        delta = self.end_factor - self.start_factor
        factor = delta / ((self.last_epoch - 1) * delta + self.total_iters * self.start_factor)
        return self._scaled(factor + 1.0)

    def _get_closed_form_lr(self) -> list:
        done = ops.minimum(self.last_epoch, float(self.total_iters)) / self.total_iters
        delta = self.end_factor - self.start_factor
        return [base * (done * delta + self.start_factor) for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma: float, last_epoch: int = -1):
        if not isinstance(gamma, float):
            raise TypeError(f"For 'ExponentialLR', the 'gamma' must be float, but got "
                            f"{type(gamma)}.")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return self._scaled(1.0 if self.last_epoch == 0 else self.gamma)

    def _get_closed_form_lr(self) -> list:
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """The learning rate times ``(1 - epoch / total_iters) ** power`` until ``total_iters``."""

    def __init__(self, optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1):
        if not isinstance(power, float):
            raise TypeError(f"For 'PolynomialLR', the 'power' must be float, but got "
                            f"{type(power)}.")
        if power < 0:
            raise ValueError(f"For 'PolynomialLR', the 'power' must be >= 0, but got {power}.")
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'PolynomialLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch == 0 or self.last_epoch > self.total_iters:
            return self._scaled(1.0)
        now = 1.0 - self.last_epoch / self.total_iters
        before = 1.0 - (self.last_epoch - 1) / self.total_iters
        return self._scaled((now / before) ** self.power)

    def _get_closed_form_lr(self) -> list:
        done = ops.minimum(self.last_epoch, float(self.total_iters)) / self.total_iters
        return [base * (1.0 - done) ** self.power for base in self.base_lrs]


class LambdaLR(LRScheduler):
    """The initial learning rate times ``lr_lambda(epoch)`` (one function, or one a group);
    the function receives ``last_epoch`` (a float32 scalar Tensor)."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1):
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)) and len(lr_lambda) != n:
            raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        self.lr_lambdas = _per_group(optimizer, lr_lambda, "lr_lambda")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """Multiply the learning rate by ``lr_lambda(epoch)`` every epoch after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1):
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)) and len(lr_lambda) != n:
            raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        self.lr_lambdas = _per_group(optimizer, lr_lambda, "lr_lambda")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        if self.last_epoch > 0:
            return [lr * fn(self.last_epoch) for fn, lr in zip(self.lr_lambdas, self._last_lr)]
        return self._scaled(1.0)


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from the initial rate to ``eta_min`` over ``T_max`` epochs (and back,
    periodically)."""

    def __init__(self, optimizer, T_max: int, eta_min=0.0, last_epoch: int = -1):  # noqa: N803
        if not isinstance(eta_min, (float, int)):
            raise TypeError(f"For 'CosineAnnealingLR', the 'eta_min' must be float or int, but "
                            f"got {type(eta_min)}.")
        if not isinstance(T_max, int):
            raise TypeError(f"For 'CosineAnnealingLR', the 'T_max' must be int, but got "
                            f"{type(T_max)}.")
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        epoch = self.last_epoch
        if epoch == 0:
            return self._scaled(1.0)
        if (epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            rise = 1 - ops.cos(_f32(math.pi / self.T_max))
            return [lr + (base - self.eta_min) * rise / 2
                    for base, lr in zip(self.base_lrs, self._last_lr)]
        ratio = ((1 + ops.cos(math.pi * epoch / self.T_max))
                 / (1 + ops.cos(math.pi * (epoch - 1) / self.T_max)))
        return [ratio * (lr - self.eta_min) + self.eta_min for lr in self._last_lr]

    def _get_closed_form_lr(self) -> list:
        cos = ops.cos(math.pi * self.last_epoch / self.T_max)
        return [self.eta_min + (base - self.eta_min) * (1 + cos) / 2 for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted after ``T_0`` epochs, each period ``T_mult`` times longer
    than the last (``T_cur`` epochs into a period of ``T_i``)."""

    def __init__(self, optimizer, T_0: int, T_mult: int = 1, eta_min=0,  # noqa: N803
                 last_epoch: int = -1):
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"T_0 should be an integer and equal or greater than 0, but got "
                             f"{T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"T_mult should be an integer and equal or greater than 1, but got "
                             f"{T_mult}")
        check_type("eta_min", eta_min, (float, int), "CosineAnnealingWarmRestarts")
        self.T_0 = _counter(T_0, "T_0")
        self.T_i = _counter(T_0, "T_i")
        self.T_mult = T_mult
        self.eta_min = _f32(eta_min)
        self.T_cur = _counter(last_epoch, "T_cur")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        cos = ops.cos(math.pi * self.T_cur / self.T_i)
        return [self.eta_min + (base - self.eta_min) * (1 + cos) / 2 for base in self.base_lrs]

    @_at_run_time
    def step(self, epoch=None):
        """Advance one epoch (restarting at the end of a period), or go to ``epoch``."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            ops.assign_add(self.T_cur, _f32(1))
            if self.T_cur >= self.T_i:
                ops.assign(self.T_cur, self.T_cur - self.T_i)
                ops.assign(self.T_i, self.T_i * self.T_mult)
        else:
            if epoch < 0:
                raise ValueError(f"epoch should be a non-negative integer, but got {epoch}")
            epoch = _f32(epoch.asnumpy() if isinstance(epoch, Tensor) else epoch)
            t_0 = float(self.T_0.asnumpy())
            if float(epoch.asnumpy()) >= t_0:
                if self.T_mult == 1:
                    ops.assign(self.T_cur, epoch % t_0)
                else:
                    e = float(epoch.asnumpy())
                    n = int(math.log(e / t_0 * (self.T_mult - 1) + 1, self.T_mult))
                    ops.assign(self.T_cur, _f32(e - t_0 * (self.T_mult ** n - 1)
                                                / (self.T_mult - 1)))
                    ops.assign(self.T_i, _f32(t_0 * self.T_mult ** n))
            else:
                ops.assign(self.T_i, _f32(t_0))
                ops.assign(self.T_cur, epoch)
        ops.assign(self.last_epoch, ops.floor(epoch))
        for lr, value in zip(self._last_lr, self.get_lr()):
            ops.assign(lr, ops.cast(value, mstype.float32))
        return True


class CyclicLR(LRScheduler):
    """The learning rate cycles between ``base_lr`` and ``max_lr`` (``step_size_up`` epochs
    up, ``step_size_down`` down), the amplitude scaled by ``mode`` ('triangular',
    'triangular2', 'exp_range') or ``scale_fn``."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch: int = -1):
        base_lrs = _per_group(optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                ops.assign(group["lr"], _f32(lr))
        self.max_lrs = [_f32(lr) for lr in _per_group(optimizer, max_lr, "max_lr")]
        up = float(step_size_up)
        down = up if step_size_down is None else float(step_size_down)
        self.total_step_size = up + down
        self.step_up_ratio = up / self.total_step_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [_f32(lr) for lr in base_lrs]

    def scale_fn(self, x):
        """The amplitude scale at cycle (or epoch) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / 2.0 ** (x - 1)
        return self.gamma ** x

    def get_lr(self) -> list:
        position = self.last_epoch / self.total_step_size
        cycle = ops.floor(position + 1)
        x = position + 1.0 - cycle
        if x <= self.step_up_ratio:
            height = x / self.step_up_ratio
        else:
            height = (x - 1) / (self.step_up_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        return [base + (top - base) * height * scale
                for base, top in zip(self.base_lrs, self.max_lrs)]


class SequentialLR:
    """Run ``schedulers`` one after the other, switching at the ``milestones`` epochs (each
    new one restarts from epoch 0)."""

    def __init__(self, optimizer, schedulers: list, milestones: list, last_epoch: int = -1):
        for i, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ValueError(f"Sequential Schedulers expects all schedulers to belong to "
                                 f"the same optimizer, but got scheduler at index {i} is "
                                 f"different from the optimizer passed in.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(f"Sequential Schedulers expects number of schedulers provided to "
                             f"be one more than the number of milestone points, but got number "
                             f"of schedulers {len(schedulers)} and the number of milestones "
                             f"{len(milestones)}")
        self._schedulers = schedulers
        self.milestones = milestones
        self.optimizer = optimizer
        self.last_epoch = _counter(last_epoch + 1, "last_epoch_SequentialLR")
        for group in optimizer.param_groups:
            ops.assign(group["lr"], group["initial_lr"])
        for scheduler in schedulers:
            ops.assign_sub(scheduler.last_epoch, _f32(1))
        schedulers[0].step()
        self._last_lr = schedulers[0]._last_lr

    @_at_run_time
    def step(self):
        """Advance one epoch in the scheduler of the current stage."""
        ops.assign_add(self.last_epoch, _f32(1))
        epoch = int(self.last_epoch.asnumpy())
        index = bisect_right(self.milestones, epoch)
        if index > 0 and self.milestones[index - 1] == epoch:
            self._schedulers[index].step(0)
        else:
            self._schedulers[index].step()

    @_at_run_time
    def get_last_lr(self) -> list:
        """The current learning rate of each group."""
        return [_copy(lr) for lr in self._last_lr]


class ReduceLROnPlateau:
    """Multiply the learning rate by ``factor`` (not below ``min_lr``) when the metric given
    to ``step`` has not improved (by ``threshold``, relative or absolute) for more than
    ``patience`` epochs; then wait ``cooldown`` epochs."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"Expected an `Optimizer`, but got type "
                            f"{type(optimizer).__name__}")
        if isinstance(min_lr, (list, tuple)) and len(min_lr) != len(optimizer.param_groups):
            raise ValueError(f"Expected {len(optimizer.param_groups)} min_lrs, got "
                             f"{len(min_lr)}")
        if mode not in ("min", "max"):
            raise ValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"`threshold mode` should be 'rel' or 'abs', but got "
                             f"{threshold_mode}.")
        self.optimizer = optimizer
        self.factor = factor
        self.min_lrs = [_f32(lr) for lr in _per_group(optimizer, min_lr, "min_lr")]
        self.mode = mode
        self.patience = patience
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self.cooldown = cooldown
        self.eps = eps
        self.mode_worse = float("inf") if mode == "min" else float("-inf")
        self.last_epoch = Parameter(Tensor(np.array(0, np.int32)),
                                    "last_epoch_ReduceLROnPlateau")
        self.best = _counter(self.mode_worse, "best")
        self.cooldown_counter = _counter(0, "cooldown_counter")
        self.wait = _counter(0, "wait")
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    @_at_run_time
    def step(self, metrics):
        """Record the epoch's metric and reduce the learning rates after a plateau."""
        current = ops.cast(metrics if isinstance(metrics, Tensor) else _f32(metrics),
                           mstype.float32)
        ops.assign_add(self.last_epoch, Tensor(np.array(1, np.int32)))
        if self._is_improvement(current, self.best):
            ops.assign(self.best, current)
            ops.assign(self.wait, _f32(0))
        else:
            ops.assign_add(self.wait, _f32(1))
        if self.in_cooldown():
            ops.assign_sub(self.cooldown_counter, _f32(1))
            ops.assign(self.wait, _f32(0))
        if self.wait > self.patience:
            self._reduce_lr()
            ops.assign(self.cooldown_counter, _f32(self.cooldown))
            ops.assign(self.wait, _f32(0))
        return True

    def _reduce_lr(self) -> None:
        for lr, min_lr in zip(self._last_lr, self.min_lrs):
            new_lr = ops.maximum(lr * self.factor, min_lr)
            if lr > new_lr + self.eps:
                ops.assign(lr, new_lr)

    def in_cooldown(self) -> bool:
        """Whether the cooldown after a reduction is still running."""
        return bool(self.cooldown_counter > 0)

    def _is_improvement(self, current, best) -> bool:
        if self.threshold_mode == "rel":
            scale = 1.0 - self.threshold if self.mode == "min" else self.threshold + 1.0
            benchmark = best * scale
        else:
            benchmark = best - self.threshold if self.mode == "min" else best + self.threshold
        return bool(current < benchmark if self.mode == "min" else current > benchmark)

    @_at_run_time
    def get_last_lr(self) -> list:
        """The current learning rate of each group."""
        return [_copy(lr) for lr in self._last_lr]
