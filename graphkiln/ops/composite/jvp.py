"""``ops.jvp(fn, inputs, v, has_aux=False)``: the front end of forward-mode autodiff.

Inside a graph the tangent computation is traced in place; called eagerly it is compiled
once per input signature and run (as ``grad`` and ``vmap`` are), so both modes share one
implementation.
"""
from __future__ import annotations

import weakref

from ...common.tensor import Tensor
from ...compile.call_cache import CallCache
from ...compile.compile_cache import function_identity
from ...ir import tracing_state as state
from ...transforms.forward_mode import jvp_in_graph


class _ForwardDerivative:
    """``fn`` with its Jacobian-vector product, compiled per input signature."""

    def __init__(self, fn, has_aux: bool):
        self.fn = fn
        self.has_aux = has_aux
        self.cache = CallCache()
        self.__name__ = f"jvp_{getattr(fn, '__name__', type(fn).__name__)}"

    def __call__(self, inputs: tuple, v: tuple):
        if state.current() is not None:
            return self._traced(inputs, v)
        return self.cache.run(self, self._traced, self.__name__, (inputs, v), {})

    def _traced(self, inputs: tuple, v: tuple):
        return jvp_in_graph(self.fn, inputs, v, self.has_aux)

    def __gk_cache_identity__(self):
        """What the compile cache keys on: the function and ``has_aux``."""
        return ("jvp", function_identity(self.fn), self.has_aux)


_BY_FN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _as_tuple(x, name: str) -> tuple:
    if isinstance(x, Tensor):
        return (x,)
    if isinstance(x, (tuple, list)) and all(isinstance(e, Tensor) for e in x):
        return tuple(x)
    raise TypeError(f"For 'jvp', '{name}' must be a Tensor or a tuple of Tensors, but got "
                    f"{type(x).__name__}.")


def jvp(fn, inputs, v, has_aux: bool = False):
    """``(fn(*inputs), J v)``: the output and its directional derivative along ``v`` (one
    Tensor per input); with ``has_aux`` the function returns ``(output, aux...)`` and the
    result is ``(output, J v, aux)``."""
    if not callable(fn):
        raise TypeError(f"For 'jvp', 'fn' must be a function or a Cell, but got "
                        f"{type(fn).__name__}.")
    inputs, v = _as_tuple(inputs, "inputs"), _as_tuple(v, "v")
    try:
        derivative = _BY_FN.get(fn)
        if derivative is None or derivative.has_aux != has_aux:
            derivative = _BY_FN[fn] = _ForwardDerivative(fn, has_aux)
    except TypeError:  # not weak-referenceable (a bound method): compiled per call
        derivative = _ForwardDerivative(fn, has_aux)
    return derivative(inputs, v)


__all__ = ["jvp"]
