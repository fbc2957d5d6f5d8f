"""``mindspore.ops.function.grad``: the autodiff front ends (:mod:`.grad_func`)."""
from .grad_func import (
    custom_vjp,
    derivative,
    get_grad,
    grad,
    jacfwd,
    jacrev,
    jet,
    jvp,
    linearize,
    stop_gradient,
    value_and_grad,
    vjp,
)

__all__ = ["grad", "value_and_grad", "jacfwd", "jacrev", "jet", "derivative", "jvp", "vjp",
           "linearize", "stop_gradient", "get_grad", "custom_vjp"]
