"""``mutable(value)``: mark a graph input as a variable rather than a constant.

A mutable value gives the same results as the plain value (it is a subclass of it
carrying ``__ms_mutable__``). A compiled call keys a mutable int or float by its type only
and passes its value when the graph runs (a run-time scalar); the numbers inside a mutable
tuple, list or dict are mutable too, and gradients with respect to a mutable sequence or
dict have its structure (one cotangent per tensor).
"""
from __future__ import annotations

from .tensor import Tensor


class MutableInt(int):
    """An int made by :func:`mutable`."""

    __ms_mutable__ = True


class MutableFloat(float):
    """A float made by :func:`mutable`."""

    __ms_mutable__ = True


class MutableTuple(tuple):
    """A tuple made by :func:`mutable`."""

    __ms_mutable__ = True


class MutableList(list):
    """A list made by :func:`mutable`."""

    __ms_mutable__ = True


class MutableDict(dict):
    """A dict made by :func:`mutable`."""

    __ms_mutable__ = True


_WRAPPERS = ((int, MutableInt), (float, MutableFloat), (tuple, MutableTuple),
             (list, MutableList), (dict, MutableDict))


def _valid(value, seen: set) -> bool:
    """Tensors and numbers, or tuples/lists/dicts of them without self-reference."""
    if isinstance(value, (Tensor, int, float)):
        return True
    if not isinstance(value, (tuple, list, dict)) or id(value) in seen:
        return False
    seen.add(id(value))
    items = value.values() if isinstance(value, dict) else value
    ok = all(_valid(v, seen) for v in items)
    seen.discard(id(value))
    return ok


def mutable(input_data, dynamic_len: bool = False):
    """``ms.mutable``: ``input_data`` marked as a variable graph input (see the module doc)."""
    if not _valid(input_data, set()):
        raise TypeError(f"For 'mutable', the 'input_data' should be one of (bool, int, float, "
                        f"Tensor, tuple, list, dict) or their nested structures with no "
                        f"self-reference, but got {type(input_data).__name__}: {input_data}.")
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the argument 'dynamic_len' should be bool, but got "
                        f"{type(dynamic_len).__name__}.")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when 'dynamic_len' is True, the first input should be "
                        f"list or tuple, but got: {type(input_data).__name__}.")
    if isinstance(input_data, (Tensor, bool)):
        return input_data  # a Tensor is already a variable; a bool cannot be subclassed
    for base, wrapper in _WRAPPERS:
        if isinstance(input_data, base):
            return wrapper(input_data)
    return input_data


def mutable_number(value):
    """``value`` as a mutable number when it is a plain int or float (the numbers inside a
    mutable container are variables too); anything else unchanged."""
    if type(value) is int:
        return MutableInt(value)
    if type(value) is float:
        return MutableFloat(value)
    return value


# mutable numbers and the plain type of their values: a compiled call keys them by type
# and passes their values when the graph runs
RUNTIME_SCALARS = {MutableInt: int, MutableFloat: float}


def is_mutable(value) -> bool:
    """True for values made by :func:`mutable`."""
    return getattr(value, "__ms_mutable__", False) is True


__all__ = ["mutable", "is_mutable", "can_be_mutable", "mutable_number", "RUNTIME_SCALARS",
           "MutableInt", "MutableFloat", "MutableTuple", "MutableList", "MutableDict"]


def can_be_mutable(value) -> bool:
    """Whether :func:`mutable` accepts ``value`` (tensors and numbers, or containers of them
    without self-reference)."""
    return _valid(value, set())
