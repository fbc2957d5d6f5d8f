"""The state of a cell tree that a compiled call depends on beyond its inputs.

A trace folds a cell's plain attributes (``self.scale``, ``self.flag``) into the graph and
binds the Parameters and sub-cells it holds at trace time. When the user later sets such
an attribute, or puts a new Parameter or sub-cell in its place, the compiled call no
longer describes the cell: :class:`CellState` notices and the call compiles again (or
finds the compile-cache entry for the cell's new attributes). MindSpore 2.10 keeps running
the old graph in that case; graphkiln never returns a result computed from stale state.

Checking costs one integer comparison per call: every ``Cell.__setattr__`` counts a write
(:func:`note_cell_write`), and the tree is compared again only after some cell was written.
Attributes the graph itself sets when it runs are left out (guards.attribute_guards
covers those the trace read). Lists, dicts and arrays the code reads can change without a
write to the cell (``self.sizes.append(3)``): :func:`container_guards` compares those by
content on every call.
"""
from __future__ import annotations

import weakref

import numpy as np

from ..common.lazy_inline import attribute_fingerprint
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from .guards import UNFROZEN, AttributeRead, frozen, read_names

_writes = [0]


def note_cell_write() -> None:
    """Count a write to some cell's attributes, Parameters or sub-cells."""
    _writes[0] += 1


def _state(cell, skip: set) -> tuple:
    return tuple(
        (name, id(c),
         tuple(sorted((k, v) for k, v in attribute_fingerprint(c).items()
                      if (id(c), k) not in skip and (id(vars(c)[k]),) not in skip)),
         tuple((k, id(p)) for k, p in vars(c).get("_params", {}).items()),
         _held_parameters(c))
        for name, c in cell.cells_and_names())


def _held_parameters(cell) -> tuple:
    """The identities of the Parameters the cell holds in tuples and lists (an optimizer's
    ParameterTuples): the fingerprint keys them by name only."""
    return tuple((k, tuple(id(p) for p in v if isinstance(p, Parameter)))
                 for k, v in vars(cell).items() if isinstance(v, (tuple, list)))


class CellState:
    """What a compiled call read from the cell tree rooted at ``cell``."""

    __slots__ = ("_cell", "_skip", "_state", "_seen")

    def __init__(self, cell, skip: set = frozenset()):
        self._cell = weakref.ref(cell)
        self._skip = skip
        self._state = _state(cell, skip)
        self._seen = _writes[0]

    def cell(self):
        """The root cell (None once it is gone)."""
        return self._cell()

    def holds(self) -> bool:
        """True when no cell of the tree changed since the trace."""
        if self._seen == _writes[0]:
            return True
        cell = self._cell()
        if cell is None or _state(cell, self._skip) != self._state:
            return False
        self._seen = _writes[0]
        return True


def cell_state(cell, run_time_attributes: set = frozenset(),
               written_ids: set = frozenset()) -> CellState | None:
    """The :class:`CellState` of ``cell``, or None when ``cell`` is not a Cell. The
    attributes the graph sets when it runs (``(id(cell), name)``) and the containers it
    writes (their ids) are not part of it."""
    if cell is None or not hasattr(cell, "cells_and_names"):
        return None
    return CellState(cell, set(run_time_attributes) | {(i,) for i in written_ids})


_CONTAINERS = (list, dict, set, np.ndarray, Tensor)
_REGISTRIES = frozenset({"_params", "_cells", "_flags"})


def _value_guards(obj, keys) -> list:
    """Guards ``(reader, frozen value)`` on the attributes ``keys`` of ``obj`` whose values
    can be compared (none for an object without weak references, as in MindSpore)."""
    guards = []
    for k in keys:
        value = frozen(vars(obj)[k])
        if value == UNFROZEN:
            continue
        try:
            guards.append((AttributeRead(obj, k), value))
        except TypeError:
            return []
    return guards


def container_guards(cell, functions: list | None, run_time_attributes: set = frozenset(),
                     written_ids: set = frozenset()) -> list:
    """Guards on the mutable containers held by the cells of ``cell``'s tree whose
    attribute names the traced ``functions`` read (all of them when ``functions`` is None:
    a graph loaded from the compile cache). Containers the graph itself writes when it
    runs (``written_ids``) keep the value the trace read, as in MindSpore."""
    if cell is None or not hasattr(cell, "cells_and_names"):
        return []
    names = None  # found only when some cell holds a container (a walk of the code)
    guards = []
    for _, c in cell.cells_and_names():
        keys = [k for k, v in vars(c).items()
                if isinstance(v, _CONTAINERS) and k not in _REGISTRIES
                and (id(c), k) not in run_time_attributes and id(v) not in written_ids
                and not getattr(v, "_is_param", False)]
        if keys and functions is not None:
            names = read_names(functions) if names is None else names
            keys = [k for k in keys if k in names]
        guards += _value_guards(c, keys)
    return guards


def instance_guards(obj, functions: list, run_time_attributes: set = frozenset()) -> list:
    """Guards on the attributes of ``obj``, the object (not a cell) whose ``@jit`` method
    was compiled, that the traced ``functions`` read; plain objects count no writes, so
    these are compared every call."""
    if obj is None or hasattr(obj, "cells_and_names") or not hasattr(obj, "__dict__"):
        return []
    names = read_names(functions)
    return _value_guards(obj, [k for k in vars(obj) if k in names
                               and (id(obj), k) not in run_time_attributes])


__all__ = ["CellState", "cell_state", "container_guards", "instance_guards",
           "note_cell_write"]
