"""Run-time helpers that converted control flow calls (``__gk.if_stmt`` and friends).

A Python condition runs the statement as plain Python. A symbolic tensor condition traces
each branch (or the loop's condition and body) into its own closed subgraph and records a
``Switch`` (or a ``While``) node whose outputs become the new values of the variables the
statement assigns.
"""
from __future__ import annotations

import builtins
import enum
import functools
import inspect
import operator
import sys
import types
from typing import NamedTuple

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.capture_flags import (  # noqa: F401  (python_try, note_global_writes: converted code)
    bytecode_capture,
    note_generator,
    note_global_writes,
    python_try,
    refuse,
    refuse_outside_generator,
)
from ..common.jit_class import is_jit_class_instance
from ..common.mutable import mutable
from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from ..common.tensor import tensor as tensor_function
from ..errors import GraphkilnInternalError, SourceLoc, is_internal, user_location
from ..ir import tracing_state as state
from ..ir.abstract import (
    IO_ABS,
    PY_OBJECT_ABS,
    U_ABS,
    AbstractFunc,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractTuple,
    widen,
)
from ..ir.anf import FuncGraph, Node, Parameter, ValueNode
from ..ir.build import prim_node
from ..ir.primitive import needs_trace
from ..ir.structural_prims import MakeTuple, Switch, TupleGetItem, While
from ..ops.defs import array as array_ops
from ..ops.defs import scalar as scalar_ops
from ..ops.defs import sequence as sequence_ops
from ..ops.defs.side_effects import Print
from ..ops.dynamic_shape import shape_of
from . import ast_convert
from .builder import GraphBuilder
from .fallback import PyObject, condition, run_time, wants_run_time
from .join_errors import (
    describe,
    function_last_line,
    join_failed,
    join_values,
    leaf_line,
    switch_layer_join_error,
    variable_join_error,
)
from .pytree import copy_containers, flatten, unflatten
from .recursion import PendingRecursion, call_traced
from .runtime_raise import (  # noqa: F401  (converted code)
    BranchRaised,
    fstring,
    fstring_text,
    percent,
    raise_,
)
from .sequence_builtins import (
    equal,  # noqa: F401  (converted code: ``a == b``)
    graph_map,
    slice_sequence,
)
from .tensor_builtins import (
    GRAPH_BUILTINS,
    holds_graph_tensors,
    involves_graph_values,
    run_time_numbers,
    tensor_of_graph_tensors,
    tensor_of_numbers,
)
from .undefined import (
    Undefined,
    UndefinedReturn,
    Unjoinable,
    undefined,  # noqa: F401  (converted code calls _gk_rt.undefined)
)

_NUMBER = (bool, int, float, np.bool_, np.integer, np.floating)


def is_symbolic(x) -> bool:
    """True for values known only when the graph runs: symbolic tensors and run-time
    scalars."""
    return (isinstance(x, Tensor) and x._node is not None) or type(x) is SymbolicScalar


# ------------------------------------------------------------------- conditions

def _check_one_element(cond: Tensor, loc=None) -> None:
    if cond.size != 1:
        raise ValueError(f"Only tensor which shape is () or (1,) can be converted to bool, "
                         f"but got tensor shape is {tuple(cond.shape)}: the truth value of a "
                         f"Tensor with more than one element is ambiguous (reduce it with "
                         f".all() or .any()).\n{loc.describe() if loc else ''}")


def _cond_tensor(b: GraphBuilder, cond, loc) -> Node:
    """A scalar bool node for a tensor condition (``if x:`` means ``x != 0``) or a
    run-time scalar one."""
    if type(cond) is SymbolicScalar:
        if cond.kind is not bool:
            cond = scalar_ops.ScalarCast(cond, to="bool")
        return b.local(cond._node)
    _check_one_element(cond, loc)
    if cond.dtype is not mstype.bool_:
        cond = F.not_equal(cond, 0)
    return b.local(cond._node)


def cond_bool(x):
    """A loop test combined with jump flags: a symbolic one-element tensor becomes a
    scalar bool (``x != 0``); any other value is returned as it is."""
    if not is_symbolic(x) or type(x) is SymbolicScalar:
        return x
    _check_one_element(x)
    if x.dtype is not mstype.bool_:
        x = F.not_equal(x, 0)
    return F.reshape(x, ()) if x.shape else x


def truthy(x) -> bool:
    """Python truth of a non-symbolic value (concrete tensors included)."""
    return bool(x)


# ------------------------------------------------------------------- if / ifexp

def if_stmt(cond, true_fn, false_fn, values: tuple, names: tuple, guard: bool | str = False):
    """``if cond: ... else: ...`` over the variables ``names`` (current ``values``).

    ``guard`` marks the ``if not <jump flag>:`` statements that jump lowering inserts: their
    else path is the one where a return/break/continue already happened; when it names
    the one flag tested, that flag is True on the else path.
    """
    cond = condition(cond)
    if not is_symbolic(cond):
        return true_fn(*values) if truthy(cond) else false_fn(*values)
    return _traced_if(cond, true_fn, false_fn, values, names, guard)


def ifexp(cond, true_thunk, false_thunk):
    """``a if cond else b``."""
    cond = condition(cond)
    if not is_symbolic(cond):
        return true_thunk() if truthy(cond) else false_thunk()
    return _traced_if(cond, lambda: (true_thunk(),), lambda: (false_thunk(),), (),
                      ("<if-expression>",))[0]


def and_(first, *rest):
    """``a and b and c`` with ``rest`` as thunks; tensor operands trace as conditionals."""
    value = condition(first)
    for thunk in rest:
        if is_symbolic(value):
            v = value
            value = ifexp(v, thunk, lambda v=v: v)
        elif not truthy(value):
            return value
        else:
            value = thunk()
    return value


def or_(first, *rest):
    """``a or b or c`` with ``rest`` as thunks."""
    value = condition(first)
    for thunk in rest:
        if is_symbolic(value):
            v = value
            value = ifexp(v, lambda v=v: v, thunk)
        elif truthy(value):
            return value
        else:
            value = thunk()
    return value


def not_(x):
    if type(x) is SymbolicScalar:
        return scalar_ops.BoolNot(x)
    x = condition(x)
    if is_symbolic(x):
        _check_one_element(x)  # (``not`` is a truth test, as in MindSpore's graphs)
        if x.dtype is not mstype.bool_:
            return F.equal(x, 0)
        return F.logical_not(x)
    return not x


