"""``TupleToList`` and ``ListToTuple`` (``mindspore.ops._utils.arg_dtype_cast``): a sequence
with the same items, as the other kind. A dynamic length sequence (``mutable(seq, True)``)
stays one (``TupleToDynamicSequence`` with the other kind), so its length stays a run-time
value and gradients flow through it item by item."""
from __future__ import annotations

from ...common.symbolic_sequence import SymbolicSequence
from ..defs import sequence as Q

__all__ = ["TupleToList", "ListToTuple"]


class _SequenceCast:
    """A primitive-like callable: ``op()(seq)``."""

    _to_list = False

    def __call__(self, input):
        if type(input) is SymbolicSequence:
            return Q.TupleToDynamicSequence(input, is_list=self._to_list)
        if not isinstance(input, (tuple, list)):
            raise TypeError(f"For '{type(self).__name__}', the input must be a tuple or list, "
                            f"but got {type(input).__name__}.")
        return list(input) if self._to_list else tuple(input)


class TupleToList(_SequenceCast):
    """A tuple as a list."""

    _to_list = True


class ListToTuple(_SequenceCast):
    """A list as a tuple."""
