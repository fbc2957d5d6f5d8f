"""``SymbolicScalar``: a Python number (int, float, bool) whose value is known only when
the graph runs, the scalar counterpart of a symbolic ``Tensor``.

A ``mutable`` number entering a compiled call becomes one (a graph parameter), so a new
value does not recompile. The holder is here, below the ops; its operators are attached
by :mod:`graphkiln.ops.scalar_methods` and record scalar primitives (``ScalarAdd``...).
"""
from __future__ import annotations

_CONCRETE_HINT = (
    "A mutable {kind} was used where Python needs a concrete value ({what}) inside a "
    "graph. Its value is only known when the graph runs. Use it in 'if'/'while' "
    "conditions, arithmetic and comparisons, or pass a plain (non-mutable) value.")


class SymbolicScalar:
    """A number of type ``kind`` computed by ``node`` of the graph being built."""

    __slots__ = ("_node", "_abs")

    def __init__(self, node, abstract):
        self._node = node
        self._abs = abstract

    @property
    def kind(self) -> type:
        return self._abs.kind

    def _concrete(self, what: str):
        raise TypeError(_CONCRETE_HINT.format(kind=self.kind.__name__, what=what))

    def __bool__(self) -> bool:
        return self._concrete("bool()")

    def __index__(self) -> int:
        return self._concrete("an index")

    def __hash__(self) -> int:
        return object.__hash__(self)

    def __repr__(self) -> str:
        return f"{self.kind.__name__}(value=<symbolic>)"

    __str__ = __repr__


def is_symbolic_scalar(x) -> bool:
    return type(x) is SymbolicScalar


__all__ = ["SymbolicScalar", "is_symbolic_scalar"]
