"""``ForwardValueAndGrad`` (a network's output and its gradients in one cell) and
``GradAccumulationCell`` (a network run on ``micro_size`` equal slices of the batch, the
outputs summed: MindSpore's gradient-accumulation forward for pipeline training)."""
from __future__ import annotations

from types import FunctionType, MethodType

from ...common.parameter import ParameterTuple
from ...ops.composite import GradOperation
from ..cell import Cell


class ForwardValueAndGrad(Cell):
    """``(network(*inputs), gradients)``; ``get_all`` gives the gradients of every input,
    ``get_by_list`` those of ``weights`` (both: ``(inputs' grads, weights' grads)``), and
    ``sens_param`` takes the output's cotangent as the last input."""

    def __init__(self, network, weights=None, get_all: bool = False,
                 get_by_list: bool = False, sens_param: bool = False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be cell, "
                            f"function type or method type, but got '{type(network)}'")
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'ForwardValueAndGrad', the type of '{name}' must be bool, "
                                f"but got '{type(v)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the "
                            f"argument 'weights' must be Parameters array, but got "
                            f"'{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights = ParameterTuple(weights) if get_by_list else weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list,
                                  sens_param=sens_param)

    def construct(self, *inputs):
        forward = inputs[:-1] if self.sens_param else inputs
        loss = self.network(*forward)
        if self.get_by_list:
            return loss, self.grad(self.network, self.weights)(*inputs)
        return loss, self.grad(self.network)(*inputs)


class GradAccumulationCell(Cell):
    """``sum_i network(*inputs[i*b:(i+1)*b])`` over ``micro_size`` slices of the first
    axis of every input (``b = batch // micro_size``; the batch must divide)."""

    def __init__(self, network: Cell, micro_size: int):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'GradAccumulationCell', the argument 'network' must cell "
                            f"type, but got the type : {type(network)}.")
        if isinstance(micro_size, bool) or not isinstance(micro_size, int):
            raise TypeError(f"For 'GradAccumulationCell', the argument 'micro_size' must be "
                            f"integer, but got the type : {type(micro_size)}.")
        if micro_size <= 0:
            raise ValueError(f"For 'GradAccumulationCell', the argument 'micro_size' must be "
                             f"large than 0, but got {micro_size}.")
        self.network = network
        self.micro_size = micro_size

    def construct(self, *inputs):
        for x in inputs:
            if x.shape[0] % self.micro_size:
                raise ValueError(f"For micro batch initialization, the 0th dimension shape of "
                                 f"input({x.shape[0]}) must be divided by micro size"
                                 f"({self.micro_size})")
        total = None
        for i in range(self.micro_size):
            part = tuple(x[(x.shape[0] // self.micro_size) * i:
                           (x.shape[0] // self.micro_size) * (i + 1)] for x in inputs)
            out = self.network(*part)
            total = out if total is None else total + out
        return total
