"""Training wrappers: ``WithLossCell`` and ``TrainOneStepCell``."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.parameter import ParameterTuple
from ...ops.composite import GradOperation, value_and_grad
from ...parallel import context as parallel_context
from ..cell import Cell
from .grad_reducer import DistributedGradReducer
from .value_and_grad_cells import (  # noqa: F401  (MindSpore defines these in cell_wrapper)
    ForwardValueAndGrad,
    GradAccumulationCell,
)


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


class WithGradCell(Cell):
    """The gradients of ``network`` (with ``loss_fn`` applied to its output and the label,
    when given) with respect to its trainable weights; ``sens`` scales them when given."""

    def __init__(self, network: Cell, loss_fn: Cell | None = None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network,
                                                                              loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class TrainOneStepCell(Cell):
    """One training step: the loss, its gradients w.r.t. the weights (scaled by ``sens``)
    and the optimizer's update; returns the loss. In a parallel mode the gradients are
    all-reduced over the replicas first (mean or sum from the auto-parallel context).
    With ``return_grad=True`` it returns ``(loss, {weight name: gradient})``."""

    def __init__(self, network: Cell, optimizer: Cell, sens: float | None = None,
                 return_grad: bool = False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        if sens is not None and sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sens = 1.0 if sens is None else float(sens)
        self.return_grad = bool(return_grad)
        self.weights_name = [p.name for p in self.weights] if self.return_grad else None
        self.reducer_flag = parallel_context.is_data_parallel()
        self.grad_reducer = DistributedGradReducer(
            self.weights, parallel_context.get_auto_parallel_context("gradients_mean"),
            parallel_context.gradient_degree()) if self.reducer_flag else None

    def construct(self, *inputs):
        # the loss and its gradients from one run of the network, so that its side effects
        # (BatchNorm's moving statistics) happen once per step, as in MindSpore
        loss, grads = value_and_grad(self.network, None, self.weights)(*inputs)
        if self.sens != 1.0:
            grads = tuple(ops.mul(g, ops.cast(self.sens, g.dtype)) for g in grads)
        if self.reducer_flag:
            grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        if self.return_grad:
            return loss, dict(zip(self.weights_name, grads))
        return loss


class WithEvalCell(Cell):
    """Evaluation: returns ``(loss, outputs, label)`` of ``network(data)`` against ``label``."""

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:  # float labels to float32 too; integer ones stay
            if label.dtype in (mstype.float16, mstype.bfloat16, mstype.float64):
                label = ops.cast(label, mstype.float32)
            outputs = ops.cast(outputs, mstype.float32)
        return self._loss_fn(outputs, label), outputs, label
