"""Constant folding: a pure primitive whose inputs are all constants becomes a constant.

Needs: nothing. Guarantees: folded values equal what the kernel computes at run time;
effectful and control primitives are never folded; results larger than ``MAX_ELEMENTS``
stay as nodes (so graphs and cache files do not swell).
"""
from __future__ import annotations

import numpy as np

from ..ir.abstract import AbstractTensor
from ..ir.anf import CNode, FuncGraph, ValueNode, all_graphs, toposort
from ..ir.rewrite import replace_nodes

MAX_ELEMENTS = 1 << 16


def run(root: FuncGraph, ctx) -> bool:
    changed = False
    for g in all_graphs(root):
        mapping = {}
        for n in toposort(g):
            folded = _fold(n, mapping)
            if folded is not None:
                mapping[id(n)] = folded
        changed |= replace_nodes(g, mapping)
    return changed


def _fold(n: CNode, mapping) -> ValueNode | None:
    fn = n.inputs[0]
    prim = getattr(fn, "value", None) if isinstance(fn, ValueNode) else None
    opdef = getattr(prim, "opdef", None)
    if opdef is None or not opdef.pure_eval or opdef.name in ("MakeTuple", "TupleGetItem"):
        return None
    args = []
    for inp in n.inputs[1:]:
        inp = mapping.get(id(inp), inp)
        if not isinstance(inp, ValueNode):
            return None
        args.append(inp.value)
    a = n.abstract
    if not isinstance(a, AbstractTensor):
        return None
    if int(np.prod(a.shape, dtype=np.int64)) > MAX_ELEMENTS:
        return None
    with np.errstate(all="ignore"):
        value = np.asarray(opdef.kernel(*args, **prim.attrs))
    return ValueNode(value, AbstractTensor(a.dtype, a.shape, value))
