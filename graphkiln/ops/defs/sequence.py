"""Primitives of dynamic length sequences (``mutable(seq, dynamic_len=True)``): their
length is a run-time value, every item has one abstract (``AbstractSequence.element``).

At run time a sequence is a Python tuple of its items (arrays for tensors, numbers);
the graph's output rebuilds a list or tuple of Tensors from it. The list methods are
pure: ``ListAppend(seq, x)`` gives the longer sequence, and the variable holding the list
is rebound to it (see :mod:`graphkiln.ops.sequence_methods`).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractSequence, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import UNKNOWN_DIM, describe

_INT = AbstractScalar.unknown(int)
_BOOL = AbstractScalar.unknown(bool)


def _sequence(name: str, a, arg: str = "sequence") -> AbstractSequence:
    if not isinstance(a, AbstractSequence):
        raise TypeError(f"For '{name}', the input '{arg}' must be a dynamic length sequence, "
                        f"but got {describe(a)}.")
    return a


def _item_abstract(name: str, a):
    """The abstract every item of a sequence of ``a`` would have: a tensor's type and
    shape, or a number's type (its value unknown)."""
    if isinstance(a, AbstractTensor):
        return AbstractTensor(a.dtype, a.shape)
    if isinstance(a, AbstractScalar) and a.kind in (bool, int, float):
        return AbstractScalar.unknown(a.kind)
    raise TypeError(f"For '{name}', a dynamic length sequence holds Tensors or numbers, "
                    f"but got {describe(a)}.")


def join_items(name: str, element, item):
    """The element abstract of ``element`` items and one more of abstract ``item``."""
    item = _item_abstract(name, item)
    if element is None or element == item:
        return item
    if isinstance(element, AbstractTensor) and isinstance(item, AbstractTensor) and \
            element.dtype is item.dtype:
        raise TypeError(f"For '{name}', the items of a dynamic length sequence must have one "
                        f"shape (graphkiln has no dynamic shapes yet), but got "
                        f"{describe(element)} and {describe(item)}.")
    raise TypeError(f"In graph mode, the element type of dynamic length array must be the "
                    f"same. For '{name}', the sequence holds {describe(element)} but got "
                    f"{describe(item)}.")


def _index(name: str, a, arg: str = "index") -> None:
    """An index is an int or bool (constant or run-time) or a one-element int or bool
    Tensor (a loop counter, a comparison)."""
    if isinstance(a, AbstractScalar) and a.kind in (int, bool):
        return
    if isinstance(a, AbstractTensor) and a.shape in ((), (1,)) and (
            a.dtype.is_int or a.dtype is mstype.bool_):
        return
    raise TypeError(f"For '{name}', the '{arg}' must be an int, but got {describe(a)}.")


def _as_int(v):
    """An index value at run time (a number or a one-element array) as a Python int."""
    return None if v is None else int(np.asarray(v).reshape(()))


def _checked_index(i, n: int) -> int:
    i = _as_int(i)
    if not -n <= i < n:
        raise IndexError(f"The index of a dynamic length sequence should be in range[{-n}, "
                         f"{n}), but got {i}.")
    return i


# ------------------------------------------------------------------ building

def _joined(name: str, items, is_list: bool) -> AbstractSequence:
    element = None
    for a in items:
        element = join_items(name, element, a)
    return AbstractSequence(element, is_list)


def _make_infer(*items, is_list=True):
    return _joined("MakeDynamicSequence", items, is_list)


# recorded even from constants (``pure_eval=False``): its length must stay a run-time value
MakeDynamicSequence = OpDef("MakeDynamicSequence", _make_infer, lambda *items, is_list=True:
                            tuple(items), pure_eval=False,
                            attrs={"is_list": True})


def _from_tuple_infer(x, is_list=True):
    if isinstance(x, AbstractSequence):
        return AbstractSequence(x.element, is_list)
    if not isinstance(x, AbstractTuple):
        raise TypeError(f"For 'TupleToDynamicSequence', the input must be a tuple or list, "
                        f"but got {describe(x)}.")
    return _joined("TupleToDynamicSequence", x.elements, is_list)


# a tuple or list of static length as a dynamic length one (the ``+`` of both kinds)
TupleToDynamicSequence = OpDef("TupleToDynamicSequence", _from_tuple_infer,
                               lambda x, is_list=True: tuple(x),
                               pure_eval=False, attrs={"is_list": True})


# ------------------------------------------------------------------ reading

SequenceLen = OpDef("SequenceLen", lambda seq: (_sequence("SequenceLen", seq), _INT)[1],
                    len, differentiable=False)


