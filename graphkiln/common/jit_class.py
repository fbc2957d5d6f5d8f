"""``@jit_class``: user classes whose methods compile into the graph that uses them.

In GRAPH_MODE an instance (created outside, or inside ``construct``/``@jit`` with constant
arguments) is an ordinary Python object while tracing: attributes are constants, methods
and ``__call__`` are converted and traced into the calling graph. Subclasses of a jit class
are jit classes too. In PYNATIVE_MODE the decorator changes nothing.
"""
from __future__ import annotations

_MARK = "__ms_class__"


def jit_class(cls):
    """Mark ``cls`` as a jit class (not allowed on ``nn.Cell`` subclasses)."""
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got "
                        f"{cls}.")
    from ..nn.cell import Cell
    if issubclass(cls, Cell):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot "
                        f"be used for nn.Cell: {cls.__name__}<>.")
    setattr(cls, _MARK, True)
    return cls


def is_jit_class_instance(obj) -> bool:
    return not isinstance(obj, type) and getattr(type(obj), _MARK, False) is True


def call_instance(obj, args: tuple, kwargs: dict):
    """``obj(*args)`` for a jit-class instance inside a graph: its ``__call__``, converted."""
    from ..compiler.trace.ast_convert import convert
    call = next((k.__dict__["__call__"] for k in type(obj).__mro__[:-1]
                 if "__call__" in k.__dict__), None)
    if call is None:
        raise ValueError(f"MsClassObject: '{type(obj).__name__}' has no __call__ function, "
                         f"please check the code.")
    return convert(call)(obj, *args, **kwargs)
