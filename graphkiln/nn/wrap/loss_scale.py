"""Loss scaling cells: ``TrainOneStepWithLossScaleCell`` and the scale-update cells
``DynamicLossScaleUpdateCell`` / ``FixedLossScaleUpdateCell``.

The step multiplies the loss's gradient seed by the scale, divides the gradients back, and
skips the optimizer when any gradient is infinite or NaN; it returns ``(loss, overflow,
scale)``. An update cell given as ``scale_sense`` adjusts the scale after each step.

Skipping is dataflow, so it compiles without control flow: the optimizer's state (weights,
moments...) is copied, the update runs, and on overflow every state is put back."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ...ops.composite import HyperMap, MultitypeFuncGraph, partial, value_and_grad
from ..cell import Cell
from .cell_wrapper import TrainOneStepCell

_unscale = MultitypeFuncGraph("unscale")
_nonfinite_probe = MultitypeFuncGraph("nonfinite_probe")
_snapshot = MultitypeFuncGraph("snapshot")
_restore_if = MultitypeFuncGraph("restore_if")


@_unscale.register("Tensor", "Tensor")
def _unscale_grad(scale, grad):
    return grad * ops.cast(ops.fill(grad.dtype, (), 1.0) / scale, grad.dtype)


@_nonfinite_probe.register("Tensor")
def _probe_grad(grad):
    # 0 * x is NaN exactly where x is infinite or NaN, so the sum is NaN iff one of them is
    return ops.reduce_sum(ops.cast(grad, ops.mstype.float32) * 0.0)


@_snapshot.register("Tensor")
def _snapshot_state(state):
    return state + ops.zeros_like(state)


@_restore_if.register("Tensor", "Tensor", "Tensor")
def _restore_state(overflow, state, old):
    return ops.assign(state, ops.select(overflow, old, state))


def _scalar(value, dtype) -> Tensor:
    return Tensor(np.array(value, dtype))


class DynamicLossScaleUpdateCell(Cell):
    """After an overflow divide the scale by ``scale_factor`` (not below 1); after
    ``scale_window`` steps without one, multiply it by ``scale_factor``."""

    def __init__(self, loss_scale_value: float, scale_factor: int, scale_window: int):
        super().__init__()
        self.scale_window = _scalar(scale_window, np.int32)
        self.scale_factor = _scalar(scale_factor, np.float32)
        self.loss_scale_value = float(loss_scale_value)
        self.cur_iter = Parameter(_scalar(1, np.int32), name="current_iterator_step",
                                  requires_grad=False)
        self.last_overflow_iter = Parameter(_scalar(0, np.int32),
                                            name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        on_overflow = ops.maximum(loss_scale / self.scale_factor, ops.ones_like(loss_scale))
        scale = ops.select(overflow, on_overflow, loss_scale)
        should_grow = ops.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        last = ops.select(ops.logical_or(overflow, should_grow), self.cur_iter,
                          self.last_overflow_iter)
        last = ops.assign(self.last_overflow_iter, last)
        grow = ops.logical_and(should_grow, ops.logical_not(overflow))
        scale = ops.assign(loss_scale, ops.select(grow, scale * self.scale_factor, scale))
        step = ops.depend(self.cur_iter + 1, last)
        return ops.depend(overflow, ops.depend(scale, ops.assign(self.cur_iter, step)))


class FixedLossScaleUpdateCell(Cell):
    """A scale that never changes."""

    def __init__(self, loss_scale_value: float):
        super().__init__()
        self.loss_scale_value = float(loss_scale_value)

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One training step with loss scaling; ``scale_sense`` is an update cell or a scale
    Tensor (shape () or (1,)). Returns ``(loss, overflow, scale)``."""

    def __init__(self, network: Cell, optimizer: Cell, scale_sense):
        super().__init__(network, optimizer, sens=1.0)
        self.hyper_map = HyperMap()
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = _scalar(scale_sense.get_loss_scale(), np.float32)
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((), (1,)):
                raise ValueError("The shape of 'scale_sense' must be (1,) or (), but got "
                                 f"{scale_sense.shape}.")
            value = Tensor(scale_sense.asnumpy().astype(np.float32))
        else:
            raise TypeError("The 'scale_sense' must be Cell or Tensor, but got "
                            f"{type(scale_sense)}.")
        self.scale_sense = Parameter(value, name="scale_sense", requires_grad=False)
        self.optimizer_state = ParameterTuple(optimizer.get_parameters())

    def set_sense_scale(self, sens: Tensor) -> None:
        """Set the scale (when ``scale_sense`` was a Tensor)."""
        if self.loss_scaling_manager is not None:
            raise TypeError("The 'scale_sense' is a Cell: its update cell sets the scale.")
        self.scale_sense.set_data(Tensor(np.asarray(sens.asnumpy(), np.float32)))

    def _scaled_loss(self, scale, *inputs):
        """The loss times the scale (whose gradient is the gradient seeded with the scale),
        and the loss."""
        loss = self.network(*inputs)
        return loss * ops.cast(scale, loss.dtype), loss

    def construct(self, *inputs):
        scale = self.scale_sense
        # one run of the network gives the loss and the scaled gradients
        (_, loss), grads = value_and_grad(self._scaled_loss, None, self.weights,
                                          has_aux=True)(scale, *inputs)
        grads = self.hyper_map(partial(_unscale, scale), grads)
        if self.reducer_flag:  # data parallel: TrainOneStepCell's reducer
            grads = self.grad_reducer(grads)
        probe = ops.addn(self.hyper_map(_nonfinite_probe, grads))
        overflow = ops.not_equal(probe, probe)
        if self.loss_scaling_manager is not None:
            overflow = self.loss_scaling_manager(self.scale_sense, overflow)
        saved = self.hyper_map(_snapshot, self.optimizer_state)
        updated = self.optimizer(ops.depend(grads, saved))
        restored = self.hyper_map(partial(_restore_if, overflow), self.optimizer_state,
                                  ops.depend(saved, updated))
        loss = ops.depend(loss, restored)
        # the scale as the update cell left it, as MindSpore returns it (a copy, so that a
        # kept output does not follow later steps)
        return loss, overflow, _snapshot_state(ops.depend(self.scale_sense, overflow))
