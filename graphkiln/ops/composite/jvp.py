"""``ops.jvp(fn, inputs, v, has_aux=False)``: the front end of forward-mode autodiff.

Inside a graph the tangent computation is traced in place; called eagerly it is compiled
once per input signature and run (as ``grad`` and ``vmap`` are), so both modes share one
implementation.
"""
from __future__ import annotations

from ...common.tensor import Tensor
from ...transforms.forward_mode import jvp_in_graph
from .transformed import transformed


def as_tensor_tuple(x, name: str, arg: str) -> tuple:
    """A Tensor or a tuple/list of Tensors as a tuple (a TypeError for anything else)."""
    if isinstance(x, Tensor):
        return (x,)
    if isinstance(x, (tuple, list)) and all(isinstance(e, Tensor) for e in x):
        return tuple(x)
    raise TypeError(f"For '{name}', '{arg}' must be a Tensor or a tuple of Tensors, but got "
                    f"{type(x).__name__}.")


def _jvp(fn, options, inputs: tuple, v: tuple):
    (has_aux,) = options
    return jvp_in_graph(fn, inputs, v, has_aux)


def jvp(fn, inputs, v, has_aux: bool = False):
    """``(fn(*inputs), J v)``: the output and its directional derivative along ``v`` (one
    Tensor per input); with ``has_aux`` the function returns ``(output, aux...)`` and the
    result is ``(output, J v, aux)``."""
    if not callable(fn):
        raise TypeError(f"For 'jvp', 'fn' must be a function or a Cell, but got "
                        f"{type(fn).__name__}.")
    inputs, v = as_tensor_tuple(inputs, "jvp", "inputs"), as_tensor_tuple(v, "jvp", "v")
    return transformed("jvp", _jvp, fn, (has_aux,))(inputs, v)


__all__ = ["jvp"]
