"""Training wrappers: ``WithLossCell`` and ``TrainOneStepCell``."""
from __future__ import annotations

import graphkiln.ops as ops

from ..ops.composite import GradOperation
from .cell import Cell


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``."""

    def __init__(self, backbone: Cell, loss_fn: Cell):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self) -> Cell:
        return self._backbone


class TrainOneStepCell(Cell):
    """One training step: the loss, its gradients w.r.t. the weights (scaled by ``sens``)
    and the optimizer's update; returns the loss."""

    def __init__(self, network: Cell, optimizer: Cell, sens: float = 1.0):
        super().__init__(auto_prefix=False)
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.sens = float(sens)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        return ops.depend(loss, self.optimizer(grads))
