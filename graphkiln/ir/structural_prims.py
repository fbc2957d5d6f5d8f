"""The structural primitives every graph is built from, and the monads.

Tuples (``MakeTuple``/``TupleGetItem``), state threading (``Load`` of a weight,
``UpdateState`` that advances a monad, ``Depend`` that orders values), control
(``Switch``/``While`` that apply subgraphs, ``WhileGrad`` made by autodiff) and the
compact mapping node ``HyperMap``. Passes, the serializer and the transforms build and
recognise these; the ops layer defines every other primitive.
"""
from __future__ import annotations

import numpy as np

from .abstract import AbstractFunc, AbstractSequence, AbstractTensor, AbstractTuple
from .primitive import OpDef


class Monad:
    """The value of a ``U``/``IO`` ValueNode (no run-time payload)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str):
        self.kind = kind

    def __repr__(self) -> str:
        return self.kind


U_MONAD = Monad("U")
IO_MONAD = Monad("IO")


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


def _load_infer(ref, u=None):
    return AbstractTensor(ref.dtype, ref.shape)


Load = OpDef("Load", _load_infer, lambda ref, u=None: ref, pure_eval=False)


def _switch_infer(cond, t, f):
    return AbstractFunc((t, f))


def _switch(cond, t, f):
    return t if cond else f


Switch = OpDef("Switch", _switch_infer, _switch, differentiable=False, pure_eval=False)


def _while_infer(cond, body, *args, n_state, history=None):
    return AbstractTuple(args[:n_state])


def _while(cond, body, *args, n_state, history=None):
    """``history`` (set by autodiff on a loop it differentiates): the positions of the
    invariants (weights) to snapshot; the states and snapshots of every iteration are
    kept and returned after the states, for ``WhileGrad``."""
    state, invariants = args[:n_state], args[n_state:]
    saved = []
    while cond(*state, *invariants):
        if history is not None:
            saved.append(iteration_record(state, invariants, history))
        state = body(*state, *invariants)
    return state if history is None else (*state, saved)


def iteration_record(state: tuple, invariants: tuple, refs: tuple) -> tuple:
    """What the backward pass of one iteration needs: the states it started from and a
    copy of each weight it may read (later iterations and later code may write them)."""
    return state, tuple(np.array(invariants[i], copy=True) for i in refs)


While = OpDef("While", _while_infer, _while, pure_eval=False, attrs={"n_state": 0})


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


def _while_grad_infer(*args, n_state, refs, shapes):
    raise TypeError("WhileGrad nodes are created by autodiff with their abstract")


def _while_grad(body_bprop, history, *args, n_state, refs, shapes):
    """Reverse pass of a tensor ``while``: apply the body's backward graph to the
    iterations the forward loop kept (``history``, the stack of TensorFlow's while_v2),
    last first, accumulating the cotangents of the loop invariants. The body's effects
    never run again: each iteration's backward reads a private copy of the weights as
    they were when it started. ``shapes``: the shape of each invariant's cotangent (for
    the zeros of a loop that ran zero times; under vmap it may be batched;
    ``SEQUENCE_COTANGENT`` for a dynamic length sequence of tensors)."""
    invariants, dstate = list(args[:-n_state]), args[-n_state:]
    dinv = [None] * len(invariants)
    for saved, snapshots in reversed(history):
        for i, w in zip(refs, snapshots):
            invariants[i] = np.array(w, copy=True)  # the replay may write it
        grads = body_bprop(*saved, *invariants, *dstate)
        dstate = grads[:n_state]
        for i, g in enumerate(grads[n_state:]):
            if g is not None:
                dinv[i] = g if dinv[i] is None else _accumulate(dinv[i], g)
    for i, g in enumerate(dinv):  # a loop that ran zero times gives zero cotangents
        if g is None and shapes[i] == SEQUENCE_COTANGENT:
            dinv[i] = tuple(np.zeros_like(x) for x in invariants[i])
        elif g is None and shapes[i] is not None:
            dinv[i] = np.zeros(shapes[i], np.asarray(invariants[i]).dtype)
    return tuple(dstate) + tuple(dinv)


def _accumulate(total, g):
    """``total + g`` for tensor cotangents, item by item for a sequence's."""
    if isinstance(total, tuple):
        return tuple(a + b for a, b in zip(total, g))
    return total + g


# ``WhileGrad``'s ``shapes`` entry for a dynamic length sequence of tensors
SEQUENCE_COTANGENT = "sequence"


def tensor_shapes(abstracts) -> tuple:
    """The shape of each tensor abstract, ``SEQUENCE_COTANGENT`` for a dynamic length
    sequence of tensors, None for the others (``WhileGrad``'s ``shapes``)."""
    return tuple(a.shape if isinstance(a, AbstractTensor) else
                 SEQUENCE_COTANGENT if isinstance(a, AbstractSequence) and
                 isinstance(a.element, AbstractTensor) else None for a in abstracts)


WhileGrad = OpDef("WhileGrad", _while_grad_infer, _while_grad, pure_eval=False,
                  differentiable=False, attrs={"n_state": 0, "refs": (), "shapes": ()})
