"""Structural, control and side-effect primitives: tuples, monads, weights, Print, Depend.

These are what the compiler threads through every graph: ``Load``/``Assign`` on weights
(memory effects, ordered by the ``U`` monad), ``Print`` (an IO effect, ordered by the
``IO`` monad), ``UpdateState`` that advances a monad, ``Depend`` that orders values, and
``Switch``/``While`` that apply subgraphs.
"""
from __future__ import annotations

import numpy as np

from ...backend import float_status
from ...common import dtype as mstype
from ...compiler.ir.abstract import (
    AbstractFunc,
    AbstractRef,
    AbstractTensor,
    AbstractTuple,
)
from ..primitive import GRAPH_ATTRS, IO_EFFECT, MEM_EFFECT, OpDef
from ._infer import describe, tensor_type
from .print_format import print_values


def _make_tuple_infer(*xs):
    return AbstractTuple(xs)


def _tuple_getitem_infer(t, i):
    return t.elements[i.value]


MakeTuple = OpDef("MakeTuple", _make_tuple_infer, lambda *xs: xs)
TupleGetItem = OpDef("TupleGetItem", _tuple_getitem_infer, lambda t, i: t[i])


def _depend_infer(value, *deps):
    return value


def _depend(value, *deps):
    return value


Depend = OpDef("Depend", _depend_infer, _depend, pure_eval=False)
UpdateState = OpDef("UpdateState", lambda u, *xs: u, lambda u, *xs: None, pure_eval=False)


def _require_ref(name: str, ref) -> None:
    if not isinstance(ref, AbstractRef):
        raise TypeError(f"For '{name}', the 'variable' must be a Parameter, but got "
                        f"{describe(ref)}. Only weights (ms.Parameter) can be assigned.")


def _load_infer(ref, u=None):
    return AbstractTensor(ref.dtype, ref.shape)


Load = OpDef("Load", _load_infer, lambda ref, u=None: ref, pure_eval=False)


def _tensor_move(x):
    return np.array(x, copy=True)


TensorMove = OpDef("TensorMove", lambda x: AbstractTensor(tensor_type("TensorMove", "x", x),
                                                           x.shape), _tensor_move)


def _assign_infer_for(name):
    def infer(ref, value, u=None):
        _require_ref(name, ref)
        if isinstance(value, AbstractTensor) and value.shape != ref.shape:
            raise ValueError(f"For '{name}', 'value' must have the same shape as 'variable' "
                             f"{list(ref.shape)}, but got {list(value.shape)}.")
        return AbstractTensor(ref.dtype, ref.shape)
    return infer


def _assign(ref, value, u=None):
    np.copyto(ref, value, casting="unsafe")
    return ref


def _assign_add(ref, value, u=None):
    np.copyto(ref, ref + value, casting="unsafe")
    return ref


def _assign_sub(ref, value, u=None):
    np.copyto(ref, ref - value, casting="unsafe")
    return ref


Assign = OpDef("Assign", _assign_infer_for("Assign"), _assign, effect=MEM_EFFECT)
AssignAdd = OpDef("AssignAdd", _assign_infer_for("AssignAdd"), _assign_add, effect=MEM_EFFECT)
AssignSub = OpDef("AssignSub", _assign_infer_for("AssignSub"), _assign_sub, effect=MEM_EFFECT)


def _print_infer(*xs, graph_format=False):
    return AbstractTensor(mstype.int32, ())


def _print(*xs, graph_format=False):
    print_values(xs, graph_format)
    return np.zeros((), np.int32)


Print = OpDef("Print", _print_infer, _print, effect=IO_EFFECT)
GRAPH_ATTRS["Print"] = {"graph_format": True}  # inside graphs MindSpore's format differs


def _switch_infer(cond, t, f):
    return AbstractFunc((t, f))


def _switch(cond, t, f):
    return t if cond else f


Switch = OpDef("Switch", _switch_infer, _switch, differentiable=False, pure_eval=False)


def _while_infer(cond, body, *args, n_state):
    return AbstractTuple(args[:n_state])


def _while(cond, body, *args, n_state):
    state, invariants = args[:n_state], args[n_state:]
    while cond(*state, *invariants):
        state = body(*state, *invariants)
    return state


While = OpDef("While", _while_infer, _while, pure_eval=False, attrs={"n_state": 0})



# --------------------------------------------------------- float status (emulated NPU)

def _status_infer(*xs):
    return AbstractTensor(mstype.float32, (8,))


def _alloc_status():
    return np.zeros(8, np.float32)


def _clear_status(x):
    float_status.clear()
    return np.zeros(8, np.float32)


def _get_status(x):
    return float_status.status()


# Side-effect free by definition, as the spec says: only Depend orders them. They read or
# reset hidden state, so passes never fold, merge or drop them while they are used.
NPUAllocFloatStatus = OpDef("NPUAllocFloatStatus", _status_infer, _alloc_status,
                            differentiable=False, pure_eval=False)
NPUClearFloatStatus = OpDef("NPUClearFloatStatus", _status_infer, _clear_status,
                            differentiable=False, pure_eval=False)
NPUGetFloatStatus = OpDef("NPUGetFloatStatus", _status_infer, _get_status,
                          differentiable=False, pure_eval=False)


# --------------------------------------------------------- HyperMap (compact mapping)

def _hypermap_infer(table, *args, n_seq):
    raise TypeError("HyperMap nodes are created by the tracer with their abstract")


def _hypermap(table, *args, n_seq):
    seqs, invariants = args[:n_seq], args[n_seq:]
    if callable(table):
        return tuple(table(*e, *invariants) for e in zip(*seqs))
    return tuple(g(*e, *invariants) for g, *e in zip(table, *seqs))


HyperMapOp = OpDef("HyperMap", _hypermap_infer, _hypermap, pure_eval=False,
                   attrs={"n_seq": 1})


def _while_grad_infer(*args, n_state):
    raise TypeError("WhileGrad nodes are created by autodiff with their abstract")


def _while_grad(cond, body, body_bprop, *args, n_state):
    """Reverse pass of a tensor ``while``: rerun the forward loop keeping every iteration's
    state (the stack of TensorFlow's while_v2), then apply the body's backward graph to
    them in reverse, accumulating the cotangents of the loop invariants."""
    state, rest = args[:n_state], args[n_state:]
    n_inv = len(rest) - n_state
    invariants, dstate = rest[:n_inv], rest[n_inv:]
    stack = []
    while cond(*state, *invariants):
        stack.append(state)
        state = body(*state, *invariants)
    dinv = [None] * n_inv
    for saved in reversed(stack):
        grads = body_bprop(*saved, *invariants, *dstate)
        dstate = grads[:n_state]
        for i, g in enumerate(grads[n_state:]):
            if g is not None:
                dinv[i] = g if dinv[i] is None else dinv[i] + g
    for i, g in enumerate(dinv):  # a loop that ran zero times gives zero cotangents
        if g is None and isinstance(invariants[i], (np.ndarray, np.generic)):
            dinv[i] = np.zeros_like(np.asarray(invariants[i]))
    return tuple(dstate) + tuple(dinv)


WhileGrad = OpDef("WhileGrad", _while_grad_infer, _while_grad, pure_eval=False,
                  differentiable=False, attrs={"n_state": 0})
