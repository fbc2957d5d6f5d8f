"""Methods of dynamic length sequences
(:class:`~graphkiln.common.symbolic_sequence.SymbolicSequence`): indexing, slicing, ``+``,
``*`` and the list methods record the primitives of :mod:`graphkiln.ops.defs.sequence`.
A list method that changes the list in place rebinds the holder to the new sequence."""
from __future__ import annotations

from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from .defs import sequence as Q


def _rebind(seq: SymbolicSequence, new: SymbolicSequence) -> None:
    seq._node, seq._abs = new._node, new._abs


def _getitem(self: SymbolicSequence, index):
    if isinstance(index, slice):
        return Q.SequenceSlice(self, index.start, index.stop, index.step)
    return Q.SequenceGetItem(self, index)


def _setitem(self: SymbolicSequence, index, value) -> None:
    if isinstance(index, slice):
        raise TypeError("graphkiln does not assign to a slice of a dynamic length sequence; "
                        "assign the items one by one.")
    _rebind(self, Q.SequenceSetItem(self, index, value))


def _concat(x, y):
    """``x + y`` where either is a dynamic length sequence (the other may be a tuple or
    list of static length: SequenceAdd checks the kinds match)."""
    for other in (x, y):
        if not isinstance(other, (SymbolicSequence, tuple, list)):
            return NotImplemented
    return Q.SequenceAdd(x, y)


def _repeat(self: SymbolicSequence, n):
    if not isinstance(n, (int, SymbolicScalar)) or isinstance(n, bool):
        return NotImplemented
    return Q.SequenceMul(self, n)


def append(self: SymbolicSequence, x) -> None:
    _rebind(self, Q.ListAppend(self, x))


def insert(self: SymbolicSequence, index, x) -> None:
    _rebind(self, Q.ListInsert(self, index, x))


def pop(self: SymbolicSequence, index=-1):
    rest, item = Q.ListPop(self, index)
    _rebind(self, rest)
    return item


def reverse(self: SymbolicSequence) -> None:
    _rebind(self, Q.ListReverse(self))


def extend(self: SymbolicSequence, other) -> None:
    if not self.is_list:
        raise AttributeError("'tuple' object has no attribute 'extend'")
    _rebind(self, Q.SequenceAdd(self, other))


def install() -> None:
    """Attach the methods to :class:`SymbolicSequence`."""
    SymbolicSequence.__getitem__ = _getitem
    SymbolicSequence.__setitem__ = _setitem
    SymbolicSequence.__add__ = lambda self, other: _concat(self, other)
    SymbolicSequence.__radd__ = lambda self, other: _concat(other, self)
    SymbolicSequence.__mul__ = _repeat
    SymbolicSequence.__rmul__ = _repeat
    for fn in (append, insert, pop, reverse, extend):
        setattr(SymbolicSequence, fn.__name__, fn)


install()
