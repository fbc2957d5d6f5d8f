"""Inline calls of graphs (``%r = @g(args)``) into their caller.

Needs: closed graphs. Guarantees: graphs flagged ``reusable`` (lazy-inline cells) are kept
as calls unless the pass runs in ``late`` mode; branch graphs behind a ``Switch`` and loop
bodies behind a ``While`` are never inlined here (they are not direct calls).
"""
from __future__ import annotations

from ..ir.anf import FuncGraph, ValueNode, all_graphs, toposort
from ..ir.clone import inline_body
from ..ir.rewrite import replace_nodes


def run(root: FuncGraph, ctx, late: bool = False) -> bool:
    changed = False
    for g in all_graphs(root):
        while True:
            mapping = {}
            for n in toposort(g):
                fn = n.inputs[0]
                if not (isinstance(fn, ValueNode) and isinstance(fn.value, FuncGraph)):
                    continue
                callee = fn.value
                if callee.flags.get("reusable") and not late:
                    continue
                if callee.flags.get("no_inline"):
                    continue
                args = [mapping.get(id(a), a) for a in n.inputs[1:]]
                mapping[id(n)] = inline_body(callee, g, args)
            if not replace_nodes(g, mapping):
                break
            changed = True
    return changed


def run_late(root: FuncGraph, ctx) -> bool:
    return run(root, ctx, late=True)