def _getitem_infer(seq, index):
    _sequence("SequenceGetItem", seq)
    _index("SequenceGetItem", index)
    if seq.element is None:
        raise RuntimeError("Getitem can not get element from an empty dynamic length "
                           "sequence.")
    return seq.element


SequenceGetItem = OpDef("SequenceGetItem", _getitem_infer,
                        lambda seq, index: seq[_checked_index(index, len(seq))])


def _setitem_infer(seq, index, value):
    seq = _sequence("SequenceSetItem", seq)
    _index("SequenceSetItem", index)
    return AbstractSequence(join_items("SequenceSetItem", seq.element, value), seq.is_list)


def _setitem(seq, index, value):
    i = _checked_index(index, len(seq)) % len(seq)
    return seq[:i] + (value,) + seq[i + 1:]


# ``seq[index] = value`` (a new sequence; the holder is rebound to it)
SequenceSetItem = OpDef("SequenceSetItem", _setitem_infer, _setitem)


def _slice_infer(seq, start, stop, step):
    _sequence("SequenceSlice", seq)
    for arg, a in (("start", start), ("stop", stop), ("step", step)):
        if not (isinstance(a, AbstractScalar) and a.value is None):
            _index("SequenceSlice", a, arg)
    if step.value == 0:
        raise ValueError("For 'SequenceSlice', the 'step' cannot be 0.")
    return seq


def _slice(seq, start, stop, step):
    if _as_int(step) == 0:
        raise ValueError("For 'SequenceSlice', the 'step' cannot be 0.")
    return seq[slice(_as_int(start), _as_int(stop), _as_int(step))]


SequenceSlice = OpDef("SequenceSlice", _slice_infer, _slice)


def _slice_grad_infer(dout, seq, start, stop, step):
    return _sequence("SequenceSliceGrad", seq)


def _slice_grad(dout, seq, start, stop, step):
    """Zeros like ``seq`` with the sliced positions holding ``dout``'s items."""
    out = list(_zeros_like(seq))
    picked = range(len(seq))[slice(_as_int(start), _as_int(stop), _as_int(step))]
    for i, d in zip(picked, dout):
        out[i] = d
    return tuple(out)


# the cotangent of ``seq`` from the cotangent ``dout`` of ``seq[start:stop:step]``
SequenceSliceGrad = OpDef("SequenceSliceGrad", _slice_grad_infer, _slice_grad,
                          differentiable=False)


def _in_infer(x, seq):
    _sequence("InSequence", seq)
    if seq.element is not None:
        _item_abstract("InSequence", x)
    return _BOOL


def _contains(x, seq) -> bool:
    if isinstance(x, np.ndarray):
        return any(isinstance(e, np.ndarray) and e.shape == x.shape and bool(np.all(e == x))
                   for e in seq)
    return x in seq


InSequence = OpDef("InSequence", _in_infer, _contains, differentiable=False)


def _extreme_op(name: str, fn) -> OpDef:
    """``max``/``min`` of a dynamic length sequence of numbers, when the graph runs."""
    def infer(seq):
        _sequence(name, seq)
        if seq.element is None:
            raise ValueError(f"{fn.__name__}() arg is an empty sequence.")
        if not isinstance(seq.element, AbstractScalar):
            raise ValueError(f"When the input to {fn.__name__}() is dynamic length sequence, "
                             f"only support scalar type input")
        return seq.element

    def kernel(seq):
        if not seq:
            raise ValueError(f"{fn.__name__}() arg is an empty sequence.")
        return fn(seq)

    return OpDef(name, infer, kernel, differentiable=False)


SequenceMax = _extreme_op("SequenceMax", max)
SequenceMin = _extreme_op("SequenceMin", min)


def _addn_infer(seq):
    _sequence("SequenceAddN", seq)
    element = seq.element
    if isinstance(element, AbstractScalar) and element.kind in (int, float):
        return AbstractScalar.unknown(element.kind)  # the sum of numbers, when it runs
    if not isinstance(element, AbstractTensor):
        raise TypeError(f"For 'AddN', the input must be a sequence of Tensors or numbers, but "
                        f"got {seq.text()}.")
    return element


def _addn(seq):
    if not seq:
        raise ValueError("For 'AddN', the input sequence must not be empty.")
    if not isinstance(seq[0], np.ndarray):
        return sum(seq[1:], seq[0])
    out = seq[0].copy()
    for x in seq[1:]:
        out += x
    return out


SequenceAddN = OpDef("SequenceAddN", _addn_infer, _addn)


def _zeros_like_infer(seq):
    return _sequence("SequenceZerosLike", seq)


def _zeros_like(seq):
    return tuple(np.zeros_like(x) if isinstance(x, np.ndarray) else type(x)(0) for x in seq)


