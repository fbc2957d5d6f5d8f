"""Loss scaling for mixed-precision training: ``DynamicLossScaleUpdateCell``,
``FixedLossScaleUpdateCell`` and ``TrainOneStepWithLossScaleCell``.

Overflow is detected as MindSpore does on its float-status path: the emulated status
register (``NPUAllocFloatStatus``/``NPUClearFloatStatus`` before the backward pass,
``NPUGetFloatStatus`` after it, ordered with ``Depend``) records any float error the
kernels raise, and the gradients are also checked for inf/nan; on overflow the weights
are left unchanged and a dynamic scale shrinks.
"""
from __future__ import annotations

import numpy as np

from .. import ops
from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..ops.composite import GradOperation
from .cell import Cell


def all_finite(inputs) -> Tensor:
    """A bool Tensor: True when every Tensor of ``inputs`` holds only finite values
    (``x - x`` is exactly 0 for finite ``x`` and nan for inf or nan)."""
    total = None
    for x in inputs:
        w = ops.cast(x, mstype.float32)
        term = ops.reduce_sum(ops.abs(ops.sub(w, w)))
        total = term if total is None else ops.add(total, term)
    return ops.equal(total, 0.0)


class DynamicLossScaleUpdateCell(Cell):
    """Divide the scale by ``scale_factor`` on overflow (not below 1); multiply it by
    ``scale_factor`` after ``scale_window`` steps in a row without one."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = int(scale_window)
        self.scale_factor = float(scale_factor)
        self.loss_scale_value = float(loss_scale_value)
        self.cur_iter = Parameter(Tensor(np.array([1], np.int32)), name="current_iterator_step",
                                  requires_grad=False)
        self.last_overflow_iter = Parameter(Tensor(np.array([0], np.int32)),
                                            name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        shrunk = ops.maximum(ops.div(loss_scale, self.scale_factor), 1.0)
        since = ops.sub(self.cur_iter, self.last_overflow_iter)
        grow = ops.greater_equal(ops.reshape(since, ()), self.scale_window)
        grown = ops.select(grow, ops.mul(loss_scale, self.scale_factor), loss_scale)
        new_scale = ops.select(overflow, shrunk, grown)
        reset = ops.logical_or(overflow, grow)
        last = ops.select(reset, self.cur_iter, self.last_overflow_iter)
        updates = (ops.assign(loss_scale, ops.cast(new_scale, loss_scale.dtype)),
                   ops.assign(self.last_overflow_iter, last))
        updates = updates + (ops.assign_add(self.cur_iter, Tensor(np.array([1], np.int32))),)
        return ops.depend(overflow, updates)


class FixedLossScaleUpdateCell(Cell):
    """A constant scale: passes the overflow flag through."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = float(loss_scale_value)

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(Cell):
    """One training step with the loss scaled by ``scale_sense`` (a Tensor, or an update
    cell whose scale becomes a Parameter); gradients are unscaled before the update, and
    the update is skipped when they overflowed. Returns ``(loss, overflow, scale)``."""

    def __init__(self, network: Cell, optimizer: Cell, scale_sense):
        super().__init__(auto_prefix=False)
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(np.array(scale_sense.get_loss_scale(),
                                                         np.float32)), name="scale_sense",
                                         requires_grad=False)
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((), (1,)):
                raise ValueError(f"The shape of 'scale_sense' must be (1,) or (), but got "
                                 f"{scale_sense.shape}.")
            self.scale_sense = Parameter(Tensor(scale_sense.asnumpy().astype(np.float32)),
                                         name="scale_sense", requires_grad=False)
        else:
            raise TypeError(f"The 'scale_sense' must be Cell or Tensor, but got "
                            f"{type(scale_sense).__name__}.")

    def set_sense_scale(self, sens: Tensor) -> None:
        self.scale_sense.set_data(sens.astype(mstype.float32) if hasattr(sens, "astype")
                                  else Tensor(np.asarray(sens, np.float32)))

    def start_overflow_check(self, pre_cond, compute_input):
        """Clear the float-status register once ``pre_cond`` is computed."""
        status = ops.NPUAllocFloatStatus()()
        status = ops.depend(status, pre_cond)
        cleared = ops.NPUClearFloatStatus()(status)
        return cleared, ops.depend(compute_input, cleared)

    def get_overflow_status(self, status, compute_output):
        """True when the register saw a float error or any gradient is not finite."""
        status = ops.depend(status, compute_output)
        flags = ops.NPUGetFloatStatus()(status)
        register = ops.greater(ops.reduce_sum(flags), 0.0)
        return ops.logical_or(register, ops.logical_not(all_finite(compute_output)))

    def process_loss_scale(self, overflow):
        if self.loss_scaling_manager is None:
            return overflow
        return self.loss_scaling_manager(self.scale_sense, overflow)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        scaling_sens = ops.tensor_move(self.scale_sense)  # this step's scale, not the updated
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        sens = ops.fill(loss.dtype, loss.shape, 1.0) * ops.cast(scaling_sens, loss.dtype)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        inv = ops.div(1.0, ops.reshape(scaling_sens, ()))
        grads = tuple(ops.cast(ops.mul(ops.cast(g, mstype.float32), inv), g.dtype)
                      for g in grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        return ops.depend((loss, cond, scaling_sens), self._update_unless(overflow, grads))

    def _update_unless(self, overflow, grads):
        """The optimizer's update, undone when ``overflow``: every Parameter it owns (the
        weights, its slots, its step) is copied before and restored after, selected by
        ``overflow`` (so the same graph serves both outcomes, without a branch)."""
        state = list(self.optimizer.get_parameters())
        state += [p for p in self.weights if all(p is not q for q in state)]
        saved = [ops.tensor_move(p) for p in state]
        done = self.optimizer(ops.depend(grads, tuple(saved)))
        return tuple(ops.assign(p, ops.select(overflow, old, ops.depend(p, done)))
                     for p, old in zip(state, saved))
