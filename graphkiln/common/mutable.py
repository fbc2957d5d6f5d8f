"""``mutable(value)``: mark a graph input as a variable rather than a constant.

graphkiln compiles a graph per input signature, where Python scalars and tuple/list/dict
structure are part of the signature; a mutable value gives the same results as the plain
value (it is a subclass of it carrying ``__ms_mutable__``). Not recompiling when a mutable
scalar changes, and gradients with respect to mutable sequences, are compiler features
this marker prepares for; today such a call compiles once per distinct value.
"""
from __future__ import annotations

from .tensor import Tensor


class _MutableInt(int):
    __ms_mutable__ = True


class _MutableFloat(float):
    __ms_mutable__ = True


class _MutableTuple(tuple):
    __ms_mutable__ = True


class _MutableList(list):
    __ms_mutable__ = True


class _MutableDict(dict):
    __ms_mutable__ = True


_WRAPPERS = ((int, _MutableInt), (float, _MutableFloat), (tuple, _MutableTuple),
             (list, _MutableList), (dict, _MutableDict))


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


def is_mutable(value) -> bool:
    """True for values made by :func:`mutable`."""
    return getattr(value, "__ms_mutable__", False) is True


__all__ = ["mutable", "is_mutable"]
