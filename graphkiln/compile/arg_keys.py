"""Keys for the non-tensor arguments of a compiled call: by value, never by a reusable id.

A value folded into a graph at trace time must be part of the key of that graph. Numbers,
strings, dtypes and tuples/lists/dicts of them are keyed by value; hashable objects with
value equality by themselves; other objects (``jit_class`` instances, configs) by their
identity *and* the values of their attributes, so a mutated attribute recompiles. The
identity is an :class:`Identity`: a weak reference (or, for objects that cannot have one,
a strong one), so a freed object's ``id`` reused by a new object never matches.
"""
from __future__ import annotations

import types
import weakref

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor

_SCALARS = (bool, int, float, complex, str, bytes, type(None))
_BY_IDENTITY = (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                types.ModuleType)
SMALL = 64  # arrays up to this many elements are keyed by their contents too


class Identity:
    """Equal only to an Identity of the same live object."""

    __slots__ = ("_ref", "_hash")

    def __init__(self, obj):
        try:
            self._ref = weakref.ref(obj)
        except TypeError:  # no weak references: keep it alive while the key lives
            self._ref = lambda obj=obj: obj
        self._hash = id(obj)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Identity):
            return False
        mine = self._ref()
        return mine is not None and mine is other._ref()

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Identity({self._ref()!r})"


def _array_key(kind: str, dtype: str, shape: tuple, obj, array: np.ndarray) -> tuple:
    data = array.tobytes() if array.size <= SMALL else None
    return (kind, dtype, shape, Identity(obj), data)


def value_key(x, depth: int = 0):
    """A hashable key that changes whenever ``x`` would trace differently."""
    if isinstance(x, _SCALARS):
        return (type(x).__name__, x)
    if isinstance(x, np.generic):
        return ("np", x.dtype.str, x.tobytes())
    if isinstance(x, mstype.Type):
        return ("dtype", x.name)
    if isinstance(x, Tensor):
        return _array_key("T", x.dtype.name, x.shape, x, x._data)
    if isinstance(x, np.ndarray):
        return _array_key("A", x.dtype.str, x.shape, x, x)
    if isinstance(x, (tuple, list)):
        return (type(x).__name__,) + tuple(value_key(e, depth + 1) for e in x)
    if isinstance(x, dict):
        return ("dict",) + tuple(sorted(((repr(k), value_key(v, depth + 1))
                                         for k, v in x.items()), key=lambda kv: kv[0]))
    if isinstance(x, _BY_IDENTITY):
        return ("id", Identity(x))
    cls = type(x)
    if cls.__hash__ is not None and cls.__hash__ is not object.__hash__ \
            and cls.__eq__ is not object.__eq__:
        try:
            hash(x)
            return ("H", x)
        except TypeError:
            pass
    attrs = getattr(x, "__dict__", None)
    if depth < 4 and isinstance(attrs, dict):
        return ("O", cls.__qualname__, Identity(x)) + tuple(sorted(
            (k, value_key(v, depth + 1)) for k, v in attrs.items()))
    return ("id", Identity(x))


def has_identity(key) -> bool:
    """True when ``key`` names a live object (so it means nothing in another process)."""
    if isinstance(key, Identity):
        return True
    if isinstance(key, tuple):
        return any(has_identity(e) for e in key)
    return False


__all__ = ["Identity", "value_key", "has_identity"]
