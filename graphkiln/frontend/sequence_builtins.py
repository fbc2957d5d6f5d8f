"""``map(fn, *sequences)``, tuple/list slicing and ``==`` of tuples holding run-time
numbers (``x.shape == (3, 4)`` of a dynamic shape) inside graphs, with MindSpore's checks.

In a graph, ``map`` over lists gives a list and over tuples a tuple (MindSpore's ``Map``), not
a lazy iterator; its arguments must all be lists or all tuples, of one length (with a NumPy
array among them it is Python's ``map``, as MindSpore falls back to Python for it). A slice of a
tuple or list may use one-element int or bool Tensors for its bounds (their values are
constants of the graph).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..common import dtype as mstype
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..ops.defs import scalar as scalar_ops


def type_name(x) -> str:
    """MindSpore's name for the type of a graph value: ``Int64``, ``Tensor[Float32]``..."""
    if isinstance(x, Tensor):
        return f"Tensor[{x.dtype}]"
    if isinstance(x, (bool, int, float, np.generic)):
        return str(mstype.scalar_type(x))
    if isinstance(x, str):
        return "String"
    return type(x).__name__


def graph_map(call: Callable, fn, *sequences):
    """``map(fn, *sequences)`` in a graph; ``call`` calls ``fn`` as converted code does."""
    if not sequences:
        raise TypeError(f"The Map operator must have at least two arguments. But the size of "
                        f"arguments is {1 + len(sequences)}.")
    if any(isinstance(s, np.ndarray) for s in sequences):  # MindSpore's JIT fallback
        return map(lambda *items: call(fn, *items), *sequences)
    kinds = {type(s) if isinstance(s, (list, tuple)) else type_name(s) for s in sequences}
    if len(kinds) > 1:
        raise RuntimeError("The types of arguments in Map must be consistent, but the types of "
                           "arguments are inconsistent: " +
                           ", ".join(type_name(s) for s in sequences) + ".")
    first = sequences[0]
    if not isinstance(first, (list, tuple)):
        raise RuntimeError(f"Map can only be applied to list, tuple, but got "
                           f"{type_name(first)}.")
    kind = "lists" if isinstance(first, list) else "tuples"
    if len({len(s) for s in sequences}) > 1:
        raise RuntimeError(f"For 'Map', the length of {kind} must be the same, but got "
                           f"{[len(s) for s in sequences]}.")
    results = [call(fn, *items) for items in zip(*sequences)]
    return results if isinstance(first, list) else tuple(results)


def _slice_bound(v, what: str):
    """A slice bound as a Python int (or None), from an int, a bool or a one-element
    int/bool Tensor whose value is known."""
    if v is None or isinstance(v, (bool, int, np.integer, np.bool_)):
        return v
    if isinstance(v, Tensor):
        if v.is_symbolic:
            raise TypeError(f"The {what} of a tuple or list slice must be a constant, but got "
                            f"a Tensor computed in the graph; a sequence's length is fixed "
                            f"when the graph is built.")
        if v.size != 1:
            raise TypeError(f"The input tensor of the MakeSlice operator must contain only one "
                            f"element, but got a Tensor of shape {list(v.shape)}.")
        if not (v.dtype.is_int or v.dtype is mstype.bool_):
            raise TypeError(f"The input tensor type of the MakeSlice operator must be int or "
                            f"bool, but got {v.dtype}")
        return int(v.asnumpy().reshape(()))
    raise TypeError(f"Slice indices must be integers or bool. But got a {type_name(v)} "
                    f"number.")


def slice_sequence(seq, index: slice):
    """``seq[start:stop:step]`` for a tuple or list, with MindSpore's checks."""
    start, stop, step = (_slice_bound(v, what) for v, what in (
        (index.start, "start"), (index.stop, "stop"), (index.step, "step")))
    if step == 0:
        raise ValueError("Slice step cannot be zero.")
    return seq[slice(start, stop, step)]


def equal(a, b, negate: bool = False):
    """``a == b`` (``a != b`` when ``negate``) in converted code; of two tuples (or two
    lists) holding run-time numbers, such as a dynamic shape, a run-time bool."""
    if type(a) is type(b) and type(a) in (tuple, list) and \
            any(type(x) is SymbolicScalar for x in (*a, *b)):
        same = _sequence_equal(a, b)
        if not negate:
            return same
        return scalar_ops.BoolNot(same) if type(same) is SymbolicScalar else not same
    return a != b if negate else a == b


def _sequence_equal(a, b):
    """True, False, or a run-time bool: every pair of elements is equal."""
    if len(a) != len(b):
        return False
    result = True
    for x, y in zip(a, b):
        same = equal(x, y)
        if type(same) is not SymbolicScalar:
            if not same:
                return False
            continue
        result = same if result is True else scalar_ops.BoolAnd(result, same)
    return result
