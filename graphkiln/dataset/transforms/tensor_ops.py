"""Element-wise tensor transforms of ``mindspore.dataset.transforms``: ``Mask`` (a
comparison with a constant), ``Slice`` (indexing per dimension) and ``Unique``."""
from __future__ import annotations

import enum
import operator

import numpy as np

from ...common import dtype as mstype
from .transforms import TensorOperation, TypeCast

__all__ = ["Relational", "Mask", "Slice", "Unique"]


class Relational(enum.Enum):
    """The comparison of ``Mask``."""

    EQ = "EQ"
    NE = "NE"
    GT = "GT"
    GE = "GE"
    LT = "LT"
    LE = "LE"


_COMPARE = {Relational.EQ: operator.eq, Relational.NE: operator.ne, Relational.GT: operator.gt,
            Relational.GE: operator.ge, Relational.LT: operator.lt, Relational.LE: operator.le}


class Mask(TensorOperation):
    """``x <operator> constant`` per element, cast to ``dtype`` (bool by default)."""

    def __init__(self, operator: Relational, constant, dtype=mstype.bool_):  # noqa: A002
        if not isinstance(operator, Relational):
            raise TypeError(f"Argument operator with value {operator!r} is not of type "
                            f"[<enum 'Relational'>], but got {type(operator)}.")
        self.compare = _COMPARE[operator]
        self.constant = constant
        self.cast = TypeCast(dtype)

    def _apply(self, x):
        x = np.asarray(x)
        return self.cast._apply(self.compare(x, np.asarray(self.constant, dtype=x.dtype)))


def _index(option):
    """One dimension's index: an int keeps that element (as a length-1 axis), a list picks
    elements, a slice, None or Ellipsis as in NumPy (None and Ellipsis: everything)."""
    if option is None or option is Ellipsis:
        return slice(None)
    if isinstance(option, bool):
        raise TypeError("Slice options are int, list of int, slice, None or Ellipsis.")
    if isinstance(option, (int, np.integer)):
        return [int(option)]
    if isinstance(option, (list, tuple)):
        return [int(i) for i in option]
    if isinstance(option, slice):
        return option
    raise TypeError("Slice options are int, list of int, slice, None or Ellipsis.")


class Slice(TensorOperation):
    """Index a tensor per dimension (``Slice(1)``, ``Slice(slice(0, 4, 2))``,
    ``Slice([0, 2])``...); dimensions past the options are kept whole."""

    def __init__(self, *slices):
        self.options = [_index(o) for o in slices]

    def _apply(self, x):
        x = np.asarray(x)
        for axis, option in enumerate(self.options):
            x = x[(slice(None),) * axis + (option,)]
        return x


class Unique(TensorOperation):
    """The distinct elements of a tensor (flattened) in order of appearance, each element's
    index among them and their counts (three outputs; indices and counts int32). As
    MindSpore 2.10's, it refuses a 1-D tensor."""

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim < 2:
            raise RuntimeError("Unique: input must be at least 2-D in order to do unique op, "
                               f"got rank:{x.ndim}")
        if x.dtype.kind in "USO":
            raise RuntimeError("Unique: only support numeric datatype of input, got string.")
        x = x.ravel()
        values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                                   return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return (values[order], rank[inverse.ravel()].astype(np.int32),
                counts[order].astype(np.int32))
