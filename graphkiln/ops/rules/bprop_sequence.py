"""Backward rules of the dynamic length sequence primitives (``mutable(seq,
dynamic_len=True)``, :mod:`graphkiln.ops.defs.sequence`).

The cotangent of a dynamic length sequence of Tensors is a sequence of the same run-time
length (one cotangent per item; autodiff sums two of them with ``SequenceItemAdd``); a
sequence of numbers carries none. A static tuple input (``SequenceAdd``,
``TupleToDynamicSequence``) gets a tuple with one cotangent per item.

Where MindSpore 2.10 drops a gradient (its ``ListAppend``/``ListInsert`` rules give the
inserted value zeros, its ``SequenceMul`` rule keeps only the first copy's cotangent),
these rules give the true one, as finite differences check
(tests/frontend/test_sequence_grad.py).
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ...common.symbolic_sequence import SymbolicSequence
from ...common.tensor import Tensor
from ...ir.abstract import AbstractTensor
from ..defs import sequence as Q
from .bprop import _items, _output, bprop


def _has_tensors(seq) -> bool:
    """Whether the items of the dynamic length sequence ``seq`` carry cotangents."""
    return isinstance(seq.element, AbstractTensor)


def _is_tensor(x) -> bool:
    return isinstance(x, (Tensor, AbstractTensor))


def _static_items(dout, x, first: int) -> tuple:
    """The cotangents of the items of a static tuple ``x`` whose items are those of the
    sequence ``dout`` from position ``first`` (negative: counted from the end)."""
    return tuple(Q.SequenceGetItem(dout, first + j) if _is_tensor(e) else None
                 for j, e in enumerate(_items(x)))


@bprop("MakeDynamicSequence")
def _make(*args, is_list=True):
    items, dout = args[:-2], args[-1]
    return _static_items(dout, items, 0)


@bprop("TupleToDynamicSequence")
def _from_tuple(x, out, dout, is_list=True):
    if type(x) is SymbolicSequence:  # (a change of kind: the cotangent passes, numbers too)
        return (dout,)
    if not _has_tensors(out):
        return (None,)
    return (_static_items(dout, x, 0),)


@bprop("SequenceGetItem")
def _getitem(seq, index, out, dout):
    if not _has_tensors(seq):
        return None, None
    return Q.SequenceSetItem(Q.SequenceZerosLike(seq), index, dout), None


@bprop("SequenceSetItem")
def _setitem(seq, index, value, out, dout):
    if not _has_tensors(out):
        return None, None, None
    return (Q.SequenceSetItem(dout, index, F.zeros_like(value)), None,
            Q.SequenceGetItem(dout, index))


@bprop("SequenceSlice")
def _slice(seq, start, stop, step, out, dout):
    if not _has_tensors(seq):
        return None, None, None, None
    return Q.SequenceSliceGrad(dout, seq, start, stop, step), None, None, None


@bprop("SequenceAddN")
def _addn(seq, out, dout):
    ones = Q.MakeDynamicSequence(dout, is_list=seq.is_list)
    return (Q.SequenceMul(ones, Q.SequenceLen(seq)),)


@bprop("SequenceAdd")
def _add(x, y, out, dout):
    if not _has_tensors(out):
        return None, None
    if type(x) is SymbolicSequence:
        dx = Q.SequenceSlice(dout, 0, Q.SequenceLen(x), 1)
    else:
        dx = _static_items(dout, x, 0)
    if type(y) is SymbolicSequence:
        start = Q.SequenceLen(x) if type(x) is SymbolicSequence else len(_items(x))
        dy = Q.SequenceSlice(dout, start, None, 1)
    else:
        dy = _static_items(dout, y, -len(_items(y)))
    return dx, dy


@bprop("SequenceMul")
def _mul(seq, n, out, dout):
    if not _has_tensors(seq):
        return None, None
    return Q.SequenceMulGrad(dout, seq), None


@bprop("ListAppend")
def _append(seq, x, out, dout):
    if not _has_tensors(out):
        return None, None
    rest, item = Q.ListPop(dout, -1)
    return rest, item


@bprop("ListInsert")
def _insert(seq, index, x, out, dout):
    if not _has_tensors(out):
        return None, None, None
    rest, item = Q.ListAppendAndInsertGrad(dout, index)
    return rest, None, item


@bprop("ListPop")
def _pop(seq, index, out, dout):
    if not _has_tensors(seq):
        return None, None
    drest, ditem = dout
    if drest is None:  # only the popped item was used
        drest = Q.SequenceZerosLike(_output(out, 0, lambda: Q.ListPop(seq, index)))
    return Q.ListInsert(drest, index % Q.SequenceLen(seq), ditem), None


@bprop("ListReverse")
def _reverse(seq, out, dout):
    if not _has_tensors(seq):
        return (None,)
    return (Q.ListReverse(dout),)


@bprop("SequenceStack")
def _stack(seq, out, dout, axis=0):
    return (Q.SequenceUnstack(dout, axis=axis),)


@bprop("SequenceConcat")
def _concat(seq, out, dout, axis=0):
    """``dout`` cut back into the items (all of one size along ``axis``)."""
    rank = len(dout.shape)
    ax = axis % rank
    size = seq.element.shape[ax]
    parts = F.reshape(dout, tuple(dout.shape[:ax]) + (-1, size) + tuple(dout.shape[ax + 1:]))
    return (Q.SequenceUnstack(parts, axis=ax),)


@bprop("SequenceUnstack")
def _unstack(x, out, dout, axis=0):
    return (Q.SequenceStack(dout, axis=axis),)
