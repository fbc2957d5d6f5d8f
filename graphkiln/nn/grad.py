"""``nn.grad.Jvp``/``nn.grad.Vjp``: MindSpore's cell forms of ``ops.jvp``/``ops.vjp``
(deprecated there in favour of the functions, still used by older code)."""
from __future__ import annotations

from ..ops.composite import GradOperation, jvp
from .cell import Cell


class Jvp(Cell):
    """``Jvp(fn)(*inputs, v)`` -> ``(fn(*inputs), J v)``; ``v`` is a Tensor for one input,
    else a tuple with one tangent per input."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        if len(inputs) == 1:
            return jvp(self.fn, inputs[0], v)
        return jvp(self.fn, inputs, v)


class Vjp(Cell):
    """``Vjp(fn)(*inputs, v)`` -> ``(fn(*inputs), gradients for the cotangent v)``: one
    Tensor for one input, else a tuple with one gradient per input."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        self.grad_all = GradOperation(get_all=True, sens_param=True)
        self.grad_first = GradOperation(sens_param=True)

    def construct(self, *args):
        inputs = args[:-1]
        output = self.fn(*inputs)
        grad_op = self.grad_first if len(inputs) == 1 else self.grad_all
        return output, grad_op(self.fn)(*args)


__all__ = ["Jvp", "Vjp"]
