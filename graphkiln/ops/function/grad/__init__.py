"""``mindspore.ops.function.grad``: the autodiff front ends (:mod:`.grad_func`)."""
from . import grad_func
from .grad_func import *  # noqa: F401,F403

__all__ = list(grad_func.__all__)
