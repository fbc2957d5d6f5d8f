"""Optimizers: ``SGD`` (with momentum) and ``Adam``, as cells whose ``construct`` updates the
weights in place with ``ops.assign`` over ``HyperMap`` (so they compile into the training
graph, with their updates ordered as memory effects)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..ops.composite import HyperMap, MultitypeFuncGraph, partial
from .cell import Cell

_sgd = MultitypeFuncGraph("sgd")
_adam = MultitypeFuncGraph("adam")


@_sgd.register("Tensor", "Number", "Tensor", "Tensor", "Tensor")
def _sgd_update(lr, momentum, param, moment, grad):
    if momentum == 0:
        return ops.assign(param, param - lr * grad)
    m = ops.assign(moment, moment * momentum + grad)
    return ops.assign(param, param - lr * m)


@_adam.register("Tensor", "Number", "Number", "Number", "Tensor", "Tensor", "Tensor", "Tensor")
def _adam_update(lr_t, beta1, beta2, eps, param, m, v, grad):
    m_new = ops.assign(m, m * beta1 + grad * (1 - beta1))
    v_new = ops.assign(v, v * beta2 + ops.square(grad) * (1 - beta2))
    return ops.assign(param, param - lr_t * m_new / (ops.sqrt(v_new) + eps))


class Optimizer(Cell):
    """Base of optimizers: holds the weights and the learning rate (a scalar Parameter named
    ``learning_rate``)."""

    def __init__(self, learning_rate: float, parameters):
        super().__init__(auto_prefix=False)
        params = [p for p in parameters if isinstance(p, Parameter)]
        if not params:
            raise ValueError(f"For '{type(self).__name__}', the 'parameters' must be a "
                             f"non-empty list of Parameters.")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float)) \
                or learning_rate < 0:
            raise ValueError(f"For '{type(self).__name__}', the 'learning_rate' must be a "
                             f"non-negative number, but got {learning_rate!r}.")
        self.parameters = ParameterTuple(params)
        # a Parameter (as in MindSpore), so callbacks can change it between compiled steps
        self.learning_rate = Parameter(Tensor(np.array(learning_rate, np.float32)),
                                       name="learning_rate", requires_grad=False)
        self.hyper_map = HyperMap()

    def get_lr(self) -> Tensor:
        """The current learning rate (a scalar Parameter)."""
        return self.learning_rate

    def _zeros_like_params(self, prefix: str) -> ParameterTuple:
        return ParameterTuple(
            Parameter(Tensor(np.zeros(p.shape, p.dtype.np_dtype)), name=f"{prefix}.{p.name}",
                      requires_grad=False) for p in self.parameters)


class SGD(Optimizer):
    """``p -= lr * g`` (or with momentum: ``m = momentum * m + g; p -= lr * m``)."""

    def __init__(self, params, learning_rate: float = 0.1, momentum: float = 0.0):
        super().__init__(learning_rate, params)
        if momentum < 0:
            raise ValueError(f"For 'SGD', the 'momentum' must be >= 0, but got {momentum}.")
        self.momentum = float(momentum)
        self.moments = self._zeros_like_params("moments")

    def construct(self, gradients):
        return self.hyper_map(partial(_sgd, self.learning_rate, self.momentum),
                              self.parameters, self.moments, gradients)


class Adam(Optimizer):
    """Adam (Kingma & Ba) with bias correction."""

    def __init__(self, params, learning_rate: float = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8):
        super().__init__(learning_rate, params)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.moment1 = self._zeros_like_params("moment1")
        self.moment2 = self._zeros_like_params("moment2")
        self.beta1_power = Parameter(Tensor(np.array(1.0, np.float32)), name="beta1_power",
                                     requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.array(1.0, np.float32)), name="beta2_power",
                                     requires_grad=False)

    def construct(self, gradients):
        b1 = ops.assign(self.beta1_power, self.beta1_power * self.beta1)
        b2 = ops.assign(self.beta2_power, self.beta2_power * self.beta2)
        lr_t = self.learning_rate * ops.sqrt(1 - b2) / (1 - b1)
        return self.hyper_map(partial(_adam, lr_t, self.beta1, self.beta2, self.eps),
                              self.parameters, self.moment1, self.moment2, gradients)
