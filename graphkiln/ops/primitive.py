"""``graphkiln.ops.primitive``: the primitive registry, re-exported from the IR layer, and
``constexpr`` (``mindspore.ops.primitive`` holds both).

``OpDef``, ``Primitive`` and ``REGISTRY`` are defined in :mod:`graphkiln.ir.primitive`
(the IR applies primitives, so they sit below the ops); this path stays for users and for
modules that define ops.
"""
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
    they are (``get_instance=False`` returns the function's class-like wrapper instead)."""
    def wrap(f):
        if get_instance:
            return f
        return lambda: f
    return wrap(fn) if fn is not None else wrap


__all__ = ["OpDef", "Primitive", "REGISTRY", "primitive_class", "apply", "NO_EFFECT",
           "MEM_EFFECT", "IO_EFFECT", "GRAPH_ATTRS", "constexpr"]
