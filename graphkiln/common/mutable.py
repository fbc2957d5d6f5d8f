"""``mutable(value)``: mark a graph input as a variable rather than a constant.

A mutable value gives the same results as the plain value (it is a subclass of it
carrying ``__ms_mutable__``; a bool, which cannot be subclassed, is a :class:`MutableBool`
that reports ``bool`` as its class). A compiled call keys a mutable int or float by its type only
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


class MutableBool(int):
    """A bool made by :func:`mutable` (``bool`` cannot be subclassed): it computes as the
    bool does, prints as it, and ``isinstance(b, bool)`` holds, as for MindSpore's."""

    __ms_mutable__ = True

    def __new__(cls, value):
        return super().__new__(cls, bool(value))

    @property
    def __class__(self):
        return bool

    def __and__(self, other):
        return bool(self) & other

    __rand__ = __and__

    def __or__(self, other):
        return bool(self) | other

    __ror__ = __or__

    def __xor__(self, other):
        return bool(self) ^ other

    __rxor__ = __xor__

    def __repr__(self) -> str:
        return repr(bool(self))

    __str__ = __repr__


class MutableTuple(tuple):
    """A tuple made by :func:`mutable`."""

    __ms_mutable__ = True


class MutableList(list):
    """A list made by :func:`mutable`."""

    __ms_mutable__ = True


class MutableDict(dict):
    """A dict made by :func:`mutable`."""

    __ms_mutable__ = True


class DynamicLenTuple(MutableTuple):
    """A tuple made by ``mutable(..., dynamic_len=True)``: a compiled call keys it by its
    items' type, not its length, and passes the items when the graph runs."""


class DynamicLenList(MutableList):
    """A list made by ``mutable(..., dynamic_len=True)`` (see :class:`DynamicLenTuple`)."""


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
    if isinstance(input_data, Tensor):
        return input_data  # a Tensor is already a variable
    if isinstance(input_data, bool):
        return MutableBool(input_data)
    if dynamic_len:
        return (DynamicLenList if isinstance(input_data, list) else DynamicLenTuple)(input_data)
    for base, wrapper in _WRAPPERS:
        if isinstance(input_data, base):
            ret = wrapper(input_data)
            if hasattr(ret, "__dict__"):  # (the containers) what it was made from
                ret.__ms_origin_object__ = input_data
            return ret
    return input_data


def mutable_number(value):
    """``value`` as a mutable number when it is a plain int or float (the numbers inside a
    mutable container are variables too); anything else unchanged."""
    if type(value) is bool:
        return MutableBool(value)
    if type(value) is int:
        return MutableInt(value)
    if type(value) is float:
        return MutableFloat(value)
    return value


# mutable numbers and the plain type of their values: a compiled call keys them by type
# and passes their values when the graph runs
RUNTIME_SCALARS = {MutableBool: bool, MutableInt: int, MutableFloat: float}

_DYNAMIC_LEN = (DynamicLenTuple, DynamicLenList)


def _item_type(x) -> str:
    if isinstance(x, Tensor):
        return "Tensor"
    return "Bool" if isinstance(x, bool) else type(x).__name__


def dynamic_len_items(value) -> tuple | None:
    """The type every item of a ``dynamic_len`` sequence has: ``(Tensor dtype, shape)``
    or a number type (None when it is empty), or None when ``value`` is not one or its
    items cannot share one run-time type (tensors of different shapes or nested
    sequences: it then keeps a static length). Mixed item types raise MindSpore's errors."""
    if type(value) not in _DYNAMIC_LEN:
        return None
    kinds = [_item_type(x) for x in value]
    for i, k in enumerate(kinds[1:], 1):
        if k != kinds[0] and {k, kinds[0]} <= {"Tensor", "int", "float", "Bool"}:
            raise ValueError(
                f"In graph mode, the element type of dynamic length array must be the same."
                f"The element type do not match, can not convert to dynamic length sequence. "
                f"The 0th element type is: {kinds[0]}. The {i}th element type is: {k}")
    if not value:
        return (None,)
    if kinds[0] == "Tensor":
        first = value[0]
        for i, x in enumerate(value[1:], 1):
            if x.dtype != first.dtype:
                raise TypeError(
                    f"In graph mode, the element shape of dynamic length array must be the "
                    f"same.The element do not match, can not convert to dynamic length "
                    f"sequence. The 0th element is: Tensor[{first.dtype}]. The {i}th element "
                    f"is: Tensor[{x.dtype}]")
        if any(x.shape != first.shape for x in value):
            return None  # no dynamic shapes: the length stays static
        return (first.dtype, tuple(first.shape))
    if kinds[0] in ("int", "float", "Bool"):
        return (bool if kinds[0] == "Bool" else int if kinds[0] == "int" else float,)
    return None


def is_mutable(value) -> bool:
    """True for values made by :func:`mutable`."""
    return getattr(value, "__ms_mutable__", False) is True


__all__ = ["mutable", "is_mutable", "can_be_mutable", "mutable_number", "RUNTIME_SCALARS",
           "dynamic_len_items", "MutableBool", "DynamicLenTuple", "DynamicLenList",
           "MutableInt", "MutableFloat", "MutableTuple", "MutableList", "MutableDict"]


def can_be_mutable(value) -> bool:
    """Whether :func:`mutable` accepts ``value`` (tensors and numbers, or containers of them
    without self-reference)."""
    return _valid(value, set())