# the gradient of a dynamic length sequence of numbers (MindSpore: zero for each)
SequenceZerosLike = OpDef("SequenceZerosLike", _zeros_like_infer, _zeros_like,
                          differentiable=False)


def _ones_like(seq):
    return tuple(np.ones_like(x) if isinstance(x, np.ndarray) else type(x)(1) for x in seq)


# the sensitivity of a differentiated dynamic length sequence output (a one for each item)
SequenceOnesLike = OpDef("SequenceOnesLike", lambda seq: _sequence("SequenceOnesLike", seq),
                         _ones_like, differentiable=False)


def _item_add_infer(x, y):
    _sequence("SequenceItemAdd", x, "x")
    _sequence("SequenceItemAdd", y, "y")
    return x


def _item_add(x, y):
    if len(x) != len(y):
        raise ValueError(f"For 'SequenceItemAdd', the sequences must have one length, but got "
                         f"{len(x)} and {len(y)}.")
    return tuple(a + b for a, b in zip(x, y))


# the itemwise sum of two sequences of one length (how autodiff sums two cotangents of a
# dynamic length sequence)
SequenceItemAdd = OpDef("SequenceItemAdd", _item_add_infer, _item_add, differentiable=False)


# ------------------------------------------------------------------ new sequences

def _add_infer(x, y):
    seqs = [a for a in (x, y) if isinstance(a, AbstractSequence)]
    if not seqs:
        raise TypeError("For 'SequenceAdd', an input must be a dynamic length sequence.")
    element = None
    for a in (x, y):
        if isinstance(a, AbstractSequence):
            items = () if a.element is None else (a.element,)
        elif isinstance(a, AbstractTuple) and a.is_list == seqs[0].is_list:
            items = a.elements
        else:
            raise TypeError(f"For 'SequenceAdd', can only concatenate a "
                            f"{'list' if seqs[0].is_list else 'tuple'} with one, but got "
                            f"{describe(a)}.")
        for item in items:
            element = join_items("SequenceAdd", element, item)
    return AbstractSequence(element, seqs[0].is_list)


SequenceAdd = OpDef("SequenceAdd", _add_infer, lambda x, y: tuple(x) + tuple(y))


def _mul_infer(seq, n):
    _sequence("SequenceMul", seq)
    _index("SequenceMul", n, "n")
    return seq


SequenceMul = OpDef("SequenceMul", _mul_infer, lambda seq, n: seq * int(n))


def _mul_grad_infer(dout, seq):
    return _sequence("SequenceMulGrad", seq)


def _mul_grad(dout, seq):
    """The cotangent of ``seq`` from that of ``seq * n``: the sum of the ``n`` copies'."""
    out = list(_zeros_like(seq))
    for k, d in enumerate(dout):
        out[k % len(out)] = out[k % len(out)] + d
    return tuple(out)


SequenceMulGrad = OpDef("SequenceMulGrad", _mul_grad_infer, _mul_grad, differentiable=False)


def _list(name: str, seq) -> AbstractSequence:
    seq = _sequence(name, seq, "list")
    if not seq.is_list:
        raise TypeError(f"For '{name}', the input must be a list, but got a tuple.")
    return seq


def _append_infer(seq, x):
    seq = _list("ListAppend", seq)
    return AbstractSequence(join_items("ListAppend", seq.element, x), True)


ListAppend = OpDef("ListAppend", _append_infer, lambda seq, x: (*seq, x))


def _insert_infer(seq, index, x):
    seq = _list("ListInsert", seq)
    _index("ListInsert", index)
    return AbstractSequence(join_items("ListInsert", seq.element, x), True)


def _insert(seq, index, x):
    out = list(seq)
    out.insert(_as_int(index), x)
    return tuple(out)


ListInsert = OpDef("ListInsert", _insert_infer, _insert)



def _insert_grad_infer(dout, index):
    dout = _list("ListAppendAndInsertGrad", dout)
    _index("ListAppendAndInsertGrad", index)
    return AbstractTuple([dout, dout.element])


def _insert_grad(dout, index):
    """``dout`` split into the cotangent of the list before ``insert(index, x)`` and that of
    ``x`` (at the position ``list.insert`` put it)."""
    n = len(dout) - 1
    i = _as_int(index)
    i = max(i + n, 0) if i < 0 else min(i, n)
    return dout[:i] + dout[i + 1:], dout[i]


# (the cotangent of the list before the insert, the cotangent of the inserted item)
ListAppendAndInsertGrad = OpDef("ListAppendAndInsertGrad", _insert_grad_infer, _insert_grad,
                                differentiable=False)

def _pop_infer(seq, index):
    seq = _list("ListPop", seq)
    _index("ListPop", index)
    if seq.element is None:
        raise IndexError("pop from empty list")
    return AbstractTuple([seq, seq.element])


