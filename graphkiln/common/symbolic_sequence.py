"""``SymbolicSequence``: a tuple or list whose length (and items) are known only when the
graph runs, the sequence counterpart of a symbolic ``Tensor``.

A ``mutable(seq, dynamic_len=True)`` argument becomes one (a graph parameter), so a new
length does not recompile. The holder is here, below the ops; its methods (``append``,
indexing, ``+``...) are attached by :mod:`graphkiln.ops.sequence_methods` and record the
sequence primitives of :mod:`graphkiln.ops.defs.sequence`.
"""
from __future__ import annotations

_CONCRETE_HINT = (
    "A dynamic length {kind} (mutable(..., dynamic_len=True)) was used where Python needs "
    "its items while compiling ({what}). Its length is only known when the graph runs: use "
    "len(), indexing, 'for ... in', 'in', +, append/insert/pop/reverse/extend, or pass a "
    "sequence without dynamic_len.")


class SymbolicSequence:
    """A sequence computed by ``node`` of the graph being built (an ``AbstractSequence``).

    List methods that change it in place (``append``...) record a primitive and rebind
    the holder to its result, as the variable holding the list sees it."""

    __slots__ = ("_node", "_abs")

    def __init__(self, node, abstract):
        self._node = node
        self._abs = abstract

    @property
    def is_list(self) -> bool:
        return self._abs.is_list

    @property
    def element(self):
        """The abstract value of every item (None for an empty sequence)."""
        return self._abs.element

    def copy(self) -> SymbolicSequence:
        """Another holder of the same value (a branch changes its own copy)."""
        return SymbolicSequence(self._node, self._abs)

    def _concrete(self, what: str):
        raise TypeError(_CONCRETE_HINT.format(kind="list" if self.is_list else "tuple",
                                              what=what))

    def __bool__(self) -> bool:
        return self._concrete("bool()")

    def __len__(self) -> int:
        return self._concrete("len() outside graph code")

    def __iter__(self):
        return self._concrete("unpacking or iterating it outside a 'for' statement")

    def __hash__(self) -> int:
        return object.__hash__(self)

    def __repr__(self) -> str:
        return f"{'list' if self.is_list else 'tuple'}(length=<symbolic>)"

    __str__ = __repr__


def is_symbolic_sequence(x) -> bool:
    return type(x) is SymbolicSequence


__all__ = ["SymbolicSequence", "is_symbolic_sequence"]
