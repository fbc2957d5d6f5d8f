"""``mindspore.ops.function.grad.grad_func``: where MindSpore defines its autodiff front ends
(graphkiln's are in :mod:`graphkiln.ops.composite`)."""
from ...clip_ops import stop_gradient
from ...composite import (
    custom_vjp,
    derivative,
    get_grad,
    grad,
    jacfwd,
    jacrev,
    jet,
    jvp,
    linearize,
    value_and_grad,
    vjp,
)

__all__ = ["grad", "value_and_grad", "jacfwd", "jacrev", "jet", "derivative", "jvp", "vjp",
           "linearize", "stop_gradient", "get_grad", "custom_vjp"]
