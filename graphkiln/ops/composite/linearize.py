"""``linearize(fn, inputs)``: ``fn``'s output and its linear approximation at ``inputs``.

The returned ``jvp_fn(v)`` is the Jacobian-vector product at the fixed point ``inputs``.
Called eagerly it is compiled with ``inputs`` as constants of its graph, so constant
folding computes the primal part once (partial evaluation) and each call runs only the
linear part; inside a graph it is traced in place.
"""
from __future__ import annotations

from ...common.tensor import Tensor
from ...transforms.forward_mode import jvp_in_graph
from .jvp import as_tensor_tuple
from .transformed import Transformed


def _jvp_at(fn, inputs: tuple, v):
    return jvp_in_graph(fn, inputs, as_tensor_tuple(v, "linearize", "v"))[1]


def linearize(fn, inputs):
    """``(fn(*inputs), jvp_fn)``: ``jvp_fn(v)`` gives ``J v`` at ``inputs`` (``v``: a Tensor,
    or a tuple of Tensors, one per input)."""
    if not isinstance(inputs, (Tensor, tuple, list)):
        raise TypeError(f"The inputs type must be a Tensor, tuple or list of Tensors, but got "
                        f"{type(inputs).__name__}.")
    inputs = as_tensor_tuple(inputs, "linearize", "inputs")
    return fn(*inputs), Transformed("linearize", _jvp_at, fn, inputs)


__all__ = ["linearize"]
