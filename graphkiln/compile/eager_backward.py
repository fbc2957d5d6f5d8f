"""The backward pass of an eager (PyNative) gradient, compiled once per tape structure.

The forward always runs eagerly (hooks, NumPy and Python control flow see real values);
when its tape has the same structure as an earlier one (the same ops with the same
attributes and constant arguments, wired alike, on Tensors of the same dtypes and shapes),
the backward pass runs the code compiled for it instead of the rules op by op (compiled
the second time a structure is seen, so a one-off gradient compiles nothing). It is the
same ``EagerBackprop`` walk, traced once on symbolic Tensors and compiled like any graph,
so the gradients are the same. Tapes with other steps (compiled calls, custom ``bprop``,
hooks, effects) and higher derivatives (an outer tape must record the backward ops) run
eagerly.
"""
from __future__ import annotations

from collections import OrderedDict

import graphkiln.ops.functional as F

from ..common.tensor import Tensor
from ..ir import tape as tp
from ..ir.primitive import NO_EFFECT, OpDef, attr_key
from ..transforms.eager_autodiff import EagerBackprop
from .compile_call import compile_call

_LIMIT = 32  # compiled backward passes kept (least recently used go first)
_CACHE: OrderedDict = OrderedDict()
_UNCOMPILABLE = object()
_SEEN = object()


class _Structure:
    """The key of a tape and the Tensors it reads, numbered in order of appearance."""

    def __init__(self):
        self.slots: dict[int, int] = {}
        self.tensors: list[Tensor] = []

    def slot(self, x: Tensor) -> int:
        s = self.slots.get(id(x))
        if s is None:
            s = self.slots[id(x)] = len(self.tensors)
            self.tensors.append(x)
        return s

    def arg(self, x):
        if isinstance(x, Tensor):
            s = self.slots.get(id(x))
            if s is None:
                s = self.slot(x)
            # a weight is an input like any Tensor: the compiled pass keeps no weight alive
            return ("t", s, x._dtype, x._data.shape)
        if isinstance(x, (tuple, list)):
            return (type(x).__name__, tuple([self.arg(e) for e in x]))
        key = attr_key(x)
        hash(key)  # (TypeError: an argument no key can name)
        return ("c", type(x), key)


def _key(tape: tp.Tape, seeds: list, leaves: list):
    st = _Structure()
    parts = []
    for e in tape.entries:
        op = e.op
        if not isinstance(op, OpDef) or op.effect != NO_EFFECT or op.name == "HookBackward":
            return None, None
        attrs = tuple(sorted((k, attr_key(v)) for k, v in e.attrs.items()))
        parts.append((op.name, attrs, st.arg(e.inputs), st.arg(e.out)))
    tracked = tuple(s for s, t in enumerate(st.tensors) if id(t) in tape.tracked)
    parts.append((tuple(st.arg(o) for o, _ in seeds), tuple(st.arg(s) for _, s in seeds),
                  tuple(st.arg(x) for x in leaves), tracked))
    return tuple(parts), st


def _rebuild(x, values: dict):
    if isinstance(x, Tensor):
        return values.get(id(x), x)
    if isinstance(x, (tuple, list)):
        return type(x)(_rebuild(e, values) for e in x)
    return x


def _as_input(x: Tensor) -> Tensor:
    """``x`` as a graph input: a weight's array in a plain Tensor (not a weight the graph
    reads, which the compiled pass would hold)."""
    return Tensor._from_array(x._data, x._dtype) if x._is_param else x


class _Traced:
    """The walk over one tape, on the symbolic Tensors a trace passes for its Tensors."""

    def __init__(self, tape: tp.Tape, st: _Structure, seeds: list, leaves: list):
        self.tape, self.st, self.seeds, self.leaves = tape, st, seeds, leaves

    def __call__(self, *tensors):
        values = {id(t): s for t, s in zip(self.st.tensors, tensors)}
        sym = tp.Tape()
        for e in self.tape.entries:
            sym.entries.append(tp.Entry(e.op, _rebuild(e.inputs, values),
                                        _rebuild(e.out, values), e.attrs))
        sym.tracked = {id(values[id(t)]) for t in self.st.tensors
                       if id(t) in self.tape.tracked}
        bp = EagerBackprop(sym)
        for o, s in self.seeds:
            bp.add(_rebuild(o, values), _rebuild(s, values))
        bp.run()
        out = []
        for x in self.leaves:
            sx = _rebuild(x, values)
            g = bp.leaf(sx)
            out.append(g if g is not None else F.zeros_like(sx))
        return tuple(out)


def compiled_backward(tape: tp.Tape, seeds: list, leaves: list) -> list | None:
    """The gradients of ``leaves`` (Tensors and weights) for ``seeds`` (``(output, sens)``
    pairs), by the compiled backward pass of ``tape``'s structure; None when it has none
    (then the caller walks the tape eagerly)."""
    if tp.mine() or tp.any_hooks():
        return None
    try:
        key, st = _key(tape, seeds, leaves)
    except TypeError:
        return None
    if key is None:
        return None
    exe = _CACHE.get(key)
    if exe is None:  # seen once: walk eagerly (a one-off gradient compiles nothing)
        _CACHE[key] = _SEEN
        if len(_CACHE) > _LIMIT:
            _CACHE.popitem(last=False)
        return None
    if exe is _SEEN:  # seen twice: compile
        traced = _Traced(tape, st, seeds, leaves)
        try:
            exe = compile_call(traced, "eager_backward", tuple(map(_as_input, st.tensors)),
                               {})
        except Exception:  # a rule that needs concrete values: this structure runs eagerly
            exe = _UNCOMPILABLE
        traced.tape = traced.st = traced.seeds = traced.leaves = None  # (keep no values)
        _CACHE[key] = exe
    _CACHE.move_to_end(key)
    if exe is _UNCOMPILABLE:
        return None
    out = exe([t._data for t in st.tensors])
    return list(out) if isinstance(out, tuple) else [out]
