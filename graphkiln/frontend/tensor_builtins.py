"""Python's ``max``, ``min``, ``sum``, ``all`` and ``any`` on graph values inside graphs,
as MindSpore compiles them, and ``Tensor([...])`` of run-time numbers.

``max``/``min`` of Tensors with one element each fold with ``Maximum``/``Minimum`` (a
Tensor result); of a 1-D Tensor they reduce it; of run-time numbers (``mutable``) they
compare when the graph runs, also over a dynamic length sequence of numbers. ``sum`` of a
Tensor adds along its first axis. ``all``/``any`` of run-time Tensors, and ``max``/``min``
mixing Tensors with other values, run as Python when the graph runs (MindSpore's JIT
fallback). Plain Python values keep Python's builtins. ``Tensor(x)``/``tensor(x, dtype)``
of a graph Tensor (or a list of them) is a copy of it (cast to ``dtype``), differentiable
as MindSpore's constructor is.
"""
from __future__ import annotations

import builtins
import functools

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from ..ops.defs import array as array_ops
from ..ops.defs import scalar as scalar_ops
from ..ops.defs import sequence as sequence_ops
from .fallback import run_time

_AMBIGUOUS = "The truth value of an array with more than one element is ambiguous."


def _is_graph_value(x) -> bool:
    return isinstance(x, (Tensor, SymbolicScalar, SymbolicSequence))


def _is_run_time(x) -> bool:
    return (isinstance(x, Tensor) and x.is_symbolic) or \
        isinstance(x, (SymbolicScalar, SymbolicSequence))


def involves_graph_values(args: tuple) -> bool:
    """True when an argument, or an item of a tuple/list argument, is a Tensor or a
    run-time value."""
    return any(_is_graph_value(a) or (isinstance(a, (tuple, list)) and
                                      any(_is_graph_value(x) for x in a)) for a in args)


def _one_element_tensors(items) -> int:
    """How many of ``items`` are Tensors; each must hold one element (shape () or (1,))."""
    count = 0
    for x in items:
        if isinstance(x, Tensor):
            if x.shape not in ((), (1,)):
                raise ValueError(_AMBIGUOUS)
            count += 1
    return count


def _extreme(name: str, python_fn, tensor_fold, scalar_op, sequence_op, args: tuple):
    """``max(*args)`` or ``min(*args)`` in a graph."""
    if not args:
        raise TypeError(f"{name}() requires 1 argument at least.")
    if len(args) == 1:
        x = args[0]
        if isinstance(x, Tensor):
            if x.ndim == 0:
                raise TypeError("Cannot iterate over a scalar tensor.")
            if x.ndim >= 2:
                raise ValueError(_AMBIGUOUS)
            return getattr(x, name)()
        if type(x) is SymbolicSequence:
            return sequence_op(x)
        if isinstance(x, (bool, int, float, SymbolicScalar)):
            raise TypeError("The object is not iterable.")
        items = tuple(x)
    else:
        items = args
    if not items:
        raise ValueError(f"{name}() arg is an empty sequence.")
    tensors = _one_element_tensors(items)
    if tensors == len(items):
        return functools.reduce(tensor_fold, items)
    if tensors:
        return run_time(python_fn, items)
    if any(isinstance(x, (tuple, list)) and involves_graph_values(x) for x in items):
        raise TypeError(f"{name}() cannot support tensor in list or tuple nested now.")
    if any(type(x) is SymbolicScalar for x in items):
        return functools.reduce(scalar_op, items)
    return python_fn(items)


def graph_max(*args):
    """``max(*args)`` in a graph."""
    return _extreme("max", builtins.max, F.maximum, scalar_ops.ScalarMax,
                    sequence_ops.SequenceMax, args)


def graph_min(*args):
    """``min(*args)`` in a graph."""
    return _extreme("min", builtins.min, F.minimum, scalar_ops.ScalarMin,
                    sequence_ops.SequenceMin, args)


def graph_sum(*args):
    """``sum(iterable[, start])`` in a graph: a Tensor is added up along its first axis."""
    if not 1 <= len(args) <= 2:
        raise TypeError("sum() requires 1 or 2 arguments.")
    x = args[0]
    if not isinstance(x, Tensor):
        return builtins.sum(*args)
    if x.ndim == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    start = args[1] if len(args) == 2 else 0
    return start + x.sum(0)


def _truth_test(python_fn):
    def graph_fn(iterable):
        if isinstance(iterable, Tensor) and iterable.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        if _is_run_time(iterable) or (isinstance(iterable, (tuple, list)) and
                                      any(_is_run_time(x) for x in iterable)):
            return run_time(python_fn, iterable)
        return python_fn(iterable)

    graph_fn.__doc__ = f"``{python_fn.__name__}(iterable)`` in a graph: run-time values are " \
                       f"tested when the graph runs."
    return graph_fn


GRAPH_BUILTINS = {
    builtins.max: graph_max,
    builtins.min: graph_min,
    builtins.sum: graph_sum,
    builtins.all: _truth_test(builtins.all),
    builtins.any: _truth_test(builtins.any),
}


def run_time_numbers(data) -> bool:
    """A flat tuple/list of numbers, some known only when the graph runs."""
    return isinstance(data, (tuple, list)) and any(type(x) is SymbolicScalar for x in data) \
        and all(type(x) in (int, float, SymbolicScalar) for x in data)


def tensor_of_numbers(data, dtype=None, *args, **kwargs) -> Tensor:
    """``Tensor([0, n])`` in a graph where ``n`` is a run-time number: built when the graph
    runs, in MindSpore's default dtype (int64 for ints, float32 with a float)."""
    if args or kwargs:
        raise TypeError("For 'Tensor' of run-time numbers inside a graph, only 'input_data' "
                        "and 'dtype' may be given.")
    floats = any((x.kind if type(x) is SymbolicScalar else type(x)) is float for x in data)
    kind = float if floats else int
    items = tuple(scalar_ops.ScalarCast(x, to=kind.__name__) if type(x) is SymbolicScalar
                  and x.kind is not kind else kind(x) if type(x) is not SymbolicScalar else x
                  for x in data)
    default = mstype.float32 if floats else mstype.int64
    return F.cast(scalar_ops.TupleToArray(items), dtype or default)


def holds_graph_tensors(data) -> bool:
    """A graph Tensor, or a tuple/list holding one (at any depth)."""
    if isinstance(data, Tensor):
        return data.is_symbolic
    return isinstance(data, (tuple, list)) and builtins.any(holds_graph_tensors(x)
                                                            for x in data)


def tensor_of_graph_tensors(input_data, dtype=None, shape=None, init=None,
                            const_arg=False) -> Tensor:
    """``Tensor(x, dtype)`` in a graph where ``x`` is a graph Tensor or a (nested) list of
    Tensors of one shape: a new value (stacked), cast to ``dtype`` when given."""
    if shape is not None or init is not None:
        raise TypeError("For 'Tensor' of a graph Tensor, 'shape' and 'init' cannot be given: "
                        "the shape is the data's.")
    value = _stacked(input_data)
    if value is input_data:
        value = array_ops.Identity(value)  # a new Tensor, as outside a graph
    return value if dtype is None or value.dtype == mstype.to_type(dtype) else \
        F.cast(value, mstype.to_type(dtype))


def _stacked(data) -> Tensor:
    if isinstance(data, Tensor):
        return data
    if not isinstance(data, (tuple, list)) or not data:
        raise TypeError(f"For 'Tensor' inside a graph, a list holding graph Tensors must "
                        f"hold only Tensors or lists of them, but got {type(data).__name__}.")
    return F.stack([_stacked(x) for x in data])
