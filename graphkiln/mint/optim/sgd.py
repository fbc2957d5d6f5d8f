"""``mint.optim.SGD``: PyTorch's SGD (momentum buffer set to the first gradient, dampening,
Nesterov, L2 weight decay), through MindSpore's ``SGD`` update primitive as
``experimental.optim.SGD``."""
from __future__ import annotations

from ...common.tensor import Tensor
from ...experimental.optim import sgd as experimental
from ...experimental.optim.checks import check_type


class SGD(experimental.SGD):
    """State ``accum.<w>`` (the momentum buffer) and ``stat.<w>``."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        owner = type(self).__name__
        check_type("lr", lr, (float, int, bool, Tensor), owner)
        for name, value in (("momentum", momentum), ("weight_decay", weight_decay),
                            ("dampening", dampening)):
            check_type(name, value, (float, int, bool), owner)
        check_type("nesterov", nesterov, (bool,), owner)
        check_type("maximize", maximize, (bool,), owner)
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, lr, momentum, dampening, weight_decay, nesterov,
                         maximize=maximize)