def _same_static(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


def _branch_output(bb: GraphBuilder, leaf, like: AbstractTensor | AbstractScalar | None
                   ) -> Node:
    """The node a branch returns for ``leaf`` (numbers become tensors like ``like``, or
    run-time scalars when ``like`` is one)."""
    if isinstance(like, AbstractScalar):
        if type(leaf) is SymbolicScalar:
            return bb.to_node(leaf)
        return ValueNode(like.kind(leaf), like)
    if isinstance(like, AbstractSequence) or isinstance(leaf, PyObject):
        return bb.to_node(leaf)
    if like is PY_OBJECT_ABS:
        return ValueNode(leaf, PY_OBJECT_ABS)
    if isinstance(leaf, _NUMBER) and like is not None:
        arr = np.full(like.shape, leaf, like.dtype.np_dtype)
        return ValueNode(arr, AbstractTensor(like.dtype, like.shape, arr))
    if isinstance(leaf, _NUMBER):
        t = mstype.scalar_type(leaf)
        arr = np.asarray(leaf, t.np_dtype)
        return ValueNode(arr, AbstractTensor(t, (), arr))
    return bb.to_node(leaf)


def _check_number_join(a, c, branch_fns, loc) -> None:
    """Refuse, as MindSpore does, a tensor joined with a Python number or None for a
    variable or return value that the ``if`` itself defines.  (graphkiln still turns a
    number the variable held before the ``if``, such as ``out = 0``, into a tensor.)"""
    other = c if isinstance(a, Tensor) else a
    if other is None or isinstance(other, _NUMBER):
        raise join_failed(a, c, branch_fns, loc)


def _first_mismatch(out_t, out_f) -> tuple:
    """The first pair of per-variable values of two branches whose structures differ."""
    if isinstance(out_t, tuple) and isinstance(out_f, tuple) and len(out_t) == len(out_f):
        for a, c in zip(out_t, out_f):
            if flatten(a)[1] != flatten(c)[1]:
                return a, c
    return out_t, out_f


def _number_kind(a, c) -> type | None:
    """``int`` or ``float`` when the two branch values of a variable are Python numbers of
    that type (or Tensors standing for them, see ``tracing_state.mark_number``)."""
    kinds = [type(x) if type(x) in (int, float) else state.number_kind(x) for x in (a, c)]
    return kinds[0] if kinds[0] is not None and kinds[0] is kinds[1] else None


def _scalar_join(a, c) -> AbstractScalar | None:
    """The run-time scalar joining ``a`` and ``c`` when one of them is a run-time scalar
    and the other a number of the same type; None when neither is a run-time scalar."""
    if type(a) is not SymbolicScalar and type(c) is not SymbolicScalar:
        return None
    kinds = [x.kind if type(x) is SymbolicScalar else
             type(x) if type(x) in (bool, int, float) else None for x in (a, c)]
    if kinds[0] is None or kinds[0] is not kinds[1]:
        return None
    return AbstractScalar.unknown(kinds[0])


def _python_object_join(a, c) -> bool:
    """A run-time Python object (an f-string of graph values...) joined with another or
    with a Python value: the ``Switch`` picks the object when the graph runs."""
    return (isinstance(a, PyObject) or isinstance(c, PyObject)) and not (
        isinstance(a, (Tensor, SymbolicScalar)) or isinstance(c, (Tensor, SymbolicScalar)))


def _sequence_join(name: str, a, c, loc) -> AbstractSequence:
    """The abstract of a variable that is a dynamic length sequence after a tensor ``if``:
    both branches must give one with the same item type."""
    if type(a) is not SymbolicSequence or type(c) is not SymbolicSequence or a._abs != c._abs:
        raise variable_join_error(
            name, "a dynamic length sequence must keep its kind and item type", a, c, loc)
    return a._abs


def _tensor_like(x) -> AbstractTensor | None:
    if isinstance(x, Tensor):
        return AbstractTensor(x.dtype, x.shape)
    return None


def _choose(flag, if_true, if_false):
    """The run-time pick between two Python values of a tensor ``if``."""
    return if_true if flag else if_false


def _traced_if(cond, true_fn, false_fn, values, names, guard=False):
    b: GraphBuilder = state.current()
    loc = user_location(3)
    cond_node = _cond_tensor(b, cond, loc)
    parent_name = b.graph.name
    tb = GraphBuilder(FuncGraph(f"\u2713{parent_name}", loc), b)
    fb = GraphBuilder(FuncGraph(f"\u2717{parent_name}", loc), b)
    out_t = _trace_branch(tb, true_fn, values)
    rebound_t = tb.take_rebound()  # (the false branch starts from the Tensors as they were)
    out_f = _trace_branch(fb, false_fn, values)
    written = _written_in_branches(rebound_t, fb.take_rebound())
    if out_t is _RAISED and out_f is _RAISED:
        raise BranchRaised()
    # a branch that raised at run time never goes on: it gives placeholders of the other
    # branch's values
    if out_t is _RAISED:
        out_t = placeholder_tree(out_f)
    elif out_f is _RAISED:
        out_f = placeholder_tree(out_t)
    out_t, out_f = _fill_pending_returns(out_t, out_f)
    out_t, out_f = _one_sided_sequences(out_t, out_f, names, loc)
    out_t, out_f = _uneven_sequences(out_t, out_f, tb, fb)
    leaves_t, tree_t = flatten(out_t)
    leaves_f, tree_f = flatten(out_f)
    if tree_t != tree_f:
        a, c = _first_mismatch(out_t, out_f)
        unjoinable = next((x for x in (a, c) if isinstance(x, Unjoinable)), None)
        raise unjoinable.error() if unjoinable else join_failed(a, c, (true_fn, false_fn), loc)
    leaf_names = _leaf_names(values, names, len(leaves_t))
    leaves_in, tree_in = flatten(tuple(values))
    incoming = leaves_in if tree_in == tree_t else None
    if isinstance(guard, str):  # `if not flag:` did not run its body: the flag is set
        leaves_f = [True if name == guard else c for name, c in zip(leaf_names, leaves_f)]
    jumped_t, jumped_f = _jumped(out_t, names), guard or _jumped(out_f, names)
    n_user = len(leaves_t)
    for _, a, c in written:  # each Tensor written in place leaves the `if` as a variable
        leaves_t.append(a)
        leaves_f.append(c)
        leaf_names.append(_WRITTEN_NAME)
    results: list = [None] * len(leaves_t)
    numbers = {i: kind for i, kind in enumerate(map(_number_kind, leaves_t, leaves_f))
               if kind is not None}
    dyn: list[tuple[int, Node, Node]] = []
    weights: list[tuple[int, object, object, AbstractTensor]] = []
    lifts = _Lifts(b, len(leaves_t))
    for i, (a, c) in enumerate(zip(leaves_t, leaves_f)):
        name = leaf_names[i]
        # a branch that returned/broke/continued never reads what it left unassigned
        if jumped_t and type(a) is Undefined and isinstance(c, Tensor):
            a = _placeholder(c)
        elif jumped_f and type(c) is Undefined and isinstance(a, Tensor):
            c = _placeholder(a)
        # a pending return value is unused on the path where no return ran (a flag
        # guards it): that branch returns a placeholder of the other branch's type
        if isinstance(a, UndefinedReturn) and not isinstance(c, Undefined):
            a = _placeholder(c)
        elif isinstance(c, UndefinedReturn) and not isinstance(a, Undefined):
            c = _placeholder(a)
        if a is c or (not isinstance(a, Tensor) and not isinstance(c, Tensor)
                      and _same_static(a, c)):
            results[i] = a
            continue
        if isinstance(a, Undefined) or isinstance(c, Undefined):
            side = "false" if isinstance(c, Undefined) else "true"
            results[i] = Undefined(name, f"it is assigned in only one branch of the tensor "
                                         f"'if' at {loc!r} (not in the {side} branch)")
            continue
        if type(a) is SymbolicSequence or type(c) is SymbolicSequence:
            like = _sequence_join(name, a, c, loc)
        elif _python_object_join(a, c):
            like = PY_OBJECT_ABS
        else:
            like = _scalar_join(a, c)
            if like is None and (type(a) is SymbolicScalar or type(c) is SymbolicScalar):
                raise variable_join_error(name, "type differs", a, c, loc)
        if like is not None:  # a run-time sequence or scalar: one output of each branch
            with tb:
                nt = _branch_output(tb, a, like)
            with fb:
                nf = _branch_output(fb, c, like)
            dyn.append((i, nt, nf))
            continue
        like_t, like_f = _tensor_like(a), _tensor_like(c)
        if (like_t is None) != (like_f is None) and (name == ast_convert.RET_VAL or (
                incoming and type(incoming[i]) in (Undefined, UndefinedReturn))):
            _check_number_join(a, c, (true_fn, false_fn), loc)
        if like_t is None and like_f is None:
            if isinstance(a, mstype.Type) and isinstance(c, mstype.Type):
                # two dtypes: picked when the graph runs (as MindSpore joins AbstractTypes)
                results[i] = run_time(_choose, cond, a, c)
                continue
            if not (isinstance(a, _NUMBER) and isinstance(c, _NUMBER)):
                if name == ast_convert.RET_VAL:  # a return value is always used
                    raise join_failed(a, c, (true_fn, false_fn), loc)
                # (an error only if it is used after the 'if', as in MindSpore)
                results[i] = Unjoinable(name, variable_join_error(
                    name, "Python values differ", a, c, loc))
                continue
        elif like_t is not None and like_f is not None and like_t != like_f:
            like_t = like_f = widen(like_t, like_f)  # a dimension that differs is unknown
            if like_t is None:
                raise variable_join_error(name, "type or rank differs", a, c, loc)
        like = like_t or like_f
        if like is None:
            like = AbstractTensor(mstype.scalar_type(a if isinstance(a, float) else c), ())
        weight_t = _is_weight(a, b) or _liftable(a, tb)
        weight_f = _is_weight(c, b) or _liftable(c, fb)
        if weight_t or weight_f:
            # a weight joins by reference: later reads load it there (see WeightJoin)
            weights.append((i, lifts.lift(a, tb, True) if weight_t else None,
                            lifts.lift(c, fb, False) if weight_f else None, like))
            if weight_t and weight_f:
                continue
            a, c = (_placeholder(a) if weight_t else a, _placeholder(c) if weight_f else c)
        with tb:
            nt = _branch_output(tb, a, like)
        with fb:
            nf = _branch_output(fb, c, like)
        if widen(nt.abstract, nf.abstract) is None:
            raise variable_join_error(name, "type or rank differs", a, c, loc)
        dyn.append((i, nt, nf))
    n_leaves = len(results)
    results = _emit_switch(b, tb, fb, cond_node, dyn + lifts.exports,
                           results + [None] * len(lifts.exports), loc)
    for i, wt, wf, like in weights:
        results[i] = WeightJoin(b, cond_node, wt(results) if wt is not None else results[i],
                                wf(results) if wf is not None else results[i], like, loc)
    for (x, _, _), value in zip(written, results[n_user:n_leaves]):
        b.write_back(x, x._node, value._node)
    for i, kind in numbers.items():
        if i < n_user and isinstance(results[i], Tensor):
            state.mark_number(results[i], kind)
    return unflatten(tree_t, results[:n_user])


_WRITTEN_NAME = "<a Tensor written in place>"


def _written_in_branches(rebound_t: list, rebound_f: list) -> list[tuple[Tensor, Tensor, Tensor]]:
    """``(Tensor, its value after the true branch, after the false branch)`` for each
    outer Tensor that one branch of a tensor ``if`` wrote in place (a branch that did not
    write it leaves it as it was)."""
    after_t = {id(x): node for x, node in rebound_t}
    after_f = {id(x): node for x, node in rebound_f}
    tensors = {id(x): x for x, _ in rebound_t + rebound_f}
    return [(x, _state(x, after_t.get(key)), _state(x, after_f.get(key)))
            for key, x in tensors.items()]


def _state(x: Tensor, node: Node | None) -> Tensor:
    """``x`` as a branch left it: the node it wrote, or ``x`` itself."""
    return x if node is None else Tensor._symbolic(node, node.abstract)


def _snapshot_written(out, rebound: dict):
    """``out`` with each Tensor the branch rebound (an outer Tensor written in place)
    replaced by its value in the branch (the Tensor gets its outer node back)."""
    leaves, tree = flatten(out)
    return unflatten(tree, [Tensor._symbolic(v._node, v._abs)
                            if isinstance(v, Tensor) and id(v) in rebound else v
                            for v in leaves])


def _liftable(x, bb: GraphBuilder) -> bool:
    """A join of weights made inside branch ``bb`` (lifted out of it by :class:`_Lifts`)."""
    return isinstance(x, WeightJoin) and x._owner is bb


class _Lifts:
    """Weights and joins of weights leaving the branches of one tensor ``if``: a join made
    inside a branch has its condition and plain values exported as extra outputs of the
    ``Switch`` (placeholders from the other branch), and is rebuilt after it."""

    def __init__(self, parent: GraphBuilder, first_slot: int):
        self.parent = parent
        self.first_slot = first_slot
        self.exports: list[tuple[int, Node, Node]] = []

    def lift(self, x, bb: GraphBuilder, true_side: bool):
        """A function of the switch results that gives ``x`` (a value of branch ``bb``)
        as the parent sees it."""
        if _is_weight(x, self.parent):
            return lambda results: x
        if not _liftable(x, bb):
            return self.export(x, bb, true_side)
        cond_node = bb.local(x._cond)
        cond = self.export(Tensor._symbolic(cond_node, cond_node.abstract), bb, true_side)
        sides = [self.lift(side, bb, true_side) for side in x._sides]
        return lambda results: WeightJoin(self.parent, cond(results)._node,
                                          sides[0](results), sides[1](results), x._abs,
                                          x._loc)

    def export(self, value, bb: GraphBuilder, true_side: bool):
        like = _tensor_like(value) or AbstractTensor(mstype.scalar_type(value), ())
        with bb:
            node = _branch_output(bb, value, like)
        arr = np.zeros(like.shape, like.dtype.np_dtype)
        placeholder = ValueNode(arr, AbstractTensor(like.dtype, like.shape, arr))
        slot = self.first_slot + len(self.exports)
        self.exports.append((slot, node, placeholder) if true_side
                            else (slot, placeholder, node))
        return lambda results: results[slot]


def _is_weight(x, b: GraphBuilder) -> bool:
    """A weight, or a join of weights that graphs under ``b`` can read by reference."""
    if isinstance(x, WeightJoin):
        return _encloses(x._owner, b)
    return isinstance(x, Tensor) and x._is_param


class WeightJoin(Tensor):
    """A variable bound to a weight on one path of a tensor ``if``, as MindSpore joins it:
    by reference. Each read emits ``Switch(cond, weight read here, other value)`` in the
    graph being traced, so a read after a write of the weight sees the write."""

    __slots__ = ("_owner", "_cond", "_sides", "_loc", "_read")

    def __init__(self, owner: GraphBuilder, cond: Node, true_value: Tensor,
                 false_value: Tensor, abstract: AbstractTensor, loc):
        self._data = None
        self._dtype = abstract.dtype
        self._abs = abstract
        self._owner = owner
        self._cond = cond
        self._sides = (true_value, false_value)
        self._loc = loc
        self._read: tuple = (None, None, None)  # (builder, its U state, the read node)

    @property
    def shape(self) -> tuple:
        return self._abs.shape

    @property
    def _node(self) -> Node:
        b = state.current()
        if b is None:  # outside tracing (a message, a value that leaked): any node
            return self._cond
        if not _encloses(self._owner, b):
            raise GraphkilnInternalError(
                f"graphkiln bug: a weight joined by the tensor 'if' at {self._loc!r} is "
                f"read in graph {b.graph.name}, outside the graph of that 'if'")
        last_b, last_u, node = self._read
        if last_b is b and last_u is b.u.node and node is not None:
            return node
        node = self._emit_read(b)
        self._read = (b, b.u.node, node)
        return node

    def _emit_read(self, b: GraphBuilder) -> Node:
        tb = GraphBuilder(FuncGraph(f"\u2713{b.graph.name}", self._loc), b)
        fb = GraphBuilder(FuncGraph(f"\u2717{b.graph.name}", self._loc), b)
        nodes = []
        for bb, side in ((tb, self._sides[0]), (fb, self._sides[1])):
            bb.is_branch = True
            with bb:
                nodes.append(bb.to_node(side))
        results = _emit_switch(b, tb, fb, b.local(self._cond), [(0, *nodes)], [None],
                               self._loc)
        return results[0]._node


def _encloses(owner: GraphBuilder, b: GraphBuilder | None) -> bool:
    while b is not None:
        if b is owner:
            return True
        b = b.parent
    return False


_RAISED = object()


def _trace_branch(bb: GraphBuilder, fn, values):
    """Trace one branch of a tensor ``if`` into ``bb``; ``_RAISED`` when it ends in a
    run-time raise."""
    bb.is_branch = True
    with bb:
        try:
            out = fn(*copy_containers(values))
        except BranchRaised:
            return _RAISED
    return _snapshot_written(out, bb.rebound) if bb.rebound else out


_JUMP_FLAGS = ("_gk_retflag", "_gk_brk", "_gk_cont")


def _jumped(out, names) -> bool:
    """True when this branch certainly returned, broke or continued (a flag it set)."""
    if not isinstance(out, tuple):
        return False
    return any(n.startswith(_JUMP_FLAGS) and v is True for n, v in zip(names, out))


def _fill_pending_returns(out_t: tuple, out_f: tuple) -> tuple[tuple, tuple]:
    """Where one branch still has no return value and the other returned a structure,
    give the first a placeholder of that structure (a flag guards its use)."""
    if not isinstance(out_t, tuple) or len(out_t) != len(out_f):
        return out_t, out_f
    t, f = list(out_t), list(out_f)
    for i, (a, c) in enumerate(zip(t, f)):
        if isinstance(a, UndefinedReturn) and not isinstance(c, Undefined):
            t[i] = placeholder_tree(c)
        elif isinstance(c, UndefinedReturn) and not isinstance(a, Undefined):
            f[i] = placeholder_tree(a)
    return tuple(t), tuple(f)


def _one_sided_sequences(out_t, out_f, names, loc) -> tuple:
    """A tuple or list assigned in one branch only: after the ``if`` it is unassigned (an
    error only where it is read), or, when the other branch jumped away, the assigned one."""
    if not isinstance(out_t, tuple) or len(out_t) != len(out_f):
        return out_t, out_f
    t, f = list(out_t), list(out_f)
    jumped = (_jumped(out_t, names), _jumped(out_f, names))
    for i, (a, c) in enumerate(zip(t, f)):
        for side, (x, other) in enumerate(((a, c), (c, a))):
            if type(x) is not Undefined or not isinstance(other, (tuple, list)):
                continue
            if jumped[side]:
                (t if side == 0 else f)[i] = placeholder_tree(other)
            else:
                missing = "true" if side == 0 else "false"
                t[i] = f[i] = Undefined(x.name, f"it is assigned in only one branch of the "
                                                f"tensor 'if' at {loc!r} (not in the "
                                                f"{missing} branch)")
    return tuple(t), tuple(f)


def _uniform_tensors(x) -> AbstractTensor | None:
    """The one type of the Tensors a plain tuple/list holds (None: not such a sequence)."""
    if type(x) not in (tuple, list) or not x or not all(isinstance(e, Tensor) for e in x):
        return None
    kinds = {(e.dtype, tuple(e.shape)) for e in x}
    return AbstractTensor(*kinds.pop()) if len(kinds) == 1 else None


def _uneven_sequences(out_t, out_f, tb: GraphBuilder, fb: GraphBuilder) -> tuple:
    """Tuples (or lists) of Tensors of one type whose lengths differ between the branches
    (``return (a, b, c)`` and ``return (a, d)``): dynamic length sequences, as MindSpore
    joins them."""
    if not isinstance(out_t, tuple) or len(out_t) != len(out_f):
        return out_t, out_f
    t, f = list(out_t), list(out_f)
    for i, (a, c) in enumerate(zip(t, f)):
        if type(a) not in (tuple, list) or type(a) is not type(c) or len(a) == len(c):
            continue
        like_a, like_c = _uniform_tensors(a), _uniform_tensors(c)
        if like_a is None or like_a != like_c:
            continue
        for side, (bb, x) in enumerate(((tb, a), (fb, c))):
            with bb:
                seq = sequence_ops.MakeDynamicSequence(*x, is_list=type(x) is list)
            (t if side == 0 else f)[i] = seq
    return tuple(t), tuple(f)


def placeholder_tree(x):
    """``x`` with every tensor replaced by a constant of zeros of its type."""
    leaves, tree = flatten(x)
    return unflatten(tree, [_placeholder(v) for v in leaves])


def _placeholder(x):
    """A constant standing in for ``x`` on a path where it is never used."""
    if isinstance(x, Tensor):
        arr = np.zeros(x.shape, x.dtype.np_dtype)
        return Tensor._from_array(arr, x.dtype)
    return x


def _leaf_names(values, names, n) -> list[str]:
    out: list[str] = []
    for v, nm in zip(values, names):
        k = len(flatten(v)[0])
        out.extend([nm] * k)
    while len(out) < n:
        out.append(names[0] if names else "value")
    return out


def _effect_outputs(builders, parent: GraphBuilder):
    """Chains (U/IO) that any of ``builders`` wrote: each branch returns that state too."""
    kinds = []
    for kind in ("u", "io"):
        if any(getattr(bb, kind).effects for bb in builders):
            kinds.append(kind)
    return kinds


def _emit_switch(b, tb, fb, cond_node, dyn, results, loc):
    effect_kinds = _effect_outputs((tb, fb), b)
    for bb, k in ((tb, 1), (fb, 2)):
        outs = [d[k] for d in dyn]
        for kind in effect_kinds:
            with bb:
                outs.append(bb.settle(getattr(bb, kind)))
        _set_output(bb, outs, MakeTuple)
    outer = _unify_params([tb, fb])
    n_out = len(dyn) + len(effect_kinds)
    out_abs = widen(tb.graph.output.abstract, fb.graph.output.abstract)
    sw = b.new_cnode([prim_node(Switch, {}), cond_node, ValueNode(tb.graph),
                      ValueNode(fb.graph)], AbstractFunc(None), loc)
    call = b.new_cnode([sw, *outer], out_abs, loc)
    outs = [call] if n_out == 1 else [_getitem(b, call, i) for i in range(n_out)]
    for (i, _, _), node in zip(dyn, outs):
        results[i] = b.wrap(node)
    for kind, node in zip(effect_kinds, outs[len(dyn):]):
        chain = getattr(b, kind)
        chain.node = node
        chain.effects = True
    if any(bb.u.node is not None for bb in (tb, fb)) and "u" not in effect_kinds:
        b.u.pending.append(call)
    return results


def _getitem(b: GraphBuilder, node: Node, i: int) -> Node:
    return b.new_cnode([prim_node(TupleGetItem, {}), node, ValueNode(i, AbstractScalar(i))],
                       node.abstract.elements[i], node.loc)


def _set_output(bb: GraphBuilder, outs: list, make_tuple) -> None:
    if len(outs) == 1:
        bb.graph.output = outs[0]
    else:
        bb.graph.output = bb.new_cnode([prim_node(make_tuple, {}), *outs],
                                       AbstractTuple([o.abstract for o in outs]))


def _unify_params(builders, fixed: int = 0) -> list[Node]:
    """Give every graph the same parameter list (after the first ``fixed`` ones).

    Returns the outer values to pass for the captured parameters, in order.
    """
    order: list[Node] = []
    seen: dict[int, int] = {}
    for bb in builders:
        for outer, _ in bb.capture_list:
            if id(outer) not in seen:
                seen[id(outer)] = len(order)
                order.append(outer)
    for bb in builders:
        mine = {id(outer): p for outer, p in bb.capture_list}
        head = bb.graph.params[:fixed]
        tail = []
        for outer in order:
            p = mine.get(id(outer))
            if p is None:
                p = Parameter(bb.graph, getattr(outer, "name", None) or "phi", outer.abstract)
            tail.append(p)
        bb.graph.params = head + tail
    return order


# ------------------------------------------------------------------- loops

def while_stmt(cond_fn, body_fn, values: tuple, names: tuple):
    """``while cond: body`` over the loop variables ``names``."""
    while True:
        c = condition(cond_fn(*values))
        if is_symbolic(c):
            return _traced_while(cond_fn, body_fn, values, names)
        if not truthy(c):
            return values
        values = body_fn(*values)


class TensorRange:
    """``range(...)`` whose bounds are tensors: iterated by a traced loop."""

    __slots__ = ("start", "stop", "step")

    def __init__(self, *args):
        if len(args) == 1:
            args = (0, args[0], 1)
        elif len(args) == 2:
            args = (args[0], args[1], 1)
        self.start, self.stop, self.step = args


def for_stmt(iterable, body_fn, values: tuple, names: tuple, extra_test=None):
    """``for target in iterable: body``; ``extra_test`` is the break/return guard."""
    if isinstance(iterable, TensorRange):
        return _tensor_range_loop(iterable, body_fn, values, names, extra_test)
    if type(iterable) is SymbolicSequence:
        return _sequence_loop(iterable, body_fn, values, names, extra_test)
    if isinstance(iterable, Tensor):
        if not iterable.shape:
            raise TypeError("Cannot iterate over a 0-D Tensor.")
        # each element is read when its iteration starts, after the writes of the ones
        # before (a weight written in the body is read live, as MindSpore does)
        rows = iterable
        iterable = (rows[i] for i in range(rows.shape[0]))
    if isinstance(iterable, np.ndarray):
        iterable = [numpy_element(v) for v in iterable]
    if type(iterable) is types.GeneratorType:
        refuse_outside_generator(iterable)
    items = iter(iterable)
    while True:
        # the guard is read before the next item is taken: a loop that breaks leaves the
        # rest of an iterator unread, as Python does
        t = extra_test(*values) if extra_test is not None else True
        if not is_symbolic(t) and not truthy(t):
            break
        item = next(items, _NO_ITEM)
        if item is _NO_ITEM:
            break
        if is_symbolic(t):
            values = if_stmt(t, lambda *v, item=item: body_fn(item, *v),
                             lambda *v: v, values, names)
        else:
            values = body_fn(item, *values)
    return values


_NO_ITEM = object()


def _tensor_range_loop(rng: TensorRange, body_fn, values, names, extra_test):
    step = rng.step
    if is_symbolic(step):
        raise ValueError("The step of a range over tensors must be a Python int.")

    def cond(i, *v):
        c = F.less(i, rng.stop) if step > 0 else F.greater(i, rng.stop)
        if extra_test is not None:
            return and_(c, lambda: extra_test(*v))
        return c

    def body(i, *v):
        return (i + step,) + tuple(body_fn(i, *v))

    start = rng.start
    if not isinstance(start, Tensor):
        start = Tensor(start, mstype.int64)
    out = _traced_while(cond, body, (start,) + tuple(values), ("<range index>",) + names)
    return out[1:]


def _sequence_loop(seq: SymbolicSequence, body_fn, values, names, extra_test):
    """``for item in seq`` over a dynamic length sequence: a tensor ``while`` on a run-time
    index (the items are read from the sequence as it is when the loop starts)."""
    seq = seq.copy()
    n = sequence_ops.SequenceLen(seq)

    def cond(i, *v):
        c = i < n
        if extra_test is not None:
            return and_(c, lambda: extra_test(*v))
        return c

    def body(i, *v):
        return (i + 1,) + tuple(body_fn(seq[i], *v))

    out = _traced_while(cond, body, (0,) + tuple(values), ("<sequence index>",) + names)
    return out[1:]


def _carried_abstract(leaf):
    if type(leaf) is SymbolicScalar or type(leaf) is SymbolicSequence:
        return leaf._abs
    if isinstance(leaf, Tensor):
        return AbstractTensor(leaf.dtype, leaf.shape)
    if isinstance(leaf, _NUMBER):
        return AbstractTensor(mstype.scalar_type(leaf), ())
    return None


class _Leaf(enum.Enum):
    """How a loop variable (pytree leaf) enters a tensor ``while``."""

    CARRIED = "carried"        # a Tensor (or Python number): one While state
    PENDING = "pending"        # a function's return value, not set before the loop
    NOT_CARRIED = "absent"     # no value before the loop: undefined inside and after it
    WEIGHT = "weight"          # may be a weight: carried as (is the weight, other value)
    STATIC = "static"          # a Python object the body leaves as it is (``self`` whose
                               # method ``add`` looks like a mutation): the same inside


class _Retry(NamedTuple):
    """The body changed what the trace assumed (types, effects): trace again."""


class _Restructure(NamedTuple):
    """A pending return value got a structure: carry it and start over."""

    values: tuple


class _Done(NamedTuple):
    values: tuple


_ABSENT_REASON = "it is only assigned inside a tensor while loop, whose body may not run"


class _TensorLoop:
    """Traces ``while cond: body`` with a tensor condition into one ``While`` node.

    One attempt (:meth:`trace_once`) traces the condition and the body into closed graphs
    under the current assumptions (each leaf's kind and type, whether the ``U``/``IO``
    monads are carried); when the body breaks an assumption (a Python number becomes a
    tensor, a pending return value gets a value, an effect appears) the assumptions are
    joined and the loop is traced again.
    """

    def __init__(self, b: GraphBuilder, cond_fn, body_fn, values: tuple, names: tuple,
                 loc: SourceLoc | None):
        self.b, self.cond_fn, self.body_fn, self.loc = b, cond_fn, body_fn, loc
        self.leaves, self.tree = flatten(values)
        self.n_user = len(self.leaves)  # after them: outer Tensors the body writes in place
        self.outer: list[Node] = []  # their nodes before the loop
        self.names = _leaf_names(values, names, len(self.leaves))
        self.kinds: list[_Leaf] = []
        self.abstracts: list[AbstractTensor | None] = []
        self.weights: dict[int, Tensor] = {}  # WEIGHT leaf -> the weight it may be
        self.by_value: set[int] = set()  # leaves that may be different weights: snapshots
        for i, leaf in enumerate(self.leaves):
            a = None if isinstance(leaf, Undefined) else _carried_abstract(leaf)
            self.kinds.append(_Leaf.PENDING if isinstance(leaf, UndefinedReturn) else
                              _Leaf.CARRIED if a is not None else
                              _Leaf.NOT_CARRIED if isinstance(leaf, Undefined) else _Leaf.STATIC)
            self.abstracts.append(a)
            w = _single_weight(leaf, b)
            if w is not None:
                self.kinds[i], self.weights[i] = _Leaf.WEIGHT, w
        self.carry_u = self.carry_io = False

    def slots(self) -> list[tuple[int, str]]:
        """The While states: ``(leaf, "value")`` per carried leaf, and ``(leaf, "flag")``
        then ``(leaf, "value")`` per leaf that may be a weight."""
        out = []
        for i, k in enumerate(self.kinds):
            if k is _Leaf.WEIGHT:
                out.append((i, "flag"))
            if k in (_Leaf.CARRIED, _Leaf.WEIGHT):
                out.append((i, "value"))
        return out

    def slot_abstract(self, i: int, part: str) -> AbstractTensor:
        return _FLAG_ABS if part == "flag" else self.abstracts[i]

    # ------------------------------------------------------------ one attempt
    def trace_once(self) -> _Retry | _Restructure | _Done:
        parent = self.b.graph.name
        cb = GraphBuilder(FuncGraph(f"\u21bb{parent}_cond", self.loc), self.b)
        bb = GraphBuilder(FuncGraph(f"\u21bb{parent}_body", self.loc), self.b)
        try:
            self.trace_cond(cb)
            with bb:
                new_values = self.body_fn(*self.bind_state(bb))
            new_leaves, new_tree = flatten(tuple(new_values))
            new_leaves += [_state(x, x._node) for x in self.leaves[self.n_user:]]
        finally:
            self.unbind_written()
            rebound = bb.take_rebound()
        if cb.take_rebound():
            raise TypeError("The condition of a tensor while loop writes a Tensor in place; "
                            "write it in the loop body instead." + _where(self.loc))
        if rebound:  # the body writes outer Tensors in place: carry them too
            for x, _ in rebound:
                self.leaves.append(x)
                self.outer.append(x._node)
                self.kinds.append(_Leaf.CARRIED)
                self.abstracts.append(AbstractTensor(x.dtype, x.shape))
                self.names.append(_WRITTEN_NAME)
            return _Retry()
        if new_tree != self.tree:
            if any(k is _Leaf.PENDING for k in self.kinds):
                return _Restructure(tuple(new_values))
            raise TypeError(f"A tensor while loop changes the structure of its variables "
                            f"({self.tree} -> {new_tree})." + _where(self.loc))
        if self.join(new_leaves, cb, bb):
            return _Retry()
        return _Done(self.emit(cb, bb, new_leaves))

    def bind_state(self, gb: GraphBuilder) -> tuple:
        """The loop variables as ``gb``'s graph sees them: carried ones are parameters."""
        syms = list(self.leaves)
        params: dict[tuple[int, str], Node] = {}
        for i, part in self.slots():
            name = self.names[i].lstrip("_") or "v"
            params[i, part] = gb.graph.add_param(name if part == "value" else f"{name}_is_w",
                                                 self.slot_abstract(i, part))
        for i, kind in enumerate(self.kinds):
            if kind is _Leaf.CARRIED:
                a, p = self.abstracts[i], params[i, "value"]
                syms[i] = gb.wrap(p)
                number = _number_kind(self.leaves[i], self.leaves[i])
                if number is not None and isinstance(syms[i], Tensor):
                    state.mark_number(syms[i], number)  # a Python number carried
            elif kind is _Leaf.WEIGHT:
                a = self.abstracts[i]
                syms[i] = WeightJoin(gb, params[i, "flag"], self.weights[i],
                                     Tensor._symbolic(params[i, "value"], a), a, self.loc)
            elif kind is _Leaf.NOT_CARRIED:
                syms[i] = Undefined(self.names[i], _ABSENT_REASON)
        for kind, on in (("u", self.carry_u), ("io", self.carry_io)):
            if on:
                getattr(gb, kind).node = gb.graph.add_param(
                    kind.upper(), U_ABS if kind == "u" else IO_ABS)
        for i, x in enumerate(self.leaves[self.n_user:], self.n_user):
            x._node, x._abs = params[i, "value"], self.abstracts[i]
        return unflatten(self.tree, syms[:self.n_user])

    def unbind_written(self) -> None:
        """The outer Tensors the body writes get their nodes before the loop back."""
        for x, node in zip(self.leaves[self.n_user:], self.outer):
            x._node, x._abs = node, node.abstract

    def trace_cond(self, cb: GraphBuilder) -> None:
        with cb:
            c = condition(self.cond_fn(*self.bind_state(cb)))
            if not is_symbolic(c):
                c = Tensor(bool(c))
            cb.graph.output = _cond_tensor(cb, c, self.loc)
        self.unbind_written()

    def join(self, new_leaves: list, cb: GraphBuilder, bb: GraphBuilder) -> bool:
        """Widen the assumptions to what the body produced; True when they changed."""
        changed = False
        for i, (old, new) in enumerate(zip(self.leaves, new_leaves)):
            kind, a = self.kinds[i], self.abstracts[i]
            if kind is _Leaf.PENDING:
                if isinstance(new, Tensor):  # the return value is set inside the loop
                    self.kinds[i] = _Leaf.CARRIED
                    self.abstracts[i] = AbstractTensor(new.dtype, new.shape)
                    changed = True
                continue
            if kind is _Leaf.NOT_CARRIED:
                continue
            if kind is _Leaf.STATIC:
                if not _same_static(old, new):  # rebound in the body: unknown after it
                    self.kinds[i] = _Leaf.NOT_CARRIED
                    changed = True
                continue
            w = _single_weight(new, bb)
            if kind is _Leaf.WEIGHT and _is_weight(new, bb) and w is not self.weights[i]:
                # another weight too: carried by value (a read where the body ends)
                self.kinds[i] = _Leaf.CARRIED
                self.by_value.add(i)
                changed = True
                continue
            if kind is _Leaf.CARRIED and w is not None and i not in self.by_value \
                    and AbstractTensor(w.dtype, w.shape) == a:
                self.kinds[i], self.weights[i] = _Leaf.WEIGHT, w
                changed = True
                continue
            got = _carried_abstract(new)
            if got is None:
                raise _loop_error(self.names[i], f"it becomes {describe(new)}", self.loc)
            if got == a or (isinstance(new, _NUMBER) and not (
                    isinstance(a, AbstractScalar) and type(new) is not a.kind)):
                continue
            if isinstance(old, (_NUMBER, UndefinedReturn)) and not isinstance(old, Tensor):
                self.abstracts[i] = got  # a Python number carried as a tensor of the body's type
                changed = True
            elif isinstance(a, AbstractTensor) and widen(a, got) is not None:
                wider = widen(a, got)  # a dimension the body changes is unknown
                if wider != a:
                    self.abstracts[i] = wider
                    changed = True
            else:
                raise _loop_error(
                    self.names[i], f"it enters as Tensor[{a.dtype}] {list(a.shape)} and the "
                    f"body makes it {describe(new)} (at {leaf_line(new)})", self.loc)
        want_u = self.carry_u or bb.u.effects or cb.u.effects
        want_io = self.carry_io or bb.io.effects or cb.io.effects
        if want_u != self.carry_u or want_io != self.carry_io:
            self.carry_u, self.carry_io = want_u, want_io
            changed = True
        return changed

    # ------------------------------------------------------------ the While node
    def emit(self, cb: GraphBuilder, bb: GraphBuilder, new_leaves: list) -> tuple:
        """Close the body, record ``While(@cond, @body, init..., invariants...)`` and
        return the loop variables after the loop."""
        b, slots = self.b, self.slots()
        monads = [kind for kind, on in (("u", self.carry_u), ("io", self.carry_io)) if on]
        outs = []
        with bb:
            outs += self.state_nodes(bb, new_leaves)
            _locate_constants(outs, self.body_fn)
            for kind in monads:
                outs.append(bb.settle(getattr(bb, kind)))
        bb.graph.output = bb.new_cnode([prim_node(MakeTuple, {}), *outs],
                                       AbstractTuple([o.abstract for o in outs]))
        n_state = len(slots) + len(monads)
        invariants = _unify_params([cb, bb], fixed=n_state)
        init = self.state_nodes(b, self.leaves, initial=True)
        init += [b.settle(getattr(b, kind)) for kind in monads]
        out_abs = AbstractTuple([self.slot_abstract(i, part) for i, part in slots]
                                + [n.abstract for n in init[len(slots):]])
        node = b.new_cnode([prim_node(While, {"n_state": n_state}), ValueNode(cb.graph),
                            ValueNode(bb.graph), *init, *invariants], out_abs, self.loc)
        results = list(self.leaves)
        outs = {slot: _getitem(b, node, k) for k, slot in enumerate(slots)}
        for i, kind in enumerate(self.kinds):
            if kind is _Leaf.CARRIED:
                results[i] = b.wrap(outs[i, "value"])
                number = _number_kind(self.leaves[i], new_leaves[i])
                if number is not None and isinstance(results[i], Tensor):
                    state.mark_number(results[i], number)  # stays a Python number
            elif kind is _Leaf.WEIGHT:
                a = self.abstracts[i]
                results[i] = WeightJoin(b, outs[i, "flag"], self.weights[i],
                                        b.wrap(outs[i, "value"]), a, self.loc)
        for i, kind in enumerate(self.kinds):
            if kind is _Leaf.NOT_CARRIED:
                results[i] = Undefined(self.names[i], _ABSENT_REASON)
        for k, kind in enumerate(monads, len(slots)):
            chain = getattr(b, kind)
            chain.node = _getitem(b, node, k)
            chain.effects = True
        if (bb.u.node is not None or cb.u.node is not None) and not self.carry_u:
            b.u.pending.append(node)  # the loop reads weights: later writes wait for it
        for x, before, value in zip(self.leaves[self.n_user:], self.outer,
                                    results[self.n_user:]):
            b.write_back(x, before, value._node)
        return unflatten(self.tree, results[:self.n_user])

    def state_nodes(self, gb: GraphBuilder, leaves: list, initial: bool = False) -> list:
        """The nodes of the While states for ``leaves`` in ``gb`` (the current builder)."""
        nodes = []
        for i, part in self.slots():
            if self.kinds[i] is _Leaf.WEIGHT:
                if part == "flag":
                    pair = _weight_state(gb, leaves[i], self.weights[i], self.abstracts[i])
                nodes.append(pair[0] if part == "flag" else pair[1])
            elif initial:
                nodes.append(self.initial_node(i))
            else:
                nodes.append(_branch_output(gb, leaves[i], self.abstracts[i]))
        return nodes

    def initial_node(self, i: int) -> Node:
        """The value a carried leaf enters the loop with (zeros for a pending return)."""
        leaf, a = self.leaves[i], self.abstracts[i]
        if type(leaf) is SymbolicScalar or type(leaf) is SymbolicSequence:
            return self.b.to_node(leaf)
        if isinstance(a, AbstractScalar):  # a number the body makes a run-time scalar
            return ValueNode(a.kind(leaf), a)
        if isinstance(leaf, UndefinedReturn) or not isinstance(leaf, Tensor):
            fill = 0 if isinstance(leaf, Undefined) else leaf
            arr = np.full(a.shape, fill, a.dtype.np_dtype)
            return ValueNode(arr, AbstractTensor(a.dtype, arr.shape, arr))
        return self.b.to_node(leaf)


_FLAG_ABS = AbstractTensor(mstype.bool_, ())


def _single_weight(x, b: GraphBuilder) -> Tensor | None:
    """The weight ``x`` may be (a weight, or a join whose only weight it is), else None."""
    if not _is_weight(x, b):
        return None
    if not isinstance(x, WeightJoin):
        return x
    found = {id(w): w for w in (_single_weight(s, b) if _is_weight(s, b) else None
                                for s in x._sides) if w is not None}
    sides_ok = all(not _is_weight(s, b) or _single_weight(s, b) is not None
                   for s in x._sides)
    return next(iter(found.values())) if len(found) == 1 and sides_ok else None


def _locate_constants(nodes: list, fn) -> None:
    """Constant outputs of a traced body take the body's last line (join errors quote it)."""
    loc = function_last_line(fn)
    for n in nodes:
        if isinstance(n, ValueNode) and n.loc is None:
            n.loc = loc


def _const(arr: np.ndarray, dtype) -> ValueNode:
    return ValueNode(arr, AbstractTensor(dtype, arr.shape, arr))


def _weight_state(gb: GraphBuilder, x, w: Tensor, like: AbstractTensor) -> tuple[Node, Node]:
    """``(x is w, x's value where it is not)`` as nodes of ``gb`` for a loop variable
    that may be the weight ``w`` (a join of ``w`` and values selects between sides)."""
    zeros = _const(np.zeros(like.shape, like.dtype.np_dtype), like.dtype)
    if x is w:
        return _const(np.asarray(True), mstype.bool_), zeros
    if isinstance(x, UndefinedReturn):  # a return value not set yet: never read as it is
        return _const(np.asarray(False), mstype.bool_), zeros
    if not isinstance(x, WeightJoin):
        return _const(np.asarray(False), mstype.bool_), _branch_output(gb, x, like)
    (ft, vt), (ff, vf) = (_weight_state(gb, s, w, like) for s in x._sides)
    cond = gb.wrap(gb.local(x._cond))
    flag = F.select(cond, gb.wrap(ft), gb.wrap(ff))
    value = F.select(F.broadcast_to(cond, like.shape) if like.shape else cond,
                     gb.wrap(vt), gb.wrap(vf))
    return flag._node, value._node


def _traced_while(cond_fn, body_fn, values, names):
    loc = user_location(3)
    loop = _TensorLoop(state.current(), cond_fn, body_fn, values, names, loc)
    for _attempt in range(5):
        try:
            outcome = loop.trace_once()
        except PendingRecursion:  # the first round of a recursive function traced as a
            return values         # graph: the loop's values have their types on entry
        if isinstance(outcome, _Restructure):  # carry the return value's structure
            values = tuple(placeholder_tree(new) if isinstance(old, UndefinedReturn) else old
                           for old, new in zip(values, outcome.values))
            return _traced_while(cond_fn, body_fn, values, names)
        if isinstance(outcome, _Done):
            return outcome.values
    raise TypeError(f"The types of the loop variables {', '.join(names)} do not settle "
                    f"in the tensor while loop." + _where(loc))


def _where(loc: SourceLoc | None) -> str:
    return f"\n{loc.describe()}" if loc else ""


def _loop_error(name: str, what: str, loc: SourceLoc | None) -> TypeError:
    return TypeError(f"The loop variable '{name}' of a tensor while loop must keep its type "
                     f"and shape across iterations, but {what}."
                     + (f"\n{loc.describe()}" if loc else ""))


# ------------------------------------------------------------------- calls

_USER_CODE: dict = {}  # code object -> is it user code that should be converted?


def _is_user_code(code) -> bool:
    known = _USER_CODE.get(code)
    if known is None:
        fn = code.co_filename
        known = _USER_CODE[code] = code not in ast_convert.CONVERTED_CODES and not (
            is_internal(fn) or "site-packages" in fn or "/lib/python" in fn
            or fn.startswith("<"))
    return known


_FUNCTION = types.FunctionType
_METHOD = types.MethodType
_BUILTINS = (types.BuiltinFunctionType, types.BuiltinMethodType)
_CONTAINERS = (list, dict, set)


make_slice = slice  # converted code builds ``a[lo:hi]`` slices with it


def getitem(seq, index):
    """``seq[index]``; a tuple or list of callables (cells, functions, primitives) indexed
    by a tensor gives a :class:`SwitchLayer` that calls the chosen one (MindSpore's
    ``switch_layer``)."""
    if is_symbolic(index) and _is_callable_sequence(seq):
        return SwitchLayer(tuple(seq), index)
    if _run_time_index(index) and _uniform_items(seq):  # read when the graph runs
        return sequence_ops.TupleToDynamicSequence(seq, is_list=isinstance(seq, list))[index]
    if isinstance(index, slice) and isinstance(seq, (tuple, list)):
        return slice_sequence(seq, index)
    if isinstance(seq, np.ndarray):
        return numpy_element(seq[index])
    return seq[index]


def contains(item, seq) -> bool:
    """``item in seq`` in converted code; a run-time bool when ``seq`` is a dynamic length
    sequence."""
    if type(seq) is SymbolicSequence:
        return sequence_ops.InSequence(item, seq)
    if isinstance(item, Tensor) and isinstance(seq, (tuple, list)):
        return _tensor_in_sequence(item, seq)
    if isinstance(seq, (tuple, list)) and (type(item) is SymbolicScalar or
                                           any(type(x) is SymbolicScalar for x in seq)):
        return _number_in_sequence(item, seq)
    return item in seq


def _number_in_sequence(item, seq):
    """``item in (a, b, ...)`` where a number is a run-time value: a run-time bool, true
    when some element that is no Tensor equals ``item``."""
    found = False
    for element in seq:
        if isinstance(element, Tensor):
            continue
        same = item == element
        if type(same) is not SymbolicScalar:
            if same:
                return True
            continue
        found = same if found is False else scalar_ops.BoolOr(found, same)
    return found


def _run_time_index(index) -> bool:
    if isinstance(index, slice):
        return any(is_symbolic(b) for b in (index.start, index.stop, index.step))
    return is_symbolic(index)


def _uniform_items(seq) -> bool:
    """A tuple or list whose items can share one run-time type (Tensors, or numbers of
    one type): indexed at run time as a dynamic length sequence."""
    if not isinstance(seq, (tuple, list)):
        return False
    kinds = {Tensor if isinstance(x, Tensor) else x.kind if type(x) is SymbolicScalar
             else type(x) for x in seq}
    return len(kinds) <= 1 and kinds <= {Tensor, bool, int, float}


def _tensor_in_sequence(item: Tensor, seq) -> Tensor:
    """``tensor in (a, b, ...)``: as in MindSpore's graphs, a bool Tensor that is true when
    some Tensor element has ``item``'s shape and equal values (other elements never match)."""
    found = Tensor(np.array(False))
    for element in seq:
        if isinstance(element, Tensor) and tuple(element.shape) == tuple(item.shape):
            found = F.logical_or(found, F.reduce_all(F.equal(item, element)))
    return found


def numpy_element(x):
    """An element read from a NumPy array in graph code: as in MindSpore's graphs, a NumPy
    number is the Python number (so ``mutable`` and ``isinstance(x, int)`` accept it)."""
    return x.item() if isinstance(x, (np.bool_, np.integer, np.floating)) else x


def _is_callable_sequence(seq) -> bool:
    if isinstance(seq, (tuple, list)) or getattr(seq, "__gk_cell__", False):
        try:
            items = list(seq)
        except TypeError:
            return False
        return bool(items) and all(callable(f) and not isinstance(f, Tensor) for f in items)
    return False


def setitem(obj, index, value):
    """``obj[index] = value`` in converted code, whose result rebinds ``obj``: a Tensor
    becomes a new value (``Setitem``), so branches and loops carry it like any other
    assignment (in a bytecode capture it is written in place, as PyNative does); other
    objects are written in place."""
    if isinstance(obj, Tensor):
        if bytecode_capture():  # PyNative writes the object itself (see Tensor.__setitem__)
            obj[index] = value
            return obj
        return F.setitem(obj, index, value)
    if type(obj) in _CONTAINERS:
        state.current().before_write(obj)
    obj[index] = value
    return obj


def setitem_outer(obj, index, value) -> None:
    """``obj[index] = value`` for an object that outlives the call (``self.d[k] = v``, a
    global dict): a dict item given a graph value is written when the graph runs (a
    ``PyExecute`` of the write, as MindSpore's run-time fallback does) and, for the rest of
    the trace, at once (undone when tracing ends); anything else is written as it is."""
    if isinstance(obj, dict) and (is_symbolic(value) or isinstance(value, PyObject) or
                                  needs_trace((value,))) and state.current() is not None:
        state.current().before_write(obj)
        state.note_run_time_write(obj)
        run_time(operator.setitem, obj, index, value)
    obj[index] = value


class SwitchLayer:
    """The callable ``funcs[index]`` for a tensor ``index``: a call traces every function
    and picks the result of ``funcs[index]`` with a chain of ``Switch`` nodes."""

    __slots__ = ("funcs", "index")

    def __init__(self, funcs: tuple, index: Tensor):
        _check_one_element(index)
        if not index.dtype.is_int:
            raise TypeError(f"The index of a tuple of cells must be an int Tensor, but got "
                            f"{index.dtype}.")
        self.funcs = funcs
        self.index = index

    def __call__(self, *args, **kwargs):
        branches = [functools.partial(call, f, *args, **kwargs) for f in self.funcs]
        own_thunks: set = set()

        def pick(k: int):
            if k == len(branches) - 1:
                return branches[k]()
            cond = condition(F.equal(self.index, k))
            return _traced_if(cond, _thunk(branches[k], own_thunks),
                              _thunk(functools.partial(pick, k + 1), own_thunks), (),
                              ("<switch-layer>",))[0]
        try:
            return pick(0)
        except TypeError as err:
            join = join_values(err)
            if join is None or not own_thunks.issuperset(join[1]):
                raise  # not a join of the functions' results
            raise switch_layer_join_error(self.funcs, join[0]) from None


def _thunk(fn, made: set):
    """``lambda: (fn(),)``, remembered in ``made``."""
    def branch():
        return (fn(),)
    made.add(branch)
    return branch


# modules whose functions give another value on every call (a trace would freeze one)
_NONDETERMINISTIC = ("random", "time", "secrets", "uuid", "numpy.random")


def _nondeterministic(f) -> bool:
    owner = getattr(f, "__self__", None)
    mod = getattr(f, "__module__", None) or (
        type(owner).__module__ if owner is not None else "")
    return bool(mod) and any(mod == m or mod.startswith(m + ".") for m in _NONDETERMINISTIC)


def call(f, *args, **kwargs):
    """A call inside converted code: user functions and cells are converted first."""
    t = type(f)
    if bytecode_capture() and _nondeterministic(f):
        refuse(f"{getattr(f, '__qualname__', f)!s}() gives a new value on every call")
    if t in _BUILTINS and f in GRAPH_BUILTINS and involves_graph_values(args):
        return GRAPH_BUILTINS[f](*args, **kwargs)
    if args and type(args[0]) is SymbolicSequence and (t in _BUILTINS or t is type or
                                                       f is mutable):
        return _sequence_builtin(f, args, kwargs)
    if f is mutable and _dynamic_len(args, kwargs):
        return sequence_ops.MakeDynamicSequence(*args[0], is_list=isinstance(args[0], list))
    if f is mutable and args and not kwargs and len(args) == 1:
        return _mutable_in_graph(args[0])
    if (f is Tensor or f is tensor_function) and holds_graph_tensors(
            args[0] if args else kwargs.get("input_data")):
        return tensor_of_graph_tensors(*args, **kwargs)
    if t is _FUNCTION:
        if _is_user_code(f.__code__) or bytecode_capture() and \
                f.__code__.co_flags & inspect.CO_GENERATOR:
            return call_user(f, args, kwargs)
        if wants_run_time(f, args, kwargs):
            return run_time(f, *args, **kwargs)
        return f(*args, **kwargs)
    if f is len and len(args) == 1 and type(args[0]) is Tensor and args[0].is_symbolic \
            and args[0].ndim:
        return shape_of(args[0])[0]  # a run-time int when the first dimension is unknown
    if t in _BUILTINS:
        owner = getattr(f, "__self__", None)
        if type(owner) in _CONTAINERS and f.__name__ in ast_convert.MUTATORS:
            state.current().before_write(owner)
        if wants_run_time(f, args, kwargs):
            return run_time(f, *args, **kwargs)
        if f is builtins.print:  # inside a graph, print runs when the graph runs
            if kwargs:  # the graph's Print has no sep/end/file/flush
                refuse("print() with keyword arguments")
            return Print(*args)
        if f is next and args and type(args[0]) is types.GeneratorType:
            refuse_outside_generator(args[0])
        return f(*args, **kwargs)
    if f is map:
        return graph_map(call, *args, **kwargs)

    if f is range and any(is_symbolic(a) for a in args):
        return TensorRange(*args)
    if t is functools.partial:
        return call(f.func, *f.args, *args, **{**f.keywords, **kwargs})
    if t is _METHOD and type(f.__func__) is _FUNCTION:
        if _is_user_code(f.__func__.__code__):
            return call_user(f.__func__, (f.__self__, *args), kwargs)
        if isinstance(f.__self__, Tensor) and wants_run_time(f, args, kwargs):
            # a Tensor method given a run-time Python value runs when the graph runs
            return run_time(f.__func__, f.__self__, *args, **kwargs)
        return f(*args, **kwargs)
    if is_jit_class_instance(f):
        return call_instance(f, args, kwargs)
    if f is Tensor and args and run_time_numbers(args[0]):
        return tensor_of_numbers(*args, **kwargs)
    if t is type and f in _SCALAR_CASTS and len(args) == 1 and type(args[0]) is SymbolicScalar:
        return scalar_ops.ScalarCast(args[0], to=f.__name__)
    if t is not PyObject and wants_run_time(f, args, kwargs):
        return run_time(f, *args, **kwargs)
    return f(*args, **kwargs)


_SCALAR_CASTS = (bool, int, float)


def call_user(fn, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)`` for a user function while tracing: converted, and a call of
    a recursive graph where it re-enters itself under a tensor condition."""
    if type(fn) is not _FUNCTION:
        return fn(*args, **kwargs)
    if fn.__code__.co_flags & inspect.CO_GENERATOR and bytecode_capture():
        # a generator function runs as Python while a bytecode capture traces; the
        # generator it makes is the capture's own (made again on every call)
        gen = fn(*args, **kwargs)
        note_generator(gen)
        return gen
    return call_traced(fn.__code__, convert(fn), args, kwargs)


def _mutable_in_graph(value):
    """``mutable(value)`` in graph code: as outside, and each constant Tensor in it becomes
    a value of the graph (an ``Identity`` node), so a gradient with respect to it is
    computed as for an input (MindSpore's mutable constants)."""
    leaves, tree = flatten(value)
    b = state.current()
    leaves = [b.record(array_ops.Identity, (x,), {}) if isinstance(x, Tensor) and
              x._node is None and not x._is_param else x for x in leaves]
    return mutable(unflatten(tree, leaves))


def _dynamic_len(args: tuple, kwargs: dict) -> bool:
    """``mutable(seq, dynamic_len=True)`` in graph code whose items are Tensors or numbers:
    a dynamic length sequence of the graph (other items keep a static length)."""
    flag = kwargs.get("dynamic_len", args[1] if len(args) > 1 else False)
    return flag is True and len(args) >= 1 and isinstance(args[0], (tuple, list)) and \
        all(isinstance(x, (Tensor, SymbolicScalar, *_NUMBER)) for x in args[0])


def _sequence_builtin(f, args: tuple, kwargs: dict):
    """A builtin called with a dynamic length sequence: ``len`` is a run-time int;
    ``mutable`` keeps it; builtins that need its items while compiling are refused, as in
    MindSpore."""
    if f is len and len(args) == 1:
        return sequence_ops.SequenceLen(args[0])
    if f is mutable:
        return args[0]
    if f in (list, tuple) and len(args) == 1:
        return sequence_ops.TupleToDynamicSequence(args[0], is_list=f is list)
    if f in (zip, enumerate, sum, sorted, reversed):
        raise RuntimeError(f"For '{f.__name__}', the dynamic length input is unsupported in "
                           f"graph mode.")
    if f is builtins.print:
        return Print(*args)
    return f(*args, **kwargs)


def call_instance(obj, args: tuple, kwargs: dict):
    """``obj(*args)`` for a jit-class instance inside a graph: its ``__call__``, converted."""
    fn = next((k.__dict__["__call__"] for k in type(obj).__mro__[:-1]
               if "__call__" in k.__dict__), None)
    if fn is None:
        raise ValueError(f"MsClassObject: '{type(obj).__name__}' has no __call__ function, "
                         f"please check the code.")
    return convert(fn)(obj, *args, **kwargs)


# ------------------------------------------------------------------- conversion

def convert(fn: types.FunctionType) -> types.FunctionType:
    """The converted twin of ``fn``, bound to this module's helpers; ``fn`` itself for
    library code, code without source and callables that are not functions (a ``grad`` or
    ``vmap`` object traces itself)."""
    if type(fn) is not _FUNCTION:
        return fn
    code = fn.__code__
    if code in ast_convert.CONVERTED_CODES or is_internal(code.co_filename):
        return fn
    state.note_file(code.co_filename)
    state.note_function(fn)
    new_code = ast_convert.converted_code(fn)
    if new_code is code:
        return fn
    return _bind(fn, new_code)


def _bind(fn: types.FunctionType, code: types.CodeType) -> types.FunctionType:
    """A function running ``code`` with ``fn``'s globals, defaults and closure, whose
    ``_gk_rt`` free variable is this module (the helpers converted code calls)."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells[ast_convert.RT] = types.CellType(sys.modules[__name__])
    for name in code.co_freevars:  # e.g. a recursive function naming itself
        if name not in cells:
            cells[name] = types.CellType(fn.__globals__.get(name, fn))
    closure = tuple(cells[name] for name in code.co_freevars)
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__wrapped__ = fn
    return new
