"""Algebraic simplification: ``x*1``, ``x+0``, ``x-0``, ``x/1``, one-input ``AddN``,
same-type ``Cast``, same-shape ``Reshape``, ``TupleGetItem(MakeTuple(...), i)``,
``Depend`` on a constant, double negation.

Needs: abstracts on nodes. Guarantees: a node is replaced only by a value with the same
abstract (dtype and shape), so broadcasting and promotion are never changed.
"""
from __future__ import annotations

import numpy as np

from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort
from ..ir.rewrite import replace_nodes


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    for g in all_graphs(root):
        mapping = {}
        for n in toposort(g):
            new = _simplify(n, mapping)
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


def _simplify(n: CNode, mapping):
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
    return None
