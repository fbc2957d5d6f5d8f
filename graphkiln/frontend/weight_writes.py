"""Writes to a cell attribute from graph code (``self.w = value``, ``self.w += 1``).

Inside a graph a weight's write is an ``Assign`` on the memory chain, ordered like any
other effect (a later ``self.w`` reads the new value); outside a graph it replaces the
weight's data, as ``Parameter.set_data`` does. A plain attribute given a graph value is
written when the graph runs, as MindSpore's run-time fallback does.
"""
from __future__ import annotations

import functools

import graphkiln.ops.functional as F

from ..common.parameter import Parameter
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..ir import tape
from ..ir import tracing_state as state
from ..ops.defs.gradient import StopGradient
from .fallback import PyObject, run_time
from .pytree import flatten, unflatten


def write_parameter(param: Parameter, value: Tensor) -> None:
    """``cell.<name> = value`` where ``<name>`` is the registered weight ``param``."""
    if state.current() is None:
        if tape.ACTIVE:  # a PyNative gradient: steps recorded so far read the old value
            tape.before_write(param)
        param.set_data(value)
        return
    state.current().root.weights_set.add(id(param))  # (then returned as a value)
    F.assign(param, value)  # converts a lower-ranked value type, refuses a higher one


_PLAIN = (bool, int, float, str)


def _is_graph_value(value) -> bool:
    return (isinstance(value, Tensor) and value._node is not None) or \
        type(value) is SymbolicScalar or isinstance(value, PyObject)


def write_attribute(obj, name: str, value) -> bool:
    """``obj.<name> = value`` for a plain (non-weight) attribute while tracing, when
    ``value`` is a graph value, a tuple or list holding one, a number or a string:
    ``PyExecute(setattr, obj, name, value)`` writes it when the graph runs (a guard
    recompiles when the attribute is not what the trace read); the rest of the trace
    reads the value without a gradient (MindSpore's run-time attribute is not
    differentiated) and the attribute is put back when tracing ends (no symbolic value
    stays in user data). False when nothing was done."""
    b = state.current()
    symbolic = _is_graph_value(value)
    # a number or string is set when the graph runs too, every call, as in MindSpore
    leaves, tree = flatten(value)
    in_tuple = isinstance(value, (tuple, list)) and any(_is_graph_value(v) for v in leaves)
    if b is None or not (symbolic or in_tuple or isinstance(value, _PLAIN)):
        return False
    b.before_setattr(obj, name)
    if not state.replaying_forward():  # (a backward graph: the forward wrote it already)
        state.note_attribute_write(obj, name, obj.__dict__.get(name))
        if in_tuple:  # rebuilt from its leaves when the graph runs
            run_time(functools.partial(_set_tree, obj, name, tree), *leaves)
        else:  # as Cell.__setattr__ does, uncounted
            run_time(object.__setattr__, obj, name, value)
    if in_tuple:
        value = unflatten(tree, [StopGradient(v) if isinstance(v, Tensor) else v
                                 for v in leaves])
    object.__setattr__(obj, name, StopGradient(value) if isinstance(value, Tensor) else value)
    return True


def _set_tree(obj, name: str, tree, *leaves) -> None:
    object.__setattr__(obj, name, unflatten(tree, list(leaves)))
