"""``mindspore.boost.grad_accumulation``: add each step's gradients into buffers and run
the optimizer on the buffers once every ``max_accumulation_step`` calls."""
from __future__ import annotations

import graphkiln.nn as nn
import graphkiln.ops as ops
from graphkiln.common import dtype as mstype
from graphkiln.common.parameter import Parameter
from graphkiln.common.tensor import Tensor
from graphkiln.frontend.control import if_stmt

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

gradient_accumulation_op = ops.MultitypeFuncGraph("gradient_accumulation_op")
gradient_clear_op = ops.MultitypeFuncGraph("gradient_clear_op")


@gradient_accumulation_op.register("Int64", "Tensor", "Tensor")
def _accumulate(steps, buffer, grad):
    """``buffer += grad / steps`` (the mean over the accumulated steps)."""
    ops.assign_add(buffer, grad / steps)
    return buffer


@gradient_clear_op.register("Tensor")
def _clear(buffer):
    """Zero an accumulation buffer."""
    return ops.assign(buffer, ops.zeros_like(buffer))


class GradientAccumulation(nn.Cell):
    """Called with ``(loss, grads)`` each step: adds ``grads / max_accumulation_step`` to
    zero-initialised copies of the optimizer's parameters and, every
    ``max_accumulation_step``-th call, runs ``optimizer`` on them and clears them.
    Returns ``loss``."""

    def __init__(self, max_accumulation_step: int, optimizer: nn.Cell) -> None:
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = ops.HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")

    def construct(self, loss, grads):
        accumulate = ops.partial(gradient_accumulation_op, self._max_accumulation_step)
        loss = ops.depend(loss, self.hyper_map(accumulate, self._grad_accumulation, grads))
        count = ops.assign_add(self._accumulation_step, 1)

        def update(loss):
            loss = ops.depend(loss, self.optimizer(self._grad_accumulation))
            loss = ops.depend(loss, ops.assign(self._accumulation_step, 0))
            return (ops.depend(loss, self.hyper_map(gradient_clear_op, self._grad_accumulation)),)

        # (graphkiln's own code is not AST-converted: the tensor ``if`` is spelled out)
        return if_stmt(count >= self._max_accumulation_step, update, lambda loss: (loss,),
                       (loss,), ("loss",))[0]