def _pop(seq, index):
    if not seq:
        raise IndexError("pop from empty list")
    i = _checked_index(index, len(seq)) % len(seq)
    return seq[:i] + seq[i + 1:], seq[i]


# (the list without the item, the item)
ListPop = OpDef("ListPop", _pop_infer, _pop)

ListReverse = OpDef("ListReverse", lambda seq: _list("ListReverse", seq),
                    lambda seq: seq[::-1])

# ------------------------------------------------------------------ stacking

def _stack_infer(seq, axis=0):
    length = UNKNOWN_DIM
    if isinstance(seq, AbstractTuple):  # (a dynamic length one run eagerly: PyNative)
        length, seq = len(seq.elements), _joined("SequenceStack", seq.elements, seq.is_list)
    _sequence("SequenceStack", seq)
    if not isinstance(seq.element, AbstractTensor):
        raise TypeError(f"For 'SequenceStack', the input must be a sequence of Tensors, but "
                        f"got {seq.text()}.")
    rank = len(seq.element.shape) + 1
    if not -rank <= axis < rank:
        raise ValueError(f"For 'SequenceStack', the 'axis' must be in [{-rank}, {rank}), but "
                         f"got {axis}.")
    shape = list(seq.element.shape)
    shape.insert(axis % rank, length)  # (unknown: the run-time length)
    return AbstractTensor(seq.element.dtype, tuple(shape))


def _stack(seq, axis=0):
    if not seq:
        raise ValueError("For 'SequenceStack', the input sequence must not be empty.")
    return np.stack(seq, axis)


# ``ops.stack`` of a dynamic length sequence of Tensors (the new axis as long as it)
SequenceStack = OpDef("SequenceStack", _stack_infer, _stack, attrs={"axis": 0})


def _concat_infer(seq, axis=0):
    length = UNKNOWN_DIM
    if isinstance(seq, AbstractTuple):  # (a dynamic length one run eagerly: PyNative)
        length, seq = len(seq.elements), _joined("SequenceConcat", seq.elements, seq.is_list)
    _sequence("SequenceConcat", seq)
    if not isinstance(seq.element, AbstractTensor) or not seq.element.shape:
        raise TypeError(f"For 'SequenceConcat', the input must be a sequence of Tensors of "
                        f"rank 1 or more, but got {seq.text()}.")
    rank = len(seq.element.shape)
    if not -rank <= axis < rank:
        raise ValueError(f"For 'SequenceConcat', the 'axis' must be in [{-rank}, {rank}), but "
                         f"got {axis}.")
    shape = list(seq.element.shape)
    ax = axis % rank
    shape[ax] = length * shape[ax] if min(length, shape[ax]) >= 0 else UNKNOWN_DIM
    return AbstractTensor(seq.element.dtype, tuple(shape))


def _concat(seq, axis=0):
    if not seq:
        raise ValueError("For 'SequenceConcat', the input sequence must not be empty.")
    return np.concatenate(seq, axis)


# ``ops.concat`` of a dynamic length sequence of Tensors of one shape, along ``axis``
SequenceConcat = OpDef("SequenceConcat", _concat_infer, _concat, attrs={"axis": 0})


def _unstack_infer(x, axis=0):
    rank = len(x.shape)
    if not -rank <= axis < rank:
        raise ValueError(f"For 'SequenceUnstack', the 'axis' must be in [{-rank}, {rank}), but "
                         f"got {axis}.")
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis % rank)
    return AbstractSequence(AbstractTensor(x.dtype, shape), False)


# the slices of ``x`` along ``axis`` as a dynamic length tuple (SequenceStack's gradient)
SequenceUnstack = OpDef("SequenceUnstack", _unstack_infer,
                        lambda x, axis=0: tuple(np.moveaxis(np.asarray(x), axis, 0)),
                        attrs={"axis": 0})


# every primitive of this module (none is batched by vmap; the backward rules of the
# differentiable ones are in ops/rules/bprop_sequence.py)
SEQUENCE_OPS = ("MakeDynamicSequence", "TupleToDynamicSequence", "SequenceLen",
                "SequenceGetItem", "SequenceSetItem", "SequenceSlice", "SequenceSliceGrad",
                "InSequence", "SequenceAddN", "SequenceAdd", "SequenceItemAdd", "SequenceMul",
                "SequenceMulGrad", "SequenceZerosLike", "ListAppend", "ListInsert",
                "ListAppendAndInsertGrad", "ListPop", "ListReverse", "SequenceMax",
                "SequenceMin", "SequenceStack", "SequenceUnstack", "SequenceOnesLike",
                "SequenceConcat")
