"""``@jit_class``: user classes whose methods compile into the graph that uses them.

In GRAPH_MODE an instance (created outside, or inside ``construct``/``@jit`` with constant
arguments) is an ordinary Python object while tracing: attributes are constants, methods
and ``__call__`` are converted and traced into the calling graph. Subclasses of a jit class
are jit classes too. In PYNATIVE_MODE the decorator changes nothing.
"""
from __future__ import annotations

_MARK = "__ms_class__"
# set to True on ``nn.Cell``: the decorator refuses cells without importing the nn layer
CELL_MARK = "__gk_cell__"


def jit_class(cls):
    """Mark ``cls`` as a jit class (not allowed on ``nn.Cell`` subclasses)."""
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got "
                        f"{cls}.")
    if getattr(cls, CELL_MARK, False):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot "
                        f"be used for nn.Cell: {cls}.")
    setattr(cls, _MARK, True)
    return cls


def is_jit_class_instance(obj) -> bool:
    return not isinstance(obj, type) and getattr(type(obj), _MARK, False) is True
