"""``graphkiln.ops.primitive``: the primitive registry, re-exported from the IR layer, and
``constexpr`` (``mindspore.ops.primitive`` holds both).

``OpDef``, ``Primitive`` and ``REGISTRY`` are defined in :mod:`graphkiln.ir.primitive`
(the IR applies primitives, so they sit below the ops); this path stays for users and for
modules that define ops.
"""
import functools
import inspect

from ..ir import tracing_state as state
from ..ir.primitive import (
    GRAPH_ATTRS,
    IO_EFFECT,
    MEM_EFFECT,
    NO_EFFECT,
    REGISTRY,
    OpDef,
    Primitive,
    apply,
    primitive_class,
)


def constexpr(fn=None, *, get_instance: bool = True, reuse_result: bool = True,
              check: bool = True):
    """``@ops.constexpr``: a Python function evaluated while the graph is built.

    graphkiln runs Python code at trace time with the constant arguments it is given, so the
    function's result becomes a constant of the graph; decorated functions are called as
    they are (``get_instance=False`` returns the function's class-like wrapper instead).
    Inside a graph, as in MindSpore, an argument that is a function is no constant value:
    the function receives None for it."""
    def wrap(f):
        @functools.wraps(f)
        def call(*args, **kwargs):
            if state.current() is not None:
                args = tuple(None if _is_function(a) else a for a in args)
                kwargs = {k: None if _is_function(v) else v for k, v in kwargs.items()}
            return f(*args, **kwargs)
        if get_instance:
            return call
        return lambda: call
    return wrap(fn) if fn is not None else wrap


def _is_function(x) -> bool:
    return inspect.isfunction(x) or inspect.ismethod(x)


__all__ = ["OpDef", "Primitive", "REGISTRY", "primitive_class", "apply", "NO_EFFECT",
           "MEM_EFFECT", "IO_EFFECT", "GRAPH_ATTRS", "constexpr"]
