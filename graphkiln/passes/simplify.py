"""Algebraic simplification: ``x*1``, ``x+0``, ``x-0``, ``x/1``, one-input ``AddN``,
same-type ``Cast``, same-shape ``Reshape``, ``TupleGetItem(MakeTuple(...), i)``,
``Depend`` on a constant, double negation, and a sum of ``GetitemGrad``s that scatter
``t[0]``, ..., ``t[n-1]``'s cotangents (``q, k, v = qkv[0], qkv[1], qkv[2]``) into
``Stack`` of them: no zero tensors, no additions. A ``Transpose`` of a ``Stack`` used only
there becomes a ``Stack`` of the items' transposes (views) on the axis the transpose moves
the stacked one to: one copy instead of two, laid out as the result (a ``Reshape`` after
it is then a view).

Needs: abstracts on nodes. Guarantees: a node is replaced only by a value with the same
abstract (dtype and shape), so broadcasting and promotion are never changed.
"""
from __future__ import annotations

import numpy as np

from ..ir.abstract import AbstractTensor, AbstractTuple
from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort
from ..ir.build import const_node, prim_node
from ..ir.rewrite import replace_nodes
from ..ir.structural_prims import MakeTuple
from ..ops.defs.array import AddN, Stack, Transpose


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    for g in all_graphs(root):
        mapping = {}
        order = toposort(g)
        uses = _use_counts(order, g.output)
        inner = _inner_sums(order, uses)
        for n in order:
            new = None if id(n) in inner else _simplify(n, mapping, uses)
            if new is not None and new is not n:
                mapping[id(n)] = new
        changed |= replace_nodes(g, mapping)
    return changed


def _const_is(node, value) -> bool:
    if not isinstance(node, ValueNode):
        return False
    v = node.value
    if isinstance(v, (np.ndarray, np.generic, int, float)) and not isinstance(v, bool):
        arr = np.asarray(v)
        return arr.dtype.kind in "iuf" and arr.size > 0 and bool(np.all(arr == value))
    return False


def _same(a, b) -> bool:
    return a.abstract == b.abstract


def _use_counts(order: list, output) -> dict:
    """id(node) -> how many inputs of the nodes ``order`` (and the graph's ``output``) it
    is."""
    uses: dict = {id(output): 1}
    nodes = order if output in order else order + [output]
    for n in nodes:
        for i in getattr(n, "inputs", ()):
            uses[id(i)] = uses.get(id(i), 0) + 1
    return uses


def _is_sum(n) -> bool:
    return isinstance(n, CNode) and n.prim_name() == "AddN"


def _inner_sums(order, uses) -> set:
    """ids of the ``AddN``s that only a larger ``AddN`` adds (it simplifies them all)."""
    inner = set()
    for n in order:
        if _is_sum(n) and isinstance(n.inputs[1], CNode) and \
                n.inputs[1].prim_name() == "MakeTuple" and uses.get(id(n.inputs[1])) == 1:
            inner.update(id(i) for i in n.inputs[1].inputs[1:]
                         if _is_sum(i) and uses.get(id(i)) == 1)
    return inner


def _sum_terms(t, mapping, uses) -> list | None:
    """The terms an ``AddN`` of ``MakeTuple`` ``t`` adds, through nested ``AddN``s used
    only there."""
    if not (isinstance(t, CNode) and t.prim_name() == "MakeTuple"):
        return None
    terms = []
    for item in t.inputs[1:]:
        item = mapping.get(id(item), item)
        inner = item.inputs[1] if _is_sum(item) and uses.get(id(item)) == 1 else None
        nested = _sum_terms(mapping.get(id(inner), inner), mapping, uses) \
            if inner is not None and uses.get(id(inner)) == 1 else None
        terms.extend(nested if nested is not None else [item])
    return terms


def _stacked_rows(n: CNode, terms: list):
    """``Stack`` of each row's cotangent (their ``AddN`` where a row has several) when
    ``terms`` are ``GetitemGrad``s of every row ``0..n-1`` of ``n``'s shape, else None."""
    shape = tuple(n.abstract.shape)
    if not shape or any(d < 0 for d in shape) or len(terms) < shape[0]:
        return None
    douts: list = [[] for _ in range(shape[0])]
    for term in terms:
        row = _row_of(term, n)
        if row is None:
            return None
        douts[row].append(term.inputs[1])
    if not all(douts):
        return None
    rows = [ds[0] if len(ds) == 1 else _node(n, AddN, {}, [_node(n, MakeTuple, {}, ds)],
                                               ds[0].abstract) for ds in douts]
    return _node(n, Stack, {"axis": 0}, [_node(n, MakeTuple, {}, rows)], n.abstract)


