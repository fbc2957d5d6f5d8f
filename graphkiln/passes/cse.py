"""Common subexpression elimination: identical pure applications are computed once.

Needs: nothing. Guarantees: effectful nodes (Assign, Print, graph calls that may carry
effects) are never merged; ``Load``s merge only when they read the same weight under the
same monad state, which is exactly when they see the same value.
"""
from __future__ import annotations

import numpy as np

from ..ir.anf import FuncGraph, ValueNode, all_graphs, toposort
from ..ir.rewrite import replace_nodes

_NEVER = {"Print", "Assign", "AssignAdd", "AssignSub", "UpdateState", "While", "Depend"}


def _value_key(v):
    if isinstance(v, np.ndarray):
        if v.size > 64:
            return ("arr", id(v))
        return ("arr", v.dtype.str, v.shape, v.tobytes())
    if isinstance(v, (int, float, bool, str, type(None), np.generic)):
        return ("v", type(v).__name__, v)
    if isinstance(v, tuple):
        return ("t",) + tuple(_value_key(e) for e in v)
    return ("id", id(v))


def _constant_key(node: ValueNode):
    fn_key = getattr(node.value, "key", None)
    if callable(fn_key) and hasattr(node.value, "opdef"):
        return ("prim", node.value.key())
    return _value_key(node.value)


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    for g in all_graphs(root):
        seen: dict = {}
        mapping: dict = {}
        for n in toposort(g):
            fn = n.inputs[0]
            if not isinstance(fn, ValueNode) or not hasattr(fn.value, "opdef"):
                continue
            opdef = fn.value.opdef
            if opdef.effect != "none" or opdef.name in _NEVER or (
                    not opdef.pure_eval and opdef.name != "Load"):
                continue
            key = tuple(_constant_key(i) if type(i) is ValueNode
                        else ("n", id(mapping.get(id(i), i))) for i in n.inputs)
            prev = seen.get(key)
            if prev is None:
                seen[key] = n
            else:
                mapping[id(n)] = prev
        changed |= replace_nodes(g, mapping)
    return changed
