"""``graphkiln.boost`` (``mindspore.boost``): training speed-ups.

Only gradient accumulation is here (``GradientAccumulation`` and the two
``MultitypeFuncGraph`` helpers MindSpore exports with it, which model zoos such as
mindcv subclass and reuse).
"""
from . import grad_accumulation
from .grad_accumulation import GradientAccumulation

__all__ = ["GradientAccumulation", "grad_accumulation"]