def _node(n: CNode, opdef, attrs: dict, inputs: list, abstract=None) -> CNode:
    """A new node of ``n``'s graph and location (a tuple's abstract from its items)."""
    abstract = abstract or AbstractTuple([i.abstract for i in inputs])
    return CNode(n.graph, [prim_node(opdef, attrs), *inputs], abstract, n.loc)


def _row_of(term, n: CNode) -> int | None:
    """``k`` of a ``GetitemGrad(dout, k)`` with a constant int ``k`` (no run-time ``like``)
    into ``n``'s shape and dtype, else None."""
    if not (isinstance(term, CNode) and term.prim_name() == "GetitemGrad") or \
            term.abstract != n.abstract:
        return None
    index = term.inputs[2]
    like = term.inputs[3] if len(term.inputs) > 3 else None
    if not (isinstance(index, ValueNode) and type(index.value) is int) or \
            not (like is None or isinstance(like, ValueNode) and like.value is None):
        return None
    rows = n.abstract.shape[0]
    return index.value % rows if -rows <= index.value < rows else None


def _simplify(n: CNode, mapping, uses):
    name = n.prim_name()
    if name is None:
        return None
    ins = [mapping.get(id(i), i) for i in n.inputs]
    if name in ("Mul",):
        x, y = ins[1], ins[2]
        if _const_is(y, 1) and _same(x, n):
            return x
        if _const_is(x, 1) and _same(y, n):
            return y
    elif name == "Add":
        x, y = ins[1], ins[2]
        if _const_is(y, 0) and _same(x, n):
            return x
        if _const_is(x, 0) and _same(y, n):
            return y
    elif name == "Sub":
        if _const_is(ins[2], 0) and _same(ins[1], n):
            return ins[1]
    elif name == "Div":
        if _const_is(ins[2], 1) and _same(ins[1], n):
            return ins[1]
    elif name in ("Cast", "Reshape", "BroadcastTo"):
        if _same(ins[1], n):
            return ins[1]
    elif name == "AddN":
        t = ins[1]
        if isinstance(t, CNode) and t.prim_name() == "MakeTuple" and len(t.inputs) == 2:
            return t.inputs[1]
        terms = _sum_terms(t, mapping, uses)
        if terms and len(terms) > 1:
            return _stacked_rows(n, terms)
    elif name == "TupleGetItem":
        t, i = ins[1], ins[2]
        if isinstance(t, CNode) and t.prim_name() == "MakeTuple" and isinstance(i, ValueNode):
            return t.inputs[1 + i.value]
    elif name == "Depend":
        if len(ins) == 3 and isinstance(ins[2], ValueNode):
            return ins[1]
    elif name == "Neg":
        x = ins[1]
        if isinstance(x, CNode) and x.prim_name() == "Neg":
            return x.inputs[1]
    elif name == "Transpose" and uses.get(id(n.inputs[1])) == 1:
        return _stack_transposed(n, ins[1], ins[2])
    return None


def _stack_transposed(n: CNode, stack, perm):
    """``Transpose(Stack(xs, axis=a), perm)`` as ``Stack([Transpose(x, perm without a)],
    axis=perm.index(a))``, or None when ``stack`` is no ``Stack`` of a tuple of tensors."""
    if not (isinstance(stack, CNode) and stack.prim_name() == "Stack"
            and isinstance(perm, ValueNode) and type(perm.value) is tuple):
        return None
    items = stack.inputs[1]
    rank = len(perm.value)
    if not (isinstance(items, CNode) and items.prim_name() == "MakeTuple") or \
            sorted(p % rank for p in perm.value) != list(range(rank)) or \
            not all(isinstance(x.abstract, AbstractTensor) for x in items.inputs[1:]):
        return None
    axis = stack.inputs[0].value.attrs.get("axis", 0) % rank
    order = [p % rank for p in perm.value]
    inner = tuple(p - (p > axis) for p in order if p != axis)
    moved = list(items.inputs[1:])
    if inner != tuple(range(rank - 1)):
        moved = [_node(n, Transpose, {}, [x, const_node(inner)],
                       AbstractTensor(x.abstract.dtype, tuple(x.abstract.shape[i]
                                                              for i in inner)))
                 for x in moved]
    return _node(n, Stack, {"axis": order.index(axis)}, [_node(n, MakeTuple, {}, moved)],
                 n.abstract)
